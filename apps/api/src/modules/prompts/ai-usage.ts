import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { isWithinLimit, type AiFeature, type PromptsUsage } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { aiTokens, aiUsage, companies, plans } from '../../db/schema';
import { AppError } from '../../platform/errors';
import type { Usage } from './ai-client';
import type { AuthContext } from '../../platform/context';
import { ofCompany } from '../../platform/tenancy';
import { monthIn } from '../../platform/time-zones';
import { companyAiUsage } from '../companies';

// SPEC §9 plan quotas: every answer an AI agent sends a contact counts one message of its month (the
// calendar month of the company's time zone) against the plan's aiMessages, 0 being unlimited. The
// count is one conditional upsert in the transaction that writes the answer, so two answers at once
// never pass the quota and an answer rolled back is not counted. The sandbox sends nobody anything and
// counts nothing.

type Readers = Pick<AppDeps, 'db' | 'config'>;

// The month an answer falls in and the answers its agent may send in it.
export type AiQuota = { month: string; limit: number };

export const aiQuotaOf = async (
  { db, config }: Readers,
  companyId: number,
  now = new Date(),
): Promise<AiQuota> => {
  const [row] = await db
    .select({ limit: plans.aiMessages, timeZone: companies.timeZone })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return { month: monthIn(now, row?.timeZone ?? config.timeZone), limit: row?.limit ?? 0 };
};

// Whether the agent has answers left this month: looked at before the model is asked (countAnswer,
// when the answer is written, decides).
export const hasAnswersLeft = async (db: Db, promptId: number, quota: AiQuota) => {
  if (quota.limit <= 0) return true;
  const [row] = await db
    .select({ messages: aiUsage.messages })
    .from(aiUsage)
    .where(and(eq(aiUsage.promptId, promptId), eq(aiUsage.month, quota.month)));
  return isWithinLimit(quota.limit, row?.messages ?? 0);
};

// Counts one answer of the agent in the caller's transaction; false (nothing counted) when its answers
// of the month are used up. The row's lock makes answers of one agent at once wait for each other.
export const countAnswer = async (
  tx: Db,
  prompt: { id: number; companyId: number },
  quota: AiQuota,
) => {
  const counted = await tx
    .insert(aiUsage)
    .values({ companyId: prompt.companyId, promptId: prompt.id, month: quota.month, messages: 1 })
    .onConflictDoUpdate({
      target: [aiUsage.promptId, aiUsage.month],
      set: { messages: sql`${aiUsage.messages} + 1`, updatedAt: new Date() },
      setWhere: quota.limit > 0 ? sql`${aiUsage.messages} < ${quota.limit}` : undefined,
    })
    .returning({ messages: aiUsage.messages });
  return counted.length > 0;
};

// Issue 40, usage metering: every call to the provider records the tokens its answer counted (the
// SDK's `usage`; embeddings count only input tokens) for the company's month and the feature, whether
// or not the plan limits them. Recorded after the answer (a call the provider answered is spent even if
// what it answered is then not used); one upsert adding to the row, so calls at once all count.
export const meterAi = async (
  deps: Readers,
  companyId: number,
  feature: AiFeature,
  usage: Usage | null,
  now = new Date(),
) => {
  const [company] = await deps.db
    .select({ timeZone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company) return;
  const promptTokens = usage?.prompt ?? 0;
  const completionTokens = usage?.completion ?? 0;
  await deps.db
    .insert(aiTokens)
    .values({
      companyId,
      month: monthIn(now, company.timeZone ?? deps.config.timeZone),
      feature,
      calls: 1,
      promptTokens,
      completionTokens,
    })
    .onConflictDoUpdate({
      target: [aiTokens.companyId, aiTokens.month, aiTokens.feature],
      set: {
        calls: sql`${aiTokens.calls} + 1`,
        promptTokens: sql`${aiTokens.promptTokens} + ${promptTokens}`,
        completionTokens: sql`${aiTokens.completionTokens} + ${completionTokens}`,
        updatedAt: new Date(),
      },
    });
};

// The plan's monthly tokens, checked before a call to the provider: past them nothing more is asked
// this month (ERR_AI_QUOTA_EXCEEDED; an AI agent hands its conversation to a person). A call already
// on its way when the last tokens went is still counted (its size is known only from its answer).
export const assertTokensLeft = async (deps: Readers, companyId: number, now = new Date()) => {
  const [row] = await deps.db
    .select({ limit: plans.aiTokens, timeZone: companies.timeZone })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  if (!row || row.limit <= 0) return;
  const month = monthIn(now, row.timeZone ?? deps.config.timeZone);
  const [spent] = await deps.db
    .select({
      tokens: sql<number>`coalesce(sum(${aiTokens.promptTokens} + ${aiTokens.completionTokens}), 0)::float8`,
    })
    .from(aiTokens)
    .where(and(eq(aiTokens.companyId, companyId), eq(aiTokens.month, month)));
  if (Number(spent?.tokens ?? 0) >= row.limit)
    throw new AppError(
      'ERR_AI_QUOTA_EXCEEDED',
      `The ${row.limit} AI tokens the plan allows in ${month} are used up`,
      { details: { month, limit: row.limit, kind: 'tokens' } },
    );
};

// GET /prompt/usage: this month's answers of the company's agents, each agent's, and the plan's quotas.
export const getPromptsUsage = async (deps: Readers, ctx: AuthContext): Promise<PromptsUsage> => {
  const usage = await companyAiUsage(deps, ctx.companyId);
  const rows = await deps.db
    .select({ promptId: aiUsage.promptId, messages: aiUsage.messages })
    .from(aiUsage)
    .where(ofCompany(aiUsage, ctx, eq(aiUsage.month, usage.month), isNotNull(aiUsage.promptId)))
    .orderBy(asc(aiUsage.promptId));
  return {
    ...usage,
    prompts: rows.map((row) => ({ promptId: row.promptId!, messages: row.messages })),
  };
};
