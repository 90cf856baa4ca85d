import { and, asc, eq, inArray, isNotNull, lt, lte, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { jobs, type JobStatus } from '../db/schema';
import { heldLocksSql, NODE_LOCK_CLASS } from '../db/locks';

// The one way the API runs background work. Work is a row of `jobs`, written in the same transaction
// as whatever caused it, so it is never lost; each node runs a worker per queue that claims due rows
// with one UPDATE … FOR UPDATE SKIP LOCKED (several nodes share a queue, never a row) and a lease:
// a node that dies mid-job leaves rows another node takes once their lease runs out. Delivery is
// therefore at least once, and handlers are written to be repeatable.
//
// - Failures are retried with backoff up to maxAttempts; an error no retry can fix (`permanent`)
//   fails the job at once. Failed jobs stay (their `ref` answers "did this fail?") until pruned.
// - Jobs of a queue with the same `key` run one at a time, in the order they were queued; a job
//   waiting for its retry holds back the later ones of its key (a conversation's messages).
// - Recurring jobs (`every`) are one row each, rescheduled after every run, so one node at a time
//   runs them; a node that starts makes the row due at once, so what fell due while it was down is
//   done right after start. They read
//   what is due from their own tables and claim it with conditional UPDATEs, so a run repeated after
//   a crash does nothing twice.
// - A worker looks for due rows every intervalMs (work queued by other nodes, retries) and at once
//   when kicked (work this node just queued).

export type JobRow = typeof jobs.$inferSelect;
export type Job<P> = Omit<JobRow, 'payload'> & { payload: P };

// A failure that retrying cannot fix: the job fails at once.
export class PermanentJobError extends Error {}

// A handler may answer that its job goes on later: the same row is due again after againInMs, its
// attempts counted afresh (long work done in steps, e.g. a paced campaign). Otherwise it is done.
export type JobOutcome = void | { againInMs: number };

export type QueueOptions<P> = {
  name: string;
  handle: (job: Job<P>) => Promise<JobOutcome>;
  // Attempts before a job fails for good (default 10).
  maxAttempts?: number;
  // Milliseconds before the next attempt after `attempts` failed ones (default retryDelay(n, 5 s)).
  retryDelayMs?: (attempts: number) => number;
  // Errors that fail the job at once, besides PermanentJobError.
  permanent?: (error: unknown) => boolean;
  // Called once when a job fails for good (after its row says so).
  onFailed?: (job: Job<P>, error: unknown) => Promise<void>;
  // How long a node holds a claimed job before others may take it (default 60 s).
  leaseMs?: number;
  batchSize?: number;
  // How often the worker looks for due rows without a kick (default 5 s).
  intervalMs?: number;
  // Finished rows are deleted after these (default a week for done; failed kept unless set).
  keepDoneMs?: number;
  keepFailedMs?: number;
};

export type RecurringJob = {
  name: string;
  // Milliseconds between runs; 0 = only when run() is called (tests, or a kick after a change).
  everyMs: number;
  // Reads the time from `now`, which tests move with a fake clock.
  run: (now: Date) => Promise<void>;
};

export type NewJob<P> = {
  payload: P;
  key?: string | null;
  ref?: string | null;
  companyId?: number | null;
  runAt?: Date;
};

const MAX_DELAY_MS = 10 * 60_000;
const WEEK_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
const RECURRING_REF = 'recurring';

// base, 3×base, 9×base … (5 s, 15 s, 45 s with a 5 s base), never more than 10 minutes.
export const retryDelay = (attempts: number, baseMs: number) =>
  Math.min(baseMs * 3 ** Math.max(0, attempts - 1), MAX_DELAY_MS);

const errorText = (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && code.startsWith('ERR_') ? `${code}: ${message}` : message)
    .replace(/\0/g, '')
    .slice(0, 2000);
};

// Queues work in the caller's transaction (or at once with the plain db).
export const enqueueJobs = async <P>(db: Db, queue: string, items: NewJob<P>[]) => {
  if (!items.length) return [];
  return db
    .insert(jobs)
    .values(
      items.map((item) => ({
        queue,
        payload: item.payload,
        key: item.key ?? null,
        ref: item.ref ?? null,
        companyId: item.companyId ?? null,
        ...(item.runAt ? { runAt: item.runAt } : {}),
      })),
    )
    .returning({ id: jobs.id });
};

// The refs among `refs` whose job is in `status` (e.g. the messages whose send failed).
export const refsWithStatus = async (
  db: Db,
  queue: string,
  refs: string[],
  status: JobStatus,
): Promise<Set<string>> => {
  if (!refs.length) return new Set();
  const rows = await db
    .select({ ref: jobs.ref })
    .from(jobs)
    .where(and(eq(jobs.queue, queue), inArray(jobs.ref, refs), eq(jobs.status, status)));
  return new Set(rows.map((r) => r.ref!));
};

