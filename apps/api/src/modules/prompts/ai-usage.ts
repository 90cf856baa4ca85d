import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { isWithinLimit, type PromptsUsage } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { aiUsage, companies, plans } from '../../db/schema';
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
