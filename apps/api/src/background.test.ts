import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { simulatorMessages } from './db/schema';
import { createTestApp, makeCompany, makeWhatsapp, type TestContext } from '../test/harness';

let t: TestContext;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the recurring simulator-prune job', () => {
  it('forgets what the simulator’s phone received more than a week ago', async () => {
    const { company } = await makeCompany(t.db);
    const connection = await makeWhatsapp(t.db, company.id);
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600_000);
    await t.db.insert(simulatorMessages).values(
      [8, 6, 0].map((days) => ({
        companyId: company.id,
        whatsappId: connection.id,
        providerId: `SIM-${days}`,
        to: '5491122223333',
        createdAt: daysAgo(days),
      })),
    );
    await t.app.deps.jobs.run('simulator-prune');
    const kept = await t.db
      .select({ providerId: simulatorMessages.providerId })
      .from(simulatorMessages)
      .where(eq(simulatorMessages.whatsappId, connection.id))
      .orderBy(simulatorMessages.id);
    expect(kept.map((row) => row.providerId)).toEqual(['SIM-6', 'SIM-0']);
  });
});
