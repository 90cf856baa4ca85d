import { auditAs } from '../../platform/audit';
import { and, eq, sql } from 'drizzle-orm';
import {
  settingDefaults,
  settingKeys,
  settingOptions,
  superManagedSettingKeys,
  superOnlySettingKeys,
  type SettingKey,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { preparedPer } from '../../db/prepared';
import { settings } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';

const isSettingKey = (key: string): key is SettingKey => (settingKeys as string[]).includes(key);

// Every known key is listed, with its default where the company never saved it.
export const listSettings = async (db: Db, ctx: AuthContext) => {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, ctx.companyId));
  const saved = new Map(rows.map((r) => [r.key, r.value]));
  return settingKeys
    .filter((key) => ctx.isSuper || !superOnlySettingKeys.includes(key))
    .map((key) => ({ key, value: saved.get(key) ?? settingDefaults[key] }));
};

// Prepared: the inbound path reads a setting or two for every message.
const settingQuery = preparedPer((db) =>
  db
    .select({ value: settings.value })
    .from(settings)
    .where(
      and(
        eq(settings.companyId, sql.placeholder('companyId')),
        eq(settings.key, sql.placeholder('key')),
      ),
    )
    .prepare('setting_value'),
);

export const getSettingValue = async (db: Db, companyId: number, key: SettingKey) => {
  const [row] = await settingQuery(db).execute({ companyId, key });
  return row?.value ?? settingDefaults[key];
};

export const updateSetting = async (
  deps: Pick<AppDeps, 'db' | 'realtime'>,
  ctx: AuthContext,
  key: string,
  value: string,
) => {
  if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', `Unknown setting ${key}`);
  if (superManagedSettingKeys.includes(key) && !ctx.isSuper) {
    throw new AppError('ERR_NO_PERMISSION');
  }
  const allowed = settingOptions[key];
  if (allowed && !allowed.includes(value)) {
    throw new AppError('ERR_VALIDATION', `Invalid value for ${key}`, {
      fields: { value: [`One of: ${allowed.join(', ')}`] },
    });
  }
  const row = await deps.db.transaction(async (tx) => {
    const [saved] = await tx
      .insert(settings)
      .values({ companyId: ctx.companyId, key, value })
      .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value } })
      .returning({ key: settings.key, value: settings.value });
    // A free-text key holds a secret (the payment provider's): its value stays out of the log.
    await auditAs(tx, ctx, {
      action: 'setting.updated',
      target: `setting:${key}`,
      detail: settingOptions[key] ? { value } : {},
    });
    return saved;
  });
  // A super-only key is read by super users alone (listSettings).
  if (superOnlySettingKeys.includes(key))
    deps.realtime
      .toRooms(ctx.companyId, ['super'])
      .emit('settings', { action: 'update', setting: row });
  else deps.realtime.toCompany(ctx.companyId).emit('settings', { action: 'update', setting: row });
  return row;
};
