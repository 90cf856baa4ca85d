import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { jobs } from '../db/schema';
import { createPgLeases, type Leases } from '../channels/leases';
import { NODE_LOCK_CLASS } from '../db/locks';
import { createTestApp, type TestContext } from '../../test/harness';
import { eventually } from '../../test/eventually';
import { createJobs, enqueueJobs, type Jobs } from './queue';

// Nodes on PostgreSQL hold a lock while they live: a job whose node died is taken over at once,
// not when its one-minute lease runs out.

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
    const queue = 'test.node-dies';
    const dying = await node();
    const survivor = await node();
    const handledBy: string[] = [];
    let reached!: () => void;
    const started = new Promise<void>((resolve) => (reached = resolve));
    // The first node takes the job and never finishes it.
    dying.jobs.define<{ n: number }>({
      name: queue,
      handle: () => {
        handledBy.push('dying');
        reached();
        return new Promise(() => undefined);
      },
    });
    await enqueueJobs(t.db, queue, [{ payload: { n: 1 } }]);
    void dying.jobs.process(queue);
    await started;
    const [claimed] = await t.db.select().from(jobs).where(eq(jobs.queue, queue));
    expect(claimed).toMatchObject({ status: 'running', claimedBy: dying.leases.nodeKey() });

    // While it lives, its claim holds.
    survivor.jobs.define<{ n: number }>({
      name: queue,
      handle: async () => void handledBy.push('survivor'),
    });
    expect(await survivor.jobs.process(queue)).toEqual({ claimed: 0, succeeded: 0 });

    // kill -9 as PostgreSQL sees it: the node's connection, and so its lock, is gone.
    const { rows } = await admin.query<{ pid: number }>(
      `select pid from pg_locks where locktype = 'advisory' and classid = $1 and objid::bigint = $2`,
      [NODE_LOCK_CLASS, dying.leases.nodeKey()],
    );
    await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    await eventually(
      () => survivor.jobs.process(queue),
      (result) => result.succeeded === 1,
      'the survivor to take the job',
    );
    expect(handledBy).toEqual(['dying', 'survivor']);
    const [done] = await t.db.select().from(jobs).where(eq(jobs.queue, queue));
    expect(done).toMatchObject({ status: 'done', attempts: 2 });
  });
});
