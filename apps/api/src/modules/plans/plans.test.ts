import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { plans, subscriptions } from '../../db/schema';
import {
  SUPER_EMAIL,
  auth,
  createTestApp,
  login,
  makeCompany,
  type Session,
  type TestContext,
  inject,
  type Method,
} from '../../../test/harness';

let t: TestContext;
let root: Session;
beforeAll(async () => {
  // Prices in euros: every plan the API answers names that currency (written as given, in capitals).
  t = await createTestApp({ BILLING_CURRENCY: 'EUR' });
  root = await login(t.app, SUPER_EMAIL);
});
afterAll(() => t.close());

const asSuper = (method: Method, url: string, payload?: object) =>
  inject(t.app, root, method, url, payload);

const planNamed = async (name: string) =>
  (await t.db.select().from(plans).where(eq(plans.name, name)))[0];

const allFlags = {
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useSchedules: true,
  useExternalApi: true,
};

describe('plan lists', () => {
  it('GET /plans/list needs no session and lists the advertised plans', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/plans/list' });
    expect(res.statusCode).toBe(200);
    // SPEC §9: Basic advertises no AI agent; Plus 1 and Premium 3, each with 2,000 answers a month;
    // Premium's unlimited departments are queues 0.
    expect(res.json()).toEqual([
      {
        id: 1,
        name: 'Basic',
        users: 2,
        connections: 1,
        queues: 5,
        aiAgents: 0,
        aiMessages: 0,
        aiTokens: 0,
        value: 39,
        ...allFlags,
        useOpenAi: false,
        // No price until a super user syncs the plan with the payment provider.
        storageMb: 5120,
        stripePriceId: null,
        currency: 'eur',
      },
      {
        id: 2,
        name: 'Plus',
        users: 2,
        connections: 1,
        queues: 8,
        aiAgents: 1,
        aiMessages: 2000,
        aiTokens: 2_000_000,
        value: 99,
        ...allFlags,
        storageMb: 20480,
        stripePriceId: null,
        currency: 'eur',
      },
      {
        id: 3,
        name: 'Premium',
        users: 4,
        connections: 3,
        queues: 0,
        aiAgents: 3,
        aiMessages: 2000,
        aiTokens: 6_000_000,
        value: 149,
        ...allFlags,
        storageMb: 51200,
        stripePriceId: null,
        currency: 'eur',
      },
    ]);
  });

  it('GET /plans/all and GET /plans/{id} need a session and serve any logged user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/plans/all' })).statusCode).toBe(401);
    const { company } = await makeCompany(t.db, { planId: 2 });
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const all = await t.app.inject({ method: 'GET', url: '/plans/all', headers: auth(session) });
    expect(all.statusCode).toBe(200);
    expect(all.json().map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['Basic', 'Plus', 'Premium']),
    );
    const one = await t.app.inject({
      method: 'GET',
      url: `/plans/${company.planId}`,
      headers: auth(session),
    });
    expect(one.json()).toMatchObject({ id: 2, name: 'Plus' });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/plans/99999',
      headers: auth(session),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('ERR_NO_PLAN_FOUND');
  });

  it("names the platform's billing currency wherever a plan is read: lists, one plan, the session, the company", async () => {
    const { company, admin } = await makeCompany(t.db, { planId: 2 });
    const session = await login(t.app, admin.email);
    const read = async (url: string) => (await inject(t.app, session, 'GET', url)).json();
    for (const url of ['/plans/all', '/plans'])
      expect(new Set((await read(url)).map((p: { currency: string }) => p.currency))).toEqual(
        new Set(['eur']),
      );
    expect(await read('/plans/2')).toMatchObject({ name: 'Plus', currency: 'eur' });
    expect((await read('/auth/me')).company.plan).toMatchObject({ id: 2, currency: 'eur' });
    expect((await read(`/companies/listPlan/${company.id}`)).plan).toMatchObject({
      id: 2,
      currency: 'eur',
    });
  });
});

