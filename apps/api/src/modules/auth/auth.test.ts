import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies, passwordResets, refreshTokens, users } from '../../db/schema';
import {
  PASSWORD,
  SUPER_EMAIL,
  auth,
  createTestApp,
  login,
  makeCompany,
  makeUser,
  type TestContext,
  travel,
} from '../../../test/harness';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const refreshWith = (cookie: string) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/refresh_token',
    cookies: cookie ? { jrt: cookie } : {},
  });

describe('login', () => {
  it('answers a token, the user with company and plan, and sets an httpOnly refresh cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: SUPER_EMAIL, password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^ey/);
    expect(body.companyStatus).toBe('active');
    expect(body.user).toMatchObject({ email: SUPER_EMAIL, super: true, profile: 'admin' });
    expect(body.user.company.plan.name).toBe('Premium');
    expect(body.user).not.toHaveProperty('passwordHash');
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.path).toBe('/auth');
  });

  it('refuses a wrong password with ERR_INVALID_CREDENTIALS and an unknown email the same way', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: SUPER_EMAIL, password: 'nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      error: 'ERR_INVALID_CREDENTIALS',
      message: 'Invalid email or password',
      errorMessage: 'Invalid email or password',
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'ghost@test.local', password: 'x' },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toBe('ERR_INVALID_CREDENTIALS');
  });

  it('answers a validation error, not a 500, for a malformed body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'not-an-email' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { email: expect.any(Array), password: expect.any(Array) },
    });
    const junk = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{bad json',
    });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().error).toBe('ERR_VALIDATION');
  });

  it('failures from elsewhere cannot lock the owner out: known addresses and devices still sign in', async () => {
    const { admin } = await makeCompany(t.db);
    const attempt = (remoteAddress: string, password: string, device?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress,
        payload: { email: admin.email, password },
        cookies: device ? { jdv: device } : {},
      });
    const owner = await attempt('198.51.100.1', PASSWORD);
    expect(owner.statusCode).toBe(200);
    const device = owner.cookies.find((c) => c.name === 'jdv');
    expect(device).toMatchObject({ httpOnly: true, path: '/auth/login' });
    // An attacker spread over ten addresses spends the email's whole budget (LOGIN_RATE_LIMIT 3 × 10).
    for (let host = 1; host <= 10; host += 1)
      for (let i = 0; i < 3; i += 1)
        expect((await attempt(`203.0.113.${host}`, 'guess')).statusCode).toBe(401);
    const stranger = await attempt('203.0.113.99', PASSWORD);
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json().message).toMatch(/device you used before/);
    // The owner, from the address they signed in from, or on their browser anywhere.
    const again = await attempt('198.51.100.1', PASSWORD);
    expect(again.statusCode, again.body).toBe(200);
    expect((await attempt('192.0.2.50', PASSWORD, device!.value)).statusCode).toBe(200);
    // Someone else's device cookie, or a forged one, does not count.
    expect((await attempt('192.0.2.51', PASSWORD, `${device!.value}x`)).statusCode).toBe(429);
    // The attacker's own address stays locked for this email, even with the right password.
    expect((await attempt('203.0.113.1', PASSWORD)).statusCode).toBe(429);
  });

  it('a completed password reset unlocks the account', async () => {
    const { admin } = await makeCompany(t.db);
    for (let host = 1; host <= 10; host += 1)
      for (let i = 0; i < 3; i += 1)
        await t.app.inject({
          method: 'POST',
          url: '/auth/login',
          remoteAddress: `203.0.114.${host}`,
          payload: { email: admin.email, password: 'guess' },
        });
    const fresh = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: '192.0.2.80',
        payload: { email: admin.email, password },
      });
    expect((await fresh(PASSWORD)).statusCode).toBe(429);
    const from = { remoteAddress: '192.0.2.80' };
    await t.app.inject({
      method: 'POST',
      url: `/forgetpassword/${encodeURIComponent(admin.email)}`,
      ...from,
    });
    const code = /: (\d{6})/.exec(t.mail.at(-1)!.text)![1];
    const reset = await t.app.inject({
      method: 'POST',
      url: `/resetpasswords/${encodeURIComponent(admin.email)}/${code}/NewPass123`,
      ...from,
    });
    expect(reset.statusCode).toBe(200);
    expect((await fresh('NewPass123')).statusCode).toBe(200);
  });

  it('rate-limits repeated failures per address and email with 429 and Retry-After', async () => {
    const { admin } = await makeCompany(t.db);
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: admin.email, password: 'bad' },
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: admin.email, password: PASSWORD },
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe('ERR_TOO_MANY_REQUESTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('rate-limits many attempts from one address across emails', async () => {
    const ip = '203.0.113.9';
    let last = 0;
    for (let i = 0; i < 10; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: ip,
        payload: { email: `nobody${i}@x.io`, password: 'bad' },
      });
      last = res.statusCode;
    }
    expect(last).toBe(429);
  });

  it('counts parallel failures atomically: at most LOGIN_RATE_LIMIT get a 401, the rest 429', async () => {
    const { admin } = await makeCompany(t.db);
    const results = await Promise.all(
      Array.from({ length: 60 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/auth/login',
          remoteAddress: '203.0.113.60',
          payload: { email: admin.email, password: 'bad-guess' },
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(3);
    expect(codes.filter((c) => c === 429)).toHaveLength(57);
    const retryAfter = Number(results.find((r) => r.statusCode === 429)!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
  });

  it('does not let a client pick its address with X-Forwarded-For by default', async () => {
    let last = 0;
    for (let i = 0; i < 10; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: '203.0.113.77',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        payload: { email: `spoof${i}@x.io`, password: 'bad' },
      });
      last = res.statusCode;
    }
    expect(last).toBe(429);
  });

  it('takes the address from X-Forwarded-For when TRUST_PROXY names the hops', async () => {
    const proxied = await createTestApp({ LOGIN_RATE_LIMIT: '3', TRUST_PROXY: '1' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const res = await proxied.app.inject({
          method: 'POST',
          url: '/auth/login',
          remoteAddress: '10.0.0.2',
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
          payload: { email: `proxied${i}@x.io`, password: 'bad' },
        });
        codes.push(res.statusCode);
      }
      // Each client behind the proxy has its own quota.
      expect(codes).toEqual(Array(10).fill(401));
    } finally {
      await proxied.close();
    }
  });

  it('trusts X-Forwarded-For only from the proxies TRUST_PROXY lists', async () => {
    const proxied = await createTestApp({ LOGIN_RATE_LIMIT: '3', TRUST_PROXY: '10.0.0.0/8' });
    const attempts = (from: string, prefix: string) =>
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          proxied.app
            .inject({
              method: 'POST',
              url: '/auth/login',
              remoteAddress: from,
              headers: { 'x-forwarded-for': `198.51.100.${i}` },
              payload: { email: `${prefix}${i}@x.io`, password: 'bad' },
            })
            .then((res) => res.statusCode),
        ),
      );
    try {
      expect(await attempts('10.1.2.3', 'listed')).toEqual(Array(10).fill(401));
      const direct = await attempts('203.0.113.5', 'direct');
      expect(direct.filter((c) => c === 429)).toHaveLength(1);
    } finally {
      await proxied.close();
    }
  });
});

