import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auth,
  createTestApp,
  login,
  makeCompany,
  makeUser,
  PASSWORD,
  type TestContext,
} from '../../../test/harness';
import { closeSockets, openSocket } from '../../../test/sockets';

// A user's sessions (issue 37): listed with device, address and last use; ended one by one, all but
// this one, or by an admin; an ended one is refused at once.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  closeSockets();
  await t.close();
});

// A login from a device and address of its own; `browser`: the id cookie a browser signed in
// before keeps (answered back as `browser` for the next login from it).
const signIn = async (email: string, device: string, address: string, browser?: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    remoteAddress: address,
    headers: { 'user-agent': device },
    payload: { email, password: PASSWORD },
    ...(browser ? { cookies: { jdi: browser } } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'jdi');
  expect(cookie?.httpOnly).toBe(true);
  return { token: res.json().token as string, browser: cookie!.value };
};
const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/auth/me', headers: auth({ token }) });
const sessionsOf = async (token: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/auth/sessions',
    headers: auth({ token }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessions as { id: string; device: string; address: string; current: boolean }[];
};
const remove = (token: string, url: string) =>
  t.app.inject({ method: 'DELETE', url, headers: auth({ token }) });

// A company that lets its users be signed in on several devices ('device': one session each).
const severalDevices = async (value: 'disabled' | 'device' = 'disabled') => {
  const made = await makeCompany(t.db);
  const admin = await login(t.app, made.admin.email);
  const res = await t.app.inject({
    method: 'PUT',
    url: '/settings/singleSession',
    headers: auth(admin),
    payload: { value },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...made, adminSession: admin };
};

// The `company-{id}-auth` events a socket gets until a marker sent after `act`: the socket's events
// arrive in order, so any "used elsewhere" the act caused is among them.
const authEventsDuring = async (
  socket: Awaited<ReturnType<typeof openSocket>>,
  companyId: number,
  userId: number,
  act: () => Promise<unknown>,
) => {
  const events: { action: string }[] = [];
  const marked = new Promise<void>((resolve) =>
    socket.on(`company-${companyId}-auth`, (event: { action: string }) => {
      if (event.action === 'marker') resolve();
      else events.push(event);
    }),
  );
  await act();
  t.app.deps.realtime.toUser(companyId, userId).emit('auth', { action: 'marker' });
  await marked;
  return events;
};

describe('sessions', () => {
  it('lists each device signed in, and ends one, then all but this one', async () => {
    const { company } = await severalDevices();
    const agent = await makeUser(t.db, company.id, 'user');
    const laptop = await signIn(agent.email, 'Firefox on Linux', '198.51.100.10');
    const phone = await signIn(agent.email, 'Chrome on Android', '198.51.100.11');
    const tablet = await signIn(agent.email, 'Safari on iPad', '198.51.100.12');
    const listed = await sessionsOf(laptop.token);
    expect(listed.map((s) => [s.device, s.address, s.current]).sort()).toEqual([
      ['Chrome on Android', '198.51.100.11', false],
      ['Firefox on Linux', '198.51.100.10', true],
      ['Safari on iPad', '198.51.100.12', false],
    ]);

    const phoneId = listed.find((s) => s.device === 'Chrome on Android')!.id;
    const socket = await openSocket(t.app, phone);
    const dropped = new Promise((resolve) => socket.once('disconnect', resolve));
    expect((await remove(laptop.token, `/auth/sessions/${phoneId}`)).statusCode).toBe(204);
    expect((await me(phone.token)).statusCode).toBe(401);
    await dropped;
    expect((await me(tablet.token)).statusCode).toBe(200);
    // Gone, unknown, or not one's own: 404.
    expect((await remove(laptop.token, `/auth/sessions/${phoneId}`)).statusCode).toBe(404);
    const stranger = await signIn(
      (await makeUser(t.db, company.id, 'user')).email,
      'Edge',
      '198.51.100.13',
    );
    const theirs = (await sessionsOf(stranger.token))[0].id;
    expect((await remove(laptop.token, `/auth/sessions/${theirs}`)).statusCode).toBe(404);
    expect((await remove(laptop.token, '/auth/sessions/not-a-uuid')).statusCode).toBe(400);

    expect((await remove(laptop.token, '/auth/sessions')).statusCode).toBe(204);
    expect((await me(tablet.token)).statusCode).toBe(401);
    expect((await me(laptop.token)).statusCode).toBe(200);
    expect((await sessionsOf(laptop.token)).map((s) => s.device)).toEqual(['Firefox on Linux']);
    expect((await me(stranger.token)).statusCode).toBe(200);
  });

  it('keeps SPEC’s rule by default: a new login ends the others', async () => {
    const { company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id, 'user');
    const first = await signIn(agent.email, 'Firefox', '198.51.100.20');
    const second = await signIn(agent.email, 'Chrome', '198.51.100.21');
    expect((await me(first.token)).statusCode).toBe(401);
    expect((await sessionsOf(second.token)).map((s) => s.device)).toEqual(['Chrome']);
  });

  it('keeps one session per device when the company says so: the desktop and the phone stay signed in together', async () => {
    const { company } = await severalDevices('device');
    const agent = await makeUser(t.db, company.id, 'user');
    const desktop = await signIn(agent.email, 'Firefox on Linux', '198.51.100.50');
    const phone = await signIn(agent.email, 'Chrome on Android', '198.51.100.51');
    expect(phone.browser).not.toBe(desktop.browser);
    expect((await me(desktop.token)).statusCode).toBe(200);

    // The desktop signs in again: its earlier session ends; the phone is not signed out, nor told
    // its account is used elsewhere.
    const phoneSocket = await openSocket(t.app, phone);
    let again = desktop;
    const events = await authEventsDuring(phoneSocket, company.id, agent.id, async () => {
      again = await signIn(agent.email, 'Firefox on Linux', '198.51.100.52', desktop.browser);
    });
    expect(events).toEqual([]);
    expect(again.browser).toBe(desktop.browser);
    expect((await me(desktop.token)).statusCode).toBe(401);
    expect((await me(phone.token)).statusCode).toBe(200);
    expect(phoneSocket.connected).toBe(true);
    expect((await sessionsOf(again.token)).map((s) => [s.device, s.current]).sort()).toEqual([
      ['Chrome on Android', false],
      ['Firefox on Linux', true],
    ]);

    // A cookie that is no browser id of ours is replaced, and ends nothing.
    const forged = await signIn(agent.email, 'Edge', '198.51.100.53', "x' or 1=1");
    expect(forged.browser).toMatch(/^[0-9a-f-]{36}$/);
    expect((await me(again.token)).statusCode).toBe(200);

    // The same browser signing in several times at once keeps one session; the others stay.
    const tabs = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        signIn(agent.email, 'Chrome on Android', `198.51.100.6${i}`, phone.browser),
      ),
    );
    const alive = await Promise.all(tabs.map(async ({ token }) => (await me(token)).statusCode));
    expect(alive.filter((status) => status === 200)).toHaveLength(1);
    expect((await me(phone.token)).statusCode).toBe(401);
    expect((await me(again.token)).statusCode).toBe(200);
    expect((await me(forged.token)).statusCode).toBe(200);
  });

  it('tells the other browsers the account is used elsewhere only under SPEC’s rule', async () => {
    const several = await severalDevices('disabled');
    const agent = await makeUser(t.db, several.company.id, 'user');
    const first = await openSocket(t.app, await signIn(agent.email, 'A', '198.51.100.70'));
    const quiet = await authEventsDuring(first, several.company.id, agent.id, () =>
      signIn(agent.email, 'B', '198.51.100.71'),
    );
    expect(quiet).toEqual([]);

    // SPEC's rule: the earlier browser hears it (then its socket is dropped).
    const single = await makeCompany(t.db);
    const other = await makeUser(t.db, single.company.id, 'user');
    const before = await openSocket(t.app, await signIn(other.email, 'A', '198.51.100.72'));
    const told = new Promise((resolve) =>
      before.once(`company-${single.company.id}-auth`, resolve),
    );
    const next = (await signIn(other.email, 'B', '198.51.100.73')).token;
    expect(await told).toEqual({
      action: 'update',
      user: { id: other.id },
      sessionId: expect.any(String),
    });
    expect((await me(next)).statusCode).toBe(200);
  });

  it('keeps one session when the same account signs in on several devices at the same moment', async () => {
    const { company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id, 'user');
    const signedIn = await Promise.all(
      ['A', 'B', 'C', 'D'].map((device, i) => signIn(agent.email, device, `198.51.100.4${i}`)),
    );
    const alive = (
      await Promise.all(signedIn.map(async ({ token }) => (await me(token)).statusCode))
    ).filter((status) => status === 200);
    expect(alive).toHaveLength(1);
  });

  it("lets an admin end every session of a user of their company, and nobody else's", async () => {
    const { company, adminSession } = await severalDevices();
    const agent = await makeUser(t.db, company.id, 'user');
    const a = await signIn(agent.email, 'A', '198.51.100.30');
    const b = await signIn(agent.email, 'B', '198.51.100.31');
    const other = await makeCompany(t.db);
    const foreign = await makeUser(t.db, other.company.id, 'user');
    expect((await remove(adminSession.token, `/users/${foreign.id}/sessions`)).statusCode).toBe(
      404,
    );
    expect((await remove(a.token, `/users/${adminSession.userId}/sessions`)).statusCode).toBe(403);
    expect((await remove(adminSession.token, `/users/${agent.id}/sessions`)).statusCode).toBe(204);
    expect((await me(a.token)).statusCode).toBe(401);
    expect((await me(b.token)).statusCode).toBe(401);
    expect((await me(adminSession.token)).statusCode).toBe(200);
  });
});