// A failed job of `ref` is due again now, its attempts counted afresh; false if there was none.
export const retryFailedJob = async (db: Db, queue: string, ref: string) => {
  const rows = await db
    .update(jobs)
    .set({ status: 'pending', attempts: 0, lastError: null, runAt: sql`now()` })
    .where(and(eq(jobs.queue, queue), eq(jobs.ref, ref), eq(jobs.status, 'failed')))
    .returning({ id: jobs.id });
  return rows.length > 0;
};

// Withdraws the jobs of `ref` that have not started, in the caller's transaction. Answers 'started'
// (and changes nothing) when one is running or done: it can no longer be taken back.
export const withdrawJobs = async (tx: Db, queue: string, ref: string) => {
  const rows = await tx
    .select({ id: jobs.id, status: jobs.status })
    .from(jobs)
    .where(and(eq(jobs.queue, queue), eq(jobs.ref, ref)))
    .orderBy(asc(jobs.id))
    .for('update');
  if (rows.some((r) => r.status === 'running' || r.status === 'done')) return 'started' as const;
  if (rows.length)
    await tx.delete(jobs).where(
      inArray(
        jobs.id,
        rows.map((r) => r.id),
      ),
    );
  return 'withdrawn' as const;
};

type Worker = {
  options: QueueOptions<unknown>;
  recurEveryMs?: number;
  timer?: NodeJS.Timeout;
  wakeTimer?: NodeJS.Timeout;
  wakeAt: number;
  running?: Promise<void>;
  again: boolean;
};

export type Jobs = ReturnType<typeof createJobs>;