describe('plan administration (super users)', () => {
  it('creates a plan with every feature on and zero limits unless told otherwise', async () => {
    const res = await asSuper('POST', '/plans', { name: 'Starter' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      name: 'Starter',
      users: 0,
      connections: 0,
      queues: 0,
      aiAgents: 0,
      aiMessages: 0,
      aiTokens: 0,
      value: 0,
      ...allFlags,
      // Storage is not unlimited by default: a new plan keeps 5 GB unless told otherwise.
      storageMb: 5120,
      stripePriceId: null,
      currency: 'eur',
    });
    const custom = await asSuper('POST', '/plans', {
      name: 'Custom',
      users: 10,
      connections: 2,
      queues: 4,
      aiAgents: 2,
      aiMessages: 1500,
      aiTokens: 250_000,
      value: 59.9,
      useOpenAi: false,
      useKanban: false,
    });
    expect(custom.json()).toMatchObject({
      users: 10,
      aiAgents: 2,
      aiMessages: 1500,
      aiTokens: 250_000,
      value: 59.9,
      useOpenAi: false,
      useKanban: false,
    });
    const listed = await t.app.inject({ method: 'GET', url: '/plans/list' });
    expect(listed.json().map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['Starter', 'Custom']),
    );
  });

  it('updates only the fields it names', async () => {
    const created = await asSuper('POST', '/plans', {
      name: 'Growth',
      users: 5,
      connections: 2,
      queues: 6,
      value: 79,
      useCampaigns: false,
    });
    const id = created.json().id;
    const res = await asSuper('PUT', `/plans/${id}`, { name: 'Growth 2', users: 6 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...created.json(),
      name: 'Growth 2',
      users: 6,
    });
    expect(await planNamed('Growth 2')).toMatchObject({
      connections: 2,
      value: 79,
      useCampaigns: false,
    });
  });

  it('keeps a price id typed by hand, clears it when emptied, and refuses one that is not a price', async () => {
    const created = await asSuper('POST', '/plans', {
      name: 'Priced',
      stripePriceId: 'price_123abc',
    });
    expect(created.json().stripePriceId).toBe('price_123abc');
    const bad = await asSuper('PUT', `/plans/${created.json().id}`, { stripePriceId: 'prod_1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.stripePriceId).toBeTruthy();
    const cleared = await asSuper('PUT', `/plans/${created.json().id}`, { stripePriceId: '' });
    expect(cleared.json().stripePriceId).toBeNull();
  });

  it('refuses a duplicate name with 409 ERR_PLAN_ALREADY_EXISTS, on create and on rename', async () => {
    const dup = await asSuper('POST', '/plans', { name: 'Basic' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_PLAN_ALREADY_EXISTS');
    const other = await asSuper('POST', '/plans', { name: 'Rename Me' });
    const rename = await asSuper('PUT', `/plans/${other.json().id}`, { name: 'Premium' });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().error).toBe('ERR_PLAN_ALREADY_EXISTS');
    const same = await asSuper('PUT', `/plans/${other.json().id}`, { name: 'Rename Me' });
    expect(same.statusCode).toBe(200);
  });

  it('rejects negative limits and a missing name', async () => {
    const res = await asSuper('POST', '/plans', { name: 'Bad', users: -1, aiMessages: -5 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { users: expect.any(Array), aiMessages: expect.any(Array) },
    });
    expect((await asSuper('POST', '/plans', { users: 1 })).statusCode).toBe(400);
    expect(await planNamed('Bad')).toBeUndefined();
  });

  it('deletes an unused plan', async () => {
    const created = await asSuper('POST', '/plans', { name: 'Short Lived' });
    const res = await asSuper('DELETE', `/plans/${created.json().id}`);
    expect(res.statusCode).toBe(204);
    expect((await asSuper('GET', `/plans/${created.json().id}`)).statusCode).toBe(404);
    expect((await asSuper('DELETE', `/plans/${created.json().id}`)).json().error).toBe(
      'ERR_NO_PLAN_FOUND',
    );
    expect((await asSuper('PUT', '/plans/99999', { name: 'Ghost' })).statusCode).toBe(404);
  });

  it('refuses to delete a plan a company uses with 409 ERR_PLAN_IN_USE', async () => {
    const { planId } = await makeCompany(t.db);
    const res = await asSuper('DELETE', `/plans/${planId}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_PLAN_IN_USE');
    expect(await t.db.select().from(plans).where(eq(plans.id, planId))).toHaveLength(1);
  });

  it('refuses to delete a plan a subscription still refers to with 409 ERR_PLAN_IN_USE', async () => {
    const { company } = await makeCompany(t.db);
    const created = await asSuper('POST', '/plans', { name: 'Subscribed Once' });
    await t.db
      .insert(subscriptions)
      .values({ companyId: company.id, planId: created.json().id, status: 'canceled' });
    const res = await asSuper('DELETE', `/plans/${created.json().id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_PLAN_IN_USE');
    expect(await planNamed('Subscribed Once')).toBeDefined();
  });

  it('company staff cannot create, change or delete plans (403 ERR_SUPER_ONLY)', async () => {
    const { admin, planId } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const calls = [
      { method: 'POST' as const, url: '/plans', payload: { name: 'Free For All', users: 999 } },
      { method: 'PUT' as const, url: `/plans/${planId}`, payload: { users: 999 } },
      { method: 'DELETE' as const, url: '/plans/3' },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: auth(session) });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(res.json().error).toBe('ERR_SUPER_ONLY');
    }
    expect(await planNamed('Free For All')).toBeUndefined();
    expect((await t.db.select().from(plans).where(eq(plans.id, planId)))[0].users).toBe(0);
    expect(await planNamed('Premium')).toBeDefined();
  });
});
