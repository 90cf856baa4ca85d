import { and, asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  MB,
  SIGNUP_DEFAULTS,
  addMonths,
  defaultSchedules,
  effectiveCompanyStatus,
  recurrenceMonths,
  settingDefaults,
  type AiUsage,
  type CompanyCreateInput,
  type CompanyStatus,
  type CompanyUpdateInput,
  type Recurrence,
  type ScheduleSlot,
  type SignupInput,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import {
  aiTokens,
  aiUsage,
  companies,
  plans,
  prompts,
  settings,
  subscriptions,
  users,
} from '../../db/schema';
import { enqueueJobs, jobQueue } from '../../jobs/queue';
import { audit } from '../../platform/audit';
import type { AuthContext } from '../../platform/context';
import { containsPattern } from '../../platform/like';
import { AppError } from '../../platform/errors';
import { generatePassword, hashPassword } from '../../platform/passwords';
import { foundOr404 } from '../../platform/tenancy';
import { monthIn } from '../../platform/time-zones';

type CompanyRow = typeof companies.$inferSelect;
const PAGE_SIZE = 20;

const campaignsSettingOf = async (db: Db, companyIds: number[]) => {
  if (!companyIds.length) return new Map<number, boolean>();
  const rows = await db
    .select({ companyId: settings.companyId, value: settings.value })
    .from(settings)
    .where(and(eq(settings.key, 'campaignsEnabled'), inArray(settings.companyId, companyIds)));
  return new Map(rows.map((r) => [r.companyId, r.value === 'true']));
};

type ViewDeps = Pick<AppDeps, 'db' | 'config'>;

// What a company's view shows of its plan.
const planRef = {
  id: plans.id,
  name: plans.name,
  storageMb: plans.storageMb,
  aiAgents: plans.aiAgents,
  aiMessages: plans.aiMessages,
  aiTokens: plans.aiTokens,
};
type PlanRef = Pick<typeof plans.$inferSelect, keyof typeof planRef>;

// SPEC §9 plan quotas: each company's AI agents in the calendar month it is in now (its time zone):
// the answers they sent (deleted agents' too), its agents and those whose answers ran out this month,
// against its plan, and the tokens every use of AI spent. Both are counted by
// modules/prompts/ai-usage.ts.
const aiUsageOf = async (
  db: Db,
  platformTimeZone: string,
  rows: CompanyRow[],
  planById: Map<number, PlanRef>,
  now = new Date(),
) => {
  const monthOf = new Map(rows.map((c) => [c.id, monthIn(now, c.timeZone ?? platformTimeZone)]));
  const ids = [...monthOf.keys()];
  const sent = ids.length
    ? await db
        .select({
          companyId: aiUsage.companyId,
          month: aiUsage.month,
          messages: sql<number>`sum(${aiUsage.messages})::int`,
          exhausted: sql<number>`(count(*) filter (where ${aiUsage.promptId} is not null
            and ${plans.aiMessages} > 0 and ${aiUsage.messages} >= ${plans.aiMessages}))::int`,
        })
        .from(aiUsage)
        .innerJoin(companies, eq(companies.id, aiUsage.companyId))
        .innerJoin(plans, eq(plans.id, companies.planId))
        .where(
          and(
            inArray(aiUsage.companyId, ids),
            inArray(aiUsage.month, [...new Set(monthOf.values())]),
          ),
        )
        .groupBy(aiUsage.companyId, aiUsage.month)
    : [];
  const agents = ids.length
    ? await db
        .select({ companyId: prompts.companyId, value: count() })
        .from(prompts)
        .where(inArray(prompts.companyId, ids))
        .groupBy(prompts.companyId)
    : [];
  const spent = ids.length
    ? await db
        .select({
          companyId: aiTokens.companyId,
          month: aiTokens.month,
          feature: aiTokens.feature,
          calls: aiTokens.calls,
          tokens: sql<number>`(${aiTokens.promptTokens} + ${aiTokens.completionTokens})::float8`,
        })
        .from(aiTokens)
        .where(
          and(
            inArray(aiTokens.companyId, ids),
            inArray(aiTokens.month, [...new Set(monthOf.values())]),
          ),
        )
        .orderBy(asc(aiTokens.feature))
    : [];
  const agentsOf = new Map(agents.map((row) => [row.companyId, row.value]));
  const sentIn = new Map(sent.map((row) => [`${row.companyId}:${row.month}`, row]));
  return new Map(
    rows.map((company): [number, AiUsage] => {
      const month = monthOf.get(company.id)!;
      const used = sentIn.get(`${company.id}:${month}`);
      const plan = planById.get(company.planId);
      const features = spent
        .filter((row) => row.companyId === company.id && row.month === month)
        .map((row) => ({ feature: row.feature, calls: row.calls, tokens: Number(row.tokens) }));
      return [
        company.id,
        {
          month,
          messages: used?.messages ?? 0,
          agents: agentsOf.get(company.id) ?? 0,
          exhaustedAgents: used?.exhausted ?? 0,
          agentsLimit: plan?.aiAgents ?? 0,
          messagesLimit: plan?.aiMessages ?? 0,
          tokens: features.reduce((sum, row) => sum + row.tokens, 0),
          tokensLimit: plan?.aiTokens ?? 0,
          tokensByFeature: features,
        },
      ];
    }),
  );
};

const serializeCompany = (
  platformTimeZone: string,
  company: CompanyRow,
  plan: PlanRef | null,
  campaignsEnabled: boolean,
  ai: AiUsage,
) => ({
  id: company.id,
  name: company.name,
  email: company.email,
  phone: company.phone,
  planId: company.planId,
  plan: plan ? { id: plan.id, name: plan.name } : null,
  status: company.status,
  // The status the gate applies: an active company past its due date is overdue.
  effectiveStatus: effectiveCompanyStatus(company),
  dueDate: company.dueDate,
  recurrence: company.recurrence,
  campaignsEnabled,
  schedules: company.schedules,
  timeZone: company.timeZone ?? platformTimeZone,
  storageUsed: company.storageUsed,
  storageLimit: (plan?.storageMb ?? 0) * MB,
  aiUsage: ai,
  createdAt: company.createdAt,
  updatedAt: company.updatedAt,
});

const withPlans = async ({ db, config }: ViewDeps, rows: CompanyRow[]) => {
  const planRows = await db.select(planRef).from(plans);
  const planById = new Map(planRows.map((p) => [p.id, p]));
  const campaigns = await campaignsSettingOf(
    db,
    rows.map((r) => r.id),
  );
  const ai = await aiUsageOf(db, config.timeZone, rows, planById);
  return rows.map((c) =>
    serializeCompany(
      config.timeZone,
      c,
      planById.get(c.planId) ?? null,
      campaigns.get(c.id) ?? false,
      ai.get(c.id)!,
    ),
  );
};

// A company cancelled or deleted by a super user stops paying: its live subscriptions at the payment
// provider are cancelled by a job (modules/subscriptions handles this queue), queued in the same
// transaction as the change so it is not lost. The ids travel in the job, since a deleted company's
// rows go with it.
export const STOP_BILLING_QUEUE = 'billing.stop';
export const stopBillingQueue = jobQueue(
  STOP_BILLING_QUEUE,
  z.object({ companyId: z.number().int(), providerSubscriptionIds: z.array(z.string()) }),
);
export type StopBillingJob = z.infer<typeof stopBillingQueue.payload>;

const queueStopBilling = async (tx: Db, companyId: number, keepJobWithCompany: boolean) => {
  const live = await tx
    .select({ id: subscriptions.providerSubscriptionId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.companyId, companyId),
        inArray(subscriptions.status, ['active', 'trialing', 'past_due', 'unpaid', 'incomplete']),
      ),
    );
  const ids = live.map((row) => row.id).filter((id): id is string => !!id);
  if (!ids.length) return false;
  await enqueueJobs(tx, stopBillingQueue, [
    {
      payload: { companyId, providerSubscriptionIds: ids },
      ref: `company:${companyId}`,
      companyId: keepJobWithCompany ? companyId : null,
    },
  ]);
  return true;
};

