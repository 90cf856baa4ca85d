import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { sharedTestApp, makeCompany, type SharedTestContext } from '../../test/harness';
import { preparedPer } from './prepared';
import { companies } from './schema';

// A prepared statement is built once per database connection and must always run inside the handle
// it is asked for: a transaction's statement sees what that transaction wrote, nothing else does.
describe('prepared statements', () => {
  let t: SharedTestContext;
  beforeAll(async () => {
    t = await sharedTestApp();
  });

  let builds = 0;
  const nameOf = preparedPer((db) => {
    builds += 1;
    return db
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, sql.placeholder('id')))
      .prepare('test_company_name');
  });

  it('runs inside the transaction it is asked for, never beside it', async () => {
    const { company } = await makeCompany(t.db);
    const companyId = company.id;
    const original = company.name;
    const rename = (name: string, seen: string[]) =>
      t.db.transaction(async (tx) => {
        await tx.update(companies).set({ name }).where(eq(companies.id, companyId));
        const [inside] = await nameOf(tx).execute({ id: companyId });
        seen.push(inside.name);
        throw new Error('rolled back');
      });
    const seen: string[] = [];
    // Truly at once on PostgreSQL (each on its own pooled connection, the second waits for the
    // first's row lock); one after the other on PGlite.
    const outcomes = await Promise.allSettled([rename('Uno', seen), rename('Dos', seen)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(seen.sort()).toEqual(['Dos', 'Uno']);
    const [outside] = await nameOf(t.db).execute({ id: companyId });
    expect(outside.name).toBe(original);
  });

  it('builds a statement once per connection, not once per transaction', async () => {
    const { company } = await makeCompany(t.db);
    const before = builds;
    for (let i = 0; i < 30; i += 1)
      await t.db.transaction(async (tx) => {
        const [row] = await nameOf(tx).execute({ id: company.id });
        expect(row.name).toBe(company.name);
      });
    const built = builds - before;
    // PostgreSQL: at most one per pooled connection (10); PGlite's transactions are handles of
    // their own, each with its copy.
    if (process.env.TEST_DATABASE_URL) expect(built).toBeLessThanOrEqual(10);
    else expect(built).toBe(30);
  });
});
