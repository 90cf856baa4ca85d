import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { settings, users } from '../../db/schema';
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
} from '../../../test/harness';

// Two-factor sign-in through the API: enrolment, the second step of a login, recovery codes, the
// company's requirement, and the limits on codes tried. Codes are computed here as an app would.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '8' });
});
afterAll(() => t.close());

const codeAt = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });

let address = 0;
// Each login from its own address, so the per-address password limits stay out of the way.
const passwordStep = (email: string, password = PASSWORD) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/login',
    remoteAddress: `203.0.113.${(address = (address % 250) + 1)}`,
    payload: { email, password },
  });
const post = (url: string, payload: object, session?: Session) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    ...(session ? { headers: auth(session) } : {}),
  });

// A user of a new company, signed in, with the second factor enabled from their settings.
const enrolled = async () => {
  const { company, admin } = await makeCompany(t.db);
  const session = await login(t.app, admin.email);
  const setup = await post('/auth/two-factor/setup', {}, session);
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret, uri } = setup.json() as { secret: string; uri: string };
  expect(uri).toMatch(/^otpauth:\/\/totp\/Atendi:/);
  const enabled = await post('/auth/two-factor/enable', { code: codeAt(secret) }, session);
  expect(enabled.statusCode, enabled.body).toBe(200);
  const { recoveryCodes } = enabled.json() as { recoveryCodes: string[] };
  return { company, admin, session, secret, recoveryCodes };
};