describe('session tokens', () => {
  it('GET /auth/me needs a session: none → 401, garbage → 403 ERR_INVALID_TOKEN', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/auth/me' })).statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: 'Bearer abc.def.ghi' },
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error).toBe('ERR_INVALID_TOKEN');
  });

  it('an expired access token answers 403 so the client refreshes', async () => {
    const short = await createTestApp({ ACCESS_TOKEN_TTL: '10' });
    try {
      const session = await login(short.app, SUPER_EMAIL);
      travel(60_000);
      const res = await short.app.inject({
        method: 'GET',
        url: '/auth/me',
        headers: auth(session),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_INVALID_TOKEN');
    } finally {
      await short.close();
    }
  });

  it('refresh rotates the cookie; the old cookie reused later revokes the whole login', async () => {
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const first = await refreshWith(session.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json().user.id).toBe(admin.id);
    const rotated = first.cookies.find((c) => c.name === 'jrt')!.value;
    expect(rotated).not.toBe(session.cookie);

    // Past the grace window, presenting the first cookie again is treated as theft.
    travel(60_000);
    expect((await refreshWith(session.cookie)).statusCode).toBe(401);
    // ...and the legitimate newer cookie is now dead too.
    const after = await refreshWith(rotated);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('ERR_SESSION_EXPIRED');
  });

  it('two tabs refreshing with the same cookie at once both succeed', async () => {
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const [a, b] = await Promise.all([refreshWith(session.cookie), refreshWith(session.cookie)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
  });

  it('refresh without a cookie answers 401', async () => {
    const res = await refreshWith('');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('ERR_SESSION_EXPIRED');
  });

  it('logout revokes the refresh cookie and clears it', async () => {
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/auth/logout',
      headers: auth(session),
      cookies: { jrt: session.cookie },
    });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === 'jrt')?.value).toBe('');
    expect((await refreshWith(session.cookie)).statusCode).toBe(401);
  });

  it('a second login of the same account ends the first login', async () => {
    const { admin } = await makeCompany(t.db);
    const first = await login(t.app, admin.email);
    await login(t.app, admin.email);
    expect((await refreshWith(first.cookie)).statusCode).toBe(401);
  });

  it('a deleted user loses access at once, even with a valid token', async () => {
    const { admin, company } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    await t.db.delete(users).where(eq(users.id, admin.id));
    expect(
      (await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(session) })).statusCode,
    ).toBe(401);
    await t.db.delete(companies).where(eq(companies.id, company.id));
  });
});

