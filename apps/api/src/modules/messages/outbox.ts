import { access } from 'node:fs/promises';
import { and, asc, eq, inArray, lt, lte, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import { ChannelError, type SendRequest, type SendResult } from '../../channels/driver';
import { contacts, messageOutbox, messages, tickets } from '../../db/schema';
import type { OutgoingMedia } from './message-form';
import { emitMessages } from './message-views';

// Sends what agents wrote. A send is stored (message + outbox row, one transaction) before the API
// answers, and this worker hands it to the connection's session afterwards, retrying with backoff
// while the session is down, so an accepted message is never lost. Rows are claimed in one
// statement with a lease (next_attempt_at while 'sending'), so several API nodes share the work and
// a node that died mid-send leaves rows another node takes once the lease runs out. Delivery is
// therefore at least once: a node dying between WhatsApp's answer and our commit resends.
// A ticket's messages leave in the order they were written: a row waits while an earlier row of the
// same ticket is still pending or sending.

export const OUTBOX_MAX_ATTEMPTS = 8;
const INTERVAL_MS = 2000;
const LEASE_MS = 60_000;
const MAX_DELAY_MS = 10 * 60_000;
// Sent rows are kept a week for support questions, then dropped (checked hourly).
const KEEP_SENT_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

// What a row carries beyond its message: the stored file's details (the message row has no mimetype).
export type OutboxPayload = { media: OutgoingMedia | null };

type Row = typeof messageOutbox.$inferSelect;
type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads' | 'channels'>;

// base, 3×base, 9×base … (5 s, 15 s, 45 s with the default base), never more than 10 minutes.
export const retryDelay = (attempts: number, baseMs: number) =>
  Math.min(baseMs * 3 ** Math.max(0, attempts - 1), MAX_DELAY_MS);

// A send that no retry can make work.
class Undeliverable extends Error {}

export type Outbox = ReturnType<typeof createOutbox>;

export const createOutbox = (options: {
  deps: Deps;
  log: FastifyBaseLogger;
  retryBaseMs?: number;
  maxAttempts?: number;
  batchSize?: number;
  leaseMs?: number;
  intervalMs?: number;
}) => {
  const { deps, log } = options;
  const { db, channels, uploads } = deps;
  const retryBaseMs = options.retryBaseMs ?? 5000;
  const maxAttempts = options.maxAttempts ?? OUTBOX_MAX_ATTEMPTS;
  const batchSize = options.batchSize ?? 20;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const intervalMs = options.intervalMs ?? INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  let wakeTimer: NodeJS.Timeout | undefined;
  let wakeAt = Infinity;
  let stopped = true;
  let running: Promise<void> | undefined;
  let again = false;
  let prunedAt = 0;

  const earlier = alias(messageOutbox, 'earlier');
  // One statement, so two nodes never claim the same row; SKIP LOCKED lets them claim side by side.
  const claim = () =>
    db
      .update(messageOutbox)
      .set({
        status: 'sending',
        attempts: sql`${messageOutbox.attempts} + 1`,
        nextAttemptAt: sql`now() + ${leaseMs}::int * interval '1 millisecond'`,
        updatedAt: new Date(),
      })
      .where(
        inArray(
          messageOutbox.id,
          db
            .select({ id: messageOutbox.id })
            .from(messageOutbox)
            .where(
              and(
                or(
                  and(
                    eq(messageOutbox.status, 'pending'),
                    lte(messageOutbox.nextAttemptAt, sql`now()`),
                  ),
                  // Claimed by a node that never finished: its lease ran out.
                  and(
                    eq(messageOutbox.status, 'sending'),
                    lt(messageOutbox.nextAttemptAt, sql`now()`),
                  ),
                ),
                notExists(
                  db
                    .select({ id: earlier.id })
                    .from(earlier)
                    .where(
                      and(
                        eq(earlier.ticketId, messageOutbox.ticketId),
                        lt(earlier.id, messageOutbox.id),
                        inArray(earlier.status, ['pending', 'sending']),
                      ),
                    ),
                ),
              ),
            )
            .orderBy(asc(messageOutbox.id))
            .limit(batchSize)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning();

  // Claimed rows this process will not get to (it is stopping) are due again at once, for the next.
  const release = (ids: number[]) =>
    ids.length
      ? db
          .update(messageOutbox)
          .set({
            status: 'pending',
            attempts: sql`greatest(${messageOutbox.attempts} - 1, 0)`,
            nextAttemptAt: sql`now()`,
          })
          .where(and(inArray(messageOutbox.id, ids), eq(messageOutbox.status, 'sending')))
      : undefined;

  const prune = async () => {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    await db
      .delete(messageOutbox)
      .where(
        and(
          eq(messageOutbox.status, 'sent'),
          lt(messageOutbox.updatedAt, new Date(Date.now() - KEEP_SENT_MS)),
        ),
      );
  };

  const send = async (row: Row): Promise<SendResult> => {
    if (!row.messageId) throw new Undeliverable('The row names no message');
    const [found] = await db
      .select({ message: messages, isGroup: tickets.isGroup, to: contacts.number })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(eq(messages.id, row.messageId));
    if (!found) throw new Undeliverable('The message or its conversation no longer exists');
    if (found.message.isDeleted) throw new Undeliverable('The message was deleted before sending');
    // Quoting a message that has no provider id yet (not sent itself) sends without the quote.
    const [quoted] = found.message.quotedMsgId
      ? await db
          .select({ providerId: messages.providerId })
          .from(messages)
          .where(eq(messages.id, found.message.quotedMsgId))
      : [];
    const media = (row.payload as OutboxPayload).media;
    const file = media ? uploads.pathOf(row.companyId, media.storedName) : undefined;
    if (
      media &&
      !(
        file &&
        (await access(file).then(
          () => true,
          () => false,
        ))
      )
    )
      throw new Undeliverable('The file to send is no longer stored');
    const request: SendRequest = {
      to: found.to,
      body: found.message.body,
      isGroup: found.isGroup,
      ...(quoted?.providerId ? { quotedId: quoted.providerId } : {}),
      ...(media && file
        ? {
            media: {
              path: file,
              fileName: media.fileName,
              mimetype: media.mimetype,
              mediaType: media.mediaType,
            },
          }
        : {}),
    };
    return channels.send(row.whatsappId, request);
  };

  const recordSent = async (row: Row, result: SendResult) => {
    const updated = await db.transaction(async (tx) => {
      const rows = await tx
        .update(messages)
        .set({
          providerId: result.providerId,
          // Drivers report later acks through the tickets engine; an early one may already be here.
          ack: sql`greatest(${messages.ack}, ${result.ack ?? 1})`,
          updatedAt: new Date(),
        })
        .where(eq(messages.id, row.messageId!))
        .returning();
      await tx
        .update(messageOutbox)
        .set({ status: 'sent', lastError: null, updatedAt: new Date() })
        .where(eq(messageOutbox.id, row.id));
      return rows;
    });
    await emitMessages(deps, row.companyId, 'update', updated);
  };

  // Wakes the worker for a retry due before the next regular look.
  const wake = (delayMs: number) => {
    if (stopped || delayMs >= intervalMs) return;
    const at = Date.now() + delayMs;
    if (wakeTimer && wakeAt <= at) return;
    clearTimeout(wakeTimer);
    wakeAt = at;
    wakeTimer = setTimeout(() => {
      wakeTimer = undefined;
      wakeAt = Infinity;
      drain();
    }, delayMs + 5);
    wakeTimer.unref();
  };

  const recordFailure = async (row: Row, error: unknown) => {
    const code = error instanceof ChannelError ? error.code : undefined;
    const reason = error instanceof Error ? error.message : String(error);
    const lastError = (code ? `${code}: ${reason}` : reason).slice(0, 2000);
    const final =
      error instanceof Undeliverable ||
      code === 'ERR_WAPP_INVALID_CONTACT' ||
      row.attempts >= maxAttempts;
    log[final ? 'error' : 'warn'](
      { err: error, outboxId: row.id, messageId: row.messageId, attempts: row.attempts },
      final ? 'message send failed for good' : 'message send failed, will retry',
    );
    if (final) {
      await db
        .update(messageOutbox)
        .set({ status: 'failed', lastError, updatedAt: new Date() })
        .where(and(eq(messageOutbox.id, row.id), eq(messageOutbox.status, 'sending')));
      const failed = row.messageId
        ? await db.select().from(messages).where(eq(messages.id, row.messageId))
        : [];
      await emitMessages(deps, row.companyId, 'update', failed);
      return;
    }
    const delay = retryDelay(row.attempts, retryBaseMs);
    await db
      .update(messageOutbox)
      .set({
        status: 'pending',
        lastError,
        nextAttemptAt: sql`now() + ${delay}::int * interval '1 millisecond'`,
        updatedAt: new Date(),
      })
      .where(and(eq(messageOutbox.id, row.id), eq(messageOutbox.status, 'sending')));
    wake(delay);
  };

  // Claims and sends one batch; answers how many rows were claimed and how many went out.
  const processPending = async () => {
    const rows = (await claim()).sort((a, b) => a.id - b.id);
    let sent = 0;
    for (const [index, row] of rows.entries()) {
      if (stopped) {
        await release(rows.slice(index).map((r) => r.id));
        break;
      }
      let result: SendResult;
      try {
        result = await send(row);
      } catch (error) {
        await recordFailure(row, error);
        continue;
      }
      try {
        await recordSent(row, result);
        sent += 1;
      } catch (err) {
        // WhatsApp has the message: never resend it because our bookkeeping failed.
        log.error({ err, outboxId: row.id }, 'message sent but not recorded');
        await db
          .update(messageOutbox)
          .set({ status: 'sent', lastError: 'sent; recording the provider id failed' })
          .where(eq(messageOutbox.id, row.id))
          .catch(() => undefined);
      }
    }
    return { claimed: rows.length, sent };
  };

  // Runs while there is work: a full batch, or a sent row that may have freed its ticket's next one.
  const drain = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          for (;;) {
            if (stopped) break;
            const { claimed, sent } = await processPending();
            if (claimed < batchSize && sent === 0) break;
          }
          if (!stopped) await prune();
        } catch (err) {
          log.error({ err }, 'message outbox run failed');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
  };

  return {
    processPending,

    // Sends what an earlier process left behind, then keeps looking every intervalMs.
    start() {
      stopped = false;
      drain();
      clearInterval(timer);
      timer = setInterval(drain, intervalMs);
      timer.unref();
    },

    // A send was just stored: go now, without making its request wait.
    kick() {
      setImmediate(drain);
    },

    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(wakeTimer);
      timer = undefined;
      wakeTimer = undefined;
      await running;
    },
  };
};