const challengeOf = async (email: string) => {
  const res = await passwordStep(email);
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

describe('two-factor sign-in', () => {
  it('asks for the code after the password, with no token or cookie until it is right', async () => {
    const { admin, secret, recoveryCodes, session } = await enrolled();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const status = await t.app.inject({
      method: 'GET',
      url: '/auth/two-factor',
      headers: auth(session),
    });
    expect(status.json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });

    const first = await challengeOf(admin.email);
    expect(first.json()).toEqual({ twoFactor: 'verify', challenge: expect.any(String) });
    expect(first.cookies.find((c) => c.name === 'jrt')).toBeUndefined();
    const { challenge } = first.json() as { challenge: string };

    const wrong = await post('/auth/login/two-factor', {
      challenge,
      code: codeAt(secret, 10),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('ERR_TWO_FACTOR_INVALID');
    // The code used to enable it was spent then: the next step's code signs in.
    const right = await post('/auth/login/two-factor', { challenge, code: codeAt(secret, 1) });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().token).toMatch(/^ey/);
    expect(right.cookies.find((c) => c.name === 'jrt')?.httpOnly).toBe(true);
    // The step is over once used.
    const again = await post('/auth/login/two-factor', { challenge, code: codeAt(secret, 1) });
    expect(again.json().error).toBe('ERR_TWO_FACTOR_EXPIRED');

    // The same code on a new sign-in: already used.
    const second = (await challengeOf(admin.email)).json() as { challenge: string };
    const replay = await post('/auth/login/two-factor', {
      challenge: second.challenge,
      code: codeAt(secret, 1),
    });
    expect(replay.json().error).toBe('ERR_TWO_FACTOR_INVALID');
  });

  it('takes each recovery code once', async () => {
    const { admin, recoveryCodes } = await enrolled();
    const use = async (code: string) => {
      const { challenge } = (await challengeOf(admin.email)).json() as { challenge: string };
      return post('/auth/login/two-factor', { challenge, code });
    };
    expect((await use(recoveryCodes[3].toUpperCase())).statusCode).toBe(200);
    const reused = await use(recoveryCodes[3]);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().error).toBe('ERR_TWO_FACTOR_INVALID');
    expect((await use(recoveryCodes[4].replace('-', ''))).statusCode).toBe(200);
  });

  it('checks at most five codes of a sign-in step, however many arrive at once', async () => {
    const { admin, secret } = await enrolled();
    const { challenge } = (await challengeOf(admin.email)).json() as { challenge: string };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post('/auth/login/two-factor', { challenge, code: codeAt(secret, 20 + i) }),
      ),
    );
    const errors = answers.map((res) => res.json().error as string);
    expect(errors.filter((e) => e === 'ERR_TWO_FACTOR_INVALID').length).toBeLessThanOrEqual(5);
    expect(
      errors.every((e) => ['ERR_TWO_FACTOR_INVALID', 'ERR_TWO_FACTOR_EXPIRED'].includes(e)),
    ).toBe(true);
    // Spent: even the right code no longer finishes it.
    const late = await post('/auth/login/two-factor', { challenge, code: codeAt(secret, 1) });
    expect(late.json().error).toBe('ERR_TWO_FACTOR_EXPIRED');
  });

  it('limits the codes tried per user across sign-in steps', async () => {
    const { admin, secret } = await enrolled();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { challenge } = (await challengeOf(admin.email)).json() as { challenge: string };
      const tries = await Promise.all(
        Array.from({ length: 4 }, (_, j) =>
          post('/auth/login/two-factor', { challenge, code: codeAt(secret, 40 + i * 4 + j) }),
        ),
      );
      statuses.push(...tries.map((res) => res.statusCode));
    }
    // Eight checked (the limit), then 429 with Retry-After.
    expect(statuses.filter((s) => s === 401)).toHaveLength(8);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
  });

  it('sends users of a company that requires it to enrol at their next login', async () => {
    const { company, admin } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id, 'user');
    const adminSession = await login(t.app, admin.email);
    const required = await t.app.inject({
      method: 'PUT',
      url: '/settings/twoFactor',
      headers: auth(adminSession),
      payload: { value: 'required' },
    });
    expect(required.statusCode, required.body).toBe(200);

    const step = (await challengeOf(agent.email)).json() as {
      twoFactor: string;
      challenge: string;
    };
    expect(step.twoFactor).toBe('enroll');
    // The enrolment step is not a verification step.
    const wrongKind = await post('/auth/login/two-factor', {
      challenge: step.challenge,
      code: '123456',
    });
    expect(wrongKind.json().error).toBe('ERR_TWO_FACTOR_EXPIRED');
    const setup = await post('/auth/login/two-factor/setup', { challenge: step.challenge });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json() as { secret: string };
    // Asked again within the step: the same secret.
    expect(
      (await post('/auth/login/two-factor/setup', { challenge: step.challenge })).json().secret,
    ).toBe(secret);
    const done = await post('/auth/login/two-factor/enroll', {
      challenge: step.challenge,
      code: codeAt(secret),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      token: expect.any(String),
      recoveryCodes: expect.any(Array),
    });
    const session = {
      token: done.json().token,
      userId: agent.id,
      companyId: company.id,
      cookie: '',
    } as Session;
    // Required: it cannot be turned off.
    const off = await post(
      '/auth/two-factor/disable',
      { password: PASSWORD, code: codeAt(secret, 1) },
      session,
    );
    expect(off.statusCode).toBe(403);
    expect(off.json().error).toBe('ERR_TWO_FACTOR_REQUIRED');
    // Only super users require it of super users.
    const superKey = await t.app.inject({
      method: 'PUT',
      url: '/settings/superTwoFactor',
      headers: auth(adminSession),
      payload: { value: 'required' },
    });
    expect(superKey.statusCode).toBe(403);
  });

  it('turns off with the password and a code, and a super user can reset it', async () => {
    const { admin, secret, session } = await enrolled();
    const wrongPassword = await post(
      '/auth/two-factor/disable',
      { password: 'Wrong123', code: codeAt(secret, 1) },
      session,
    );
    expect(wrongPassword.json().error).toBe('ERR_INVALID_CREDENTIALS');
    const off = await post(
      '/auth/two-factor/disable',
      { password: PASSWORD, code: codeAt(secret, 1) },
      session,
    );
    expect(off.statusCode, off.body).toBe(204);
    expect((await passwordStep(admin.email)).json().token).toMatch(/^ey/);

    const other = await enrolled();
    const reset = (as: Session) =>
      t.app.inject({
        method: 'DELETE',
        url: `/users/${other.admin.id}/two-factor`,
        headers: auth(as),
      });
    expect((await reset(other.session)).statusCode).toBe(403);
    const root = await login(t.app, SUPER_EMAIL);
    expect((await reset(root)).statusCode).toBe(204);
    expect((await passwordStep(other.admin.email)).json().token).toMatch(/^ey/);
    const missing = await t.app.inject({
      method: 'DELETE',
      url: '/users/999999/two-factor',
      headers: auth(root),
    });
    expect(missing.statusCode).toBe(404);
  });

  it('keeps the secret on the server: sealed at rest, never in the user views', async () => {
    const { admin, secret, session } = await enrolled();
    const [row] = await t.db.select().from(users).where(eq(users.id, admin.id));
    expect(row.totpSecret).not.toContain(secret);
    for (const url of ['/auth/me', `/users/${admin.id}`, '/users']) {
      const res = await t.app.inject({ method: 'GET', url, headers: auth(session) });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain(row.totpSecret!);
      expect(res.body).not.toMatch(/totp/i);
    }
    // Refused codes and bad input are clear errors.
    const bad = await post('/auth/two-factor/enable', { code: '12ab' }, session);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
    const noSetup = await post('/auth/two-factor/enable', { code: '123456' }, session);
    expect(noSetup.statusCode).toBe(400);
    const stale = await post('/auth/login/two-factor', {
      challenge: 'x'.repeat(43),
      code: '123456',
    });
    expect(stale.json().error).toBe('ERR_TWO_FACTOR_EXPIRED');
    await t.db.delete(settings).where(eq(settings.key, 'twoFactor'));
  });
});