const findCompany = async (db: Db, id: number) =>
  foundOr404(
    (await db.select().from(companies).where(eq(companies.id, id)))[0],
    'ERR_NO_COMPANY_FOUND',
  );

// A non-super caller sees only their own company; another id is 404 as if it did not exist.
const assertCompanyAccess = (ctx: AuthContext, id: number) => {
  if (!ctx.isSuper && ctx.companyId !== id) throw new AppError('ERR_NO_COMPANY_FOUND');
};

// Another company's record is read by super users alone (GET /companies is super-only).
const toOperators = (
  deps: Pick<AppDeps, 'realtime'>,
  companyId: number,
  payload: { action: string } & Record<string, unknown>,
) => deps.realtime.toRooms(companyId, ['super']).emit('company', payload);

// Tells a company's sockets (its session gate, its screens) and the super users' companies tab that the
// company changed: status, due date or plan, after a payment, the lifecycle, or an edit.
export const announceCompany = async (
  deps: Pick<AppDeps, 'db' | 'config' | 'realtime'>,
  id: number,
) => {
  const [company] = await deps.db.select().from(companies).where(eq(companies.id, id));
  if (!company) return;
  const [view] = await withPlans(deps, [company]);
  deps.realtime.toCompany(id).emit('company', { action: 'update', company: view });
  const operators = await deps.db
    .selectDistinct({ companyId: users.companyId })
    .from(users)
    .where(and(eq(users.super, true), ne(users.companyId, id)));
  for (const { companyId } of operators)
    toOperators(deps, companyId, { action: 'update', company: view });
};

