import { beforeAll, describe, expect, it } from 'vitest';
import { prompts, queues, whatsapps } from '../../db/schema';
import { sharedTestApp, makeCompany, type SharedTestContext } from '../../../test/harness';
import { assertPlanLimit } from './plans.service';

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

// The queues and connections create routes (later issues) call this same check inside their insert's
// transaction; the users route is covered end to end in users.test.ts.
describe('plan limits on create', () => {
  it('refuses a queue beyond the plan limit with ERR_PLAN_LIMIT_QUEUES', async () => {
    const { company } = await makeCompany(t.db, { planLimits: { queues: 2 } });
    for (const color of ['#111111', '#222222']) {
      await t.db.transaction(async (tx) => {
        await assertPlanLimit(tx, company.id, 'queues');
        await tx.insert(queues).values({ companyId: company.id, name: color, color });
      });
    }
    await expect(assertPlanLimit(t.db, company.id, 'queues')).rejects.toMatchObject({
      code: 'ERR_PLAN_LIMIT_QUEUES',
      status: 403,
      message: 'The plan allows at most 2 queues',
    });
  });

  it('refuses a connection beyond the plan limit with ERR_PLAN_LIMIT_CONNECTIONS', async () => {
    const { company } = await makeCompany(t.db, { planLimits: { connections: 1 } });
    await t.db.insert(whatsapps).values({ companyId: company.id, name: 'Main' });
    await expect(assertPlanLimit(t.db, company.id, 'connections')).rejects.toMatchObject({
      code: 'ERR_PLAN_LIMIT_CONNECTIONS',
    });
  });

  it('refuses an AI agent beyond the plan limit with ERR_PLAN_LIMIT_AI_AGENTS', async () => {
    const { company } = await makeCompany(t.db, { planLimits: { aiAgents: 1 } });
    await expect(assertPlanLimit(t.db, company.id, 'aiAgents')).resolves.toBeUndefined();
    await t.db.insert(prompts).values({ companyId: company.id, name: 'Agente', prompt: 'x' });
    await expect(assertPlanLimit(t.db, company.id, 'aiAgents')).rejects.toMatchObject({
      code: 'ERR_PLAN_LIMIT_AI_AGENTS',
      status: 403,
      message: 'The plan allows at most 1 AI agents',
    });
  });

  it('treats a limit of 0 as unlimited and counts only the company’s own rows', async () => {
    const { company } = await makeCompany(t.db, { planLimits: { connections: 0, queues: 1 } });
    const other = await makeCompany(t.db);
    await t.db
      .insert(whatsapps)
      .values([1, 2, 3].map((n) => ({ companyId: company.id, name: `W${n}` })));
    await t.db
      .insert(queues)
      .values({ companyId: other.company.id, name: 'Other', color: '#333333' });
    await expect(assertPlanLimit(t.db, company.id, 'connections')).resolves.toBeUndefined();
    await expect(assertPlanLimit(t.db, company.id, 'queues')).resolves.toBeUndefined();
  });

  it('lets only one of two concurrent creates take the last place', async () => {
    const { company } = await makeCompany(t.db, { planLimits: { queues: 1 } });
    const create = (color: string) =>
      t.db.transaction(async (tx) => {
        await assertPlanLimit(tx, company.id, 'queues');
        await tx.insert(queues).values({ companyId: company.id, name: color, color });
      });
    const results = await Promise.allSettled([create('#aaaaaa'), create('#bbbbbb')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });
});
