import { asc, count, desc, eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { advertisedPlans, defaultSchedules, settingDefaults } from '@atendi/shared';
import type { Db } from './client';
import { companies, plans, settings, users } from './schema';
import { hashPassword } from '../platform/passwords';

export type BootstrapResult = {
  adminEmail: string;
  generatedPassword?: string;
  createdAdmin: boolean;
};

// SPEC §9's advertised plans, on an empty database.
const seedPlans = async (db: Db) => {
  const [{ value }] = await db.select({ value: count() }).from(plans);
  if (value > 0) return;
  await db.insert(plans).values(advertisedPlans.map((p) => ({ ...p })));
};

// First start: the advertised plans, the platform company and its super user. Later starts change nothing.
export const bootstrap = async (
  db: Db,
  options: { adminEmail: string; adminPassword?: string },
): Promise<BootstrapResult> => {
  await seedPlans(db);
  const [existingSuper] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.super, true))
    .limit(1);
  if (existingSuper) return { adminEmail: options.adminEmail, createdAdmin: false };

  const generatedPassword = options.adminPassword
    ? undefined
    : randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(options.adminPassword ?? generatedPassword!);
  await db.transaction(async (tx) => {
    // The operators' own company gets the largest plan.
    const [plan] = await tx
      .select({ id: plans.id })
      .from(plans)
      .orderBy(desc(plans.value), asc(plans.id))
      .limit(1);
    const [company] = await tx
      .insert(companies)
      .values({
        name: 'Atendi',
        email: options.adminEmail,
        planId: plan.id,
        status: 'active',
        dueDate: null,
        schedules: defaultSchedules(),
      })
      .onConflictDoNothing()
      .returning();
    const companyId =
      company?.id ??
      (await tx.select({ id: companies.id }).from(companies).where(eq(companies.name, 'Atendi')))[0]
        .id;
    await tx
      .insert(settings)
      .values(Object.entries(settingDefaults).map(([key, value]) => ({ companyId, key, value })))
      .onConflictDoNothing();
    await tx.insert(users).values({
      companyId,
      name: 'Admin',
      email: options.adminEmail,
      passwordHash,
      profile: 'admin',
      super: true,
      allTicket: 'enabled',
    });
  });
  return { adminEmail: options.adminEmail, generatedPassword, createdAdmin: true };
};