export const getCompany = async (deps: ViewDeps, ctx: AuthContext, id: number) => {
  assertCompanyAccess(ctx, id);
  return (await withPlans(deps, [await findCompany(deps.db, id)]))[0];
};

export const listCompanies = async (
  deps: ViewDeps,
  query: { searchParam: string; pageNumber: number },
) => {
  const term = query.searchParam.trim();
  const where = term
    ? or(
        ilike(companies.name, containsPattern(term)),
        ilike(companies.email, containsPattern(term)),
      )
    : undefined;
  const rows = await deps.db
    .select()
    .from(companies)
    .where(where)
    .orderBy(asc(companies.name))
    .limit(PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * PAGE_SIZE);
  const [{ value }] = await deps.db.select({ value: count() }).from(companies).where(where);
  return {
    companies: await withPlans(deps, rows.slice(0, PAGE_SIZE)),
    count: value,
    hasMore: rows.length > PAGE_SIZE,
  };
};

export const listAllCompanies = async (deps: ViewDeps) =>
  withPlans(deps, await deps.db.select().from(companies).orderBy(asc(companies.name)));

export const getCompanyWithPlan = async (
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  ctx: AuthContext,
  id: number,
) => {
  assertCompanyAccess(ctx, id);
  const company = await findCompany(db, id);
  const [plan] = await db.select().from(plans).where(eq(plans.id, company.planId));
  const [serialized] = await withPlans({ db, config }, [company]);
  return { ...serialized, plan: { ...plan, currency: config.billingCurrency } };
};

// GET /prompt/usage: the company's AI agents this month, and the time zone its month is read in.
export const companyAiUsage = async ({ db, config }: ViewDeps, companyId: number) => {
  const company = await findCompany(db, companyId);
  const [plan] = await db.select(planRef).from(plans).where(eq(plans.id, company.planId));
  const usage = await aiUsageOf(
    db,
    config.timeZone,
    [company],
    new Map(plan ? [[plan.id, plan]] : []),
  );
  return { ...usage.get(companyId)!, timeZone: company.timeZone ?? config.timeZone };
};

