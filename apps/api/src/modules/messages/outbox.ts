import { eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, Outbox } from '../../deps';
import { ChannelError, type SendRequest, type SendResult } from '../../channels/driver';
import { queryRows } from '../../db/client';
import { arrayParam, rowMapper } from '../../db/rows';
import { contacts, messages, tickets } from '../../db/schema';
import {
  PermanentJobError,
  retryDelay,
  type Job,
  type Jobs,
  type QueueOptions,
} from '../../jobs/queue';
import { refusalIn } from '../../platform/outbound';
import { messageUpdated } from '../tickets';
import { OUTBOX_QUEUE, type OutboxPayload } from './sends';

// Sends what agents wrote, as jobs of the one background queue (jobs/queue.ts). A send is stored
// (message + job, one transaction) before the API answers, and a worker hands it to the connection's
// session afterwards, retrying with backoff while the session is down, so an accepted message is
// never lost. Several API nodes share the work, and a node that died mid-send leaves its jobs to
// another (at once on PostgreSQL, else when their lease runs out). Delivery is therefore at least
// once: a node dying between WhatsApp's answer and our commit resends.
// A ticket's messages leave in the order they were written: the jobs share the ticket's key, so one
// waits while an earlier one of the same ticket is still pending (even between retries) or running.

// WhatsApp says the number has no account, (Cloud API) that the contact's 24-hour window is
// closed, or the connection's base URL is one this server does not call: trying again cannot change
// that, so the send fails at once.
export const isPermanentSendFailure = (error: unknown) =>
  !!refusalIn(error) ||
  (error instanceof ChannelError &&
    (error.code === 'ERR_WAPP_INVALID_CONTACT' || error.code === 'ERR_WAPP_WINDOW_CLOSED'));

export const OUTBOX_MAX_ATTEMPTS = 8;

type Deps = Pick<AppDeps, 'db' | 'uploads' | 'channels' | 'events'>;

const messageRow = rowMapper(messages);

// A send that no retry can make work.
class Undeliverable extends PermanentJobError {}

export const createOutbox = (jobs: Pick<Jobs, 'kick'>): Outbox => ({
  // A send was just stored: go now, without making its request wait.
  kick: () => jobs.kick(OUTBOX_QUEUE),
});

// How the outbox queue's jobs are sent (background.ts runs it).
export const outboxWorker = (
  deps: Deps,
  log: FastifyBaseLogger,
  retryBaseMs = 5000,
): QueueOptions<OutboxPayload> => {
  const { db, channels, uploads, events } = deps;

  // The messages of some sends, with their conversation's number and the provider id of what they
  // quote, in one statement.
  const loadAll = async (ids: number[]) => {
    const quoted = alias(messages, 'quoted');
    const rows = await db
      .select({
        message: messages,
        isGroup: tickets.isGroup,
        to: contacts.number,
        quotedProviderId: quoted.providerId,
      })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
      .where(inArray(messages.id, ids));
    return new Map(rows.map((row) => [row.message.id, row]));
  };
  type Loaded = Awaited<ReturnType<typeof loadAll>> extends Map<number, infer R> ? R : never;

  const send = async (job: Job<OutboxPayload>, found: Loaded | undefined): Promise<SendResult> => {
    const { messageId, media, template } = job.payload;
    if (!found) throw new Undeliverable('The message or its conversation no longer exists');
    if (found.message.isDeleted) throw new Undeliverable('The message was deleted before sending');
    // Sent by an earlier attempt whose node died before the job was marked done.
    if (found.message.providerId)
      return { providerId: found.message.providerId, timestamp: found.message.createdAt };
    if (media && !(await uploads.exists(found.message.companyId, media.storedName)))
      throw new Undeliverable('The file to send is no longer stored');
    const request: SendRequest = {
      // A repeat of this send (its node died before recording it) is the same message.
      idempotencyKey: `message:${messageId}`,
      to: found.to,
      body: found.message.body,
      isGroup: found.isGroup,
      ...(found.message.isForwarded ? { forwarded: true } : {}),
      ...(template ? { template } : {}),
      // Quoting a message that has no provider id yet (not sent itself) sends without the quote.
      ...(found.quotedProviderId ? { quotedId: found.quotedProviderId } : {}),
      ...(media
        ? {
            media: {
              storedName: media.storedName,
              fileName: media.fileName,
              mimetype: media.mimetype,
              mediaType: media.mediaType,
            },
          }
        : {}),
    };
    return channels.send(found.message.whatsappId, request);
  };

  // WhatsApp has the messages: a failure to record them must not make their jobs send them again.
  // One statement for all of them.
  const recordSent = async (sent: { job: Job<OutboxPayload>; result: SendResult }[]) => {
    if (!sent.length) return;
    try {
      await events.transaction(db, async (tx, raise) => {
        const updated = await queryRows<Record<string, unknown>>(
          tx,
          sql`update ${messages}
                 set provider_id = v.provider_id,
                     -- Drivers report later acks through the tickets engine; an early one may be here.
                     ack = greatest(messages.ack, v.ack),
                     updated_at = now()
                from unnest(${arrayParam(sent.map((s) => s.job.payload.messageId))}::int[],
                            ${arrayParam(sent.map((s) => s.result.providerId))}::text[],
                            ${arrayParam(sent.map((s) => s.result.ack ?? 1))}::int[])
                     as v(id, provider_id, ack)
               where messages.id = v.id
              returning messages.*`,
        );
        updated.map(messageRow).forEach((row) => raise(messageUpdated(row, 'sent')));
      });
    } catch (err) {
      log.error(
        {
          err,
          jobIds: sent.map((s) => s.job.id),
          messageIds: sent.map((s) => s.job.payload.messageId),
        },
        'messages sent but not recorded',
      );
    }
  };

  // A batch's sends go side by side (the claim gives at most one per conversation, so each
  // conversation's order holds), then are recorded together.
  const sendAll = async (batch: Job<OutboxPayload>[]) => {
    const loaded = await loadAll(batch.map((job) => job.payload.messageId));
    const outcomes = await Promise.allSettled(
      batch.map((job) => send(job, loaded.get(job.payload.messageId))),
    );
    await recordSent(
      outcomes.flatMap((outcome, i) =>
        outcome.status === 'fulfilled' ? [{ job: batch[i], result: outcome.value }] : [],
      ),
    );
    return outcomes.map((outcome): PromiseSettledResult<void> =>
      outcome.status === 'fulfilled' ? { status: 'fulfilled', value: undefined } : outcome,
    );
  };

  return {
    handle: async (job) => {
      const [outcome] = await sendAll([job]);
      if (outcome.status === 'rejected') throw outcome.reason;
    },
    handleBatch: sendAll,
    maxAttempts: OUTBOX_MAX_ATTEMPTS,
    retryDelayMs: (attempts) => retryDelay(attempts, retryBaseMs),
    permanent: isPermanentSendFailure,
    // The chat shows the message as failed, with a retry.
    onFailed: (job) =>
      events.transaction(db, async (tx, raise) => {
        const failed = await tx
          .select({ id: messages.id, companyId: messages.companyId, ticketId: messages.ticketId })
          .from(messages)
          .where(eq(messages.id, job.payload.messageId));
        failed.forEach((row) => raise(messageUpdated(row, 'failed')));
      }),
    intervalMs: 2000,
  };
};
