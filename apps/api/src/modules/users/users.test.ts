import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { queues, users } from '../../db/schema';
import type { Db } from '../../db/client';
import {
  PASSWORD,
  SUPER_EMAIL,
  sharedTestApp,
  login,
  makeCompany,
  makeUser,
  superUser,
  type Session,
  type SharedTestContext,
  inject,
  type Method,
} from '../../../test/harness';

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

let sequence = 0;
const next = () => (sequence += 1);

const makeQueue = async (db: Db, companyId: number) => {
  const n = next();
  const [queue] = await db
    .insert(queues)
    .values({ companyId, name: `Queue ${n}`, color: `#${String(n).padStart(6, '0')}` })
    .returning();
  return queue;
};

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

const newUser = (overrides: Record<string, unknown> = {}) => {
  const n = next();
  return { name: `Agent ${n}`, email: `agent${n}@users.test`, password: 'secret1', ...overrides };
};

const userRow = async (id: number) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

// An admin of a fresh company, logged in.
const adminOfNewCompany = async (options: Parameters<typeof makeCompany>[1] = {}) => {
  const made = await makeCompany(t.db, options);
  return { ...made, session: await login(t.app, made.admin.email) };
};

describe('listing users', () => {
  it('an admin pages through their company 20 at a time and searches by name or email', async () => {
    const { company, session } = await adminOfNewCompany();
    for (let i = 0; i < 20; i += 1) await makeUser(t.db, company.id);
    const needle = await makeUser(t.db, company.id, 'user', {
      name: 'Zelda Needle',
      email: 'zelda.needle@users.test',
    });
    const other = await makeCompany(t.db);

    const page1 = await call(session, 'GET', '/users?pageNumber=1');
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ count: 22, hasMore: true });
    expect(page1.json().users).toHaveLength(20);
    const page2 = await call(session, 'GET', '/users?pageNumber=2');
    expect(page2.json()).toMatchObject({ count: 22, hasMore: false });
    expect(page2.json().users).toHaveLength(2);
    const ids = [...page1.json().users, ...page2.json().users].map((u: { id: number }) => u.id);
    expect(new Set(ids).size).toBe(22);
    expect(ids).not.toContain(other.admin.id);

    for (const term of ['zelda', 'NEEDLE@users']) {
      const found = await call(session, 'GET', `/users?searchParam=${encodeURIComponent(term)}`);
      expect(found.json()).toMatchObject({ count: 1, hasMore: false });
      expect(found.json().users[0]).toMatchObject({ id: needle.id, name: 'Zelda Needle' });
    }
    expect(page1.body).not.toMatch(/password/i);
  });

  it("GET /users/list answers only the caller's company, whatever companyId is asked", async () => {
    const a = await adminOfNewCompany();
    const agent = await makeUser(t.db, a.company.id);
    const b = await makeCompany(t.db);
    const own = await call(a.session, 'GET', '/users/list');
    expect(own.statusCode).toBe(200);
    expect(
      own
        .json()
        .map((u: { id: number }) => u.id)
        .sort(),
    ).toEqual([a.admin.id, agent.id].sort());
    const asked = await call(a.session, 'GET', `/users/list?companyId=${b.company.id}`);
    expect(
      asked
        .json()
        .map((u: { id: number }) => u.id)
        .sort(),
    ).toEqual([a.admin.id, agent.id].sort());
    expect(own.body).not.toMatch(/password/i);

    // The agent profile may use the picker list too.
    const agentSession = await login(t.app, agent.email);
    expect((await call(agentSession, 'GET', '/users/list')).statusCode).toBe(200);
  });

  it('a super user may ask GET /users/list for another company', async () => {
    const b = await makeCompany(t.db);
    const root = await login(t.app, SUPER_EMAIL);
    const res = await call(root, 'GET', `/users/list?companyId=${b.company.id}`);
    expect(res.json().map((u: { id: number }) => u.id)).toEqual([b.admin.id]);
  });

  it("a 'user' profile can neither list nor create users (403 ERR_NO_PERMISSION)", async () => {
    const { company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id, 'user');
    const session = await login(t.app, agent.email);
    const list = await call(session, 'GET', '/users');
    expect(list.statusCode).toBe(403);
    expect(list.json().error).toBe('ERR_NO_PERMISSION');
    const payload = newUser();
    const create = await call(session, 'POST', '/users', payload);
    expect(create.statusCode).toBe(403);
    expect(create.json().error).toBe('ERR_NO_PERMISSION');
    expect(await t.db.select().from(users).where(eq(users.email, payload.email))).toEqual([]);
  });
});