const assertUnique = async (db: Db, name: string, exceptId?: number) => {
  const [existing] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(
      exceptId
        ? and(eq(companies.name, name), ne(companies.id, exceptId))
        : eq(companies.name, name),
    );
  if (existing)
    throw new AppError('ERR_COMPANY_ALREADY_EXISTS', 'A company with this name already exists');
};

const assertPlanExists = async (db: Db, planId: number) => {
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
};

const seedCompanySettings = async (db: Db, companyId: number, campaignsEnabled: boolean) => {
  const rows = Object.entries(settingDefaults).map(([key, value]) => ({
    companyId,
    key,
    value: key === 'campaignsEnabled' ? String(campaignsEnabled) : value,
  }));
  await db.insert(settings).values(rows).onConflictDoNothing();
};

type NewCompany = {
  name: string;
  email: string;
  phone: string;
  planId: number;
  status: CompanyStatus;
  dueDate: Date | null;
  recurrence: Recurrence;
  campaignsEnabled: boolean;
  timeZone: string | null;
  adminName: string;
  adminPassword: string;
};

// One transaction: the company, its default settings and its first admin all exist, or none do.
const insertCompanyWithAdmin = async (db: Db, input: NewCompany) => {
  await assertUnique(db, input.name);
  await assertPlanExists(db, input.planId);
  const [emailTaken] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, input.email));
  if (emailTaken)
    throw new AppError('ERR_EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
  const passwordHash = await hashPassword(input.adminPassword);
  return db.transaction(async (tx) => {
    const [company] = await tx
      .insert(companies)
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone,
        planId: input.planId,
        status: input.status,
        dueDate: input.dueDate,
        recurrence: input.recurrence,
        timeZone: input.timeZone,
        // SPEC §9's service hours, as a new queue and connection get them.
        schedules: defaultSchedules(),
      })
      .returning();
    await seedCompanySettings(tx, company.id, input.campaignsEnabled);
    await tx.insert(users).values({
      companyId: company.id,
      name: input.adminName,
      email: input.email,
      passwordHash,
      profile: 'admin',
    });
    return company;
  });
};

const addDays = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000);

// Public sign-up (SPEC §5, §9): trial defaults are the server's; a client cannot pick its status or due date.
export const signup = async (
  deps: ViewDeps,
  input: SignupInput,
  platformCompanyId: number | undefined,
) => {
  const { db } = deps;
  if (platformCompanyId) {
    const [setting] = await db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, platformCompanyId), eq(settings.key, 'userCreation')));
    if (setting?.value === 'disabled')
      throw new AppError('ERR_USER_CREATION_DISABLED', 'Sign-up is disabled');
  }
  let planId = input.planId ?? SIGNUP_DEFAULTS.planId;
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  if (!plan) {
    // The SPEC's default plan id (which its clients send) may not exist on this installation:
    // fall back to the first plan. Any other unknown plan is the caller's mistake.
    if (input.planId !== undefined && input.planId !== SIGNUP_DEFAULTS.planId)
      throw new AppError('ERR_NO_PLAN_FOUND');
    const [first] = await db.select({ id: plans.id }).from(plans).orderBy(asc(plans.id)).limit(1);
    if (!first) throw new AppError('ERR_NO_PLAN_FOUND');
    planId = first.id;
  }
  const company = await insertCompanyWithAdmin(db, {
    name: input.name,
    email: input.email,
    phone: input.phone,
    planId,
    status: SIGNUP_DEFAULTS.status,
    dueDate: addDays(SIGNUP_DEFAULTS.trialDays),
    recurrence: input.recurrence ?? SIGNUP_DEFAULTS.recurrence,
    campaignsEnabled: SIGNUP_DEFAULTS.campaignsEnabled,
    timeZone: input.timeZone ?? null,
    adminName: input.userName ?? input.name,
    adminPassword: input.password,
  });
  return (await withPlans(deps, [company]))[0];
};

