import { asc, eq, ilike, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { helpSchema, helpUpdateSchema } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { everyCompanyId } from '../companies';
import { helps } from '../../db/schema';
import { foundOr404 } from '../../platform/tenancy';
import { containsPattern } from '../../platform/like';
import { updateReturning } from '../../platform/update';

const serialize = (row: typeof helps.$inferSelect) => ({
  id: row.id,
  title: row.title,
  video: row.video,
  description: row.description,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const listHelps = async (db: Db, searchParam = '') => {
  const term = searchParam.trim();
  const rows = await db
    .select()
    .from(helps)
    .where(
      term
        ? or(
            ilike(helps.title, containsPattern(term)),
            ilike(helps.description, containsPattern(term)),
          )
        : undefined,
    )
    .orderBy(asc(helps.title), asc(helps.id));
  return rows.map(serialize);
};

export const getHelp = async (db: Db, id: number) =>
  serialize(
    foundOr404((await db.select().from(helps).where(eq(helps.id, id)))[0], 'ERR_NO_HELP_FOUND'),
  );

type Deps = Pick<AppDeps, 'db' | 'realtime'>;

// The help centre is the same for every company, so every company hears of a change.
const announce = async (deps: Deps, payload: { action: string } & Record<string, unknown>) =>
  deps.realtime.toCompanies(await everyCompanyId(deps.db)).emit('help', payload);

export const createHelp = async (deps: Deps, input: z.infer<typeof helpSchema>) => {
  const help = serialize((await deps.db.insert(helps).values(input).returning())[0]);
  await announce(deps, { action: 'create', help });
  return help;
};

export const updateHelp = async (
  deps: Deps,
  id: number,
  input: z.infer<typeof helpUpdateSchema>,
) => {
  await getHelp(deps.db, id);
  const help = serialize((await updateReturning(deps.db, helps, input, eq(helps.id, id)))[0]);
  await announce(deps, { action: 'update', help });
  return help;
};

export const deleteHelp = async (deps: Deps, id: number) => {
  await getHelp(deps.db, id);
  await deps.db.delete(helps).where(eq(helps.id, id));
  await announce(deps, { action: 'delete', helpId: id });
};
