import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { jobs } from '../db/schema';
import { sharedTestApp, type SharedTestContext } from '../../test/harness';
import { eventually } from '../../test/eventually';
import {
  createJobs,
  enqueueJobs,
  enqueueJobsFrom,
  jobQueue,
  JobPayloadError,
  PermanentJobError,
  refsWithStatus,
  retryDelay,
  retryFailedJob,
  withdrawJobs,
  type Jobs,
} from './queue';

// The one background queue, on its own queues (the app's own workers never touch them). Each
// facility stands for one API node.

let t: SharedTestContext;
const nodes: Jobs[] = [];
let queueNo = 0;
const nextQueue = () => `test.queue-${(queueNo += 1)}`;
const named = z.object({ name: z.string() });
const numbered = z.object({ n: z.number() });

const node = () => {
  const jobsOfNode = createJobs({ db: t.db, log: t.app.log });
  nodes.push(jobsOfNode);
  return jobsOfNode;
};
const rowsOf = (queue: { name: string }) =>
  t.db.select().from(jobs).where(eq(jobs.queue, queue.name)).orderBy(asc(jobs.id));

beforeAll(async () => {
  t = await sharedTestApp();
});
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});

describe('retryDelay', () => {
  const noJitter = () => 0;

  it('waits 5 s, 15 s, 45 s … and never more than 10 minutes', () => {
    const waits = Array.from({ length: 8 }, (_, i) => retryDelay(i + 1, 5000, noJitter));
    expect(waits).toEqual([5000, 15_000, 45_000, 135_000, 405_000, 600_000, 600_000, 600_000]);
  });

  it('scales with the configured base', () => {
    expect([1, 2, 3].map((n) => retryDelay(n, 20, noJitter))).toEqual([20, 60, 180]);
  });

  it('takes up to a quarter off at random, so jobs that failed together come back apart', () => {
    expect(retryDelay(2, 5000, () => 0.5)).toBe(13_125);
    expect(retryDelay(9, 5000, () => 0.999)).toBe(450_150);
    const waits = Array.from({ length: 50 }, () => retryDelay(3, 5000));
    expect(waits.every((wait) => wait > 45_000 * 0.75 && wait <= 45_000)).toBe(true);
    expect(new Set(waits).size).toBeGreaterThan(1);
  });
});

describe('a queue’s payloads', () => {
  it('are refused when they do not match the queue’s schema, and nothing is queued', async () => {
    const queue = jobQueue(nextQueue(), numbered);
    // What the types forbid, as a caller writing the wrong shape would.
    const wrong = { n: 'two' } as unknown as { n: number };
    await expect(
      enqueueJobs(t.db, queue, [{ payload: { n: 1 } }, { payload: wrong }]),
    ).rejects.toThrow(JobPayloadError);
    // Built in SQL: the statement's transaction rolls back.
    await expect(
      t.db.transaction((tx) =>
        enqueueJobsFrom(tx, queue, {
          from: sql`from (values (1), (2)) v(x)`,
          payload: sql`jsonb_build_object('n', v.x::text)`,
        }),
      ),
    ).rejects.toThrow(/does not match its schema/);
    expect(await rowsOf(queue)).toEqual([]);
  });

  it('are queued from a SELECT, leaving out a live ref or a waiting key when asked', async () => {
    const queue = jobQueue(nextQueue(), numbered);
    const fromValues = (options: { skipLiveRefs?: boolean; skipPendingKeys?: boolean }) =>
      t.db.transaction((tx) =>
        enqueueJobsFrom(
          tx,
          queue,
          {
            from: sql`from (values (1), (2)) v(x)`,
            payload: sql`jsonb_build_object('n', v.x)`,
            ref: sql`'r:' || v.x`,
            key: sql`'k:' || v.x`,
            companyId: sql`null`,
          },
          options,
        ),
      );
    expect(await fromValues({})).toHaveLength(2);
    expect(await fromValues({ skipLiveRefs: true })).toEqual([]);
    await t.db.update(jobs).set({ ref: null }).where(eq(jobs.queue, queue.name));
    expect(await fromValues({ skipPendingKeys: true })).toEqual([]);
    await expect(fromValues({})).resolves.toHaveLength(2);
    expect((await rowsOf(queue)).map((r) => [r.payload, r.key, r.ref])).toEqual([
      [{ n: 1 }, 'k:1', null],
      [{ n: 2 }, 'k:2', null],
      [{ n: 1 }, 'k:1', 'r:1'],
      [{ n: 2 }, 'k:2', 'r:2'],
    ]);
  });

  it('fail a stored job for good when they no longer parse, without running it, and the rest run', async () => {
    const queue = jobQueue(nextQueue(), numbered);
    const handled: number[] = [];
    const failed: number[] = [];
    const jobsOfNode = node();
    jobsOfNode.define(queue, {
      handle: async (job) => void handled.push(job.payload.n),
      onFailed: async (job) => void failed.push(job.payload.n),
    });
    // Written by an older version, whose payloads had another shape.
    await t.db.insert(jobs).values([
      { queue: queue.name, payload: { count: 1 } },
      { queue: queue.name, payload: { n: 2 } },
    ]);
    const logged = vi.spyOn(t.app.log, 'error');
    try {
      expect(await jobsOfNode.process(queue.name)).toEqual({ claimed: 2, succeeded: 1 });
      const rows = await rowsOf(queue);
      expect(rows.map((r) => [r.status, r.attempts])).toEqual([
        ['failed', 1],
        ['done', 1],
      ]);
      expect(rows[0].lastError).toContain(`does not match the ${queue.name} queue's schema`);
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({ queue: queue.name, jobId: rows[0].id }),
        'job failed for good: its payload does not match its queue',
      );
    } finally {
      logged.mockRestore();
    }
    expect(handled).toEqual([2]);
    expect(failed).toEqual([]);
  });
});

