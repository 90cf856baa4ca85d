import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import { jobs } from '../db/schema';
import { createPgLeases, type Leases } from '../channels/leases';
import { NODE_LOCK_CLASS } from '../db/locks';
import { createTestApp, type TestContext } from '../../test/harness';
import { eventually } from '../../test/eventually';
import { createJobs, enqueueJobs, jobQueue, type Jobs } from './queue';

// Nodes on PostgreSQL hold a lock while they live: a job whose node died is taken over at once,
// not when its one-minute lease runs out; a job whose node lives stays with it, however long it runs.

let t: TestContext;
let admin: pg.Client;
const leases: Leases[] = [];
const runners: Jobs[] = [];

const node = async () => {
  const own = await createPgLeases({ connectionString: t.databaseUrl!, log: t.app.log });
  leases.push(own);
  const runner = createJobs({ db: t.db, log: t.app.log, nodeKey: own.nodeKey });
  runners.push(runner);
  return { leases: own, jobs: runner };
};

beforeAll(async () => {
  t = await createTestApp();
  admin = new pg.Client({ connectionString: t.databaseUrl });
  await admin.connect();
});
afterAll(async () => {
  await Promise.all(runners.map((runner) => runner.stop()));
  for (const own of leases) await own.close();
  await admin.end();
  await t.close();
});

describe('jobs of a node that dies', () => {
  it('are taken by another node as soon as the dead node’s lock is gone', async () => {
    const queue = jobQueue('test.node-dies', z.object({ n: z.number() }));
    const dying = await node();
    const survivor = await node();
    const handledBy: string[] = [];
    let reached!: () => void;
    const started = new Promise<void>((resolve) => (reached = resolve));
    // The first node takes the job and never finishes it.
    dying.jobs.define(queue, {
      handle: () => {
        handledBy.push('dying');
        reached();
        return new Promise(() => undefined);
      },
    });
    await enqueueJobs(t.db, queue, [{ payload: { n: 1 } }]);
    void dying.jobs.process(queue.name);
    await started;
    const [claimed] = await t.db.select().from(jobs).where(eq(jobs.queue, queue.name));
    expect(claimed).toMatchObject({ status: 'running', claimedBy: dying.leases.nodeKey() });

    // While it lives, its claim holds.
    survivor.jobs.define(queue, { handle: async () => void handledBy.push('survivor') });
    expect(await survivor.jobs.process(queue.name)).toEqual({ claimed: 0, succeeded: 0 });

    // kill -9 as PostgreSQL sees it: the node's connection, and so its lock, is gone.
    const { rows } = await admin.query<{ pid: number }>(
      `select pid from pg_locks where locktype = 'advisory' and classid = $1 and objid::bigint = $2`,
      [NODE_LOCK_CLASS, dying.leases.nodeKey()],
    );
    await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    await eventually(
      () => survivor.jobs.process(queue.name),
      (result) => result.succeeded === 1,
      'the survivor to take the job',
    );
    expect(handledBy).toEqual(['dying', 'survivor']);
    const [done] = await t.db.select().from(jobs).where(eq(jobs.queue, queue.name));
    expect(done).toMatchObject({ status: 'done', attempts: 2 });
  });
});

describe('a job that runs past its lease', () => {
  it('stays with its living node, which renews the claim, and is done once', async () => {
    const queue = jobQueue('test.long-job', z.object({ n: z.number() }));
    const leaseMs = 500;
    const [one, two] = [await node(), await node()];
    const handledBy: string[] = [];
    let release: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      one.jobs.define(queue, {
        leaseMs,
        handle: async () => {
          handledBy.push('one');
          resolve();
          await new Promise<void>((r) => (release = r));
        },
      });
    });
    two.jobs.define(queue, { leaseMs, handle: async () => void handledBy.push('two') });
    await enqueueJobs(t.db, queue, [{ payload: { n: 1 } }]);
    const running = one.jobs.process(queue.name);
    await started;
    const rowOf = async () =>
      (await t.db.select().from(jobs).where(eq(jobs.queue, queue.name)))[0]!;
    const claimed = await rowOf();
    // Renewed after the first lease ran out: the claim now ends more than a lease past where it did.
    await eventually(
      rowOf,
      (row) => row.runAt.getTime() > claimed.runAt.getTime() + leaseMs,
      'the claim renewed past its first lease',
    );
    expect(await two.jobs.process(queue.name)).toEqual({ claimed: 0, succeeded: 0 });
    release();
    expect(await running).toEqual({ claimed: 1, succeeded: 1 });
    expect(handledBy).toEqual(['one']);
    expect(await rowOf()).toMatchObject({
      status: 'done',
      attempts: 1,
      claimedBy: one.leases.nodeKey(),
    });
  });
});
