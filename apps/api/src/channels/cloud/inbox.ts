import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { webhookEvents, whatsapps } from '../../db/schema';
import type { ChannelManager } from '../manager';
import { mapWebhook, WebhookPayloadError } from './payloads';

// Processes stored Cloud API webhooks. The route stores a payload before answering Meta, so nothing is
// lost if this process dies; here rows are claimed with a lease (locked_until), so several API nodes
// share the work and a crashed node's rows become claimable again when its lease runs out.
// Delivery is at least once: a retried row hands its events on again, and the layers above dedupe
// messages by provider id and treat acks as a high-water mark (acks.ts).

const MAX_ATTEMPTS = 10;
const INTERVAL_MS = 10_000;
// Processed payloads are kept a week for support questions, then dropped (checked hourly).
const KEEP_PROCESSED_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

type Row = typeof webhookEvents.$inferSelect;

export type WebhookInbox = ReturnType<typeof createWebhookInbox>;

export const createWebhookInbox = (options: {
  db: Db;
  log: FastifyBaseLogger;
  channels: Pick<ChannelManager, 'deliver'>;
  batchSize?: number;
  lockMs?: number;
  intervalMs?: number;
}) => {
  const { db, log, channels } = options;
  const batchSize = options.batchSize ?? 20;
  const lockMs = options.lockMs ?? 60_000;
  const intervalMs = options.intervalMs ?? INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let prunedAt = 0;

  const prune = async () => {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    await db
      .delete(webhookEvents)
      .where(lt(webhookEvents.processedAt, new Date(Date.now() - KEEP_PROCESSED_MS)));
  };

  // One statement, so two nodes never claim the same row; SKIP LOCKED lets them claim side by side.
  const claim = () =>
    db
      .update(webhookEvents)
      .set({
        lockedUntil: sql`now() + ${lockMs}::int * interval '1 millisecond'`,
        attempts: sql`${webhookEvents.attempts} + 1`,
      })
      .where(
        inArray(
          webhookEvents.id,
          db
            .select({ id: webhookEvents.id })
            .from(webhookEvents)
            .where(
              and(
                isNull(webhookEvents.processedAt),
                or(isNull(webhookEvents.lockedUntil), lt(webhookEvents.lockedUntil, sql`now()`)),
                lt(webhookEvents.attempts, MAX_ATTEMPTS),
              ),
            )
            .orderBy(asc(webhookEvents.id))
            .limit(batchSize)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning();

  const finish = (id: number, error: string | null) =>
    db
      .update(webhookEvents)
      .set({ processedAt: new Date(), lockedUntil: null, error })
      .where(and(eq(webhookEvents.id, id), isNull(webhookEvents.processedAt)));

  const processRow = async (row: Row) => {
    const [connection] = row.whatsappId
      ? await db.select().from(whatsapps).where(eq(whatsapps.id, row.whatsappId))
      : [];
    // Deleted since, or no longer a Cloud API connection: nobody to hand the events to.
    if (!connection || connection.provider !== 'cloud' || !connection.cloudPhoneNumberId) {
      await finish(row.id, 'The connection no longer exists');
      return;
    }
    const groups = mapWebhook(row.payload);
    // A payload may concern several connections; each has its own row and takes only its events.
    const events = groups
      .filter((g) => g.phoneNumberId === connection.cloudPhoneNumberId)
      .flatMap((g) => g.events);
    for (const event of events) await channels.deliver(connection, event);
    await finish(row.id, null);
  };

  // Claims and processes one batch; answers how many rows were handled for good.
  const processPending = async (): Promise<number> => {
    const rows = (await claim()).sort((a, b) => a.id - b.id);
    let done = 0;
    for (const row of rows) {
      try {
        await processRow(row);
        done += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof WebhookPayloadError) {
          // Retrying cannot fix a malformed payload.
          log.warn({ webhookEventId: row.id, reason: message }, 'webhook payload rejected');
          await finish(row.id, message);
          done += 1;
          continue;
        }
        const final = row.attempts >= MAX_ATTEMPTS;
        log[final ? 'error' : 'warn'](
          { err: error, webhookEventId: row.id, attempts: row.attempts },
          final ? 'webhook event failed for good' : 'webhook event failed, will retry',
        );
        await db
          .update(webhookEvents)
          .set({ lockedUntil: null, error: message.slice(0, 2000) })
          .where(eq(webhookEvents.id, row.id));
      }
    }
    return done;
  };

  // Runs until no full batch is left; kicks that arrive meanwhile make it look once more.
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
          while (!stopped && (await processPending()) === batchSize);
          if (!stopped) await prune();
        } catch (err) {
          log.error({ err }, 'webhook inbox run failed');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
  };

  return {
    processPending,
    prune,

    // Processes what an earlier process left behind, then keeps looking every intervalMs.
    start() {
      stopped = false;
      drain();
      clearInterval(timer);
      timer = setInterval(drain, intervalMs);
      timer.unref();
    },

    // A webhook was just stored: process it soon, without making its request wait.
    kick() {
      setImmediate(drain);
    },

    async stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
};