describe('a queue', () => {
  it('runs a key’s jobs in order, holding the later ones while an earlier one waits to retry', async () => {
    const queue = jobQueue(nextQueue(), named);
    const done: string[] = [];
    let firstTry = true;
    const jobsOfNode = node();
    const q = jobsOfNode.define(queue, {
      handle: async (job) => {
        if (job.payload.name === 'a1' && firstTry) {
          firstTry = false;
          throw new Error('session down');
        }
        done.push(job.payload.name);
      },
      retryDelayMs: () => 150,
      intervalMs: 50,
    });
    await enqueueJobs(
      t.db,
      queue,
      ['a1', 'a2', 'b1', 'a3'].map((name) => ({ payload: { name }, key: name[0] })),
    );
    await jobsOfNode.start();
    q.kick();
    await eventually(
      () => Promise.resolve(done),
      (d) => d.length === 4,
      'all four done',
    );
    // b1 did not wait for a's retry; a2 and a3 did, and kept their order.
    expect(done).toEqual(['b1', 'a1', 'a2', 'a3']);
    // The handler returns before its row is marked done.
    const rows = await eventually(
      () => rowsOf(queue),
      (r) => r.every((row) => row.status !== 'running'),
      'every row finished',
    );
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['done', 2],
      ['done', 1],
      ['done', 1],
      ['done', 1],
    ]);
  });

  it('hands a batch over together, one job per key, retrying only the job that failed', async () => {
    const queue = jobQueue(nextQueue(), named);
    const batches: string[][] = [];
    let firstTry = true;
    const jobsOfNode = node();
    const q = jobsOfNode.define(queue, {
      handle: () => Promise.reject(new Error('a batch queue runs batches')),
      handleBatch: async (batch) => {
        batches.push(batch.map((job) => job.payload.name));
        return batch.map((job): PromiseSettledResult<void> => {
          if (job.payload.name === 'b1' && firstTry) {
            firstTry = false;
            return { status: 'rejected', reason: new Error('session down') };
          }
          return { status: 'fulfilled', value: undefined };
        });
      },
      retryDelayMs: () => 100,
      intervalMs: 50,
      batchesAtOnce: 2,
    });
    await enqueueJobs(
      t.db,
      queue,
      ['a1', 'b1', 'c1', 'a2', 'b2', 'c2'].map((name) => ({ payload: { name }, key: name[0] })),
    );
    await jobsOfNode.start();
    q.kick();
    const rows = await eventually(
      () => rowsOf(queue),
      (r) => r.every((row) => row.status === 'done'),
      'every job done',
    );
    // The first batch holds each key's first job; b2 waits for b1's retry, a2 and c2 do not.
    expect(batches[0]).toEqual(['a1', 'b1', 'c1']);
    expect(batches.slice(1).flat()).toEqual(['a2', 'c2', 'b1', 'b2']);
    expect(batches.flat().indexOf('b2')).toBeGreaterThan(batches.flat().lastIndexOf('b1'));
    expect(rows.map((r) => [r.payload, r.attempts])).toEqual([
      [{ name: 'a1' }, 1],
      [{ name: 'b1' }, 2],
      [{ name: 'c1' }, 1],
      [{ name: 'a2' }, 1],
      [{ name: 'b2' }, 1],
      [{ name: 'c2' }, 1],
    ]);
  });

  it('fails a job at once on a permanent error and after maxAttempts otherwise, telling onFailed once', async () => {
    const queue = jobQueue(nextQueue(), named);
    const failed: string[] = [];
    const jobsOfNode = node();
    jobsOfNode.define(queue, {
      handle: async (job) => {
        if (job.payload.name === 'never') throw new PermanentJobError('no such number');
        throw Object.assign(new Error('still down'), { code: 'ERR_WAPP_NOT_INITIALIZED' });
      },
      maxAttempts: 3,
      retryDelayMs: () => 0,
      onFailed: async (job) => {
        failed.push(job.payload.name);
      },
    });
    await enqueueJobs(t.db, queue, [
      { payload: { name: 'never' }, ref: 'x:1' },
      { payload: { name: 'flaky' }, ref: 'x:2' },
    ]);
    for (let i = 0; i < 3; i += 1) await jobsOfNode.process(queue.name);
    expect((await rowsOf(queue)).map((r) => [r.status, r.attempts, r.lastError])).toEqual([
      ['failed', 1, 'no such number'],
      ['failed', 3, 'ERR_WAPP_NOT_INITIALIZED: still down'],
    ]);
    expect(failed).toEqual(['never', 'flaky']);
    expect(await refsWithStatus(t.db, queue, ['x:1', 'x:2', 'x:3'], 'failed')).toEqual(
      new Set(['x:1', 'x:2']),
    );

    // A retry starts the count afresh; it works only on a failed job.
    expect(await retryFailedJob(t.db, queue, 'x:2')).toBe(true);
    expect(await retryFailedJob(t.db, queue, 'x:2')).toBe(false);
    expect((await rowsOf(queue))[1]).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('withdraws a job that has not started, and refuses once it has', async () => {
    const queue = jobQueue(nextQueue(), z.object({}));
    await enqueueJobs(t.db, queue, [
      { payload: {}, ref: 'm:1' },
      { payload: {}, ref: 'm:2' },
    ]);
    await t.db.update(jobs).set({ status: 'running' }).where(eq(jobs.ref, 'm:2'));
    expect(await t.db.transaction((tx) => withdrawJobs(tx, queue, 'm:1'))).toBe('withdrawn');
    expect(await t.db.transaction((tx) => withdrawJobs(tx, queue, 'm:2'))).toBe('started');
    expect((await rowsOf(queue)).map((r) => r.ref)).toEqual(['m:2']);
  });

  it('runs a ref’s job once more when work is queued for it while it runs, and only then', async () => {
    const queue = jobQueue(nextQueue(), numbered);
    const runs: number[] = [];
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const jobsOfNode = node();
    jobsOfNode.define(queue, {
      handle: async (job) => {
        runs.push(job.payload.n);
        if (runs.length === 1) {
          started();
          await new Promise<void>((resolve) => (release = resolve));
        }
      },
    });
    const queueFor = (ref: string) =>
      t.db.transaction((tx) =>
        enqueueJobs(tx, queue, [{ payload: { n: runs.length }, ref }], { againIfRunning: true }),
      );
    await queueFor('c:1');
    // A waiting job is left as it is: it will see the change when it runs.
    await queueFor('c:1');
    expect(await rowsOf(queue)).toHaveLength(1);

    const first = jobsOfNode.process(queue.name);
    await running;
    // Queued while the first run is in its handler (it read before this change).
    await queueFor('c:1');
    release();
    expect(await first).toEqual({ claimed: 1, succeeded: 1 });
    const [marked] = await rowsOf(queue);
    expect([marked.status, marked.again]).toEqual(['pending', false]);

    expect(await jobsOfNode.process(queue.name)).toEqual({ claimed: 1, succeeded: 1 });
    expect(runs).toHaveLength(2);
    expect((await rowsOf(queue)).map((r) => r.status)).toEqual(['done']);
    // Nothing more is due.
    expect(await jobsOfNode.process(queue.name)).toEqual({ claimed: 0, succeeded: 0 });
  });

  it('hands each job to one of two nodes claiming at the same time', async () => {
    const queue = jobQueue(nextQueue(), numbered);
    const handledBy: Record<string, string[]> = {};
    const [one, two] = [node(), node()];
    [one, two].forEach((jobsOfNode, i) =>
      jobsOfNode.define(queue, {
        handle: async (job) => {
          (handledBy[job.payload.n] ??= []).push(`node${i}`);
        },
        batchSize: 3,
      }),
    );
    await enqueueJobs(
      t.db,
      queue,
      Array.from({ length: 30 }, (_, n) => ({ payload: { n } })),
    );
    const drain = async (jobsOfNode: Jobs) => {
      while ((await jobsOfNode.process(queue.name)).claimed > 0);
    };
    await Promise.all([one, two].map(drain));
    expect(Object.keys(handledBy)).toHaveLength(30);
    expect(Object.values(handledBy).every((by) => by.length === 1)).toBe(true);
    expect((await rowsOf(queue)).every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
  });

  it('takes over a job whose node died mid-run once its lease runs out, not before', async () => {
    const queue = jobQueue(nextQueue(), numbered);
    const handled: number[] = [];
    const jobsOfNode = node();
    jobsOfNode.define(queue, {
      handle: async (job) => {
        handled.push(job.payload.n);
      },
    });
    await enqueueJobs(t.db, queue, [{ payload: { n: 1 } }, { payload: { n: 2 } }]);
    const [first, second] = await rowsOf(queue);
    // A dead node's claims: one ran out a second ago, one holds for another minute.
    await t.db
      .update(jobs)
      .set({ status: 'running', attempts: 1, runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, first.id));
    await t.db
      .update(jobs)
      .set({ status: 'running', attempts: 1, runAt: new Date(Date.now() + 60_000) })
      .where(eq(jobs.id, second.id));
    expect(await jobsOfNode.process(queue.name)).toEqual({ claimed: 1, succeeded: 1 });
    expect(handled).toEqual([1]);
    expect((await rowsOf(queue)).map((r) => [r.status, r.attempts])).toEqual([
      ['done', 2],
      ['running', 1],
    ]);
  });

  it('keeps a job whose handler runs past its lease from other nodes, renewing the claim', async () => {
    const queue = jobQueue(nextQueue(), numbered);
    const leaseMs = 500;
    const [one, two] = [node(), node()];
    const handledBy: string[] = [];
    let release: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      one.define(queue, {
        leaseMs,
        handle: async () => {
          handledBy.push('one');
          resolve();
          await new Promise<void>((r) => (release = r));
        },
      });
    });
    two.define(queue, { leaseMs, handle: async () => void handledBy.push('two') });
    await enqueueJobs(t.db, queue, [{ payload: { n: 1 } }]);
    const running = one.process(queue.name);
    await started;
    const [claimed] = await rowsOf(queue);
    // Renewed after the first lease ran out: the claim now ends more than a lease past where it did.
    await eventually(
      () => rowsOf(queue),
      ([row]) => row.runAt.getTime() > claimed.runAt.getTime() + leaseMs,
      'the claim renewed past its first lease',
    );
    expect(await two.process(queue.name)).toEqual({ claimed: 0, succeeded: 0 });
    release();
    expect(await running).toEqual({ claimed: 1, succeeded: 1 });
    expect(handledBy).toEqual(['one']);
    expect((await rowsOf(queue)).map((r) => [r.status, r.attempts])).toEqual([['done', 1]]);
  });

  it('keeps finished jobs for their time, then drops them', async () => {
    const day = 24 * 3600_000;
    const queue = jobQueue(nextQueue(), z.object({}));
    const jobsOfNode = node();
    const q = jobsOfNode.define(queue, { handle: async () => {}, keepFailedMs: 30 * day });
    const old = (days: number) => new Date(Date.now() - days * day);
    await t.db.insert(jobs).values([
      { queue: queue.name, payload: {}, status: 'done', updatedAt: old(8) },
      { queue: queue.name, payload: {}, status: 'done', updatedAt: old(1) },
      { queue: queue.name, payload: {}, status: 'failed', updatedAt: old(29) },
      { queue: queue.name, payload: {}, status: 'failed', updatedAt: old(31) },
      // Never run: kept whatever its age.
      {
        queue: queue.name,
        payload: {},
        status: 'pending',
        runAt: new Date(Date.now() + day),
        updatedAt: old(90),
      },
    ]);
    const before = (await rowsOf(queue)).map((r) => r.id);
    await jobsOfNode.start();
    q.kick();
    await eventually(
      () => rowsOf(queue),
      (rows) => rows.length === 3,
      'pruned',
    );
    expect((await rowsOf(queue)).map((r) => before.indexOf(r.id))).toEqual([1, 2, 4]);
  });

  it('leaves the jobs it will not get to for the next node when it stops', async () => {
    const queue = jobQueue(nextQueue(), numbered);
    const jobsOfNode = node();
    let release: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      jobsOfNode.define(queue, {
        handle: async () => {
          resolve();
          await new Promise<void>((r) => (release = r));
        },
      });
    });
    await enqueueJobs(t.db, queue, [{ payload: { n: 1 } }, { payload: { n: 2 } }]);
    await jobsOfNode.start();
    jobsOfNode.kick(queue.name);
    await started;
    const stopped = jobsOfNode.stop();
    release();
    await stopped;
    // The job in hand was finished; the other is due again at once, its attempt not counted.
    expect((await rowsOf(queue)).map((r) => [r.status, r.attempts])).toEqual([
      ['done', 1],
      ['pending', 0],
    ]);
  });
});

