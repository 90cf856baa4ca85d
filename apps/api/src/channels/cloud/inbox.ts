import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { whatsapps } from '../../db/schema';
import { enqueueJobs, PermanentJobError, type Jobs } from '../../jobs/queue';
import type { ChannelManager } from '../manager';
import { mapWebhook, WebhookPayloadError } from './payloads';

// Processes stored Cloud API webhooks as jobs of the one background queue (jobs/queue.ts). The route
// stores a payload, one job per connection it concerns, before answering Meta, so nothing is lost if
// this process dies; several API nodes share the jobs, and a crashed node's are taken over when their
// lease runs out. Delivery is at least once: a retried job hands its events on again, and the layers
// above dedupe messages by provider id and treat acks as a high-water mark (acks.ts).

export const WEBHOOK_QUEUE = 'cloud.webhook';
const WEEK_MS = 7 * 24 * 3600_000;

export type WebhookJob = { whatsappId: number; body: unknown };

export type WebhookInbox = ReturnType<typeof createWebhookInbox>;

export const createWebhookInbox = (options: {
  db: Db;
  jobs: Jobs;
  channels: Pick<ChannelManager, 'deliver'>;
}) => {
  const { db, channels } = options;

  const queue = options.jobs.define<WebhookJob>({
    name: WEBHOOK_QUEUE,
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
  });

  return {
    // One statement: every connection's job is stored, or none is and Meta redelivers.
    store: async (connections: { id: number; companyId: number }[], body: unknown) => {
      await enqueueJobs<WebhookJob>(
        db,
        WEBHOOK_QUEUE,
        connections.map((c) => ({ payload: { whatsappId: c.id, body }, companyId: c.companyId })),
      );
      queue.kick();
    },
  };
};
