import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { defaultSchedules } from '@atendi/shared';
import { companies, plans, settings, users } from '../../db/schema';
import {
  PASSWORD,
  SUPER_EMAIL,
  auth,
  createTestApp,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
  inject,
  travel,
  type Method,
} from '../../../test/harness';

let t: TestContext;
let root: Session;
beforeAll(async () => {
  t = await createTestApp();
  root = await login(t.app, SUPER_EMAIL);
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const DAY = 24 * 3600 * 1000;

let sequence = 0;
const next = () => (sequence += 1);

const signupPayload = (overrides: Record<string, unknown> = {}) => {
  const n = next();
  return {
    name: `Acme ${n}`,
    email: `owner${n}@acme.test`,
    phone: '551199990000',
    password: 'Secret123',
    ...overrides,
  };
};

// Each sign-up comes from its own address so the per-address sign-up limit stays out of the way.
const signup = (payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/companies/cadastro',
    remoteAddress: `198.51.100.${next()}`,
    payload,
  });

const companyNamed = async (name: string) =>
  (await t.db.select().from(companies).where(eq(companies.name, name)))[0];

const settingOf = async (companyId: number, key: string) =>
  (
    await t.db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, key)))
  )[0]?.value;

const asSuper = (method: Method, url: string, payload?: object) =>
  inject(t.app, root, method, url, payload);

