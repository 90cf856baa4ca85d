import {
  and,
  asc,
  eq,
  inArray,
  isNotNull,
  lt,
  lte,
  notExists,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { queryRows, type Db } from '../db/client';
import { preparedPer } from '../db/prepared';
import { jobs, type JobStatus } from '../db/schema';
import { heldLocksSql, NODE_LOCK_CLASS } from '../db/locks';

// The one way the API runs background work. Work is a row of `jobs`, written in the same transaction
// as whatever caused it, so it is never lost; each node runs a worker per queue that claims due rows
// with one UPDATE … FOR UPDATE SKIP LOCKED (several nodes share a queue, never a row) and a lease
// that the node renews while it holds the rows. A node that dies mid-job leaves rows another node
// takes once their lease runs out, or at once on PostgreSQL when the dead node's lock is gone
// (`nodeKey`). Delivery is therefore at least once, and handlers are written to be repeatable.
// No code outside this folder writes `jobs` (eslint keeps it so): work is queued with enqueueJobs,
// enqueueJobsFrom or insertJobsSql, and found, retried or withdrawn with the functions below.
//
// - Each queue declares the shape of its payloads (`jobQueue(name, schema)`): a payload that does not
//   match is refused when queued (a programming error, thrown), and a stored one that does not parse
//   when its job runs (written by an older version) fails the job for good, with a log line.
// - Failures are retried with backoff (with jitter) up to maxAttempts; an error no retry can fix
//   (`permanent`) fails the job at once. Failed jobs stay (their `ref` answers "did this fail?") until
//   pruned.
// - Jobs of a queue with the same `key` run one at a time, in the order they were queued; a job
//   waiting for its retry holds back the later ones of its key (a conversation's messages).
// - Recurring jobs (`every`) are one row each, rescheduled after every run, so one node at a time
//   runs them; a node that starts makes the row due at once, so what fell due while it was down is
//   done right after start. They read what is due from their own tables and claim it with
//   conditional UPDATEs, so a run repeated after a crash does nothing twice.
// - A worker looks for due rows every intervalMs (work queued by other nodes, retries) and at once
//   when kicked (work this node just queued).

export type JobRow = typeof jobs.$inferSelect;
export type Job<P> = Omit<JobRow, 'payload'> & { payload: P };

// A queue: its name and the shape of its jobs' payloads, declared beside the code that queues them.
export type JobQueue<P> = { name: string; payload: z.ZodType<P> };

export const jobQueue = <P>(name: string, payload: z.ZodType<P>): JobQueue<P> => ({
  name,
  payload,
});

// A payload that does not match its queue's schema: a programming error, never retried.
export class JobPayloadError extends Error {}

// The payload as given, once it matches the queue's schema (what is stored is what the caller wrote).
export const checkedPayload = <P>(queue: JobQueue<P>, payload: P): P => {
  const parsed = queue.payload.safeParse(payload);
  if (!parsed.success)
    throw new JobPayloadError(
      `A ${queue.name} job's payload does not match its schema: ${z.prettifyError(parsed.error)}`,
    );
  return payload;
};

// A failure that retrying cannot fix: the job fails at once.
export class PermanentJobError extends Error {}

// A handler may answer that its job goes on later: the same row is due again after againInMs, its
// attempts counted afresh (long work done in steps, e.g. a paced campaign). Otherwise it is done.
export type JobOutcome = void | { againInMs: number };

// How a node runs the jobs of a queue (jobs.define(queue, options)).
export type QueueOptions<P> = {
  handle: (job: Job<P>) => Promise<JobOutcome>;
  // Runs a claimed batch's jobs together instead of one after another (work that is cheaper done as a
  // set: stored webhooks). Answers each job's outcome, in the order given; a job's failure is retried
  // as handle's would be. Jobs of one key are never in the same batch, so order by key holds.
  handleBatch?: (jobs: Job<P>[]) => Promise<PromiseSettledResult<JobOutcome>[]>;
  // Attempts before a job fails for good (default 10).
  maxAttempts?: number;
  // Milliseconds before the next attempt after `attempts` failed ones (default retryDelay(n, 5 s),
  // which has jitter).
  retryDelayMs?: (attempts: number) => number;
  // Errors that fail the job at once, besides PermanentJobError.
  permanent?: (error: unknown) => boolean;
  // Called once when a job fails for good (after its row says so); not for a payload that no longer
  // parses (there is nothing it could read).
  onFailed?: (job: Job<P>, error: unknown) => Promise<void>;
  // How long a claim lasts without renewal (default 60 s): the node renews it every third of this
  // while it holds the job, and another node takes the job once it runs out.
  leaseMs?: number;
  batchSize?: number;
  // Batches a node runs at once (default 1): with handleBatch, the next batch is claimed and started
  // while one waits on the database. Order by key still holds: a key's job waits for the one before.
  batchesAtOnce?: number;
  // How often the worker looks for due rows without a kick (default 5 s).
  intervalMs?: number;
  // Finished rows are deleted after these (default a week for done; failed kept unless set).
  keepDoneMs?: number;
  keepFailedMs?: number;
};

type RecurringJob = {
  name: string;
  // Milliseconds between runs; 0 = only when run() is called (tests, or a kick after a change).
  everyMs: number;
  // Reads the time from `now`, which tests move with a fake clock.
  run: (now: Date) => Promise<void>;
};

type NewJob<P> = {
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

// Retries are spread over the last quarter below their backoff, so jobs that failed together (a
// session that went down) do not all come back at the same moment.
const RETRY_JITTER = 0.25;

// base, 3×base, 9×base … (5 s, 15 s, 45 s with a 5 s base), never more than 10 minutes, less up to a
// quarter at random (`random` returns [0, 1), like Math.random).
export const retryDelay = (attempts: number, baseMs: number, random: () => number = Math.random) =>
  Math.round(
    Math.min(baseMs * 3 ** Math.max(0, attempts - 1), MAX_DELAY_MS) * (1 - RETRY_JITTER * random()),
  );

const errorText = (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && code.startsWith('ERR_') ? `${code}: ${message}` : message)
    .replace(/\0/g, '')
    .slice(0, 2000);
};

type EnqueueOptions = {
  // A job whose ref already has one waiting or running is left out instead of failing the statement.
  skipLiveRefs?: boolean;
  // As skipLiveRefs, but a job of the ref that is running runs once more when it finishes: it may have
  // read before this transaction's change (a campaign step that had found nobody left to send to when
  // a recipient's confirmation came in). The mark commits with the caller's transaction, and the row
  // lock it takes holds the run's finish until then, so the next run sees the change.
  againIfRunning?: boolean;
  // A job whose key already has one waiting to start is left out: that one will see what it would.
  skipPendingKeys?: boolean;
};

// Queues work in the caller's transaction (or at once with the plain db).
export const enqueueJobs = async <P>(
  db: Db,
  queue: JobQueue<P>,
  items: NewJob<P>[],
  options: Pick<EnqueueOptions, 'skipLiveRefs' | 'againIfRunning'> = {},
) => {
  if (!items.length) return [];
  const insert = db.insert(jobs).values(
    items.map((item) => ({
      queue: queue.name,
      payload: checkedPayload(queue, item.payload),
      key: item.key ?? null,
      ref: item.ref ?? null,
      companyId: item.companyId ?? null,
      ...(item.runAt ? { runAt: item.runAt } : {}),
    })),
  );
  if (options.againIfRunning)
    return insert
      .onConflictDoUpdate({
        target: [jobs.queue, jobs.ref],
        targetWhere: sql`ref is not null and status in ('pending', 'running')`,
        set: { again: sql`${jobs.again} or ${jobs.status} = 'running'` },
      })
      .returning({ id: jobs.id });
  return (options.skipLiveRefs ? insert.onConflictDoNothing() : insert).returning({ id: jobs.id });
};

// The jobs a SELECT decides, as SQL expressions over its FROM: for work queued by a condition on
// other rows (the campaigns whose time came, a ticket still the agent's).
type JobsFrom = {
  // `from … where …`, the rows to queue a job for.
  from: SQL;
  payload: SQL;
  key?: SQL;
  ref?: SQL;
  companyId?: SQL;
  // When the jobs fall due (default now): a short wait lets a burst of changes be seen by one run.
  runAt?: SQL;
};

// The INSERT … SELECT that queues `rows` (without RETURNING), for a statement of the caller's own
// (a prepared one that stores many at once). Its payloads are the caller's to check (checkedPayload).
export const insertJobsSql = (
  queue: { name: string },
  rows: JobsFrom,
  options: EnqueueOptions = {},
) => {
  const nullOr = (value: SQL | undefined) => value ?? sql`null`;
  // Left out unless given, so the statements of queues that run at once stay as they were.
  const runAt = rows.runAt
    ? { column: sql`, run_at`, value: sql`, q.run_at`, select: sql`, ${rows.runAt} as run_at` }
    : { column: sql``, value: sql``, select: sql`` };
  return sql`insert into ${jobs} (queue, payload, key, ref, company_id${runAt.column})
    select ${queue.name}, q.payload, q.key, q.ref, q.company_id${runAt.value}
    from (select ${rows.payload} as payload, ${nullOr(rows.key)}::text as key,
                 ${nullOr(rows.ref)}::text as ref, ${nullOr(rows.companyId)}::int as company_id${runAt.select}
          ${rows.from}) q
    ${
      options.skipPendingKeys
        ? sql`where not exists (select 1 from ${jobs} j where j.queue = ${queue.name}
                and j.key = q.key and j.status = 'pending')`
        : sql``
    }
    ${
      options.againIfRunning
        ? sql`on conflict (queue, ref) where ref is not null and status in ('pending', 'running')
              do update set again = ${jobs}.again or ${jobs}.status = 'running'`
        : options.skipLiveRefs
          ? sql`on conflict do nothing`
          : sql``
    }`;
};

// Queues a job for each row `rows` selects, in one statement in the caller's transaction; a payload
// that does not match the queue's schema throws (rolling the transaction back). Answers the ids.
export const enqueueJobsFrom = async <P>(
  tx: Db,
  queue: JobQueue<P>,
  rows: JobsFrom,
  options: EnqueueOptions = {},
) => {
  const inserted = await queryRows<{ id: number; payload: P }>(
    tx,
    sql`${insertJobsSql(queue, rows, options)} returning id, payload`,
  );
  for (const row of inserted) checkedPayload(queue, row.payload);
  return inserted.map((row) => ({ id: Number(row.id) }));
};

// The refs among `refs` whose job is in `status` (e.g. the messages whose send failed).
export const refsWithStatus = async (
  db: Db,
  queue: { name: string },
  refs: string[],
  status: JobStatus,
): Promise<Set<string>> => {
  if (!refs.length) return new Set();
  const rows = await db
    .select({ ref: jobs.ref })
    .from(jobs)
    .where(and(eq(jobs.queue, queue.name), inArray(jobs.ref, refs), eq(jobs.status, status)));
  return new Set(rows.map((r) => r.ref!));
};

// A failed job of `ref` is due again now, its attempts counted afresh; false if there was none.
export const retryFailedJob = async (db: Db, queue: { name: string }, ref: string) => {
  const rows = await db
    .update(jobs)
    .set({ status: 'pending', attempts: 0, lastError: null, runAt: sql`now()` })
    .where(and(eq(jobs.queue, queue.name), eq(jobs.ref, ref), eq(jobs.status, 'failed')))
    .returning({ id: jobs.id });
  return rows.length > 0;
};

// Withdraws the jobs of `ref` that have not started, in the caller's transaction. Answers 'started'
// (and changes nothing) when one is running or done: it can no longer be taken back.
export const withdrawJobs = async (tx: Db, queue: { name: string }, ref: string) => {
  const rows = await tx
    .select({ id: jobs.id, status: jobs.status })
    .from(jobs)
    .where(and(eq(jobs.queue, queue.name), eq(jobs.ref, ref)))
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

// Each queue's live jobs: waiting and running now, and how long (seconds) the oldest due one has
// waited (GET /metrics).
export const liveJobCounts = (db: Db) =>
  queryRows<{ queue: string; pending: number; running: number; late: number | null }>(
    db,
    sql`select queue,
               count(*) filter (where status = 'pending')::int as pending,
               count(*) filter (where status = 'running')::int as running,
               extract(epoch from now() - min(run_at) filter (
                 where status = 'pending' and run_at <= now()))::float8 as late
          from ${jobs} where status in ('pending', 'running') group by queue`,
  );

type Worker = {
  queue: JobQueue<unknown>;
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
  const leaseOf = (worker: Worker) => worker.options.leaseMs ?? 60_000;

  // Prepared per queue (and per database connection): a busy queue claims many times a second, and
  // the statement is the largest the queue runs.
  const claimStatements = new Map<string, ReturnType<typeof buildClaim>>();
  const buildClaim = (worker: Worker) => {
    const { name } = worker.queue;
    const leaseMs = leaseOf(worker);
    const batchSize = worker.options.batchSize ?? 20;
    return preparedPer((handle) =>
      handle
        .update(jobs)
        .set({
          status: 'running',
          attempts: sql`${jobs.attempts} + 1`,
          runAt: sql`now() + ${leaseMs}::int * interval '1 millisecond'`,
          claimedBy: sql`${sql.placeholder('node')}::int`,
          updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
        })
        .where(
          inArray(
            jobs.id,
            handle
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
                      handle
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
              .limit(batchSize)
              .for('update', { skipLocked: true }),
          ),
        )
        .returning()
        // Named after everything its text depends on: another job facility on the same pool (a test's)
        // may prepare the same name on a connection, and only the same text may share it.
        .prepare(claimName(worker)),
    );
  };
  const claimName = (worker: Worker) =>
    `jobs_claim_${worker.queue.name}_${leaseOf(worker)}_${worker.options.batchSize ?? 20}_${options.nodeKey ? 'node' : 'lease'}`;
  const claim = (worker: Worker) => {
    const key = claimName(worker);
    let statement = claimStatements.get(key);
    if (!statement) {
      statement = buildClaim(worker);
      claimStatements.set(key, statement);
    }
    return statement(db).execute({ node: nodeKey(), now: new Date().toISOString() });
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

  // The claims this node still holds in `held` last another lease from now. A claim is this node's
  // while the row runs with the attempt count its claim gave it (a node that took the job over since
  // counted another attempt).
  const renew = async (worker: Worker, held: Map<number, JobRow>) => {
    if (!held.size) return;
    const claims = [...held.values()].map((row) => sql`(${row.id}::bigint, ${row.attempts}::int)`);
    const renewed = await db
      .update(jobs)
      .set({ runAt: sql`now() + ${leaseOf(worker)}::int * interval '1 millisecond'` })
      .where(
        and(
          eq(jobs.status, 'running'),
          sql`(${jobs.id}, ${jobs.attempts}) in (${sql.join(claims, sql`, `)})`,
        ),
      )
      .returning({ id: jobs.id });
    const kept = new Set(renewed.map((row) => row.id));
    for (const [id, row] of held)
      if (!kept.has(id)) {
        held.delete(id);
        log.warn(
          { queue: worker.queue.name, jobId: id, ref: row.ref },
          'job claim lost to another node while running here',
        );
      }
  };

  // Renews the claims of a batch while its jobs run, every third of the lease.
  const keepClaims = (worker: Worker, held: Map<number, JobRow>) => {
    let renewing: Promise<void> = Promise.resolve();
    const timer = setInterval(
      () => {
        renewing = renewing
          .then(() => renew(worker, held))
          .catch((err: unknown) =>
            log.warn({ err, queue: worker.queue.name }, 'job claims not renewed'),
          );
      },
      Math.max(Math.floor(leaseOf(worker) / 3), 50),
    );
    timer.unref();
    return async () => {
      clearInterval(timer);
      await renewing;
    };
  };

  const prune = async () => {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    for (const {
      queue: { name },
      options: queue,
    } of workers.values()) {
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
              eq(jobs.queue, name),
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

  // The row of a job this node claimed, as long as no other node has claimed it since.
  const ownClaim = (job: JobRow) =>
    and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.attempts, job.attempts));

  // A run that asks for no other is done, unless work was queued for its ref meanwhile (`again`):
  // then it is due again at once.
  const doneUnlessAgain = () => ({
    status: sql`case when ${jobs.again} then 'pending' else 'done' end`,
    attempts: sql`case when ${jobs.again} then 0 else ${jobs.attempts} end`,
    runAt: sql`case when ${jobs.again} then now() else ${jobs.runAt} end`,
    again: false,
    lastError: null,
    updatedAt: new Date(),
  });
  const finish = async (worker: Worker, job: JobRow, outcome?: JobOutcome) => {
    const everyMs = outcome ? Math.max(0, Math.round(outcome.againInMs)) : worker.recurEveryMs;
    const [finished] = await db
      .update(jobs)
      .set(
        everyMs === undefined
          ? doneUnlessAgain()
          : {
              status: 'pending',
              attempts: 0,
              runAt: sql`now() + ${everyMs}::int * interval '1 millisecond'`,
              again: false,
              updatedAt: new Date(),
            },
      )
      .where(ownClaim(job))
      .returning({ status: jobs.status });
    if (outcome) wake(worker, everyMs ?? 0);
    else if (finished?.status === 'pending' && everyMs === undefined) wake(worker, 0);
  };

  const fail = async (worker: Worker, job: JobRow, error: unknown) => {
    const queue = worker.options;
    const { name } = worker.queue;
    if (worker.recurEveryMs !== undefined) {
      options.onFailure?.(name, false);
      log.error({ err: error, job: name }, 'job failed');
      await finish(worker, job);
      return;
    }
    const final =
      error instanceof PermanentJobError ||
      (queue.permanent?.(error) ?? false) ||
      job.attempts >= (queue.maxAttempts ?? 10);
    options.onFailure?.(name, final);
    log[final ? 'error' : 'warn'](
      { err: error, queue: name, jobId: job.id, ref: job.ref, attempts: job.attempts },
      final ? 'job failed for good' : 'job failed, will retry',
    );
    const lastError = errorText(error);
    if (final) {
      await db
        .update(jobs)
        .set({ status: 'failed', lastError, updatedAt: new Date() })
        .where(ownClaim(job));
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
      .where(ownClaim(job));
    wake(worker, delay);
  };

  // A stored payload its queue's schema no longer takes: no retry can change it, and the handler
  // would read what it does not expect.
  const failUnreadable = async (worker: Worker, job: JobRow, error: z.ZodError) => {
    const { name } = worker.queue;
    const reason = `The payload does not match the ${name} queue's schema: ${z.prettifyError(error)}`;
    options.onFailure?.(name, true);
    log.error(
      { queue: name, jobId: job.id, ref: job.ref, reason },
      'job failed for good: its payload does not match its queue',
    );
    await db
      .update(jobs)
      .set({ status: 'failed', lastError: errorText(reason), updatedAt: new Date() })
      .where(ownClaim(job));
  };

  // The jobs of a batch that are done, in one statement (finish's, for a plain outcome).
  const finishAll = async (worker: Worker, rows: JobRow[]) => {
    if (!rows.length) return;
    const claims = rows.map((row) => sql`(${row.id}::bigint, ${row.attempts}::int)`);
    const finished = await db
      .update(jobs)
      .set(doneUnlessAgain())
      .where(
        and(
          eq(jobs.status, 'running'),
          sql`(${jobs.id}, ${jobs.attempts}) in (${sql.join(claims, sql`, `)})`,
        ),
      )
      .returning({ status: jobs.status });
    if (finished.some((row) => row.status === 'pending')) wake(worker, 0);
  };

  // A batch's jobs run together (handleBatch): the readable ones handed over at once, the done ones
  // finished in one statement, the others failed or rescheduled one by one.
  const runTogether = async (worker: Worker, rows: JobRow[], held: Map<number, JobRow>) => {
    const readable: Job<unknown>[] = [];
    for (const row of rows) {
      const parsed = worker.queue.payload.safeParse(row.payload);
      if (parsed.success) readable.push({ ...row, payload: parsed.data });
      else {
        held.delete(row.id);
        await failUnreadable(worker, row, parsed.error);
      }
    }
    if (!readable.length) return 0;
    const outcomes = await worker.options.handleBatch!(readable).catch((error: unknown) =>
      readable.map((): PromiseSettledResult<JobOutcome> => ({ status: 'rejected', reason: error })),
    );
    const done: JobRow[] = [];
    for (const [index, row] of readable.entries()) {
      held.delete(row.id);
      const outcome = outcomes[index];
      if (outcome.status === 'rejected') await fail(worker, row, outcome.reason);
      else if (outcome.value) await finish(worker, row, outcome.value);
      else done.push(row);
    }
    await finishAll(worker, done);
    return outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
  };

  // Claims and runs one batch; answers how many rows were claimed and how many succeeded. The claims
  // not finished yet (the job running and those waiting behind it) are renewed meanwhile.
  const processBatch = async (worker: Worker) => {
    const rows = (await claim(worker)).sort((a, b) => a.id - b.id);
    const held = new Map(rows.map((row) => [row.id, row]));
    const stopRenewing = rows.length ? keepClaims(worker, held) : async () => {};
    let succeeded = 0;
    try {
      if (worker.options.handleBatch && rows.length) {
        if (!stopping) succeeded = await runTogether(worker, rows, held);
        else {
          held.clear();
          await release(rows.map((r) => r.id));
        }
        return { claimed: rows.length, succeeded };
      }
      for (const [index, row] of rows.entries()) {
        if (stopping) {
          // What this node will not get to is due again at once, for the next node.
          const rest = rows.slice(index).map((r) => r.id);
          for (const id of rest) held.delete(id);
          await release(rest);
          break;
        }
        const parsed = worker.queue.payload.safeParse(row.payload);
        if (!parsed.success) {
          held.delete(row.id);
          await failUnreadable(worker, row, parsed.error);
          continue;
        }
        let outcome: JobOutcome;
        try {
          outcome = await worker.options.handle({ ...row, payload: parsed.data });
        } catch (error) {
          held.delete(row.id);
          await fail(worker, row, error);
          continue;
        }
        held.delete(row.id);
        await finish(worker, row, outcome);
        succeeded += 1;
      }
    } finally {
      held.clear();
      await stopRenewing();
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
          const lane = async () => {
            for (;;) {
              if (!started) break;
              const { claimed, succeeded } = await processBatch(worker);
              if (claimed < batchSize && succeeded === 0) break;
            }
          };
          await Promise.all(Array.from({ length: worker.options.batchesAtOnce ?? 1 }, lane));
          if (started) await prune();
        } catch (err) {
          log.error({ err, queue: worker.queue.name }, 'job queue run failed');
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
    const { name } = worker.queue;
    if (workers.has(name)) throw new Error(`Queue ${name} is defined twice`);
    workers.set(name, worker);
    if (started) void begin(worker);
  };

  const begin = async (worker: Worker) => {
    if (worker.recurEveryMs !== undefined) await ensureRecurringRow(worker.queue.name);
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
    define<P>(queue: JobQueue<P>, queueOptions: QueueOptions<P>) {
      const worker: Worker = {
        queue: queue as JobQueue<unknown>,
        options: queueOptions as QueueOptions<unknown>,
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
        queue: { name: job.name, payload: z.unknown() },
        options: {
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