describe('a recurring job', () => {
  it('runs right after start, then every everyMs on one node at a time', async () => {
    const name = nextQueue();
    const runs: number[] = [];
    let active = 0;
    let mostAtOnce = 0;
    const [one, two] = [node(), node()];
    for (const [self, other] of [
      [one, two],
      [two, one],
    ])
      self.every({
        name,
        everyMs: 400,
        run: async () => {
          active += 1;
          mostAtOnce = Math.max(mostAtOnce, active);
          runs.push(Date.now());
          // The other node looks for due work while this run is in progress: it must start none.
          await other.process(name);
          active -= 1;
        },
      });
    // Each node's start makes the row due at once: one or two runs right away.
    await one.start();
    await two.start();
    await eventually(
      () => Promise.resolve(runs),
      (r) => r.length >= 4,
      'four runs',
    );
    await Promise.all([one.stop(), two.stop()]);
    expect(mostAtOnce).toBe(1);
    // After the start-up runs, each began at least everyMs after the one before it ended.
    const gaps = runs.slice(2).map((at, i) => at - runs[i + 1]!);
    expect(
      gaps.every((gap) => gap >= 400),
      `gaps ${gaps.join(', ')}`,
    ).toBe(true);
    // One row, shared by the nodes, due again later.
    const rows = await rowsOf({ name });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ref: 'recurring', status: 'pending' });
    expect(rows[0].runAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('run() waits for a run in progress on this node, then runs once more', async () => {
    const name = nextQueue();
    const jobsOfNode = node();
    const order: string[] = [];
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    jobsOfNode.every({
      name,
      everyMs: 0,
      run: async () => {
        calls += 1;
        const call = calls;
        order.push(`start ${call}`);
        if (call === 1) await held;
        order.push(`end ${call}`);
        if (call === 1) throw new Error('first run fails');
      },
    });
    const first = jobsOfNode.run(name);
    await eventually(
      () => order,
      (seen) => seen.includes('start 1'),
      'the first run to start',
    );
    // Asked again while the first run is in progress.
    const second = jobsOfNode.run(name);
    release();
    await Promise.all([first, second]);
    // A failed run is logged, not thrown at the caller, and does not stop the next.
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });
});