const asBool = (value: boolean | 'true' | 'false' | undefined) =>
  value === true || value === 'true';

// Super users create companies; the admin's password is generated and answered once.
export const createCompany = async (
  deps: Pick<AppDeps, 'db' | 'config' | 'realtime'>,
  ctx: AuthContext,
  input: CompanyCreateInput,
) => {
  const adminPassword = input.password ?? generatePassword(8);
  const company = await insertCompanyWithAdmin(deps.db, {
    name: input.name,
    email: input.email,
    phone: input.phone,
    planId: input.planId,
    status: input.status,
    dueDate: input.dueDate ? new Date(input.dueDate) : null,
    recurrence: input.recurrence,
    campaignsEnabled: asBool(input.campaignsEnabled),
    timeZone: input.timeZone ?? null,
    adminName: input.name,
    adminPassword,
  });
  const [view] = await withPlans(deps, [company]);
  toOperators(deps, ctx.companyId, { action: 'create', company: view });
  return { ...view, adminPassword: input.password ? undefined : adminPassword };
};

export const updateCompany = async (
  deps: Pick<AppDeps, 'db' | 'config' | 'realtime' | 'jobs'>,
  ctx: AuthContext,
  id: number,
  input: CompanyUpdateInput,
) => {
  const company = await findCompany(deps.db, id);
  if (input.name) await assertUnique(deps.db, input.name, id);
  if (input.planId) await assertPlanExists(deps.db, input.planId);
  const recurrence = input.recurrence ?? company.recurrence;
  let dueDate =
    input.dueDate === undefined ? company.dueDate : input.dueDate ? new Date(input.dueDate) : null;
  // SPEC §4 expire action: add one period by recurrence to an existing due date.
  if (input.expire) {
    if (!dueDate)
      throw new AppError('ERR_VALIDATION', 'The company has no due date to extend', {
        fields: { dueDate: ['Required to expire'] },
      });
    dueDate = addMonths(dueDate, recurrenceMonths[recurrence]);
  }
  // A due date moved into the future (the expire action, or a typed date) reopens an overdue or
  // suspended company, unless the same change sets another status on purpose.
  const statusChosen = input.status !== undefined && input.status !== company.status;
  const reopens =
    !statusChosen &&
    (company.status === 'overdue' || company.status === 'suspended') &&
    !!dueDate &&
    dueDate.getTime() > Date.now() &&
    dueDate.getTime() !== company.dueDate?.getTime();
  const status = reopens ? 'active' : input.status;
  const cancels = status === 'cancelled' && company.status !== 'cancelled';
  // Issue 37: the fields this edit changes, recorded in the company's log; the values of its billing
  // (plan, status, due date) with them.
  const campaignsBefore =
    input.campaignsEnabled === undefined
      ? undefined
      : ((await campaignsSettingOf(deps.db, [id])).get(id) ?? false);
  const changed = {
    name: input.name !== undefined && input.name !== company.name,
    email: input.email !== undefined && input.email !== company.email,
    phone: input.phone !== undefined && input.phone !== company.phone,
    planId: input.planId !== undefined && input.planId !== company.planId,
    status: status !== undefined && status !== company.status,
    dueDate: dueDate?.getTime() !== company.dueDate?.getTime(),
    recurrence: input.recurrence !== undefined && input.recurrence !== company.recurrence,
    campaignsEnabled:
      campaignsBefore !== undefined && asBool(input.campaignsEnabled) !== campaignsBefore,
    timeZone: input.timeZone !== undefined && input.timeZone !== company.timeZone,
  };
  const fields = Object.keys(changed).filter((key) => changed[key as keyof typeof changed]);
  let stopsBilling = false;
  await deps.db.transaction(async (tx) => {
    if (cancels) stopsBilling = await queueStopBilling(tx, id, true);
    await tx
      .update(companies)
      .set({
        name: input.name,
        email: input.email,
        phone: input.phone,
        planId: input.planId,
        status,
        recurrence: input.recurrence,
        timeZone: input.timeZone,
        dueDate,
      })
      .where(eq(companies.id, id));
    if (input.campaignsEnabled !== undefined) {
      await tx
        .insert(settings)
        .values({
          companyId: id,
          key: 'campaignsEnabled',
          value: String(asBool(input.campaignsEnabled)),
        })
        .onConflictDoUpdate({
          target: [settings.companyId, settings.key],
          set: { value: String(asBool(input.campaignsEnabled)) },
        });
    }
    if (fields.length)
      await audit(tx, {
        companyId: id,
        userId: ctx.userId,
        action: 'company.updated',
        target: `company:${id}`,
        detail: {
          fields,
          ...(changed.planId ? { planId: input.planId } : {}),
          ...(changed.status ? { status } : {}),
          ...(changed.dueDate ? { dueDate: dueDate?.toISOString() ?? null } : {}),
        },
        address: ctx.address,
      });
  });
  if (stopsBilling) deps.jobs.kick(STOP_BILLING_QUEUE);
  const view = await getCompany(deps, ctx, id);
  if (id !== ctx.companyId) toOperators(deps, ctx.companyId, { action: 'update', company: view });
  deps.realtime.toCompany(id).emit('company', { action: 'update', company: view });
  return view;
};