export const createJobs = (options: {
  db: Db;
  log: FastifyBaseLogger;
  // This node's key while it lives (PostgreSQL; channels/leases.ts): claimed rows carry it, and a row
  // claimed by a node whose lock is gone is taken at once instead of when its lease runs out.
  nodeKey?: () => number | null;
  // Told of every failed attempt (metrics); final when no attempt is left.
  onFailure?: (queue: string, final: boolean) => void;
}) => {
  const { db, log } = options;
  const nodeKey = options.nodeKey ?? (() => null);
  const workers = new Map<string, Worker>();
  const recurring = new Map<string, RecurringJob>();
  // One run of a recurring job at a time per node: runs queue behind each other, so a caller of
  // run() always sees the effect of a run that began after its call.
  const recurringRuns = new Map<string, Promise<void>>();
  let started = false;
  let stopping = false;
  let prunedAt = 0;

  const earlier = alias(jobs, 'earlier');
  const claimerGone = and(
    isNotNull(jobs.claimedBy),
    sql`not exists (select 1 from (${sql.raw(heldLocksSql(NODE_LOCK_CLASS))}) live where live.key = ${jobs.claimedBy})`,
  );
  // One statement, so two nodes never claim the same row; SKIP LOCKED lets them claim side by side.
  const claim = (worker: Worker) => {
    const { name } = worker.options;
    const leaseMs = worker.options.leaseMs ?? 60_000;
    return db
      .update(jobs)
      .set({
        status: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        runAt: sql`now() + ${leaseMs}::int * interval '1 millisecond'`,
        claimedBy: nodeKey(),
        updatedAt: new Date(),
      })
      .where(
        inArray(
          jobs.id,
          db
            .select({ id: jobs.id })
            .from(jobs)
            .where(
              and(
                eq(jobs.queue, name),
                or(
                  and(eq(jobs.status, 'pending'), lte(jobs.runAt, sql`now()`)),
                  // Claimed by a node that never finished: its lease ran out, or its node is gone.
                  and(
                    eq(jobs.status, 'running'),
                    options.nodeKey
                      ? or(lt(jobs.runAt, sql`now()`), claimerGone)
                      : lt(jobs.runAt, sql`now()`),
                  ),
                ),
                or(
                  sql`${jobs.key} is null`,
                  notExists(
                    db
                      .select({ id: earlier.id })
                      .from(earlier)
                      .where(
                        and(
                          eq(earlier.queue, jobs.queue),
                          eq(earlier.key, jobs.key),
                          lt(earlier.id, jobs.id),
                          inArray(earlier.status, ['pending', 'running']),
                        ),
                      ),
                  ),
                ),
              ),
            )
            .orderBy(asc(jobs.id))
            .limit(worker.options.batchSize ?? 20)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning();
  };

  // Claimed rows this process will not get to (it is stopping) are due again at once, for the next.
  const release = async (ids: number[]) => {
    if (!ids.length) return;
    await db
      .update(jobs)
      .set({
        status: 'pending',
        attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
        runAt: sql`now()`,
      })
      .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running')));
  };

  const prune = async () => {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    for (const { options: queue } of workers.values()) {
      const keep: [JobStatus, number | undefined][] = [
        ['done', queue.keepDoneMs ?? WEEK_MS],
        ['failed', queue.keepFailedMs],
      ];
      for (const [status, ms] of keep) {
        if (ms === undefined) continue;
        await db
          .delete(jobs)
          .where(
            and(
              eq(jobs.queue, queue.name),
              eq(jobs.status, status),
              lt(jobs.updatedAt, new Date(Date.now() - ms)),
            ),
          );
      }
    }
  };

  // A retry due before the next regular look wakes the worker for it.
  const wake = (worker: Worker, delayMs: number) => {
    if (!started || delayMs >= (worker.options.intervalMs ?? 5000)) return;
    const at = Date.now() + delayMs;
    if (worker.wakeTimer && worker.wakeAt <= at) return;
    clearTimeout(worker.wakeTimer);
    worker.wakeAt = at;
    worker.wakeTimer = setTimeout(() => {
      worker.wakeTimer = undefined;
      worker.wakeAt = Infinity;
      drain(worker);
    }, delayMs + 5);
    worker.wakeTimer.unref();
  };

  const finish = async (worker: Worker, job: JobRow, outcome?: JobOutcome) => {
    const everyMs = outcome ? Math.max(0, Math.round(outcome.againInMs)) : worker.recurEveryMs;
    await db
      .update(jobs)
      .set(
        everyMs === undefined
          ? { status: 'done', lastError: null, updatedAt: new Date() }
          : {
              status: 'pending',
              attempts: 0,
              runAt: sql`now() + ${everyMs}::int * interval '1 millisecond'`,
              updatedAt: new Date(),
            },
      )
      .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')));
    if (outcome) wake(worker, everyMs ?? 0);
  };

  const fail = async (worker: Worker, job: JobRow, error: unknown) => {
    const queue = worker.options;
    if (worker.recurEveryMs !== undefined) {
      options.onFailure?.(queue.name, false);
      log.error({ err: error, job: queue.name }, 'job failed');
      await finish(worker, job);
      return;
    }
    const final =
      error instanceof PermanentJobError ||
      (queue.permanent?.(error) ?? false) ||
      job.attempts >= (queue.maxAttempts ?? 10);
    options.onFailure?.(queue.name, final);
    log[final ? 'error' : 'warn'](
      { err: error, queue: queue.name, jobId: job.id, ref: job.ref, attempts: job.attempts },
      final ? 'job failed for good' : 'job failed, will retry',
    );
    const lastError = errorText(error);
    if (final) {
      await db
        .update(jobs)
        .set({ status: 'failed', lastError, updatedAt: new Date() })
        .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')));
      await queue.onFailed?.(job, error);
      return;
    }
    const delay = (queue.retryDelayMs ?? ((n) => retryDelay(n, 5000)))(job.attempts);
    await db
      .update(jobs)
      .set({
        status: 'pending',
        lastError,
        runAt: sql`now() + ${delay}::int * interval '1 millisecond'`,
        updatedAt: new Date(),
      })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')));
    wake(worker, delay);
  };

  // Claims and runs one batch; answers how many rows were claimed and how many succeeded.
  const processBatch = async (worker: Worker) => {
    const rows = (await claim(worker)).sort((a, b) => a.id - b.id);
    let succeeded = 0;
    for (const [index, row] of rows.entries()) {
      if (stopping) {
        // What this node will not get to is due again at once, for the next node.
        await release(rows.slice(index).map((r) => r.id));
        break;
      }
      let outcome: JobOutcome;
      try {
        outcome = await worker.options.handle(row);
      } catch (error) {
        await fail(worker, row, error);
        continue;
      }
      await finish(worker, row, outcome);
      succeeded += 1;
    }
    return { claimed: rows.length, succeeded };
  };

  // Runs while there is work: a full batch, or a finished job that may have freed its key's next one.
  const drain = (worker: Worker) => {
    if (!started) return;
    if (worker.running) {
      worker.again = true;
      return;
    }
    const batchSize = worker.options.batchSize ?? 20;
    worker.running = (async () => {
      do {
        worker.again = false;
        try {
          for (;;) {
            if (!started) break;
            const { claimed, succeeded } = await processBatch(worker);
            if (claimed < batchSize && succeeded === 0) break;
          }
          if (started) await prune();
        } catch (err) {
          log.error({ err, queue: worker.options.name }, 'job queue run failed');
        }
      } while (worker.again && started);
    })().finally(() => {
      worker.running = undefined;
    });
  };

  const startWorker = (worker: Worker) => {
    const intervalMs = worker.options.intervalMs ?? 5000;
    drain(worker);
    clearInterval(worker.timer);
    worker.timer = setInterval(() => drain(worker), intervalMs);
    worker.timer.unref();
  };

  // The job's row, due now: a node that starts runs (or has another node run) what fell due while it
  // was down, without waiting for the next turn the last run set.
  const ensureRecurringRow = async (name: string) => {
    await db
      .insert(jobs)
      .values({ queue: name, ref: RECURRING_REF, payload: {} })
      .onConflictDoNothing({
        target: [jobs.queue, jobs.ref],
        where: and(isNotNull(jobs.ref), inArray(jobs.status, ['pending', 'running'])),
      });
    await db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(and(eq(jobs.queue, name), eq(jobs.ref, RECURRING_REF), eq(jobs.status, 'pending')));
  };

  // Runs a recurring job after any run of it in progress on this node; rejects if the run fails.
  const runRecurring = (name: string): Promise<void> => {
    const job = recurring.get(name);
    if (!job) return Promise.reject(new Error(`Unknown job ${name}`));
    const next = (recurringRuns.get(name) ?? Promise.resolve()).then(() => job.run(new Date()));
    const settled = next.catch(() => undefined);
    recurringRuns.set(name, settled);
    void settled.finally(() => {
      if (recurringRuns.get(name) === settled) recurringRuns.delete(name);
    });
    return next;
  };

  const addWorker = (worker: Worker) => {
    if (workers.has(worker.options.name))
      throw new Error(`Queue ${worker.options.name} is defined twice`);
    workers.set(worker.options.name, worker);
    if (started) void begin(worker);
  };

  const begin = async (worker: Worker) => {
    if (worker.recurEveryMs !== undefined) await ensureRecurringRow(worker.options.name);
    if (started) startWorker(worker);
  };

  const workerOf = (name: string) => {
    const worker = workers.get(name);
    if (!worker) throw new Error(`Unknown queue ${name}`);
    return worker;
  };

  return {
    // A queue of work this node helps run. Jobs are added with enqueueJobs (in the transaction that
    // causes them), then kick().
    define<P>(queue: QueueOptions<P>) {
      const worker: Worker = {
        options: queue as QueueOptions<unknown>,
        wakeAt: Infinity,
        again: false,
      };
      addWorker(worker);
      return {
        // Work was just queued: go now, without making the caller wait.
        kick: () => setImmediate(() => drain(worker)),
      };
    },

    // A recurring job (ticket timers, due schedules…), run every everyMs by one node at a time.
    every(job: RecurringJob) {
      recurring.set(job.name, job);
      if (!job.everyMs) return;
      addWorker({
        options: {
          name: job.name,
          handle: () => runRecurring(job.name),
          // The row is due everyMs after the last run ended; looking more often keeps to that.
          intervalMs: Math.max(Math.floor(job.everyMs / 4), 250),
          batchSize: 1,
          // A run longer than this may overlap with another node's; runs are repeatable anyway.
          leaseMs: Math.max(job.everyMs, 5 * 60_000),
        },
        recurEveryMs: job.everyMs,
        wakeAt: Infinity,
        again: false,
      });
    },

    // Runs a recurring job now on this node, after any run in progress here (tests, or a kick after a
    // change). A failure is logged, as the workers' are.
    run: (name: string) =>
      runRecurring(name).catch((err: unknown) => {
        log.error({ err, job: name }, 'job failed');
      }),

    kick(name: string) {
      const worker = workerOf(name);
      setImmediate(() => drain(worker));
    },

    // One batch of a queue now, whether or not the workers run (tests).
    process: (name: string) => processBatch(workerOf(name)),

    async start() {
      started = true;
      stopping = false;
      for (const worker of workers.values()) await begin(worker);
    },

    // Resolves when the runs in progress, and the first runs start() began, are done (main.ts prints
    // its banner after them, so start-up work does not log below it).
    async idle() {
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([...workers.values()].map((w) => w.running));
      await Promise.all([...recurringRuns.values()]);
    },

    async stop() {
      started = false;
      stopping = true;
      for (const worker of workers.values()) {
        clearInterval(worker.timer);
        clearTimeout(worker.wakeTimer);
        worker.timer = undefined;
        worker.wakeTimer = undefined;
      }
      await Promise.all([...workers.values()].map((w) => w.running));
      await Promise.all([...recurringRuns.values()]);
    },
  };
};
