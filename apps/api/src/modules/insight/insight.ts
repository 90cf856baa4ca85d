import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { InsightCondition, SandboxAnalysis } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { insightRules, messages, tags, ticketInsights, tickets } from '../../db/schema';
import type { DomainEvent, EventOf } from '../../events/domain-events';
import { enqueueJobsFrom, jobQueue, type QueueOptions } from '../../jobs/queue';
import {
  analyseConversation,
  assertTokensLeft,
  clientFor,
  meterAi,
  providerFailure,
  turnsOf,
  usesAiFeature,
  usesAiFeatureSql,
} from '../prompts';
import { moveToLaneIn, tagTicketIn } from '../tags';
import { addBotNote, ticketUpdated } from '../tickets';

// Live insight (issue 40): the AI agents' sandbox analysis (the customer's sentiment, whether the
// conversation is over, the customer's and the order's data) run on live conversations of a company
// whose `liveInsight` setting is on, and rules that act on what it finds:
// - every message of a contact on an open or waiting conversation (not a group) of such a company, on
//   a plan with AI, queues an `insight.analyse` job in the transaction that stores it (a recorder of
//   `message.created`), keyed per ticket and due INSIGHT_DELAY_MS later; a job already waiting for the
//   ticket takes the message too, so a burst of messages is read once;
// - the job reads the newest messages and asks the model (OPENAI_INSIGHT_MODEL) through the company's
//   provider, counting the tokens under 'insight';
// - the answer is stored in ticket_insights only if it read further into the conversation than the
//   stored one (a slower, older analysis finishing late changes nothing), and in that transaction, on
//   the locked ticket, the company's enabled rules whose condition it meets add their tag or move the
//   ticket's kanban card; a rule that changed something says so in a note signed "Insight IA". A tag
//   already there is not added again, so repeated or simultaneous analyses act once.

const INSIGHT_QUEUE = 'insight.analyse';
export const insightQueue = jobQueue(INSIGHT_QUEUE, z.object({ ticketId: z.number().int() }));
type InsightJob = z.infer<typeof insightQueue.payload>;

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'outbound' | 'events'>;
type RuleRow = typeof insightRules.$inferSelect;

// The messages an analysis reads: the newest of the conversation.
const WINDOW = 20;
// The name the rules' notes are signed with.
const BOT_NAME = 'Insight IA';

// Whether an analysis meets a rule's condition: every part the rule names must hold.
const meetsCondition = (condition: InsightCondition, analysis: SandboxAnalysis) => {
  const total = analysis.datos_pedido.total;
  return (
    (condition.sentiments.length === 0 || condition.sentiments.includes(analysis.sentiment)) &&
    (!condition.finalOnly || analysis.final) &&
    (condition.minOrderTotal === null || (total !== null && total >= condition.minOrderTotal))
  );
};

// The note on the ticket, in Spanish like every note bots write.
const noteOf = (rule: RuleRow, tag: { name: string }, analysis: SandboxAnalysis): string => {
  const done =
    rule.action.type === 'lane'
      ? `movió la tarjeta a la columna «${tag.name}» del kanban`
      : `añadió la etiqueta «${tag.name}»`;
  const why = [`sentimiento ${analysis.sentiment}`];
  if (analysis.final) why.push('conversación terminada');
  if (rule.condition.minOrderTotal !== null && analysis.datos_pedido.total !== null)
    why.push(`total del pedido ${analysis.datos_pedido.total}`);
  return `La regla «${rule.name}» ${done} (${why.join(', ')}).`;
};

// Stores an analysis of the ticket's conversation up to message `upTo` unless a newer one is stored,
// and applies the company's rules to it, in one transaction that holds the ticket row (two analyses
// at once act one after the other). Answers whether it was stored.
const storeAnalysis = (deps: Deps, ticketId: number, analysis: SandboxAnalysis, upTo: number) =>
  deps.events.transaction(deps.db, async (tx, raise) => {
    const [ticket] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
    if (!ticket) return false;
    const structured = {
      datos_cliente: analysis.datos_cliente,
      datos_pedido: analysis.datos_pedido,
    };
    const stored = await tx
      .insert(ticketInsights)
      .values({
        ticketId,
        companyId: ticket.companyId,
        sentiment: analysis.sentiment,
        final: analysis.final,
        structured,
        messageId: upTo,
      })
      .onConflictDoUpdate({
        target: ticketInsights.ticketId,
        set: {
          sentiment: analysis.sentiment,
          final: analysis.final,
          structured,
          messageId: upTo,
          updatedAt: new Date(),
        },
        // Only an analysis that read further replaces the stored one.
        setWhere: sql`${ticketInsights.messageId} < ${upTo}`,
      })
      .returning({ ticketId: ticketInsights.ticketId });
    if (!stored.length) return false;
    raise(ticketUpdated(ticket, 'insight'));
    await applyRules(tx, raise, ticket, analysis);
    return true;
  });