describe('ended sessions', () => {
  const me = (session: { token: string }) =>
    t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(session) });
  const expectEnded = async (session: { token: string }) => {
    const res = await me(session);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('ERR_SESSION_EXPIRED');
  };

  it('an access token stops working at logout, not when it expires', async () => {
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    expect((await me(session)).statusCode).toBe(200);
    await t.app.inject({
      method: 'DELETE',
      url: '/auth/logout',
      headers: auth(session),
      cookies: { jrt: session.cookie },
    });
    await expectEnded(session);
  });

  it('many callers at once are each read as themselves: an ended session among them is refused alone', async () => {
    const made = await Promise.all([makeCompany(t.db), makeCompany(t.db), makeCompany(t.db)]);
    const sessions = await Promise.all(made.map(({ admin }) => login(t.app, admin.email)));
    const ended = await login(t.app, (await makeCompany(t.db)).admin.email);
    await t.app.inject({
      method: 'DELETE',
      url: '/auth/logout',
      headers: auth(ended),
      cookies: { jrt: ended.cookie },
    });
    const callers = [...sessions, ended, ...sessions, ended, ...sessions];
    const answers = await Promise.all(callers.map((session) => me(session)));
    answers.forEach((res, i) => {
      if (callers[i] === ended) expect(res.statusCode).toBe(401);
      else {
        expect(res.statusCode).toBe(200);
        const which = sessions.indexOf(callers[i]);
        expect(res.json().companyId).toBe(made[which].company.id);
      }
    });
  });

  it("a second login ends the first login's access token", async () => {
    const { admin } = await makeCompany(t.db);
    const first = await login(t.app, admin.email);
    const second = await login(t.app, admin.email);
    await expectEnded(first);
    expect((await me(second)).statusCode).toBe(200);
  });

  it('a password reset ends every session at once', async () => {
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    await t.app.inject({
      method: 'POST',
      url: `/forgetpassword/${encodeURIComponent(admin.email)}`,
    });
    const code = /: (\d{6})/.exec(t.mail.at(-1)!.text)![1];
    const reset = await t.app.inject({
      method: 'POST',
      url: `/resetpasswords/${encodeURIComponent(admin.email)}/${code}/NewPass123`,
    });
    expect(reset.statusCode).toBe(200);
    await expectEnded(session);
    expect((await refreshWith(session.cookie)).statusCode).toBe(401);
  });

  it("an admin setting a user's password ends that user's session, not the admin's", async () => {
    const { admin, company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id);
    const boss = await login(t.app, admin.email);
    const agentSession = await login(t.app, agent.email);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/users/${agent.id}`,
      headers: auth(boss),
      payload: { password: 'Changed123' },
    });
    expect(res.statusCode).toBe(200);
    await expectEnded(agentSession);
    expect((await refreshWith(agentSession.cookie)).statusCode).toBe(401);
    expect((await me(boss)).statusCode).toBe(200);
  });

  it('a user changing their own password stays logged in; their other sessions end', async () => {
    const { company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id);
    const session = await login(t.app, agent.email);
    // Another device's login that raced this one (one login normally ends the others).
    await t.db.insert(refreshTokens).values({
      userId: agent.id,
      companyId: company.id,
      familyId: 'other-device',
      tokenHash: 'other-device-hash',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const other = {
      token: await t.app.deps.tokens.signAccess({
        id: agent.id,
        companyId: company.id,
        profile: 'user',
        super: false,
        sid: 'other-device',
      }),
    };
    expect((await me(other)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/users/${agent.id}`,
      headers: auth(session),
      payload: { password: 'Changed123' },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(session)).statusCode).toBe(200);
    expect((await refreshWith(session.cookie)).statusCode).toBe(200);
    await expectEnded(other);
  });
});

