import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamps } from './_columns';
import { companies } from './companies';

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

// The one durable queue of background work (jobs/queue.ts, the only code that writes it): messages to
// send, webhooks to process, AI and integration turns, campaigns, billing, recurring jobs
// (background.ts lists them).
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    queue: text().notNull(),
    // Jobs of one queue with the same key run one at a time, in the order they were queued.
    key: text(),
    // What the job is about ('message:12'), to find, retry or withdraw it; at most one live job per ref.
    ref: text(),
    // The tenant, when there is one: a deleted company's work goes with it.
    companyId: integer().references(() => companies.id, { onDelete: 'cascade' }),
    payload: jsonb().$type<unknown>().notNull(),
    status: text().$type<JobStatus>().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    // When a pending job is due; while running, when its node's claim runs out.
    runAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // While running on PostgreSQL, the claiming node's key (channels/leases.ts): once that node's
    // lock is gone (the process died), others take the job without waiting for runAt.
    claimedBy: integer(),
    lastError: text(),
    // Work was queued for this ref while the job ran (EnqueueOptions.againIfRunning): what the run
    // read may be older than it, so the job runs once more when it finishes.
    again: boolean().notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.queue, t.runAt)
      .where(sql`status in ('pending', 'running')`),
    index('jobs_key_idx')
      .on(t.queue, t.key, t.id)
      .where(sql`key is not null and status in ('pending', 'running')`),
    index('jobs_ref_idx').on(t.queue, t.ref),
    uniqueIndex('jobs_live_ref_idx')
      .on(t.queue, t.ref)
      .where(sql`ref is not null and status in ('pending', 'running')`),
    index('jobs_finished_idx')
      .on(t.updatedAt)
      .where(sql`status in ('done', 'failed')`),
  ],
);
