import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually';
import { openProcessDatabase, PROCESS_WAIT, startApiProcess } from './api-process';

// README "Run several API nodes": nodes started together on a new PostgreSQL database. Before the
// start lock, two of three died on `CREATE EXTENSION pg_trgm`, and seeding could run twice.

let database: Awaited<ReturnType<typeof openProcessDatabase>> | undefined;
afterAll(async () => {
  await database?.close();
});

describe('several API nodes started at once', () => {
  it('all come up on an empty database, answer ready, and the first start is seeded once', async () => {
    database = await openProcessDatabase('atendi_scale', { empty: true });
    const { url, dataDir, db } = database;
    // No secrets given: the nodes generate them into the DATA_DIR they share, all at once (as
    // compose replicas on one volume do), and must end up with the same ones.
    const secrets = {};
    const nodes = await Promise.all(
      [1, 2, 3].map(() =>
        startApiProcess({
          databaseUrl: url,
          dataDir,
          email: 'owner@scale.local',
          password: 'Scale12345',
          secrets,
          token: 'unused',
        }),
      ),
    );
    database.children.push(...nodes.map((node) => node.child));
    for (const node of nodes) {
      const ready = await eventually(
        () => fetch(`${node.base}/health/ready`),
        (res) => res.status === 200 || node.child.exitCode !== null,
        'the node to be ready',
        PROCESS_WAIT,
      );
      expect(ready.status, node.output()).toBe(200);
    }
    const counts = await db.query<{ plans: number; supers: number }>(
      `select (select count(*)::int from plans) as plans,
              (select count(*)::int from users where super) as supers`,
    );
    expect(counts.rows[0]).toEqual({ plans: 3, supers: 1 });

    // A login on one node holds on the others: they share the token secrets.
    const login = await fetch(`${nodes[0]!.base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@scale.local', password: 'Scale12345' }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    for (const node of nodes) {
      const me = await fetch(`${node.base}/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status, node.base).toBe(200);
    }
  }, 180_000);
});