describe('password reset', () => {
  const codeFrom = (text: string) => /: (\d{6})/.exec(text)![1];

  it('emails a single-use code that sets a new password', async () => {
    const { admin } = await makeCompany(t.db);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/forgetpassword/${encodeURIComponent(admin.email)}`,
    });
    expect(sent.statusCode).toBe(200);
    const mail = t.mail.at(-1)!;
    expect(mail.to).toBe(admin.email);
    expect(mail.subject).toBe(
      'Código para restablecer su contraseña / Password reset code / Código para redefinir sua senha',
    );
    const code = codeFrom(mail.text);
    // The same code in each of the three languages.
    expect(mail.text).toContain(`Su código para restablecer la contraseña es: ${code}`);
    expect(mail.text).toContain(`Your password reset code is: ${code}`);
    expect(mail.text).toContain(`Seu código para redefinir a senha é: ${code}`);
    const url = (c: string, pw: string) =>
      `/resetpasswords/${encodeURIComponent(admin.email)}/${c}/${pw}`;

    expect((await t.app.inject({ method: 'POST', url: url(code, 'weak') })).statusCode).toBe(400);
    const ok = await t.app.inject({ method: 'POST', url: url(code, 'NewPass123') });
    expect(ok.statusCode).toBe(200);
    await login(t.app, admin.email, 'NewPass123');
    const reused = await t.app.inject({ method: 'POST', url: url(code, 'Another123') });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe('ERR_INVALID_RESET_CODE');
  });

  it('refuses a wrong code and gives up after five wrong tries', async () => {
    const { admin } = await makeCompany(t.db);
    await t.app.inject({
      method: 'POST',
      url: `/forgetpassword/${encodeURIComponent(admin.email)}`,
    });
    const code = codeFrom(t.mail.at(-1)!.text);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/resetpasswords/${encodeURIComponent(admin.email)}/${wrong}/NewPass123`,
      });
      expect(res.json().error).toBe('ERR_INVALID_RESET_CODE');
    }
    const right = await t.app.inject({
      method: 'POST',
      url: `/resetpasswords/${encodeURIComponent(admin.email)}/${code}/NewPass123`,
    });
    expect(right.statusCode).toBe(400);
  });

  it('counts parallel guesses atomically: the right code sent after 59 wrong ones is refused', async () => {
    const { admin } = await makeCompany(t.db);
    await t.app.inject({
      method: 'POST',
      url: `/forgetpassword/${encodeURIComponent(admin.email)}`,
    });
    const code = codeFrom(t.mail.at(-1)!.text);
    const wrong = Array.from({ length: 1000 }, (_, i) => String(i).padStart(6, '0'))
      .filter((guess) => guess !== code)
      .slice(0, 59);
    // From many addresses: the email's own limit (10 tries a window) still holds.
    const results = await Promise.all(
      [...wrong, code].map((guess, i) =>
        t.app.inject({
          method: 'POST',
          url: `/resetpasswords/${encodeURIComponent(admin.email)}/${guess}/Taken0ver9`,
          remoteAddress: `198.18.0.${i + 1}`,
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 400)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(50);
    const [row] = await t.db.select().from(users).where(eq(users.id, admin.id));
    expect(row.passwordHash).toBe(admin.passwordHash);
    const [reset] = await t.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, admin.id));
    expect(reset.attempts).toBe(5);
  });

  it('an expired code is refused', async () => {
    const { admin } = await makeCompany(t.db);
    await t.app.inject({
      method: 'POST',
      url: `/forgetpassword/${encodeURIComponent(admin.email)}`,
    });
    const code = codeFrom(t.mail.at(-1)!.text);
    travel(31 * 60_000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/resetpasswords/${encodeURIComponent(admin.email)}/${code}/NewPass123`,
    });
    expect(res.json().error).toBe('ERR_INVALID_RESET_CODE');
  });

  it('an unknown email answers 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/forgetpassword/nobody%40nowhere.io' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_EMAIL_NOT_FOUND');
  });

  it('reset attempts share the code requests’ limit per address, unknown emails included', async () => {
    const from = { remoteAddress: '198.19.0.7' };
    const codes: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const forgot = await t.app.inject({
        method: 'POST',
        url: `/forgetpassword/probe${i}%40nowhere.io`,
        ...from,
      });
      const reset = await t.app.inject({
        method: 'POST',
        url: `/resetpasswords/probe${i}%40nowhere.io/123456/NewPass123`,
        ...from,
      });
      codes.push(forgot.statusCode, reset.statusCode);
    }
    // 20 tries an address a window over both routes; the rest wait.
    expect(codes.slice(0, 20)).toEqual(Array(20).fill(404));
    expect(codes.slice(20)).toEqual(Array(4).fill(429));
  });
});

describe('logs', () => {
  it('never contain the reset code or the new password from the reset URL', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // Requests are logged only at debug: the level where the URL would be written.
    const logged = await createTestApp({ LOG_LEVEL: 'debug' }, { logStream: stream });
    try {
      const url = `/resetpasswords/${encodeURIComponent(SUPER_EMAIL)}/987654/TopSecret99`;
      await logged.app.inject({ method: 'POST', url });
      const text = lines.join('');
      expect(text).toContain('/resetpasswords/');
      expect(text).not.toContain('987654');
      expect(text).not.toContain('TopSecret99');
    } finally {
      await logged.close();
    }
  });
});