// Sign-up tests come first: they rely on the seeded plans (ids 1–3) and on plan 7 not existing yet.
describe('sign-up (POST /companies/cadastro)', () => {
  it('without planId, or with the SPEC default planId 7, falls back to the first plan when plan 7 does not exist', async () => {
    expect(await t.db.select().from(plans).where(eq(plans.id, 7))).toEqual([]);
    const [first] = await t.db.select().from(plans).orderBy(asc(plans.id)).limit(1);
    const res = await signup(signupPayload());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ planId: first.id, plan: { name: 'Basic' } });
    // What SPEC clients send: the SPEC's sign-up defaults, planId 7 among them.
    const spec = await signup(signupPayload({ planId: 7 }));
    expect(spec.statusCode).toBe(201);
    expect(spec.json()).toMatchObject({ planId: first.id, plan: { name: 'Basic' } });
  });

  it('without planId uses plan 7 once it exists', async () => {
    let id = 0;
    while (id < 7) {
      [{ id }] = await t.db
        .insert(plans)
        .values({ name: `Filler ${next()}` })
        .returning({ id: plans.id });
    }
    expect(await t.db.select().from(plans).where(eq(plans.id, 7))).toHaveLength(1);
    const res = await signup(signupPayload());
    expect(res.statusCode).toBe(201);
    expect(res.json().planId).toBe(7);
  });

  it('creates the company and an admin who can log in', async () => {
    const payload = signupPayload();
    const res = await signup(payload);
    expect(res.statusCode).toBe(201);
    const company = res.json();
    expect(company).toMatchObject({
      name: payload.name,
      email: payload.email,
      phone: '551199990000',
    });
    expect(res.body).not.toMatch(/password/i);

    const session = await login(t.app, payload.email, payload.password);
    expect(session.companyId).toBe(company.id);
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(session) });
    expect(me.json()).toMatchObject({
      email: payload.email,
      profile: 'admin',
      super: false,
      company: { id: company.id, name: payload.name, status: 'active' },
    });
  });

  it('names the first admin after the person who signed up, and after the company when no name is sent', async () => {
    const named = signupPayload({ userName: '  Marta Díaz ' });
    expect((await signup(named)).statusCode).toBe(201);
    const marta = await login(t.app, named.email, named.password);
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(marta) });
    expect(me.json()).toMatchObject({ name: 'Marta Díaz', company: { name: named.name } });

    const unnamed = signupPayload();
    expect((await signup(unnamed)).statusCode).toBe(201);
    const admin = await login(t.app, unnamed.email, unnamed.password);
    const other = await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(admin) });
    expect(other.json()).toMatchObject({ name: unnamed.name });

    // Its service hours are SPEC §9's defaults, as a new queue's and connection's are.
    expect((await companyNamed(named.name)).schedules).toEqual(defaultSchedules());

    const tooShort = await signup(signupPayload({ userName: 'M' }));
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it("keeps the browser's time zone, by its canonical name; without one the platform's applies", async () => {
    const res = await signup(signupPayload({ timeZone: 'America/Buenos_Aires' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().timeZone).toBe(
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/Buenos_Aires' }).resolvedOptions()
        .timeZone,
    );
    const plain = await signup(signupPayload());
    expect(plain.json().timeZone).toBe(t.config.timeZone);
    expect((await companyNamed(plain.json().name)).timeZone).toBeNull();

    for (const timeZone of ['Mars/Olympus', '+05:00', 'EST5EDT ', '', 'America/../etc']) {
      const payload = signupPayload({ timeZone });
      const bad = await signup(payload);
      expect(bad.statusCode, timeZone).toBe(400);
      expect(bad.json().error).toBe('ERR_VALIDATION');
      expect(await companyNamed(payload.name)).toBeUndefined();
    }
  });

  it('applies the trial defaults even when the client asks for another status, due date or campaigns', async () => {
    const res = await signup(
      signupPayload({
        status: 'suspended',
        dueDate: '2099-12-31T00:00:00.000Z',
        campaignsEnabled: true,
      }),
    );
    expect(res.statusCode).toBe(201);
    const company = res.json();
    expect(company).toMatchObject({
      status: 'active',
      effectiveStatus: 'active',
      recurrence: 'MENSAL',
      campaignsEnabled: false,
    });
    const dueIn = new Date(company.dueDate).getTime() - Date.now();
    expect(Math.abs(dueIn - 7 * DAY)).toBeLessThan(60_000);
    expect(await settingOf(company.id, 'campaignsEnabled')).toBe('false');
  });

  it('an explicit unknown planId answers 404 ERR_NO_PLAN_FOUND and creates nothing', async () => {
    const payload = signupPayload({ planId: 99_999 });
    const res = await signup(payload);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_PLAN_FOUND');
    expect(await companyNamed(payload.name)).toBeUndefined();
  });

  it('a taken email answers 409 ERR_EMAIL_ALREADY_EXISTS and leaves no company behind', async () => {
    const first = signupPayload();
    expect((await signup(first)).statusCode).toBe(201);
    const again = signupPayload({ email: first.email.toUpperCase() });
    const res = await signup(again);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    expect(await companyNamed(again.name)).toBeUndefined();

    const superEmail = signupPayload({ email: SUPER_EMAIL });
    expect((await signup(superEmail)).statusCode).toBe(409);
    expect(await companyNamed(superEmail.name)).toBeUndefined();
  });

  it('a taken company name answers 409 ERR_COMPANY_ALREADY_EXISTS and creates no user', async () => {
    const first = signupPayload();
    expect((await signup(first)).statusCode).toBe(201);
    const again = signupPayload({ name: first.name });
    const res = await signup(again);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_COMPANY_ALREADY_EXISTS');
    expect(await t.db.select().from(users).where(eq(users.email, again.email))).toEqual([]);
  });

  it('rejects a short name, a short password and a phone over 12 characters with field errors', async () => {
    const res = await signup(
      signupPayload({ name: 'A', password: '1234', phone: '1234567890123', email: 'nope' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: {
        name: expect.any(Array),
        password: expect.any(Array),
        phone: expect.any(Array),
        email: expect.any(Array),
      },
    });
  });

  it('asks sign-up for the password rule of a reset: 8+ characters, upper, lower and a digit', async () => {
    for (const password of ['abcde', 'abcdefgh1', 'ABCDEFGH1', 'Abcdefghi']) {
      const res = await signup(signupPayload({ password }));
      expect(res.statusCode, password).toBe(400);
      expect(res.json().fields, password).toHaveProperty('password');
    }
    const ok = signupPayload({ password: 'Abcdefg1' });
    expect((await signup(ok)).statusCode).toBe(201);
    expect((await login(t.app, ok.email, ok.password)).token).toBeTruthy();
  });

  it('is refused with ERR_USER_CREATION_DISABLED while the platform company disables user creation', async () => {
    const off = await asSuper('PUT', '/settings/userCreation', { value: 'disabled' });
    expect(off.statusCode).toBe(200);
    try {
      const payload = signupPayload();
      const res = await signup(payload);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_USER_CREATION_DISABLED');
      expect(await companyNamed(payload.name)).toBeUndefined();
    } finally {
      await asSuper('PUT', '/settings/userCreation', { value: 'enabled' });
    }
    expect((await signup(signupPayload())).statusCode).toBe(201);
  });

  it("another company's userCreation setting does not close sign-up", async () => {
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const off = await t.app.inject({
      method: 'PUT',
      url: '/settings/userCreation',
      headers: auth(session),
      payload: { value: 'disabled' },
    });
    expect(off.statusCode).toBe(200);
    expect((await signup(signupPayload())).statusCode).toBe(201);
  });
});

describe('company status gate', () => {
  const get = (session: Pick<Session, 'token'>, url: string) =>
    t.app.inject({ method: 'GET', url, headers: auth(session) });

  it.each([
    { label: 'suspended', status: 'suspended' as const, dueDate: null },
    { label: 'cancelled', status: 'cancelled' as const, dueDate: null },
    { label: 'overdue', status: 'active' as const, dueDate: new Date(Date.now() - DAY) },
  ])(
    'a $label company may log in but only reach auth, plans and its own plan',
    async ({ label, status, dueDate }) => {
      const { admin, company } = await makeCompany(t.db, { status, dueDate });
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: admin.email, password: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().companyStatus).toBe(label);
      const session = { token: res.json().token as string };

      for (const url of ['/users/list', '/settings', '/users', '/helps']) {
        const blocked = await get(session, url);
        expect(blocked.statusCode, url).toBe(403);
        expect(blocked.json().error, url).toBe('ERR_COMPANY_INACTIVE');
      }

      const me = await get(session, '/auth/me');
      expect(me.statusCode).toBe(200);
      expect(me.json().company.status).toBe(label);
      expect((await get(session, '/plans/all')).statusCode).toBe(200);
      const own = await get(session, `/companies/listPlan/${company.id}`);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ id: company.id, plan: { id: company.planId } });
      const logout = await t.app.inject({
        method: 'DELETE',
        url: '/auth/logout',
        headers: auth(session),
      });
      expect(logout.statusCode).toBe(204);
    },
  );

  it('an active company becomes overdue, and locked out, once its due date passes', async () => {
    const { admin } = await makeCompany(t.db, { dueDate: new Date(Date.now() + 5 * 60_000) });
    const session = await login(t.app, admin.email);
    expect((await get(session, '/users/list')).statusCode).toBe(200);
    // Ten minutes on: past the due date, still within the access token's life.
    travel(10 * 60_000);
    const res = await get(session, '/users/list');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_COMPANY_INACTIVE');
    expect((await get(session, '/auth/me')).json().company.status).toBe('overdue');
  });

  it('suspending a company takes effect on its very next request, and reactivating restores it', async () => {
    const { admin, company } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    expect((await get(session, '/settings')).statusCode).toBe(200);
    expect(
      (await asSuper('PUT', `/companies/${company.id}`, { status: 'suspended' })).statusCode,
    ).toBe(200);
    expect((await get(session, '/settings')).json().error).toBe('ERR_COMPANY_INACTIVE');
    await asSuper('PUT', `/companies/${company.id}`, { status: 'active' });
    expect((await get(session, '/settings')).statusCode).toBe(200);
  });

  it('super users are never gated, even when their own company is suspended', async () => {
    const { company } = await makeCompany(t.db, { status: 'suspended' });
    const operator = await makeUser(t.db, company.id, 'admin', { super: true });
    const session = await login(t.app, operator.email);
    expect((await get(session, '/users/list')).statusCode).toBe(200);
  });
});

