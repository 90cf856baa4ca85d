import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, Outbox } from '../../deps';
import { ChannelError, type SendRequest, type SendResult } from '../../channels/driver';
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

  const send = async (job: Job<OutboxPayload>): Promise<SendResult> => {
    const { messageId, media, template } = job.payload;
    const [found] = await db
      .select({ message: messages, isGroup: tickets.isGroup, to: contacts.number })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(eq(messages.id, messageId));
    if (!found) throw new Undeliverable('The message or its conversation no longer exists');
    if (found.message.isDeleted) throw new Undeliverable('The message was deleted before sending');
    // Sent by an earlier attempt whose node died before the job was marked done.
    if (found.message.providerId)
      return { providerId: found.message.providerId, timestamp: found.message.createdAt };
    // Quoting a message that has no provider id yet (not sent itself) sends without the quote.
    const [quoted] = found.message.quotedMsgId
      ? await db
          .select({ providerId: messages.providerId })
          .from(messages)
          .where(eq(messages.id, found.message.quotedMsgId))
      : [];
    if (media && !(await uploads.exists(found.message.companyId, media.storedName)))
      throw new Undeliverable('The file to send is no longer stored');
    const request: SendRequest = {
      // A repeat of this send (its node died before recording it) is the same message.
      idempotencyKey: `message:${messageId}`,
      to: found.to,
      body: found.message.body,
      isGroup: found.isGroup,
      ...(template ? { template } : {}),
      ...(quoted?.providerId ? { quotedId: quoted.providerId } : {}),
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

  // WhatsApp has the message: a failure to record it must not make the job send it again.
  const recordSent = async (job: Job<OutboxPayload>, result: SendResult) => {
    try {
      await events.transaction(db, async (tx, raise) => {
        const updated = await tx
          .update(messages)
          .set({
            providerId: result.providerId,
            // Drivers report later acks through the tickets engine; an early one may already be here.
            ack: sql`greatest(${messages.ack}, ${result.ack ?? 1})`,
            updatedAt: new Date(),
          })
          .where(eq(messages.id, job.payload.messageId))
          .returning();
        updated.forEach((row) => raise(messageUpdated(row, 'sent')));
      });
    } catch (err) {
      log.error(
        { err, jobId: job.id, messageId: job.payload.messageId },
        'message sent but not recorded',
      );
    }
  };

  return {
    handle: async (job) => recordSent(job, await send(job)),
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
