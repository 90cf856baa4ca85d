import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestContext } from '../../test/harness';
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
    const killed = await t.db
      .select({ done: sql<boolean>`pg_terminate_backend(pid)` })
      .from(sql`pg_stat_activity`)
      .where(sql`datname = current_database() and pid <> pg_backend_pid()`);
    expect(killed.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await t.db.select({ name: plans.name }).from(plans)).toHaveLength(3);
  });
});
