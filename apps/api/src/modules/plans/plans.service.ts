import { asc, count, eq } from 'drizzle-orm';
import type { PlanInput } from '@atendi/shared';
import { isWithinLimit } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { everyCompanyId } from '../companies';
import {
  companies,
  plans,
  prompts,
  queues,
  subscriptions,
  users,
  whatsapps,
} from '../../db/schema';
import { auditAs } from '../../platform/audit';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { foundOr404 } from '../../platform/tenancy';
import { updateReturning } from '../../platform/update';

type Plan = typeof plans.$inferSelect;
type Readers = Pick<AppDeps, 'db' | 'config'>;

// A plan as every response and event shows it: its value is in the platform's billing currency.
export const serializePlan = (plan: Plan, currency: string) => ({
  id: plan.id,
  name: plan.name,
  users: plan.users,
  connections: plan.connections,
  queues: plan.queues,
  aiAgents: plan.aiAgents,
  aiMessages: plan.aiMessages,
  aiTokens: plan.aiTokens,
  value: plan.value,
  useCampaigns: plan.useCampaigns,
  useKanban: plan.useKanban,
  useOpenAi: plan.useOpenAi,
  useIntegrations: plan.useIntegrations,
  useSchedules: plan.useSchedules,
  useExternalApi: plan.useExternalApi,
  storageMb: plan.storageMb,
  stripePriceId: plan.stripePriceId,
  currency,
});

export const listPlans = async ({ db, config }: Readers) =>
  (await db.select().from(plans).orderBy(asc(plans.id))).map((plan) =>
    serializePlan(plan, config.billingCurrency),
  );

const findPlan = async (db: Db, id: number) =>
  foundOr404((await db.select().from(plans).where(eq(plans.id, id)))[0], 'ERR_NO_PLAN_FOUND');

export const getPlan = async ({ db, config }: Readers, id: number) =>
  serializePlan(await findPlan(db, id), config.billingCurrency);

const assertNameFree = async (db: Db, name: string, exceptId?: number) => {
  const [existing] = await db.select({ id: plans.id }).from(plans).where(eq(plans.name, name));
  if (existing && existing.id !== exceptId) {
    throw new AppError('ERR_PLAN_ALREADY_EXISTS', 'A plan with this name already exists');
  }
};

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'config'>;

// Plans are shown to every company (subscribe page, limits), so every company hears of a change.
const announce = async (deps: Deps, payload: { action: string } & Record<string, unknown>) =>
  deps.realtime.toCompanies(await everyCompanyId(deps.db)).emit('plan', payload);

// Issue 37: a plan's change is recorded in the log of the super user's own company (plans belong to
// none), with the plan's values (none of them secret).
export const createPlan = async (deps: Deps, ctx: AuthContext, input: PlanInput) => {
  await assertNameFree(deps.db, input.name);
  const plan = await deps.db.transaction(async (tx) => {
    const [row] = await tx.insert(plans).values(input).returning();
    await auditAs(tx, ctx, { action: 'plan.created', target: `plan:${row.id}`, detail: input });
    return row;
  });
  const view = serializePlan(plan, deps.config.billingCurrency);
  await announce(deps, { action: 'create', plan: view });
  return view;
};

// Also the price sync's (modules/subscriptions): a new price id is what new checkouts pay.
export const updatePlan = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: Partial<PlanInput>,
) => {
  const before = await findPlan(deps.db, id);
  if (input.name) await assertNameFree(deps.db, input.name, id);
  const plan = await deps.db.transaction(async (tx) => {
    const [row] = await updateReturning(tx, plans, input, eq(plans.id, id));
    // The fields whose stored value changed, and their new values.
    const fields = (Object.keys(input) as (keyof PlanInput)[]).filter(
      (key) => input[key] !== undefined && row[key] !== before[key],
    );
    if (fields.length)
      await auditAs(tx, ctx, {
        action: 'plan.updated',
        target: `plan:${id}`,
        detail: { fields, ...Object.fromEntries(fields.map((key) => [key, row[key]])) },
      });
    return row;
  });
  const view = serializePlan(plan, deps.config.billingCurrency);
  await announce(deps, { action: 'update', plan: view });
  return view;
};

export const deletePlan = async (deps: Deps, ctx: AuthContext, id: number) => {
  const { db } = deps;
  const plan = await findPlan(db, id);
  const [{ value }] = await db
    .select({ value: count() })
    .from(companies)
    .where(eq(companies.planId, id));
  if (value > 0) throw new AppError('ERR_PLAN_IN_USE', `The plan is used by ${value} companies`);
  // Subscription history keeps its plan (the foreign key restricts deletes).
  const [{ value: subscribed }] = await db
    .select({ value: count() })
    .from(subscriptions)
    .where(eq(subscriptions.planId, id));
  if (subscribed > 0) {
    throw new AppError('ERR_PLAN_IN_USE', `The plan is used by ${subscribed} subscriptions`);
  }
  await db.transaction(async (tx) => {
    await tx.delete(plans).where(eq(plans.id, id));
    await auditAs(tx, ctx, {
      action: 'plan.deleted',
      target: `plan:${id}`,
      detail: { name: plan.name, value: plan.value },
    });
  });
  await announce(deps, { action: 'delete', planId: id });
};

type Limited = 'users' | 'connections' | 'queues' | 'aiAgents';
const counted = { users, connections: whatsapps, queues, aiAgents: prompts } as const;
const limitErrors = {
  users: 'ERR_PLAN_LIMIT_USERS',
  connections: 'ERR_PLAN_LIMIT_CONNECTIONS',
  queues: 'ERR_PLAN_LIMIT_QUEUES',
  aiAgents: 'ERR_PLAN_LIMIT_AI_AGENTS',
} as const;
const limitNouns = {
  users: 'users',
  connections: 'connections',
  queues: 'queues',
  aiAgents: 'AI agents',
};

// Plan limits are checked on create (call it inside the create's transaction); 0 means unlimited.
export const assertPlanLimit = async (db: Db, companyId: number, what: Limited) => {
  const [row] = await db
    .select({ limit: plans[what] })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    // Inside the caller's transaction this serialises concurrent creates of one company.
    .for('update', { of: companies });
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  const table = counted[what];
  const [{ value }] = await db
    .select({ value: count() })
    .from(table)
    .where(eq(table.companyId, companyId));
  if (!isWithinLimit(row.limit, value)) {
    throw new AppError(
      limitErrors[what],
      `The plan allows at most ${row.limit} ${limitNouns[what]}`,
    );
  }
};