describe('creating users', () => {
  it('an admin creates a user with a profile and queues; the user can log in', async () => {
    const { company, session } = await adminOfNewCompany();
    const [q1, q2] = [await makeQueue(t.db, company.id), await makeQueue(t.db, company.id)];
    const payload = newUser({
      profile: 'supervisor',
      queueIds: [q1.id, q2.id],
      allTicket: 'enabled',
    });
    const res = await call(session, 'POST', '/users', payload);
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({
      companyId: company.id,
      name: payload.name,
      email: payload.email,
      profile: 'supervisor',
      super: false,
      allTicket: 'enabled',
    });
    expect(user.queueIds.sort()).toEqual([q1.id, q2.id].sort());
    expect(user.queues.map((q: { name: string }) => q.name).sort()).toEqual(
      [q1.name, q2.name].sort(),
    );
    expect(res.body).not.toMatch(/password/i);
    const own = await login(t.app, payload.email, payload.password);
    expect(own.companyId).toBe(company.id);
  });

  it("defaults to the 'user' profile without ticket visibility", async () => {
    const { session } = await adminOfNewCompany();
    const res = await call(session, 'POST', '/users', newUser());
    expect(res.json()).toMatchObject({ profile: 'user', allTicket: 'desabled', queueIds: [] });
  });

  it('refuses a taken email with 409 ERR_EMAIL_ALREADY_EXISTS, whatever its case', async () => {
    const { session } = await adminOfNewCompany();
    const other = await makeCompany(t.db);
    for (const email of [other.admin.email, other.admin.email.toUpperCase(), SUPER_EMAIL]) {
      const res = await call(session, 'POST', '/users', newUser({ email }));
      expect(res.statusCode, email).toBe(409);
      expect(res.json().error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    }
  });

  it('rejects a short name, a bad email and a short password with field errors', async () => {
    const { session } = await adminOfNewCompany();
    const res = await call(session, 'POST', '/users', {
      name: 'A',
      email: 'nope',
      password: '1234',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { name: expect.any(Array), email: expect.any(Array), password: expect.any(Array) },
    });
  });

  it('stops at the plan user limit with 403 ERR_PLAN_LIMIT_USERS', async () => {
    const { company, session } = await adminOfNewCompany({ planLimits: { users: 2 } });
    await makeUser(t.db, company.id);
    const payload = newUser();
    const res = await call(session, 'POST', '/users', payload);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'ERR_PLAN_LIMIT_USERS',
      message: 'The plan allows at most 2 users',
    });
    expect(await t.db.select().from(users).where(eq(users.email, payload.email))).toEqual([]);
  });

  it('allows the last seat of the plan', async () => {
    const { session } = await adminOfNewCompany({ planLimits: { users: 2 } });
    expect((await call(session, 'POST', '/users', newUser())).statusCode).toBe(201);
    expect((await call(session, 'POST', '/users', newUser())).statusCode).toBe(403);
  });

  it("refuses another company's queue with 404", async () => {
    const { company, session } = await adminOfNewCompany();
    const other = await makeCompany(t.db);
    const own = await makeQueue(t.db, company.id);
    const foreign = await makeQueue(t.db, other.company.id);
    const payload = newUser({ queueIds: [own.id, foreign.id] });
    const res = await call(session, 'POST', '/users', payload);
    expect(res.statusCode).toBe(404);
    expect(await t.db.select().from(users).where(eq(users.email, payload.email))).toEqual([]);
  });

  it('an admin cannot grant the super flag, and a companyId in the body is ignored', async () => {
    const { company, session } = await adminOfNewCompany();
    const other = await makeCompany(t.db);
    const superRes = await call(session, 'POST', '/users', newUser({ super: true }));
    expect(superRes.statusCode).toBe(403);
    expect(superRes.json().error).toBe('ERR_NO_PERMISSION');

    const res = await call(session, 'POST', '/users', newUser({ companyId: other.company.id }));
    expect(res.statusCode).toBe(201);
    expect(res.json().companyId).toBe(company.id);
  });

  it('a super user creates a user in another company', async () => {
    const other = await makeCompany(t.db);
    const root = await login(t.app, SUPER_EMAIL);
    const res = await call(root, 'POST', '/users', newUser({ companyId: other.company.id }));
    expect(res.statusCode).toBe(201);
    expect(res.json().companyId).toBe(other.company.id);
  });

  it('a super user moving a user to another company drops the old queues and respects the new plan', async () => {
    const from = await makeCompany(t.db);
    const to = await makeCompany(t.db);
    const full = await makeCompany(t.db, { planLimits: { users: 1 } });
    const queue = await makeQueue(t.db, from.company.id);
    const moved = await makeUser(t.db, from.company.id, 'user');
    const root = await login(t.app, SUPER_EMAIL);
    await call(root, 'PUT', `/users/${moved.id}`, { queueIds: [queue.id] });

    const refused = await call(root, 'PUT', `/users/${moved.id}`, { companyId: full.company.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_PLAN_LIMIT_USERS');

    const movedSession = await login(t.app, moved.email);
    const res = await call(root, 'PUT', `/users/${moved.id}`, { companyId: to.company.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ companyId: to.company.id, queueIds: [] });
    // Its session (and sockets, in the old company's rooms) end: it logs in again into the new one.
    expect((await call(movedSession, 'GET', '/auth/me')).statusCode).toBe(401);
  });
});

describe('reading and editing one user', () => {
  it("another company's user answers 404 ERR_NO_USER_FOUND to GET, PUT and DELETE", async () => {
    const { session } = await adminOfNewCompany();
    const other = await makeCompany(t.db);
    const victim = await makeUser(t.db, other.company.id);
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'Hijacked' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(session, method, `/users/${victim.id}`, payload);
      expect(res.statusCode, method).toBe(404);
      expect(res.json().error).toBe('ERR_NO_USER_FOUND');
    }
    expect(await userRow(victim.id)).toMatchObject({ name: victim.name });
  });

  it('an admin reads and edits a user of their company', async () => {
    const { company, session } = await adminOfNewCompany();
    const agent = await makeUser(t.db, company.id);
    const queue = await makeQueue(t.db, company.id);
    const got = await call(session, 'GET', `/users/${agent.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ id: agent.id, email: agent.email });
    expect(got.body).not.toMatch(/password/i);

    const res = await call(session, 'PUT', `/users/${agent.id}`, {
      name: 'Renamed Agent',
      profile: 'admin',
      queueIds: [queue.id],
      allTicket: 'enabled',
      password: 'another1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed Agent',
      profile: 'admin',
      queueIds: [queue.id],
      allTicket: 'enabled',
    });
    expect(res.body).not.toMatch(/password/i);
    await login(t.app, agent.email, 'another1');
  });

  it('a user edits their own name and password', async () => {
    const { company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id);
    const session = await login(t.app, agent.email);
    const res = await call(session, 'PUT', `/users/${agent.id}`, {
      name: 'My New Name',
      password: 'changed1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'My New Name', profile: 'user' });
    expect(res.body).not.toMatch(/password/i);
    // The new password logs in (and that login ends the earlier one).
    const again = await login(t.app, agent.email, 'changed1');
    const me = await call(again, 'GET', `/users/${agent.id}`);
    expect(me.json().name).toBe('My New Name');
  });

  it('an empty password in the edit form leaves the password unchanged', async () => {
    const { company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id);
    const session = await login(t.app, agent.email);
    const res = await call(session, 'PUT', `/users/${agent.id}`, {
      name: 'Same Pass',
      password: '',
    });
    expect(res.statusCode).toBe(200);
    await login(t.app, agent.email, PASSWORD);
  });

  it('a user cannot raise their own profile, set super, or change their queues', async () => {
    const { company } = await makeCompany(t.db);
    const queue = await makeQueue(t.db, company.id);
    const agent = await makeUser(t.db, company.id);
    const session = await login(t.app, agent.email);
    for (const payload of [
      { profile: 'admin' },
      { profile: 'supervisor' },
      { super: true },
      { queueIds: [queue.id] },
      { allTicket: 'enabled' },
    ]) {
      const res = await call(session, 'PUT', `/users/${agent.id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    expect(await userRow(agent.id)).toMatchObject({ profile: 'user', super: false });
    // Sending the unchanged values, as the profile form does, is fine.
    const same = await call(session, 'PUT', `/users/${agent.id}`, {
      profile: 'user',
      queueIds: [],
      allTicket: 'desabled',
      super: false,
    });
    expect(same.statusCode).toBe(200);
  });

  it('an admin cannot raise their own profile to super', async () => {
    const { admin, session } = await adminOfNewCompany();
    const res = await call(session, 'PUT', `/users/${admin.id}`, { super: true });
    expect(res.statusCode).toBe(403);
    expect((await userRow(admin.id)).super).toBe(false);
  });

  it("a user's body naming another company is refused and the user stays in their company", async () => {
    const { company } = await makeCompany(t.db);
    const other = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id);
    const session = await login(t.app, agent.email);
    const res = await call(session, 'PUT', `/users/${agent.id}`, {
      name: 'Moving Out',
      companyId: other.company.id,
    });
    expect(res.statusCode).toBe(403);
    expect(await userRow(agent.id)).toMatchObject({ companyId: company.id, name: agent.name });
    // Naming one's own company is harmless.
    const same = await call(session, 'PUT', `/users/${agent.id}`, { companyId: company.id });
    expect(same.statusCode).toBe(200);
  });

  it('a user cannot read or edit a colleague (403)', async () => {
    const { company, admin } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id);
    const session = await login(t.app, agent.email);
    expect((await call(session, 'GET', `/users/${admin.id}`)).statusCode).toBe(403);
    const res = await call(session, 'PUT', `/users/${admin.id}`, { password: 'takeover1' });
    expect(res.statusCode).toBe(403);
    await login(t.app, admin.email, PASSWORD);
  });

  it('an admin cannot set the super flag on a colleague', async () => {
    const { company, session } = await adminOfNewCompany();
    const agent = await makeUser(t.db, company.id);
    const res = await call(session, 'PUT', `/users/${agent.id}`, { super: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_NO_PERMISSION');
    expect((await userRow(agent.id)).super).toBe(false);
  });

  it("an admin of the platform company cannot change a super user's email or password", async () => {
    const root = await superUser(t.db);
    const platformAdmin = await makeUser(t.db, root.companyId, 'admin');
    const session = await login(t.app, platformAdmin.email);
    for (const payload of [
      { password: 'takeover1' },
      { email: 'mine@users.test' },
      { profile: 'user' },
    ]) {
      const res = await call(session, 'PUT', `/users/${root.id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    expect(await userRow(root.id)).toMatchObject({ email: SUPER_EMAIL, profile: 'admin' });
    await login(t.app, SUPER_EMAIL, PASSWORD);
    const del = await call(session, 'DELETE', `/users/${root.id}`);
    expect(del.statusCode).toBe(403);
  });

  it('refuses an email another account uses with 409', async () => {
    const { company, session } = await adminOfNewCompany();
    const agent = await makeUser(t.db, company.id);
    const other = await makeCompany(t.db);
    const res = await call(session, 'PUT', `/users/${agent.id}`, { email: other.admin.email });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    const same = await call(session, 'PUT', `/users/${agent.id}`, { email: agent.email });
    expect(same.statusCode).toBe(200);
  });

  it("refuses assigning another company's queue on edit with 404", async () => {
    const { company, session } = await adminOfNewCompany();
    const agent = await makeUser(t.db, company.id);
    const foreign = await makeQueue(t.db, (await makeCompany(t.db)).company.id);
    const res = await call(session, 'PUT', `/users/${agent.id}`, { queueIds: [foreign.id] });
    expect(res.statusCode).toBe(404);
    expect((await call(session, 'GET', `/users/${agent.id}`)).json().queueIds).toEqual([]);
  });
});

describe('deleting users', () => {
  it('an admin deletes a user of their company, who can no longer log in', async () => {
    const { company, session } = await adminOfNewCompany();
    const agent = await makeUser(t.db, company.id);
    const res = await call(session, 'DELETE', `/users/${agent.id}`);
    expect(res.statusCode).toBe(204);
    expect(await userRow(agent.id)).toBeUndefined();
    const relogin = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: agent.email, password: PASSWORD },
    });
    expect(relogin.statusCode).toBe(401);
    expect((await call(session, 'DELETE', `/users/${agent.id}`)).statusCode).toBe(404);
  });

  it('an admin cannot delete themselves (ERR_CANNOT_DELETE_SELF)', async () => {
    const { admin, session } = await adminOfNewCompany();
    const res = await call(session, 'DELETE', `/users/${admin.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_CANNOT_DELETE_SELF');
    expect(await userRow(admin.id)).toBeDefined();
  });

  it("a 'user' profile cannot delete anyone", async () => {
    const { company, admin } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id);
    const session = await login(t.app, agent.email);
    const res = await call(session, 'DELETE', `/users/${admin.id}`);
    expect(res.statusCode).toBe(403);
    expect(await userRow(admin.id)).toBeDefined();
  });
});
