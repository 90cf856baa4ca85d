import { inArray, sql } from 'drizzle-orm';
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
  type Job,
  type Jobs,
  type QueueOptions,
} from '../../jobs/queue';
import { groupCommit } from '../../platform/group-commit';
import type { ChannelEvent } from '../driver';
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

// The connection the payload is for, and Meta's payload as it came (mapWebhook reads it). A payload
// with the messages of several chats is stored once per chat, each job taking its chat's messages
// (the first also the statuses): so each job has one chat's key, and a chat's messages are handled
// one job at a time, in the order Meta sent them, on every node.
export const webhookQueue = jobQueue(
  WEBHOOK_QUEUE,
  z.object({ whatsappId: z.number().int(), body: z.unknown(), chat: z.string().optional() }),
);
export type WebhookJob = z.infer<typeof webhookQueue.payload>;

// The chat a Cloud API event belongs to (statuses belong to none); a reaction goes with its chat's
// messages, after the message it reacts to.
const chatOf = (event: ChannelEvent) =>
  event.type === 'message' ? event.message.from : event.type === 'reaction' ? event.from : null;

// The chats whose messages a connection's events hold, in order of first appearance.
const chatsOf = (events: ChannelEvent[]) => [
  ...new Set(events.map(chatOf).filter((chat) => chat !== null)),
];

// What the stored jobs of a connection's events are: one per chat (one without a key for statuses
// alone).
const jobsOf = (whatsappId: number, events: ChannelEvent[]) => {
  const chats = chatsOf(events);
  if (chats.length <= 1)
    return [{ chat: undefined, key: chats.length ? keyOf(whatsappId, chats[0]) : null }];
  return chats.map((chat) => ({ chat, key: keyOf(whatsappId, chat) }));
};

const keyOf = (whatsappId: number, chat: string) => `${whatsappId}:${chat}`;

// The events a job hands on: all of them, or its chat's messages (and the statuses, for the first chat).
const eventsOfJob = (events: ChannelEvent[], chat: string | undefined) => {
  if (chat === undefined) return events;
  const first = chatsOf(events)[0];
  return events.filter((event) => {
    const of = chatOf(event);
    return of === chat || (of === null && chat === first);
  });
};

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
    sql`select x.n, x.payload::jsonb as payload, x.key, ${whatsapps.companyId} as company_id
          from unnest(${sql.placeholder('ids')}::integer[], ${sql.placeholder('phoneNumberIds')}::text[],
                      ${sql.placeholder('appSecrets')}::text[], ${sql.placeholder('payloads')}::text[],
                      ${sql.placeholder('keys')}::text[], ${sql.placeholder('positions')}::integer[])
               as x(id, phone_number_id, app_secret, payload, key, n)
          join ${whatsapps} on ${whatsapps.id} = x.id and ${whatsapps.provider} = 'cloud'
            and ${whatsapps.cloudPhoneNumberId} = x.phone_number_id
            and ${whatsapps.cloudAppSecret} = x.app_secret`,
  );
  // Runs whether or not the answer reads it (a data-modifying WITH always does).
  const stored = db.$with('stored', { n: sql<number>`1`.as('n') }).as(
    insertJobsSql(webhookQueue, {
      from: sql`from matching order by n`,
      payload: sql`payload`,
      key: sql`key`,
      companyId: sql`company_id`,
    }),
  );
  return db
    .with(matching, stored)
    .selectDistinct({ n: matching.n })
    .from(matching)
    .prepare('cloud_webhook_store');
});

type WaitingWebhook = {
  connection: WebhookConnection;
  body: unknown;
  jobs: { chat: string | undefined; key: string | null }[];
};

