import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiTokenScopes, scopesAllow, type ApiTokenScope } from '@atendi/shared';
import type { RouteInfo } from '../../app';
import { apiTokens, auditLog, contacts } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
} from '../../../test/harness';

// API tokens (issue 38): made by admins, shown once, kept hashed; a token reaches the operations of
// its scopes only (a walk over every route), in its company only, until it is revoked or expires
// (at once, on every node), limited per token.

let t: TestContext;
let routes: RouteInfo[];
beforeAll(async () => {
  t = await createTestApp({ API_TOKEN_RATE_LIMIT: '1000' });
  routes = t.app.routeCatalog.filter((r) => !r.url.startsWith('/docs'));
});
afterAll(() => t.close());

const make = async (session: Session, scopes: ApiTokenScope[], extra: object = {}) => {
  const res = await inject(t.app, session, 'POST', '/api-tokens', {
    name: `Integración ${scopes.join(' ')}`,
    scopes,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; token: string; prefix: string };
};
const withToken = (token: string, method: string, url: string, payload?: object) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
const fill = (url: string) => url.replace(/:(\w+)/g, '999999');

describe('API tokens', () => {
  it('are shown once, kept hashed, listed with their last use, and made by admins only', async () => {
    const { company, admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const created = await make(session, ['contacts:read']);
    expect(created.token).toMatch(/^atd_[\w-]{40,}$/);
    expect(created.token.startsWith(created.prefix)).toBe(true);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const before = await inject(t.app, session, 'GET', '/api-tokens');
    expect(before.body).not.toContain(created.token);
    expect(before.json().tokens[0]).toMatchObject({
      id: created.id,
      scopes: ['contacts:read'],
      lastUsedAt: null,
      createdBy: { id: admin.id },
    });
    expect((await withToken(created.token, 'GET', '/contacts')).statusCode).toBe(200);
    const after = await inject(t.app, session, 'GET', '/api-tokens');
    expect(after.json().tokens[0].lastUsedAt).not.toBeNull();

    const agent = await login(t.app, (await makeUser(t.db, company.id, 'user')).email);
    const refused = await inject(t.app, agent, 'POST', '/api-tokens', {
      name: 'x',
      scopes: ['contacts:read'],
    });
    expect(refused.statusCode).toBe(403);
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.companyId, company.id));
    expect(entries.map((e) => e.action)).toContain('api_token.created');
    expect(JSON.stringify(entries)).not.toContain(created.token);
  });

  it('reach every operation of their scopes and none other (a walk over the API)', async () => {
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const scoped = routes.filter((r) => r.apiScope);
    expect(new Set(scoped.map((r) => r.apiScope))).toEqual(new Set(apiTokenScopes));
    // Every read scope; every write scope (reports have none: nothing writes them).
    const tokens = await Promise.all(
      [
        apiTokenScopes.filter((s) => s.endsWith(':read')),
        apiTokenScopes.filter((s) => s.endsWith(':write')),
      ].map(async (scopes) => ({ scopes, token: (await make(session, scopes)).token })),
    );
    const problems: string[] = [];
    for (const route of routes) {
      if (route.access.public) continue;
      const url = fill(route.url);
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const name = `${route.method} ${route.url} (${route.apiScope ?? 'no scope'})`;
      const answers = await Promise.all(
        tokens.map(({ token }) => withToken(token, route.method, url, body)),
      );
      answers.forEach((res, i) => {
        const { scopes } = tokens[i]!;
        // Writing includes reading; a read token writes nothing; no token calls what has no scope.
        const may = !!route.apiScope && scopesAllow(scopes, route.apiScope);
        const refused = res.statusCode === 403 && res.json().error === 'ERR_API_TOKEN_SCOPE';
        if (res.statusCode === 401 || refused === may)
          problems.push(`${name}: ${scopes[0]}… token ${res.statusCode}`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('see only their company, and never with a super user’s reach', async () => {
    const a = await makeCompany(t.db);
    const b = await makeCompany(t.db);
    const [foreign] = await t.db
      .insert(contacts)
      .values({ companyId: a.company.id, name: 'Ajena', number: '5491100001111' })
      .returning();
    const { token } = await make(await login(t.app, b.admin.email), ['contacts:write']);
    expect((await withToken(token, 'GET', `/contacts/${foreign.id}`)).statusCode).toBe(404);
    expect((await withToken(token, 'DELETE', `/contacts/${foreign.id}`)).statusCode).toBe(404);
    const list = await withToken(token, 'GET', '/contacts');
    expect(list.body).not.toContain('Ajena');
    // A token cannot make tokens, or reach the company's people and settings.
    for (const [method, url] of [
      ['POST', '/api-tokens'],
      ['GET', '/users'],
      ['GET', '/settings'],
    ] as const) {
      const res = await withToken(token, method, url, {});
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe('ERR_API_TOKEN_SCOPE');
    }
  });

  it('stop at once on every node when revoked or expired, and a wrong one is 401', async () => {
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const { id, token } = await make(session, ['tickets:read']);
    const other = await t.spawnNode();
    expect(
      (
        await other.inject({
          method: 'GET',
          url: '/tickets',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(200);
    expect((await inject(t.app, session, 'DELETE', `/api-tokens/${id}`)).statusCode).toBe(204);
    for (const node of [t.app, other]) {
      const res = await node.inject({
        method: 'GET',
        url: '/tickets',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('ERR_INVALID_API_TOKEN');
    }
    expect((await inject(t.app, session, 'GET', '/api-tokens')).json().tokens).toEqual([]);
    expect((await inject(t.app, session, 'DELETE', `/api-tokens/${id}`)).statusCode).toBe(404);

    const soon = await make(session, ['tickets:read'], {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await withToken(soon.token, 'GET', '/tickets')).statusCode).toBe(200);
    await t.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, soon.id));
    expect((await withToken(soon.token, 'GET', '/tickets')).statusCode).toBe(401);
    expect((await withToken(`${soon.token}x`, 'GET', '/tickets')).statusCode).toBe(401);

    const past = await inject(t.app, session, 'POST', '/api-tokens', {
      name: 'Vencido',
      scopes: ['tickets:read'],
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
  });

  it('are limited per token (429 with Retry-After), other tokens unaffected', async () => {
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const busy = await make(session, ['tickets:read']);
    const calm = await make(session, ['tickets:read']);
    await t.app.deps.limits.apiToken.penalty(`token:${busy.id}`, 1000);
    const res = await withToken(busy.token, 'GET', '/tickets');
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await withToken(calm.token, 'GET', '/tickets')).statusCode).toBe(200);
  });
});
