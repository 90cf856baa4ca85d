import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { tickets } from '../../db/schema';
import type { EventOf } from '../../events/domain-events';
import { enqueueJobsFrom, jobQueue, type QueueOptions } from '../../jobs/queue';
import { AppError } from '../../platform/errors';
import { usesAiFeature, usesAiFeatureSql } from '../prompts';
import { conversationOf, SUMMARY_MESSAGES, summaryOf, writeSummaryNote } from './copilot.service';

// Issue 40: a conversation that changes hands gets a short summary as a note, so whoever takes it
// need not read it all. A hand-over is an AI agent letting go of a ticket that stays open (the tickets
// module's handOverFromAgent clears promptId), or a transfer to another agent or another queue.
// - The recorder of `ticket.changed` queues a `copilot.summary` job in the transaction that writes
//   the change (so it is never lost, and a change rolled back queues nothing), when the company's
//   aiSummaries setting is on and its plan has AI. The job's ref is the ticket's, and a ticket has at
//   most one live job per ref (jobs_live_ref_idx): changes at once, or while a summary is being
//   written, give one summary. The change itself never waits for the model.
// - The job reads the conversation when it runs and writes the note; a conversation of fewer than
//   MIN_MESSAGES messages gets none, nor one of a company without a provider or tokens left. The
//   provider's failures are retried (maxAttempts), then logged and given up.

const SUMMARY_QUEUE = 'copilot.summary';
export const summaryQueue = jobQueue(SUMMARY_QUEUE, z.object({ ticketId: z.number().int() }));
type SummaryJob = z.infer<typeof summaryQueue.payload>;

const MIN_MESSAGES = 2;

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'outbound' | 'events'>;

const isHandover = ({ before, after }: EventOf<'ticket.changed'>) => {
  if (!before || after.status === 'closed') return false;
  // The AI agent let go: people take the conversation.
  if (before.promptId && !after.promptId) return true;
  // Transferred from one agent to another, or from one queue to another.
  if (before.userId && after.userId && before.userId !== after.userId) return true;
  return before.queueId !== null && after.queueId !== null && before.queueId !== after.queueId;
};

// A ticket that changed hands queues its summary (a recorder); answers the queue to wake.
export const queueSummaryOnHandover = async (tx: Db, event: EventOf<'ticket.changed'>) => {
  if (!isHandover(event)) return undefined;
  const ref = `ticket:${event.ticketId}`;
  const inserted = await enqueueJobsFrom(
    tx,
    summaryQueue,
    {
      from: sql`from ${tickets} t
        where t.id = ${event.ticketId} and ${usesAiFeatureSql(sql`t.company_id`, 'aiSummaries')}`,
      payload: sql`jsonb_build_object('ticketId', t.id)`,
      key: sql`${ref}`,
      ref: sql`${ref}`,
      companyId: sql`t.company_id`,
    },
    { skipLiveRefs: true },
  );
  return inserted.length ? SUMMARY_QUEUE : undefined;
};

// Nothing any retry could change: no provider, the month's tokens spent, the address refused.
const NOT_NOW = new Set([
  'ERR_AI_NOT_CONFIGURED',
  'ERR_AI_QUOTA_EXCEEDED',
  'ERR_PLAN_FEATURE_DISABLED',
]);
// The provider refused the key or the request: retrying asks the same.
const REFUSED = new Set([
  'ERR_AI_PROVIDER_AUTH',
  'ERR_AI_PROVIDER_REQUEST',
  'ERR_OUTBOUND_URL_NOT_ALLOWED',
]);

const summarise = async (deps: Deps, log: FastifyBaseLogger, ticketId: number) => {
  const [ticket] = await deps.db.select().from(tickets).where(eq(tickets.id, ticketId));
  if (!ticket) return;
  // Read again: the setting or the plan may have changed since the job was queued.
  if (!(await usesAiFeature(deps.db, ticket.companyId, 'aiSummaries'))) return;
  const window = await conversationOf(deps.db, ticket.id, SUMMARY_MESSAGES);
  if (window.length < MIN_MESSAGES) return;
  let summary: string;
  try {
    summary = await summaryOf(deps, ticket.companyId, window);
  } catch (error) {
    if (error instanceof AppError && NOT_NOW.has(error.code)) {
      log.info({ ticketId, code: error.code }, 'No AI summary for the hand-over');
      return;
    }
    throw error;
  }
  // The note's ticket update tells open drawers to read its notes again.
  await deps.events.transaction(deps.db, (tx, raise) =>
    writeSummaryNote(tx, raise, ticket, summary),
  );
};

// How a summary is written (background.ts runs the queue).
export const summaryWorker = (deps: Deps, log: FastifyBaseLogger): QueueOptions<SummaryJob> => {
  const { timeoutMs, maxRetries } = deps.config.openAi;
  return {
    handle: (job) => summarise(deps, log, job.payload.ticketId),
    maxAttempts: 3,
    permanent: (error) => error instanceof AppError && REFUSED.has(error.code),
    // A call may wait out the SDK's timeout on every retry; no other node takes it meanwhile.
    leaseMs: timeoutMs * (maxRetries + 1) + 60_000,
    keepDoneMs: 24 * 3600_000,
    keepFailedMs: 7 * 24 * 3600_000,
    onFailed: async (job, error) => {
      log.warn(
        {
          ticketId: job.payload.ticketId,
          code: error instanceof AppError ? error.code : undefined,
          reason: error instanceof Error ? error.message : String(error),
        },
        'AI summary of a hand-over given up',
      );
    },
  };
};
