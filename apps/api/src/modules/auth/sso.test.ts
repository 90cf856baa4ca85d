import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, ssoRequests, users } from '../../db/schema';
import {
  PASSWORD,
  SUPER_EMAIL,
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { signInAtProvider, startLocalOidc, type LocalOidc } from '../../../test/local-oidc';

// Single sign-on through the API with the real client (openid-client) against a real OpenID
// provider (oidc-provider) on 127.0.0.1: the admin's settings, the round trip with its checks
// (state, browser, nonce, PKCE, a replay), who is let in, and the company's password switch.

let t: TestContext;
let provider: LocalOidc;
let callbackUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  callbackUrl = `${t.config.publicApiUrl}/auth/sso/callback`;
  provider = await startLocalOidc({ redirectUris: [callbackUrl] });
});
afterAll(async () => {
  await provider.close();
  await t.close();
});

let sequence = 0;
const newDomain = () => `acme${process.pid}x${(sequence += 1)}.test`;

const configure = (session: Session, companyId: number, body: Record<string, unknown>) =>
  inject(t.app, session, 'PUT', `/companies/${companyId}/sso`, {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    ...body,
  });

// A company with SSO for a domain of its own, and a person of that domain known to the provider.
const ssoCompany = async (options: Record<string, unknown> = {}) => {
  const { company, admin } = await makeCompany(t.db);
  const session = await login(t.app, admin.email);
  const domain = newDomain();
  const res = await configure(session, company.id, { domains: [domain], ...options });
  expect(res.statusCode, res.body).toBe(200);
  return { company, admin, session, domain };
};
const person = (domain: string, claims: Record<string, unknown> = {}) => {
  const email = `ana.${(sequence += 1)}@${domain}`;
  provider.accounts.set(email, { email, email_verified: true, name: 'Ana Pérez', ...claims });
  return email;
};

let address = 0;
const from = () => `198.51.100.${(address = (address % 250) + 1)}`;