export const deleteCompany = async (
  deps: Pick<AppDeps, 'db' | 'realtime' | 'jobs' | 'uploads'>,
  ctx: AuthContext,
  id: number,
) => {
  await findCompany(deps.db, id);
  if (id === ctx.companyId)
    throw new AppError('ERR_CANNOT_DELETE_OWN_COMPANY', 'The platform company cannot be deleted');
  let stopsBilling = false;
  await deps.db.transaction(async (tx) => {
    stopsBilling = await queueStopBilling(tx, id, false);
    await tx.delete(companies).where(eq(companies.id, id));
  });
  // Its files go with it (their counts went with its rows).
  await deps.uploads.removeCompany(id);
  if (stopsBilling) deps.jobs.kick(STOP_BILLING_QUEUE);
  deps.realtime.dropCompany(id);
  toOperators(deps, ctx.companyId, { action: 'delete', companyId: id });
};

export const updateCompanySchedules = async (
  deps: Pick<AppDeps, 'db' | 'config' | 'realtime'>,
  ctx: AuthContext,
  id: number,
  schedules: ScheduleSlot[],
) => {
  assertCompanyAccess(ctx, id);
  await findCompany(deps.db, id);
  await deps.db.update(companies).set({ schedules }).where(eq(companies.id, id));
  const view = await getCompany(deps, ctx, id);
  // Other admins with the schedules tab open see the change.
  deps.realtime.toCompany(id).emit('company', { action: 'update', company: view });
  return view;
};

// The company's own time zone, chosen by an admin (settings' business-hours tab).
export const updateCompanyTimeZone = async (
  deps: Pick<AppDeps, 'db' | 'config' | 'realtime'>,
  ctx: AuthContext,
  id: number,
  timeZone: string,
) => {
  assertCompanyAccess(ctx, id);
  await findCompany(deps.db, id);
  await deps.db.update(companies).set({ timeZone }).where(eq(companies.id, id));
  const view = await getCompany(deps, ctx, id);
  deps.realtime.toCompany(id).emit('company', { action: 'update', company: view });
  return view;
};

export const everyCompanyId = async (db: Db) =>
  (await db.select({ id: companies.id }).from(companies)).map((c) => c.id);

// The platform operators' own company: the company of the first super user.
export const platformCompanyId = async (db: Db) => {
  const [row] = await db
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.super, true))
    .orderBy(asc(users.id))
    .limit(1);
  return row?.companyId;
};
