import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { preparedPer } from '../../db/prepared';
import { whatsapps } from '../../db/schema';
import {
  checkedPayload,
  enqueueJobs,
  insertJobsSql,
  jobQueue,
  PermanentJobError,
  type Jobs,
  type QueueOptions,
} from '../../jobs/queue';
import type { ChannelManager } from '../manager';
import { mapWebhook, WebhookPayloadError } from './payloads';

// Processes stored Cloud API webhooks as jobs of the one background queue (jobs/queue.ts). The route
// stores a payload, one job per connection it concerns, before answering Meta, so nothing is lost if
// this process dies; several API nodes share the jobs, and a crashed node's are taken over (at once on
// PostgreSQL, else when their lease runs out). Delivery is at least once: a retried job hands its
// events on again, and the layers above dedupe messages by provider id and treat acks as a high-water
// mark (acks.ts).

export const WEBHOOK_QUEUE = 'cloud.webhook';
const WEEK_MS = 7 * 24 * 3600_000;

// The connection the payload is for, and Meta's payload as it came (mapWebhook reads it).
export const webhookQueue = jobQueue(
  WEBHOOK_QUEUE,
  z.object({ whatsappId: z.number().int(), body: z.unknown() }),
);
export type WebhookJob = z.infer<typeof webhookQueue.payload>;

// What the webhook route reads of a connection to accept a payload for it.
export type WebhookConnection = {
  id: number;
  companyId: number;
  cloudPhoneNumberId: string | null;
  cloudAppSecret: string | null;
};

// The route's usual store, for several webhooks at once: each one-connection payload's job, inserted
// only while its connection row still says what the route checked the signature with. One statement
// (one snapshot, one commit); answers the positions (1-based) of the webhooks stored. Prepared: it
// runs for every webhook.
const storeIfCurrentQuery = preparedPer((db) => {
  const matching = db.$with('matching', { n: sql<number>`n`.as('n') }).as(
    sql`select x.n, x.payload::jsonb as payload, ${whatsapps.companyId} as company_id
          from unnest(${sql.placeholder('ids')}::integer[], ${sql.placeholder('phoneNumberIds')}::text[],
                      ${sql.placeholder('appSecrets')}::text[], ${sql.placeholder('payloads')}::text[])
               with ordinality as x(id, phone_number_id, app_secret, payload, n)
          join ${whatsapps} on ${whatsapps.id} = x.id and ${whatsapps.provider} = 'cloud'
            and ${whatsapps.cloudPhoneNumberId} = x.phone_number_id
            and ${whatsapps.cloudAppSecret} = x.app_secret`,
  );
  // Runs whether or not the answer reads it (a data-modifying WITH always does).
  const stored = db.$with('stored', { n: sql<number>`1`.as('n') }).as(
    insertJobsSql(webhookQueue, {
      from: sql`from matching order by n`,
      payload: sql`payload`,
      companyId: sql`company_id`,
    }),
  );
  return db
    .with(matching, stored)
    .select({ n: matching.n })
    .from(matching)
    .prepare('cloud_webhook_store');
});

type WaitingWebhook = {
  connection: WebhookConnection;
  body: unknown;
  settle: (stored: boolean) => void;
  fail: (error: unknown) => void;
};

// How the stored webhooks are processed (background.ts runs the queue).
export const webhookWorker = (options: {
  db: Db;
  channels: Pick<ChannelManager, 'deliver'>;
}): QueueOptions<WebhookJob> => {
  const { db, channels } = options;
  return {
    handle: async (job) => {
      const [connection] = await db
        .select()
        .from(whatsapps)
        .where(eq(whatsapps.id, job.payload.whatsappId));
      // Deleted since, or no longer a Cloud API connection: nobody to hand the events to.
      if (!connection || connection.provider !== 'cloud' || !connection.cloudPhoneNumberId)
        throw new PermanentJobError('The connection no longer exists');
      // A payload may concern several connections; each has its own job and takes only its events.
      const events = mapWebhook(job.payload.body)
        .filter((g) => g.phoneNumberId === connection.cloudPhoneNumberId)
        .flatMap((g) => g.events);
      for (const event of events) await channels.deliver(connection, event);
    },
    // Retrying cannot fix a malformed payload.
    permanent: (error) => error instanceof WebhookPayloadError,
    maxAttempts: 10,
    intervalMs: 10_000,
    // Kept a week for support questions.
    keepFailedMs: WEEK_MS,
  };
};

export const createWebhookInbox = (options: { db: Db; jobs: Pick<Jobs, 'kick'> }) => {
  const { db, jobs } = options;

  // Webhooks that arrive while a store is in flight wait for it, then go together in the next
  // statement: one round trip and one commit for all of them instead of one each (Meta posts hundreds
  // a second at busy times). One arriving alone goes at once, so a quiet inbox waits for nothing.
  let waiting: WaitingWebhook[] = [];
  let storing = false;
  const storeWaiting = async () => {
    storing = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      try {
        const rows = await storeIfCurrentQuery(db).execute({
          ids: batch.map((w) => w.connection.id),
          phoneNumberIds: batch.map((w) => w.connection.cloudPhoneNumberId),
          appSecrets: batch.map((w) => w.connection.cloudAppSecret),
          payloads: batch.map((w) =>
            JSON.stringify(
              checkedPayload(webhookQueue, { whatsappId: w.connection.id, body: w.body }),
            ),
          ),
        });
        const stored = new Set(rows.map((r) => Number(r.n)));
        if (stored.size) jobs.kick(WEBHOOK_QUEUE);
        batch.forEach((w, i) => w.settle(stored.has(i + 1)));
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    storing = false;
  };

  return {
    // Stores a one-connection payload only if the connection is still the Cloud API connection of
    // that phone number with that app secret, checked by the INSERT itself; false when it no longer
    // is, and nothing is stored. Resolves once the job is committed.
    storeIfCurrent: (connection: WebhookConnection, body: unknown) =>
      new Promise<boolean>((settle, fail) => {
        waiting.push({ connection, body, settle, fail });
        if (!storing) void storeWaiting();
      }),
    // One statement: every connection's job is stored, or none is and Meta redelivers.
    store: async (connections: { id: number; companyId: number }[], body: unknown) => {
      await enqueueJobs(
        db,
        webhookQueue,
        connections.map((c) => ({ payload: { whatsappId: c.id, body }, companyId: c.companyId })),
      );
      jobs.kick(WEBHOOK_QUEUE);
    },
  };
};