const applyRules = async (
  tx: Db,
  raise: (event: DomainEvent) => void,
  ticket: typeof tickets.$inferSelect,
  analysis: SandboxAnalysis,
) => {
  const rules = await tx
    .select()
    .from(insightRules)
    .where(and(eq(insightRules.companyId, ticket.companyId), eq(insightRules.enabled, true)))
    .orderBy(asc(insightRules.id));
  for (const rule of rules) {
    if (!meetsCondition(rule.condition, analysis)) continue;
    const [tag] = await tx
      .select({ id: tags.id, name: tags.name, kanban: tags.kanban })
      .from(tags)
      .where(and(eq(tags.id, rule.action.tagId), eq(tags.companyId, ticket.companyId)));
    // Its tag was deleted, or is no longer a lane, since the rule was saved: it does nothing.
    if (!tag || (rule.action.type === 'lane' && tag.kanban !== 1)) continue;
    const changed =
      rule.action.type === 'lane'
        ? await moveToLaneIn(tx, raise, ticket, tag.id)
        : await tagTicketIn(tx, raise, ticket, tag.id);
    if (changed) await addBotNote(tx, raise, ticket, BOT_NAME, noteOf(rule, tag, analysis));
  }
};

// Reads the ticket's conversation and stores what the model found; nothing when the setting is off,
// the plan has no AI, the conversation is closed, or nothing new was said since the stored analysis.
export const analyseTicket = async (deps: Deps, log: FastifyBaseLogger, ticketId: number) => {
  const [ticket] = await deps.db.select().from(tickets).where(eq(tickets.id, ticketId));
  if (!ticket || ticket.isGroup || ticket.status === 'closed') return;
  if (!(await usesAiFeature(deps.db, ticket.companyId, 'liveInsight'))) return;
  const window = (
    await deps.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, ticketId))
      .orderBy(desc(messages.id))
      .limit(WINDOW)
  ).reverse();
  const upTo = Math.max(0, ...window.map((m) => m.id));
  const turns = turnsOf(window);
  if (!turns.some((turn) => turn.role === 'user')) return;
  const [known] = await deps.db
    .select({ messageId: ticketInsights.messageId })
    .from(ticketInsights)
    .where(eq(ticketInsights.ticketId, ticketId));
  if (known && known.messageId >= upTo) return;
  let analysis: SandboxAnalysis;
  try {
    await assertTokensLeft(deps, ticket.companyId);
    const client = await clientFor(deps, ticket.companyId);
    const answer = await analyseConversation(client, deps.config.openAi.insightModel, turns);
    await meterAi(deps, ticket.companyId, 'insight', answer.usage);
    analysis = answer.analysis;
  } catch (error) {
    const failure = providerFailure(error);
    // A provider that could not be reached may answer the retry; a missing provider, a used-up
    // quota or a refused request will not: the conversation simply has no new analysis.
    if (failure.code === 'ERR_AI_PROVIDER_UNAVAILABLE') throw failure;
    log.warn(
      { ticketId, code: failure.code, reason: failure.message },
      'live insight could not read the conversation',
    );
    return;
  }
  await storeAnalysis(deps, ticketId, analysis, upTo);
};

// How an analysis job runs (background.ts runs the queue).
export const insightWorker = (deps: Deps, log: FastifyBaseLogger): QueueOptions<InsightJob> => {
  const { timeoutMs, maxRetries, insightDelayMs } = deps.config.openAi;
  return {
    handle: (job) => analyseTicket(deps, log, job.payload.ticketId),
    maxAttempts: 3,
    // An analysis may wait out the SDK's timeout on every retry; no other node takes it meanwhile.
    leaseMs: timeoutMs * (maxRetries + 1) + 60_000,
    // Jobs fall due a delay after they are queued: looked for about as often.
    intervalMs: Math.min(Math.max(insightDelayMs, 250), 5000),
    keepDoneMs: 24 * 3600_000,
    keepFailedMs: 7 * 24 * 3600_000,
  };
};

// A contact's message on a live conversation of a company with live insight on queues its analysis
// (a recorder), unless one is already waiting for the ticket. The delay is read at each message.
export const queueInsightForMessage =
  (openAi: { insightDelayMs: number }) => async (tx: Db, event: EventOf<'message.created'>) => {
    const delayMs = openAi.insightDelayMs;
    if (event.author !== 'contact') return undefined;
    if (event.ticket && event.ticket.status === 'closed') return undefined;
    const inserted = await enqueueJobsFrom(
      tx,
      insightQueue,
      {
        from: sql`from ${tickets} t
          where t.id = ${event.ticketId} and t.status in ('open', 'pending') and not t.is_group
            and ${usesAiFeatureSql(sql`t.company_id`, 'liveInsight')}`,
        payload: sql`jsonb_build_object('ticketId', t.id)`,
        key: sql`${`ticket:${event.ticketId}`}`,
        companyId: sql`t.company_id`,
        runAt: sql`now() + ${delayMs}::int * interval '1 millisecond'`,
      },
      { skipPendingKeys: true },
    );
    return inserted.length ? INSIGHT_QUEUE : undefined;
  };