describe('companies administration (super users)', () => {
  it('lists every company with its plan, and pages and searches GET /companies', async () => {
    const { company } = await makeCompany(t.db);
    const all = await asSuper('GET', '/companies/list');
    expect(all.statusCode).toBe(200);
    const names = all.json().map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(['Atendi', company.name]));
    expect(all.json().find((c: { id: number }) => c.id === company.id).plan).toEqual({
      id: company.planId,
      name: expect.any(String),
    });

    const [plan] = await t.db.select().from(plans).limit(1);
    await t.db.insert(companies).values(
      Array.from({ length: 21 }, (_, i) => ({
        name: `Paged Co ${String(i).padStart(2, '0')}`,
        planId: plan.id,
      })),
    );
    const page1 = await asSuper('GET', '/companies?searchParam=paged%20co&pageNumber=1');
    expect(page1.json()).toMatchObject({ count: 21, hasMore: true });
    expect(page1.json().companies).toHaveLength(20);
    expect(page1.json().companies[0].name).toBe('Paged Co 00');
    const page2 = await asSuper('GET', '/companies?searchParam=paged%20co&pageNumber=2');
    expect(page2.json()).toMatchObject({ count: 21, hasMore: false });
    expect(page2.json().companies.map((c: { name: string }) => c.name)).toEqual(['Paged Co 20']);
    const none = await asSuper('GET', '/companies?searchParam=no-such-company');
    expect(none.json()).toEqual({ companies: [], count: 0, hasMore: false });
  });

  it('creates a company whose generated 8-character admin password logs in as its admin', async () => {
    const res = await asSuper('POST', '/companies', {
      name: 'Generated Co',
      email: 'Boss@Generated.test',
      planId: 2,
      dueDate: '2031-05-10T12:00:00.000Z',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'Generated Co',
      email: 'boss@generated.test',
      planId: 2,
      plan: { name: 'Plus' },
      status: 'active',
      recurrence: 'MENSAL',
      campaignsEnabled: false,
      dueDate: '2031-05-10T12:00:00.000Z',
    });
    expect(body.adminPassword).toMatch(/^[A-Za-z0-9!@#$%^&*]{8}$/);

    const session = await login(t.app, 'boss@generated.test', body.adminPassword);
    expect(session.companyId).toBe(body.id);
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(session) });
    expect(me.json()).toMatchObject({ profile: 'admin', super: false });
    // The new company starts with every setting.
    const list = await t.app.inject({ method: 'GET', url: '/settings', headers: auth(session) });
    expect(list.statusCode).toBe(200);
  });

  it('answers no adminPassword when the super user chose the password', async () => {
    const res = await asSuper('POST', '/companies', {
      name: 'Chosen Secret Co',
      email: 'chosen@company.test',
      planId: 1,
      password: 'chosen-pw',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).not.toHaveProperty('adminPassword');
    expect(res.body).not.toMatch(/password/i);
    await login(t.app, 'chosen@company.test', 'chosen-pw');
  });

  it('stores campaignsEnabled as the company setting', async () => {
    const res = await asSuper('POST', '/companies', {
      name: 'Campaigns Co',
      email: 'campaigns@company.test',
      planId: 1,
      campaignsEnabled: true,
    });
    expect(res.json().campaignsEnabled).toBe(true);
    expect(await settingOf(res.json().id, 'campaignsEnabled')).toBe('true');
  });

  it('refuses a taken name or email with 409 and an unknown plan with 404', async () => {
    const { company, admin } = await makeCompany(t.db);
    const sameName = await asSuper('POST', '/companies', {
      name: company.name,
      email: 'fresh@company.test',
      planId: 1,
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().error).toBe('ERR_COMPANY_ALREADY_EXISTS');
    const sameEmail = await asSuper('POST', '/companies', {
      name: 'Fresh Co',
      email: admin.email,
      planId: 1,
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    const noPlan = await asSuper('POST', '/companies', {
      name: 'Fresh Co',
      email: 'fresh@company.test',
      planId: 99_999,
    });
    expect(noPlan.statusCode).toBe(404);
    expect(noPlan.json().error).toBe('ERR_NO_PLAN_FOUND');
    expect(await companyNamed('Fresh Co')).toBeUndefined();
  });

  it('updates a company: an empty or invalid due date becomes null', async () => {
    const { company } = await makeCompany(t.db, { dueDate: new Date('2030-03-15T12:00:00Z') });
    const empty = await asSuper('PUT', `/companies/${company.id}`, { dueDate: '' });
    expect(empty.statusCode).toBe(200);
    expect(empty.json().dueDate).toBeNull();

    await asSuper('PUT', `/companies/${company.id}`, { dueDate: '2030-03-15T12:00:00.000Z' });
    const invalid = await asSuper('PUT', `/companies/${company.id}`, { dueDate: 'not a date' });
    expect(invalid.statusCode).toBe(200);
    expect(invalid.json().dueDate).toBeNull();
    expect((await companyNamed(company.name)).dueDate).toBeNull();
  });

  it('a partial update changes only the fields it names', async () => {
    const { company } = await makeCompany(t.db, { status: 'suspended' });
    await t.db
      .update(companies)
      .set({ phone: '5511988887777', recurrence: 'TRIMESTRAL' })
      .where(eq(companies.id, company.id));
    const res = await asSuper('PUT', `/companies/${company.id}`, { name: 'Renamed Only' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed Only',
      status: 'suspended',
      phone: '5511988887777',
      recurrence: 'TRIMESTRAL',
      email: company.email,
      planId: company.planId,
    });
  });

  it('expire adds one recurrence period to the due date', async () => {
    const { company } = await makeCompany(t.db, { dueDate: new Date('2030-03-15T12:00:00Z') });
    const res = await asSuper('PUT', `/companies/${company.id}`, { expire: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().dueDate.slice(0, 10)).toBe('2030-04-15');

    const quarterly = await asSuper('PUT', `/companies/${company.id}`, {
      recurrence: 'TRIMESTRAL',
      expire: true,
    });
    expect(quarterly.json().dueDate.slice(0, 10)).toBe('2030-07-15');
  });

  it('expire from the 31st lands on the last day of a shorter month', async () => {
    const { company } = await makeCompany(t.db, { dueDate: new Date('2030-01-31T12:00:00Z') });
    const res = await asSuper('PUT', `/companies/${company.id}`, { expire: true });
    expect(res.json().dueDate.slice(0, 10)).toBe('2030-02-28');
  });

  it('expire without a due date is refused and changes nothing', async () => {
    const { company } = await makeCompany(t.db);
    const res = await asSuper('PUT', `/companies/${company.id}`, { expire: true, phone: '1234' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { dueDate: expect.any(Array) },
    });
    const [row] = await t.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row).toMatchObject({ dueDate: null, phone: '' });
  });

  it('stores campaignsEnabled changes as the company setting', async () => {
    const { company } = await makeCompany(t.db);
    const on = await asSuper('PUT', `/companies/${company.id}`, { campaignsEnabled: true });
    expect(on.json().campaignsEnabled).toBe(true);
    expect(await settingOf(company.id, 'campaignsEnabled')).toBe('true');
    const off = await asSuper('PUT', `/companies/${company.id}`, { campaignsEnabled: 'false' });
    expect(off.json().campaignsEnabled).toBe(false);
    expect(await settingOf(company.id, 'campaignsEnabled')).toBe('false');
  });

  it('refuses renaming to another company name, and an unknown company answers 404', async () => {
    const a = await makeCompany(t.db);
    const b = await makeCompany(t.db);
    const res = await asSuper('PUT', `/companies/${a.company.id}`, { name: b.company.name });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_COMPANY_ALREADY_EXISTS');
    expect(
      (await asSuper('PUT', `/companies/${a.company.id}`, { name: a.company.name })).statusCode,
    ).toBe(200);
    const missing = await asSuper('PUT', '/companies/99999', { name: 'Ghost' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('ERR_NO_COMPANY_FOUND');
    expect((await asSuper('GET', '/companies/99999')).statusCode).toBe(404);
  });

  it('deletes another company with its users, but never its own', async () => {
    const { company, admin } = await makeCompany(t.db);
    const res = await asSuper('DELETE', `/companies/${company.id}`);
    expect(res.statusCode).toBe(204);
    expect((await asSuper('GET', `/companies/${company.id}`)).statusCode).toBe(404);
    expect(await t.db.select().from(users).where(eq(users.id, admin.id))).toEqual([]);
    const relogin = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: admin.email, password: PASSWORD },
    });
    expect(relogin.statusCode).toBe(401);

    const own = await asSuper('DELETE', `/companies/${root.companyId}`);
    expect(own.statusCode).toBe(400);
    expect(own.json().error).toBe('ERR_CANNOT_DELETE_OWN_COMPANY');
    expect(await companyNamed('Atendi')).toBeDefined();
    expect((await asSuper('DELETE', '/companies/99999')).statusCode).toBe(404);
  });
});

describe('companies seen by company staff', () => {
  it('every administration route answers 403 ERR_SUPER_ONLY to a company admin', async () => {
    const { admin, company } = await makeCompany(t.db);
    const other = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const calls = [
      { method: 'GET' as const, url: '/companies' },
      { method: 'GET' as const, url: '/companies/list' },
      {
        method: 'POST' as const,
        url: '/companies',
        payload: { name: 'X Co', email: 'x@x.io', planId: 1 },
      },
      { method: 'PUT' as const, url: `/companies/${company.id}`, payload: { status: 'active' } },
      { method: 'PUT' as const, url: `/companies/${other.company.id}`, payload: { name: 'Mine' } },
      { method: 'DELETE' as const, url: `/companies/${other.company.id}` },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: auth(session) });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(res.json().error).toBe('ERR_SUPER_ONLY');
    }
    expect(await companyNamed(other.company.name)).toBeDefined();
    expect(await companyNamed('X Co')).toBeUndefined();
  });

  it('a company reads its own record and plan; another company answers 404', async () => {
    const { admin, company } = await makeCompany(t.db);
    const other = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const own = await t.app.inject({
      method: 'GET',
      url: `/companies/${company.id}`,
      headers: auth(session),
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: company.id, name: company.name });
    for (const url of [
      `/companies/${other.company.id}`,
      `/companies/listPlan/${other.company.id}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: auth(session) });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('ERR_NO_COMPANY_FOUND');
    }
  });

  describe('PUT /companies/{id}/time-zone', () => {
    it('an admin sets their company’s zone; others’ answer 404, agents 403, unknown zones 400', async () => {
      const { admin, company } = await makeCompany(t.db);
      const other = await makeCompany(t.db);
      const agent = await makeUser(t.db, company.id, 'user');
      const session = await login(t.app, admin.email);
      const put = (id: number, timeZone: string, as = session) =>
        inject(t.app, as, 'PUT', `/companies/${id}/time-zone`, { timeZone });

      const res = await put(company.id, 'America/Lima');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().timeZone).toBe('America/Lima');
      expect((await companyNamed(company.name)).timeZone).toBe('America/Lima');

      const bad = await put(company.id, 'America/Atlantis');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe('ERR_VALIDATION');
      expect((await put(company.id, 'UTC', await login(t.app, agent.email))).statusCode).toBe(403);
      expect((await put(other.company.id, 'UTC')).statusCode).toBe(404);
      expect((await companyNamed(company.name)).timeZone).toBe('America/Lima');
      expect((await companyNamed(other.company.name)).timeZone).toBeNull();
    });
  });

  describe('PUT /companies/{id}/schedules', () => {
    const week = (startTime = '09:00', endTime = '17:00') => [
      { weekday: 'Lunes', weekdayEn: 'monday', startTime, endTime },
      { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '', endTime: '' },
    ];

    it('an admin saves the service hours of their company', async () => {
      const { admin, company } = await makeCompany(t.db);
      const session = await login(t.app, admin.email);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/companies/${company.id}/schedules`,
        headers: auth(session),
        payload: { schedules: week() },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().schedules).toEqual(week());
      expect((await companyNamed(company.name)).schedules).toEqual(week());
    });

    it('refuses hours that are not HH:MM', async () => {
      const { admin, company } = await makeCompany(t.db);
      const session = await login(t.app, admin.email);
      for (const bad of ['25:00', '9:00', '09:60', 'noon']) {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/companies/${company.id}/schedules`,
          headers: auth(session),
          payload: { schedules: week(bad) },
        });
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().error).toBe('ERR_VALIDATION');
      }
      expect((await companyNamed(company.name)).schedules).toEqual([]);
    });

    it("a 'user' profile answers 403 and another company's id answers 404", async () => {
      const { admin, company } = await makeCompany(t.db);
      const other = await makeCompany(t.db);
      const agent = await makeUser(t.db, company.id, 'user');
      const agentSession = await login(t.app, agent.email);
      const denied = await t.app.inject({
        method: 'PUT',
        url: `/companies/${company.id}/schedules`,
        headers: auth(agentSession),
        payload: { schedules: week() },
      });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().error).toBe('ERR_NO_PERMISSION');

      const session = await login(t.app, admin.email);
      const foreign = await t.app.inject({
        method: 'PUT',
        url: `/companies/${other.company.id}/schedules`,
        headers: auth(session),
        payload: { schedules: week() },
      });
      expect(foreign.statusCode).toBe(404);
      expect((await companyNamed(other.company.name)).schedules).toEqual([]);
    });
  });
});
