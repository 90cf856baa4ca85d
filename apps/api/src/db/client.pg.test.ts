import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import pg, { type Pool } from 'pg';
import { createTestApp, type TestContext } from '../../test/harness';
import { databaseUrl } from '../../test/pg-url';
import { openPostgres, queryRows } from './client';
import { plans } from './schema';

// Only the PostgreSQL pool has connections the server can drop, so this file runs only on PostgreSQL
// (vitest.config.ts includes *.pg.test.ts when TEST_DATABASE_URL is set).
describe('PostgreSQL pool', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('survives the server dropping an idle connection and answers the next query', async () => {
    const pause = () => t.db.select({ slept: sql`pg_sleep(0.05)` }).from(sql`(select 1) as one`);
    // Two queries at once leave two idle connections in the pool.
    await Promise.all([pause(), pause()]);
    // Discards are counted on 'remove', not 'error': the app's 'error' listener alone must keep the
    // process up.
    const pool = (t.db as unknown as { $client: Pool }).$client;
    let discarded = 0;
    const onRemove = () => (discarded += 1);
    pool.on('remove', onRemove);
    try {
      // All but the connection that asks are dropped (the app's LISTEN connection too).
      const others = pool.totalCount - 1;
      expect(others).toBeGreaterThan(0);
      const killed = await t.db
        .select({ done: sql<boolean>`pg_terminate_backend(pid)` })
        .from(sql`pg_stat_activity`)
        .where(sql`datname = current_database() and pid <> pg_backend_pid()`);
      expect(killed.length).toBeGreaterThanOrEqual(others);
      // The pool hears of each dropped connection and discards it.
      await vi.waitFor(() => expect(discarded).toBeGreaterThanOrEqual(others), { timeout: 5000 });
    } finally {
      pool.off('remove', onRemove);
    }
    expect(await t.db.select({ name: plans.name }).from(plans)).toHaveLength(3);
  });
});

describe('migrations', () => {
  it('three nodes started together on an empty database all come up, migrated once', async () => {
    const server = process.env.TEST_DATABASE_URL!;
    const name = `atendi_migrate_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const nodes = await Promise.all(
      [1, 2, 3].map(() => openPostgres(databaseUrl(server, name), 2)),
    );
    try {
      const outcomes = await Promise.allSettled(
        nodes.map((node) => node.oneNodeAtATime(() => node.migrate())),
      );
      expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual([
        'ok',
        'ok',
        'ok',
      ]);
      // Each migration recorded once, not once per node.
      const [recorded] = await queryRows<{ rows: number; distinct: number }>(
        nodes[0]!.db,
        sql`select count(*)::int as rows, count(distinct hash)::int as distinct
              from drizzle.__drizzle_migrations`,
      );
      expect(recorded!.rows).toBe(recorded!.distinct);
      expect(await nodes[2]!.db.select({ name: plans.name }).from(plans)).toEqual([]);
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
