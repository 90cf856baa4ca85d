import { and, asc, eq } from 'drizzle-orm';
import type { InsightRuleInput } from '@atendi/shared';
import type { Db } from '../../db/client';
import { insightRules, tags, ticketInsights } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import { visibleTicketRow } from '../tickets';

// Live insight's rules (admins) and a conversation's newest analysis (whoever may see the ticket).

type RuleRow = typeof insightRules.$inferSelect;

const viewOf = (row: RuleRow) => ({
  id: row.id,
  name: row.name,
  enabled: row.enabled,
  condition: row.condition,
  action: row.action,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

// The rule's tag must be the company's, and a kanban lane when the rule moves cards.
const checkTag = async (db: Db, ctx: AuthContext, action: { type: string; tagId: number }) => {
  const [tag] = await db
    .select({ kanban: tags.kanban })
    .from(tags)
    .where(ownedRow(tags, action.tagId, ctx));
  if (!tag)
    throw new AppError('ERR_VALIDATION', 'The tag does not exist', {
      fields: { 'action.tagId': ['ERR_NOT_FOUND'] },
    });
  if (action.type === 'lane' && tag.kanban !== 1)
    throw new AppError('ERR_VALIDATION', 'The tag is not a kanban lane', {
      fields: { 'action.tagId': ['Not a kanban lane'] },
    });
};

export const listInsightRules = async (db: Db, ctx: AuthContext) =>
  (
    await db
      .select()
      .from(insightRules)
      .where(ofCompany(insightRules, ctx))
      .orderBy(asc(insightRules.id))
  ).map(viewOf);

export const createInsightRule = async (db: Db, ctx: AuthContext, input: InsightRuleInput) => {
  await checkTag(db, ctx, input.action);
  const [row] = await db
    .insert(insightRules)
    .values({ ...input, companyId: ctx.companyId })
    .returning();
  return viewOf(row!);
};

export const updateInsightRule = async (
  db: Db,
  ctx: AuthContext,
  id: number,
  input: InsightRuleInput,
) => {
  foundOr404(
    (
      await db
        .select({ id: insightRules.id })
        .from(insightRules)
        .where(ownedRow(insightRules, id, ctx))
    )[0],
  );
  await checkTag(db, ctx, input.action);
  const [row] = await db
    .update(insightRules)
    .set(input)
    .where(ownedRow(insightRules, id, ctx))
    .returning();
  return viewOf(foundOr404(row));
};

export const deleteInsightRule = async (db: Db, ctx: AuthContext, id: number) => {
  const deleted = await db
    .delete(insightRules)
    .where(ownedRow(insightRules, id, ctx))
    .returning({ id: insightRules.id });
  foundOr404(deleted[0]);
};

export const getTicketInsight = async (db: Db, ctx: AuthContext, ticketId: number) => {
  const ticket = await visibleTicketRow(db, ctx, ticketId);
  const [row] = await db
    .select()
    .from(ticketInsights)
    .where(
      and(eq(ticketInsights.ticketId, ticket.id), eq(ticketInsights.companyId, ctx.companyId)),
    );
  return {
    insight: row
      ? {
          ticketId: row.ticketId,
          sentiment: row.sentiment,
          final: row.final,
          structured: row.structured,
          messageId: row.messageId,
          updatedAt: row.updatedAt,
        }
      : null,
  };
};