// The browser's way: start (a cookie and the provider's URL), the provider's pages, the callback.
const startAt = async (email: string, remoteAddress = from()) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/auth/sso/start?email=${encodeURIComponent(email)}`,
    remoteAddress,
  });
  expect(res.statusCode, res.body).toBe(302);
  const cookie = res.cookies.find((c) => c.name === 'jss')?.value ?? '';
  return { location: res.headers.location as string, cookie, remoteAddress };
};
const callback = (url: string, cookie: string | undefined, remoteAddress = from()) =>
  t.app.inject({
    method: 'GET',
    url: url.slice(t.config.publicApiUrl.length),
    remoteAddress,
    ...(cookie ? { cookies: { jss: cookie } } : {}),
  });
const ssoErrorOf = (res: { headers: Record<string, unknown> }) =>
  new URL(String(res.headers.location)).searchParams.get('ssoError');
const roundTrip = async (email: string, account = email) => {
  const started = await startAt(email);
  const back = await signInAtProvider(started.location, account, callbackUrl);
  return { ...started, back, res: await callback(back, started.cookie, started.remoteAddress) };
};
// The session the callback left: the refresh cookie, traded for a token as the web app does.
const sessionOf = async (res: { cookies: { name: string; value: string }[] }) => {
  const jrt = res.cookies.find((c) => c.name === 'jrt')?.value;
  expect(jrt).toBeTruthy();
  const refreshed = await t.app.inject({
    method: 'POST',
    url: '/auth/refresh_token',
    cookies: { jrt: jrt! },
  });
  expect(refreshed.statusCode, refreshed.body).toBe(200);
  return refreshed.json() as { token: string; user: { email: string; profile: string } };
};

describe('single sign-on settings', () => {
  it('checks the provider before saving and never answers the secret', async () => {
    const { company, session, domain } = await ssoCompany();
    const read = await inject(t.app, session, 'GET', `/companies/${company.id}/sso`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      config: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        hasSecret: true,
        domains: [domain],
        enabled: true,
        createUsers: false,
        passwordLogin: true,
        callbackUrl,
      },
      callbackUrl,
    });
    expect(read.body).not.toContain(provider.clientSecret);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'sso.updated')));
    expect(entry?.detail).toMatchObject({ domains: [domain], secretChanged: true });
    expect(JSON.stringify(entry)).not.toContain(provider.clientSecret);

    // Saved again without the secret: the one saved stays (and still works with the provider).
    const kept = await configure(session, company.id, {
      clientSecret: undefined,
      domains: [domain, `@Other.${domain}`],
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().config.domains).toEqual([domain, `other.${domain}`].sort());
  });

  it('refuses a provider it cannot discover, a private address, and a wrong secret field', async () => {
    const { company, session } = await ssoCompany();
    const closed = await configure(session, company.id, {
      issuer: 'http://127.0.0.1:9/realms/none',
      domains: [newDomain()],
    });
    expect(closed.statusCode).toBe(424);
    expect(closed.json()).toMatchObject({
      error: 'ERR_SSO_PROVIDER',
      fields: { issuer: [expect.any(String)] },
    });
    const inside = await configure(session, company.id, {
      issuer: 'http://169.254.169.254/latest',
      domains: [newDomain()],
    });
    expect(inside.statusCode).toBe(400);
    expect(inside.json().error).toBe('ERR_OUTBOUND_URL_NOT_ALLOWED');
    const { company: fresh, admin } = await makeCompany(t.db);
    const noSecret = await configure(await login(t.app, admin.email), fresh.id, {
      clientSecret: '',
      domains: [newDomain()],
    });
    expect(noSecret.statusCode).toBe(400);
    expect(noSecret.json().fields).toHaveProperty('clientSecret');
    const badDomain = await configure(session, company.id, { domains: ['not a domain'] });
    expect(badDomain.statusCode).toBe(400);
    expect(badDomain.json().error).toBe('ERR_VALIDATION');
  });

  it('gives each domain to one company, also when two claim it at once', async () => {
    const domain = newDomain();
    const admins = await Promise.all(
      [0, 1, 2].map(async () => {
        const { company, admin } = await makeCompany(t.db);
        return { company, session: await login(t.app, admin.email) };
      }),
    );
    const answers = await Promise.all(
      admins.map(({ company, session }) => configure(session, company.id, { domains: [domain] })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().error).toBe('ERR_SSO_DOMAIN_TAKEN');
  });

  it('is invisible to other companies and closed to non-admins', async () => {
    const { company } = await ssoCompany();
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await inject(t.app, otherAdmin, method, `/companies/${company.id}/sso`, {
        issuer: provider.issuer,
        clientId: 'x',
        domains: [newDomain()],
      });
      expect(res.statusCode, `${method} ${res.body}`).toBe(404);
    }
    const agent = await makeUser(t.db, company.id, 'user');
    const res = await inject(
      t.app,
      await login(t.app, agent.email),
      'GET',
      `/companies/${company.id}/sso`,
    );
    expect(res.statusCode).toBe(403);
    // A super user sees it (and can fix a company that locked itself out).
    const superSession = await login(t.app, SUPER_EMAIL);
    expect(
      (await inject(t.app, superSession, 'GET', `/companies/${company.id}/sso`)).statusCode,
    ).toBe(200);
  });
});

describe('signing in through the provider', () => {
  it('signs a person of the domain in, and the login page learns the email uses SSO', async () => {
    const { company, domain } = await ssoCompany();
    const email = person(domain);
    const user = await makeUser(t.db, company.id, 'user', { email });
    const discovered = await t.app.inject({ method: 'GET', url: `/auth/sso?email=${email}` });
    expect(discovered.json()).toEqual({ sso: true, passwordLogin: true });
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/auth/sso?email=ana@nowhere.test',
    });
    expect(elsewhere.json()).toEqual({ sso: false, passwordLogin: true });

    const { location, res } = await roundTrip(email);
    const authorization = new URL(location);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('state')).toBeTruthy();
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe(`${t.config.publicWebUrl}/login?sso=done`);
    const session = await sessionOf(res);
    expect(session.user.email).toBe(email);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, user.id), eq(auditLog.action, 'auth.login')));
    expect(entry?.detail).toMatchObject({ with: 'sso' });
  });

  it('refuses a replayed answer, a changed state, another browser and a changed nonce', async () => {
    const { company, domain } = await ssoCompany();
    const email = person(domain);
    await makeUser(t.db, company.id, 'user', { email });

    const first = await roundTrip(email);
    expect(first.res.headers.location).toBe(`${t.config.publicWebUrl}/login?sso=done`);
    const replay = await callback(first.back, first.cookie);
    expect(ssoErrorOf(replay)).toBe('ERR_SSO_REQUEST');
    expect(replay.cookies.find((c) => c.name === 'jrt')).toBeUndefined();

    const started = await startAt(email);
    const back = await signInAtProvider(started.location, email, callbackUrl);
    const tampered = new URL(back);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
    expect(ssoErrorOf(await callback(tampered.href, started.cookie))).toBe('ERR_SSO_REQUEST');
    // The state was not used up by the forgery, but a browser without the cookie is not the one
    // that left for the provider.
    expect(ssoErrorOf(await callback(back, undefined))).toBe('ERR_SSO_REQUEST');

    const again = await startAt(email);
    const answer = await signInAtProvider(again.location, email, callbackUrl);
    await t.db
      .update(ssoRequests)
      .set({ nonce: 'not-the-nonce-sent' })
      .where(eq(ssoRequests.companyId, company.id));
    const res = await callback(answer, again.cookie);
    expect(ssoErrorOf(res)).toBe('ERR_SSO_REQUEST');
    const failures = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'auth.sso_failed')));
    expect(failures.map((f) => f.detail.reason)).toEqual(
      expect.arrayContaining(['browser mismatch', expect.stringMatching(/nonce|claim/i)]),
    );
  });

  it('lets in only verified emails of its domains and of its own company', async () => {
    const { company, domain } = await ssoCompany();
    const unverified = person(domain, { email_verified: false });
    await makeUser(t.db, company.id, 'user', { email: unverified });
    expect(ssoErrorOf((await roundTrip(unverified)).res)).toBe('ERR_SSO_EMAIL_UNVERIFIED');

    // The provider vouches for an address outside the company's domains.
    const outside = `ana.${(sequence += 1)}@${newDomain()}`;
    const account = `acct-${sequence}`;
    provider.accounts.set(account, { email: outside, email_verified: true });
    await makeUser(t.db, company.id, 'user', { email: outside });
    expect(ssoErrorOf((await roundTrip(person(domain), account)).res)).toBe('ERR_SSO_NO_ACCOUNT');

    // An account of another company with an email of this domain is not this company's to open.
    const other = await makeCompany(t.db);
    const foreign = person(domain);
    await makeUser(t.db, other.company.id, 'admin', { email: foreign });
    expect(ssoErrorOf((await roundTrip(foreign)).res)).toBe('ERR_SSO_NO_ACCOUNT');

    // No account, and the company makes none.
    expect(ssoErrorOf((await roundTrip(person(domain))).res)).toBe('ERR_SSO_NO_ACCOUNT');
  });

  it('creates the account as a user profile when the company allows it, once', async () => {
    const { company, domain } = await ssoCompany({ createUsers: true });
    const email = person(domain, { name: 'Ana Nueva' });
    const [a, b] = await Promise.all([roundTrip(email), roundTrip(email)]);
    for (const { res } of [a, b])
      expect(res.headers.location).toBe(`${t.config.publicWebUrl}/login?sso=done`);
    const made = await t.db.select().from(users).where(eq(users.email, email));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      companyId: company.id,
      profile: 'user',
      name: 'Ana Nueva',
      super: false,
    });
    // One session per account (SPEC): the later sign-in ends the earlier one, even at once.
    const refreshed = await Promise.all(
      [a, b].map(({ res }) =>
        t.app.inject({
          method: 'POST',
          url: '/auth/refresh_token',
          cookies: { jrt: res.cookies.find((c) => c.name === 'jrt')!.value },
        }),
      ),
    );
    const held = refreshed.filter((r) => r.statusCode === 200);
    expect(held).toHaveLength(1);
    expect(held[0]!.json().user.profile).toBe('user');
    const created = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'user.created')));
    expect(created.map((c) => c.detail)).toEqual([expect.objectContaining({ email, via: 'sso' })]);
  });

  it('goes back to the login page when the person cancels at the provider', async () => {
    const { company, domain } = await ssoCompany();
    const email = person(domain);
    await makeUser(t.db, company.id, 'user', { email });
    const started = await startAt(email);
    const state = new URL(started.location).searchParams.get('state');
    const res = await callback(
      `${callbackUrl}?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`,
      started.cookie,
    );
    expect(ssoErrorOf(res)).toBe('ERR_SSO_DENIED');
    const unknown = await startAt('ana@nowhere.test');
    expect(unknown.location).toBe(`${t.config.publicWebUrl}/login?ssoError=ERR_SSO_NOT_CONFIGURED`);
  });

  it('reads the email from the ID token too (providers that put it there)', async () => {
    const inToken = await startLocalOidc({ redirectUris: [callbackUrl], claimsInIdToken: true });
    try {
      const { company, admin } = await makeCompany(t.db);
      const domain = newDomain();
      const saved = await inject(
        t.app,
        await login(t.app, admin.email),
        'PUT',
        `/companies/${company.id}/sso`,
        {
          issuer: inToken.issuer,
          clientId: inToken.clientId,
          clientSecret: inToken.clientSecret,
          domains: [domain],
        },
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const email = `rosa@${domain}`;
      inToken.accounts.set(email, { email, email_verified: true });
      await makeUser(t.db, company.id, 'user', { email });
      const started = await startAt(email);
      const back = await signInAtProvider(started.location, email, callbackUrl);
      const res = await callback(back, started.cookie);
      expect(res.headers.location).toBe(`${t.config.publicWebUrl}/login?sso=done`);
    } finally {
      await inToken.close();
    }
  });
});

describe('password sign-in under SSO', () => {
  it('is refused for the company once switched off, right or wrong, but not for super users', async () => {
    const { company, session, domain } = await ssoCompany();
    const agent = await makeUser(t.db, company.id, 'user');
    const passwordLogin = (email: string, password = PASSWORD) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: from(),
        payload: { email, password },
      });
    expect((await passwordLogin(agent.email)).statusCode).toBe(200);

    const off = await configure(session, company.id, {
      clientSecret: undefined,
      domains: [domain],
      passwordLogin: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    for (const password of [PASSWORD, 'wrong-password']) {
      const res = await passwordLogin(agent.email, password);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_SSO_REQUIRED');
    }
    const discovered = await t.app.inject({ method: 'GET', url: `/auth/sso?email=x@${domain}` });
    expect(discovered.json()).toEqual({ sso: true, passwordLogin: false });

    // A super user of the company keeps the password (a broken provider locks no operator out).
    const operator = await makeUser(t.db, company.id, 'admin', { super: true });
    expect((await passwordLogin(operator.email)).statusCode).toBe(200);

    // SSO removed: passwords work again.
    const removed = await inject(t.app, session, 'DELETE', `/companies/${company.id}/sso`);
    expect(removed.statusCode).toBe(204);
    expect((await passwordLogin(agent.email)).statusCode).toBe(200);
    expect(
      (await inject(t.app, session, 'DELETE', `/companies/${company.id}/sso`)).statusCode,
    ).toBe(404);
  });
});