// How the stored webhooks are processed (background.ts runs the queue): a claimed batch's jobs
// together, so that their messages reach the batched ingest together (tickets.engine.ts); each job's
// events in order. The claim never puts two jobs of one chat in a batch.
export const webhookWorker = (options: {
  db: Db;
  channels: Pick<ChannelManager, 'deliver'>;
}): QueueOptions<WebhookJob> => {
  const { db, channels } = options;
  const handleJob = async (
    job: Job<WebhookJob>,
    connection: typeof whatsapps.$inferSelect | undefined,
  ) => {
    // Deleted since, or no longer a Cloud API connection: nobody to hand the events to.
    if (!connection || connection.provider !== 'cloud' || !connection.cloudPhoneNumberId)
      throw new PermanentJobError('The connection no longer exists');
    // A payload may concern several connections; each has its own job and takes only its events.
    const events = mapWebhook(job.payload.body)
      .filter((g) => g.phoneNumberId === connection.cloudPhoneNumberId)
      .flatMap((g) => g.events);
    for (const event of eventsOfJob(events, job.payload.chat))
      await channels.deliver(connection, event);
  };
  const connectionsOf = async (batch: Job<WebhookJob>[]) => {
    const ids = [...new Set(batch.map((job) => job.payload.whatsappId))];
    const rows = await db.select().from(whatsapps).where(inArray(whatsapps.id, ids));
    return new Map(rows.map((row) => [row.id, row]));
  };
  return {
    handle: async (job) => handleJob(job, (await connectionsOf([job])).get(job.payload.whatsappId)),
    handleBatch: async (batch) => {
      const connections = await connectionsOf(batch);
      return Promise.allSettled(
        batch.map((job) => handleJob(job, connections.get(job.payload.whatsappId))),
      );
    },
    // A batch is what the ingest stores together at most (tickets.engine.ts).
    batchSize: 100,
    // One batch is stored while the next is read and mapped (the ingest stores one at a time).
    batchesAtOnce: 2,
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

  // Webhooks that arrive while a store is in flight go together in the next statement (Meta posts
  // hundreds a second at busy times); each is answered once its rows are committed.
  const storeTogether = groupCommit(async (batch: WaitingWebhook[]) => {
    const rows = batch.flatMap((w, i) => w.jobs.map((job) => ({ webhook: w, n: i + 1, ...job })));
    const storedRows = await storeIfCurrentQuery(db).execute({
      ids: rows.map((r) => r.webhook.connection.id),
      phoneNumberIds: rows.map((r) => r.webhook.connection.cloudPhoneNumberId),
      appSecrets: rows.map((r) => r.webhook.connection.cloudAppSecret),
      payloads: rows.map((r) =>
        JSON.stringify(
          checkedPayload(webhookQueue, {
            whatsappId: r.webhook.connection.id,
            body: r.webhook.body,
            ...(r.chat === undefined ? {} : { chat: r.chat }),
          }),
        ),
      ),
      keys: rows.map((r) => r.key),
      positions: rows.map((r) => r.n),
    });
    const stored = new Set(storedRows.map((r) => Number(r.n)));
    if (stored.size) jobs.kick(WEBHOOK_QUEUE);
    return batch.map((_, i) => stored.has(i + 1));
  });

  return {
    // Stores a one-connection payload only if the connection is still the Cloud API connection of
    // that phone number with that app secret, checked by the INSERT itself; false when it no longer
    // is, and nothing is stored. Resolves once the job is committed.
    storeIfCurrent: (connection: WebhookConnection, body: unknown, events: ChannelEvent[]) =>
      storeTogether({ connection, body, jobs: jobsOf(connection.id, events) }),
    // One statement: every connection's job is stored, or none is and Meta redelivers.
    store: async (
      connections: { id: number; companyId: number; events: ChannelEvent[] }[],
      body: unknown,
    ) => {
      await enqueueJobs(
        db,
        webhookQueue,
        connections.flatMap((c) =>
          jobsOf(c.id, c.events).map(({ chat, key }) => ({
            payload: { whatsappId: c.id, body, ...(chat === undefined ? {} : { chat }) },
            key,
            companyId: c.companyId,
          })),
        ),
      );
      jobs.kick(WEBHOOK_QUEUE);
    },
  };
};
