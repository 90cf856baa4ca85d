import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { permissionTable, profiles, type Permission, type Profile } from '@atendi/shared';
import type { RouteInfo } from '../src/app';
import {
  apiTokens,
  conversationExports,
  knowledgeDocuments,
  webhookDeliveries,
  webhookEndpoints,
  announcements,
  companies,
  helps,
  insightRules,
  plans,
  prompts,
  queueIntegrations,
  campaigns,
  contactListItems,
  contactLists,
  fileLists,
  ticketNotes,
  contacts,
  messages,
  queueOptions,
  queues,
  quickMessages,
  schedules,
  tags,
  tickets,
} from '../src/db/schema';
import {
  auth,
  createTestApp,
  SUPER_EMAIL,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type Session,
  type TestContext,
} from './harness';
import { sampleInput, type SampleOptions } from './sample-input';
import { startFakeStripe, STRIPE_KEY, WEBHOOK_SECRET, type FakeStripe } from './fake-stripe';

// Walks every registered route, so each route a later issue adds is checked without new test code.

// Routes anyone may call. Adding a public route means adding it here, on purpose.
const PUBLIC_ROUTES = [
  'GET /version',
  // Balancers and orchestrators: nothing but up, ready, and which dependency fails.
  'GET /health/live',
  'GET /health/ready',
  // Prometheus, with the operator's METRICS_TOKEN (off without one).
  'GET /metrics',
  'POST /auth/login',
  // The second step of a sign-in, named by the single-use token its password step answered.
  'POST /auth/login/two-factor',
  'POST /auth/login/two-factor/setup',
  'POST /auth/login/two-factor/enroll',
  'POST /auth/refresh_token',
  // Single sign-on: what the login page offers for an email, and the browser's round trip through
  // the company's provider (bound to the browser by a cookie, checked by state, nonce and PKCE).
  'GET /auth/sso',
  'GET /auth/sso/start',
  'GET /auth/sso/callback',
  'POST /companies/cadastro',
  'POST /forgetpassword/:email',
  'POST /resetpasswords/:email/:token/:newPassword',
  'GET /plans/list',
  'GET /uploads/:companyId/:name',
  // Meta calls these; a request is checked against the connection's verify token or app secret.
  'GET /webhooks/whatsapp',
  'POST /webhooks/whatsapp',
  // Stripe calls this; a request is checked against STRIPE_WEBHOOK_SECRET.
  'POST /subscriptions/webhook',
  // Companies' own systems call this with a connection token (modules/messages/external-api.ts).
  'POST /api/messages/send',
];

// Routes a company that is not active may still reach (SPEC §2 gate). Also deliberate.
const INACTIVE_ALLOWED = [
  'DELETE /auth/logout',
  'GET /auth/me',
  'GET /companies/listPlan/:companyId',
  'GET /companies/:id',
  'GET /plans/all',
  'GET /plans',
  'GET /plans/:id',
  'GET /announcements',
  'GET /announcements/:id',
  // How an overdue or suspended company pays.
  'GET /subscriptions',
  'POST /subscriptions/checkout',
];

// Path parameters that name no company-owned row: platform-wide records, or keys scoped by the session.
const GLOBAL_PARAMS: Record<string, string> = {
  'plans:id': 'plans are platform-wide',
  'helps:id': 'help videos are platform-wide',
  'announcements:id': 'announcements are platform-wide (written by super users, read by all)',
  'settings:key': 'a setting key is resolved inside the caller’s company',
  'auth:id':
    'a session id is looked up among the caller’s own sessions (sessions.test.ts: 404 otherwise)',
};

// The walk starts sessions (try again, new QR): simulated ones, since a WhatsApp Web session would
// reach for WhatsApp's servers, and on a machine without them its stop can outlast Fastify's close.
const SIMULATED = { provider: 'simulator' as const };

type Fixture = { own: number | string; foreign: number | string };
let t: TestContext;
let fixtures: Record<string, Fixture>;
let sessions: Record<'admin' | Profile | 'inactiveAdmin' | 'super', Session>;
let routes: RouteInfo[];

const key = (r: Pick<RouteInfo, 'method' | 'url'>) => `${r.method} ${r.url}`;
const paramsOf = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]);
const resourceOf = (url: string) => url.split('/')[1];

const fill = (url: string, pick: (param: string) => string | number) =>
  url.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(String(pick(name))));

const call = (route: RouteInfo, url: string, session?: Session) =>
  t.app.inject({
    method: route.method as 'GET',
    url,
    headers: session ? auth(session) : {},
    ...(route.method === 'GET' || route.method === 'DELETE'
      ? {}
      : { payload: (sampleInput(route.schema?.body) ?? {}) as object }),
  });

// A conversation (contact, open ticket, one sent message) on a connection of the company.
const conversationOf = async (companyId: number) => {
  const whatsapp = await makeWhatsapp(t.db, companyId, SIMULATED);
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId, name: 'Walker contact', number: `5511900${companyId}` })
    .returning();
  const [ticket] = await t.db
    .insert(tickets)
    .values({ companyId, contactId: contact.id, whatsappId: whatsapp.id, status: 'open' })
    .returning();
  const [message] = await t.db
    .insert(messages)
    .values({ companyId, ticketId: ticket.id, whatsappId: whatsapp.id, body: 'hola', fromMe: true })
    .returning();
  return { ticket, message };
};

const messageFixtures = async (foreignCompany: number, ownCompany: number) => {
  const own = await conversationOf(ownCompany);
  const foreign = await conversationOf(foreignCompany);
  return {
    'messages:ticketId': { own: own.ticket.id, foreign: foreign.ticket.id },
    'messages:id': { own: own.message.id, foreign: foreign.message.id },
  };
};

// The same connection answers under /whatsapp, /whatsappsession and /simulator.
const connectionFixtures = async (foreignCompany: number, ownCompany: number) => {
  const own = await makeWhatsapp(t.db, ownCompany, SIMULATED);
  const foreign = await makeWhatsapp(t.db, foreignCompany, SIMULATED);
  const fixture = { own: own.id, foreign: foreign.id };
  return { 'whatsapp:id': fixture, 'whatsappsession:id': fixture, 'simulator:id': fixture };
};

// A contact with a waiting ticket in each company.
const ticketFixtures = async (foreignCompany: number, ownCompany: number) => {
  const ticketOf = async (companyId: number) => {
    const connection = await makeWhatsapp(t.db, companyId, SIMULATED);
    const [contact] = await t.db
      .insert(contacts)
      .values({ companyId, name: 'Walker', number: `54911${companyId}`.padEnd(13, '0') })
      .returning();
    const [ticket] = await t.db
      .insert(tickets)
      .values({ companyId, contactId: contact.id, whatsappId: connection.id })
      .returning();
    const [note] = await t.db
      .insert(ticketNotes)
      .values({ companyId, ticketId: ticket.id, contactId: contact.id, note: 'Walker note' })
      .returning();
    return { ...ticket, noteId: note.id };
  };
  const own = await ticketOf(ownCompany);
  const foreign = await ticketOf(foreignCompany);
  return {
    'ticket-notes:id': { own: own.noteId, foreign: foreign.noteId },
    'tickets:id': { own: own.id, foreign: foreign.id },
    'tickets:ticketId': { own: own.id, foreign: foreign.id },
    'tickets:uuid': { own: own.uuid, foreign: foreign.uuid },
  };
};

// A contact, and a tag beside a ticket, in each company.
const contactAndTagFixtures = async (foreignCompany: number, ownCompany: number) => {
  const rowsOf = async (companyId: number) => {
    const connection = await makeWhatsapp(t.db, companyId, SIMULATED);
    const [contact] = await t.db
      .insert(contacts)
      .values({ companyId, name: 'Tagged', number: `54922${companyId}`.padEnd(13, '0') })
      .returning();
    const [ticket] = await t.db
      .insert(tickets)
      .values({ companyId, contactId: contact.id, whatsappId: connection.id })
      .returning();
    const [tag] = await t.db.insert(tags).values({ companyId, name: 'Walker tag' }).returning();
    return { contactId: contact.id, ticketId: ticket.id, tagId: tag.id };
  };
  const own = await rowsOf(ownCompany);
  const foreign = await rowsOf(foreignCompany);
  return {
    'contacts:id': { own: own.contactId, foreign: foreign.contactId },
    'ticket-tags:ticketId': { own: own.ticketId, foreign: foreign.ticketId },
    'ticket-tags:tagId': { own: own.tagId, foreign: foreign.tagId },
    'tags:id': { own: own.tagId, foreign: foreign.tagId },
  };
};

// A company-wide quick message in each company (a personal one would be its author's alone).
const quickMessageFixtures = async (foreignCompany: number, ownCompany: number) => {
  const [own, foreign] = await t.db
    .insert(quickMessages)
    .values([
      { companyId: ownCompany, shortcode: 'walker', message: 'Hola', geral: true },
      { companyId: foreignCompany, shortcode: 'walker', message: 'Hola', geral: true },
    ])
    .returning();
  return { 'quick-messages:id': { own: own.id, foreign: foreign.id } };
};

// A pending schedule for a contact of each company.
const scheduleFixtures = async (foreignCompany: number, ownCompany: number) => {
  const scheduleOf = async (companyId: number) => {
    const [contact] = await t.db
      .insert(contacts)
      .values({ companyId, name: 'Scheduled', number: `54933${companyId}`.padEnd(13, '0') })
      .returning();
    const [schedule] = await t.db
      .insert(schedules)
      .values({
        companyId,
        contactId: contact.id,
        body: 'Hola walker',
        sendAt: new Date(Date.now() + 3600_000),
      })
      .returning();
    return schedule.id;
  };
  return {
    'schedules:id': {
      own: await scheduleOf(ownCompany),
      foreign: await scheduleOf(foreignCompany),
    },
  };
};

// A file list in each company.
const fileListFixtures = async (foreignCompany: number, ownCompany: number) => {
  const [own, foreign] = await t.db
    .insert(fileLists)
    .values([
      { companyId: ownCompany, name: 'Walker files', message: 'Hola' },
      { companyId: foreignCompany, name: 'Walker files', message: 'Hola' },
    ])
    .returning();
  return { 'files:id': { own: own.id, foreign: foreign.id } };
};

// A contact list with one item in each company.
const contactListFixtures = async (foreignCompany: number, ownCompany: number) => {
  const [own, foreign] = await t.db
    .insert(contactLists)
    .values([
      { companyId: ownCompany, name: 'Walker list' },
      { companyId: foreignCompany, name: 'Walker list' },
    ])
    .returning();
  const [ownItem, foreignItem] = await t.db
    .insert(contactListItems)
    .values([
      { companyId: ownCompany, contactListId: own.id, name: 'Ana', number: '5511900000001' },
      {
        companyId: foreignCompany,
        contactListId: foreign.id,
        name: 'Ana',
        number: '5511900000001',
      },
    ])
    .returning();
  return {
    'contact-lists:id': { own: own.id, foreign: foreign.id },
    'contact-list-items:id': { own: ownItem.id, foreign: foreignItem.id },
  };
};

// A campaign in each company.
const campaignFixtures = async (foreignCompany: number, ownCompany: number) => {
  const [own, foreign] = await t.db
    .insert(campaigns)
    .values([
      { companyId: ownCompany, name: 'Walker campaign', message1: 'Hola' },
      { companyId: foreignCompany, name: 'Walker campaign', message1: 'Hola' },
    ])
    .returning();
  return { 'campaigns:id': { own: own.id, foreign: foreign.id } };
};

// An AI agent in each company.
const promptFixtures = async (foreignCompany: number, ownCompany: number) => {
  const text = 'Eres el asistente de la empresa. Responde con amabilidad y brevedad.';
  const [own, foreign] = await t.db
    .insert(prompts)
    .values([
      { companyId: ownCompany, name: 'Walker agent', prompt: text },
      { companyId: foreignCompany, name: 'Walker agent', prompt: text },
    ])
    .returning();
  return { 'prompt:id': { own: own.id, foreign: foreign.id } };
};

// A webhook integration in each company.
const integrationFixtures = async (foreignCompany: number, ownCompany: number) => {
  const [own, foreign] = await t.db
    .insert(queueIntegrations)
    .values([
      { companyId: ownCompany, name: 'Walker hook', type: 'webhook', urlN8N: 'https://w.test' },
      { companyId: foreignCompany, name: 'Walker hook', type: 'webhook', urlN8N: 'https://w.test' },
    ])
    .returning();
  return { 'queueIntegration:id': { own: own.id, foreign: foreign.id } };
};

const apiTokenFixtures = async (
  [foreignCompany, foreignAdmin]: number[],
  [ownCompany, ownAdmin]: number[],
) => {
  const row = (companyId: number, createdBy: number) => ({
    companyId: companyId,
    createdBy: createdBy,
    name: 'Walker token',
    tokenHash: `walker-${companyId}-${Math.random()}`,
    prefix: 'atd_walker',
    scopes: ['tickets:read'],
  });
  const [own, foreign] = await t.db
    .insert(apiTokens)
    .values([row(ownCompany!, ownAdmin!), row(foreignCompany!, foreignAdmin!)])
    .returning();
  return { 'api-tokens:id': { own: own.id, foreign: foreign.id } };
};

const webhookFixtures = async (foreignCompany: number, ownCompany: number) => {
  const endpoint = (companyId: number) => ({
    companyId,
    // Nothing listens there: a test event or replay fails at once.
    url: 'http://127.0.0.1:9/hook',
    events: ['ticket.created'],
    secretSealed: t.app.deps.secrets.seal('whsec_d2Fsa2VyLXdhbGtlci13YWxrZXItd2Fsa2VyLXdhbGtlcg=='),
  });
  const [own, foreign] = await t.db
    .insert(webhookEndpoints)
    .values([endpoint(ownCompany), endpoint(foreignCompany)])
    .returning();
  const delivery = (row: typeof own) => ({
    companyId: row.companyId,
    endpointId: row.id,
    messageId: `msg_walker${row.id}`,
    eventType: 'ticket.created',
    orderKey: 'ticket:0',
    payload: {
      type: 'ticket.created',
      timestamp: new Date().toISOString(),
      companyId: row.companyId,
      data: {},
    },
    status: 'failed' as const,
  });
  const [ownDelivery, foreignDelivery] = await t.db
    .insert(webhookDeliveries)
    .values([delivery(own), delivery(foreign)])
    .returning();
  return {
    'webhook-endpoints:id': { own: own.id, foreign: foreign.id },
    'webhook-endpoints:deliveryId': { own: ownDelivery.id, foreign: foreignDelivery.id },
  };
};

const exportFixtures = async (foreignCompany: number, ownCompany: number) => {
  const built = async (companyId: number) => {
    const fileKey = `exports/${companyId}/walker.csv`;
    await t.app.deps.files.put(fileKey, Buffer.from('ticketId\r\n'));
    return {
      companyId,
      format: 'csv' as const,
      dateFrom: '2026-01-01',
      dateTo: '2026-01-31',
      status: 'done' as const,
      total: 0,
      size: 10,
      fileKey,
      finishedAt: new Date(),
      expiresAt: new Date(Date.now() + 3600_000),
    };
  };
  const [own, foreign] = await t.db
    .insert(conversationExports)
    .values([await built(ownCompany), await built(foreignCompany)])
    .returning();
  return { 'conversation-exports:id': { own: own.id, foreign: foreign.id } };
};

const knowledgeFixtures = async (foreignCompany: number, ownCompany: number) => {
  const [own, foreign] = await t.db
    .insert(knowledgeDocuments)
    .values(
      [ownCompany, foreignCompany].map((companyId) => ({
        companyId,
        name: 'Walker manual',
        source: 'upload' as const,
        kind: 'txt' as const,
        status: 'failed' as const,
        error: 'Walker',
      })),
    )
    .returning();
  return { 'knowledge:id': { own: own.id, foreign: foreign.id } };
};

// A live insight rule (tagging with a tag of its company) in each company.
const insightFixtures = async (foreignCompany: number, ownCompany: number) => {
  const ruleOf = async (companyId: number) => {
    const [tag] = await t.db
      .insert(tags)
      .values({ companyId, name: 'Walker insight tag' })
      .returning();
    const [rule] = await t.db
      .insert(insightRules)
      .values({
        companyId,
        name: 'Walker rule',
        condition: { sentiments: ['negativo'], finalOnly: false, minOrderTotal: null },
        action: { type: 'tag', tagId: tag.id },
      })
      .returning();
    return rule.id;
  };
  return {
    'insight-rules:id': { own: await ruleOf(ownCompany), foreign: await ruleOf(foreignCompany) },
  };
};

let stripe: FakeStripe;

beforeAll(async () => {
  // Billing on, against a local Stripe, so its routes reach their handlers.
  stripe = await startFakeStripe();
  t = await createTestApp({
    STRIPE_SECRET_KEY: STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  });
  // Company A owns the rows the walker pokes at; company B's staff try to reach them.
  const a = await makeCompany(t.db);
  const aUser = await makeUser(t.db, a.company.id, 'user');
  const b = await makeCompany(t.db);
  const bUser = await makeUser(t.db, b.company.id, 'user');
  const bSupervisor = await makeUser(t.db, b.company.id, 'supervisor');
  const inactive = await makeCompany(t.db, { status: 'suspended' });
  const queueOf = async (companyId: number, color: string) =>
    (
      await t.db
        .insert(queues)
        .values({ companyId, name: `Queue ${color}`, color })
        .returning()
    )[0];
  const optionOf = async (queue: { id: number; companyId: number }) =>
    (
      await t.db
        .insert(queueOptions)
        .values({ companyId: queue.companyId, queueId: queue.id, title: 'Option', option: '1' })
        .returning()
    )[0];
  const [aQueue, bQueue] = [
    await queueOf(a.company.id, '#aa0000'),
    await queueOf(b.company.id, '#bb0000'),
  ];
  fixtures = {
    'users:id': { own: bUser.id, foreign: aUser.id },
    'companies:id': { own: b.company.id, foreign: a.company.id },
    'companies:companyId': { own: b.company.id, foreign: a.company.id },
    'queue:id': { own: bQueue.id, foreign: aQueue.id },
    'queue-options:id': { own: (await optionOf(bQueue)).id, foreign: (await optionOf(aQueue)).id },
    ...(await connectionFixtures(a.company.id, b.company.id)),
    ...(await messageFixtures(a.company.id, b.company.id)),
    ...(await ticketFixtures(a.company.id, b.company.id)),
    ...(await contactAndTagFixtures(a.company.id, b.company.id)),
    ...(await quickMessageFixtures(a.company.id, b.company.id)),
    ...(await scheduleFixtures(a.company.id, b.company.id)),
    ...(await fileListFixtures(a.company.id, b.company.id)),
    ...(await contactListFixtures(a.company.id, b.company.id)),
    ...(await campaignFixtures(a.company.id, b.company.id)),
    ...(await promptFixtures(a.company.id, b.company.id)),
    ...(await integrationFixtures(a.company.id, b.company.id)),
    ...(await apiTokenFixtures([a.company.id, a.admin.id], [b.company.id, b.admin.id])),
    ...(await webhookFixtures(a.company.id, b.company.id)),
    ...(await exportFixtures(a.company.id, b.company.id)),
    ...(await knowledgeFixtures(a.company.id, b.company.id)),
    ...(await insightFixtures(a.company.id, b.company.id)),
  };
  sessions = {
    admin: await login(t.app, b.admin.email),
    user: await login(t.app, bUser.email),
    supervisor: await login(t.app, bSupervisor.email),
    inactiveAdmin: await login(t.app, inactive.admin.email),
    super: await login(t.app, SUPER_EMAIL),
  };
  routes = t.app.routeCatalog.filter((r) => !r.url.startsWith('/docs'));
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const privateRoutes = () => routes.filter((r) => !r.access.public);

describe('route walk', () => {
  it('finds the whole API, and exactly the listed routes are public', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(
      routes
        .filter((r) => r.access.public)
        .map(key)
        .sort(),
    ).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('every private route refuses a request without a session (401)', async () => {
    for (const route of privateRoutes()) {
      const res = await call(
        route,
        fill(route.url, () => 1),
      );
      expect(res.statusCode, key(route)).toBe(401);
      expect(res.json().error, key(route)).toBe('ERR_SESSION_EXPIRED');
    }
  });

  it('every private route refuses a forged token (403 ERR_INVALID_TOKEN)', async () => {
    const forged = { ...sessions.admin, token: `${sessions.admin.token.slice(0, -4)}AAAA` };
    for (const route of privateRoutes()) {
      const res = await call(
        route,
        fill(route.url, () => 1),
        forged,
      );
      expect(res.statusCode, key(route)).toBe(403);
      expect(res.json().error, key(route)).toBe('ERR_INVALID_TOKEN');
    }
  });

  it('every id parameter of a private route has a foreign-company fixture or is declared global', () => {
    const missing = privateRoutes().flatMap((route) =>
      paramsOf(route.url)
        .map((p) => `${resourceOf(route.url)}:${p}`)
        .filter((name) => !fixtures[name] && !GLOBAL_PARAMS[name])
        .map((name) => `${key(route)} (${name})`),
    );
    expect(missing, 'add a fixture in route-walk.test.ts for these parameters').toEqual([]);
  });

  it("another company's ids answer 404 on every route that takes one", async () => {
    const checked: string[] = [];
    for (const route of privateRoutes()) {
      const params = paramsOf(route.url).filter((p) => fixtures[`${resourceOf(route.url)}:${p}`]);
      if (!params.length) continue;
      const foreign = fill(
        route.url,
        (p) => fixtures[`${resourceOf(route.url)}:${p}`]?.foreign ?? 1,
      );
      const res = await call(route, foreign, sessions.admin);
      const expected = route.access.superOnly ? 403 : 404;
      expect(res.statusCode, `${key(route)} → ${res.body}`).toBe(expected);
      if (route.method === 'GET' && !route.access.superOnly) {
        // The same route with the caller's own id works, so the 404 above is tenancy, not a broken route.
        const own = fill(route.url, (p) => fixtures[`${resourceOf(route.url)}:${p}`]?.own ?? 1);
        const ok = await call(route, own, sessions.admin);
        expect(ok.statusCode, `${key(route)} own id → ${ok.body}`).toBe(200);
      }
      checked.push(key(route));
    }
    expect(checked.length).toBeGreaterThan(5);
  });

  it('every route with a permission refuses the profiles that lack it (403)', async () => {
    let checked = 0;
    for (const route of privateRoutes().filter((r) => r.access.permission)) {
      const permission = route.access.permission as Permission;
      const lacking = profiles.filter(
        (p) => !(permissionTable[permission] as readonly Profile[]).includes(p),
      );
      for (const profile of lacking) {
        const url = fill(route.url, (p) => fixtures[`${resourceOf(route.url)}:${p}`]?.own ?? 1);
        const res = await call(route, url, sessions[profile]);
        expect(res.statusCode, `${key(route)} as ${profile}`).toBe(403);
        expect(res.json().error, `${key(route)} as ${profile}`).toBe('ERR_NO_PERMISSION');
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('every super-only route refuses a company admin (403)', async () => {
    const superOnly = privateRoutes().filter((r) => r.access.superOnly);
    expect(superOnly.length).toBeGreaterThan(5);
    for (const route of superOnly) {
      const res = await call(
        route,
        fill(route.url, (p) => fixtures[`${resourceOf(route.url)}:${p}`]?.own ?? 1),
        sessions.admin,
      );
      expect(res.statusCode, key(route)).toBe(403);
      expect(res.json().error, key(route)).toBe('ERR_SUPER_ONLY');
    }
  });

  it('a company that is not active reaches only the gate-allowed routes', async () => {
    const allowed = privateRoutes()
      .filter((r) => r.access.allowInactiveCompany)
      .map(key)
      .sort();
    expect(allowed).toEqual([...INACTIVE_ALLOWED].sort());
    for (const route of privateRoutes().filter(
      (r) => !r.access.allowInactiveCompany && !r.access.superOnly,
    )) {
      const res = await call(
        route,
        fill(route.url, () => 1),
        sessions.inactiveAdmin,
      );
      expect(res.statusCode, key(route)).toBe(403);
      expect(res.json().error, key(route)).toBe('ERR_COMPANY_INACTIVE');
    }
    const [row] = await t.db
      .select()
      .from(companies)
      .where(eq(companies.id, sessions.inactiveAdmin.companyId));
    expect(row.status).toBe('suspended');
  });

  it('the OpenAPI document lists every route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path]?.[route.method.toLowerCase()], key(route)).toBeDefined();
    }
    expect((await t.app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
  });

  // The paths of every string inside a sample value.
  const stringPaths = (value: unknown, at: (string | number)[] = []): (string | number)[][] => {
    if (typeof value === 'string') return [at];
    if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...at, i]));
    if (value && typeof value === 'object')
      return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
    return [];
  };
  const withValueAt = (
    value: unknown,
    path: (string | number)[],
    change: (s: string) => string,
  ) => {
    const copy = structuredClone(value) as Record<string | number, unknown>;
    let node = copy;
    for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
    const last = path[path.length - 1];
    node[last] = change(node[last] as string);
    return copy;
  };

  // Last: it writes and deletes through every route, and may end the sessions above.
  it('answers no 5xx to malformed input on any operation (NUL bytes, deep nesting, empty bodies, wrong types, huge strings)', async () => {
    // Inside the text, so the value is still valid once the NUL is gone.
    const nul = (value: string) => `${value.slice(0, 1)}\u0000${value.slice(1)}`;
    const huge = (value: string) => `${value}${'ñ'.repeat(100_000)}`;
    const bodyVariants = (route: RouteInfo): [string, unknown][] => {
      const every = (options: SampleOptions) =>
        sampleInput(route.schema?.body, { everyField: true, ...options });
      const valid = every({});
      // NUL in one string at a time, so the others pass validation and the handler is reached.
      const oneByOne = stringPaths(valid).map((path): [string, unknown] => [
        `NUL in ${path.join('.')}`,
        withValueAt(valid, path, nul),
      ]);
      return [
        ...oneByOne,
        ['NUL in every string', every({ mapString: nul })],
        ['huge strings', every({ mapString: huge })],
        ['empty object', {}],
        ['no body', undefined],
        ['a number', 42],
        ['a string', 'walker\u0000'],
        ['null', null],
        ...[1, 'x\u0000', true, [], {}, null].map((wrong): [string, unknown] => [
          `every field ${JSON.stringify(wrong)}`,
          Object.fromEntries(
            Object.keys((every({}) as object | undefined) ?? { name: 1 }).map((k) => [k, wrong]),
          ),
        ]),
      ];
    };
    const queryVariants = (route: RouteInfo): [string, Record<string, string>][] => {
      const valid = (sampleInput(route.schema?.querystring, { everyField: true }) ?? {}) as Record<
        string,
        unknown
      >;
      const fields = Object.keys(valid);
      const all = (value: string) => Object.fromEntries(fields.map((f) => [f, value]));
      const text = Object.fromEntries(
        Object.entries(valid).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
      return [
        ...fields.map((field): [string, Record<string, string>] => [
          `query NUL in ${field}`,
          { ...text, [field]: nul(text[field]) },
        ]),
        ['query NUL', all('a\u0000b')],
        ['query JSON-ish', all('[1,')],
        ['query huge', all('9'.repeat(4000))],
        ['query empty', all('')],
        [
          'query largest numbers',
          Object.fromEntries(
            Object.entries(valid).map(([k, v]) => [
              k,
              typeof v === 'number' ? String(Number.MAX_SAFE_INTEGER) : text[k],
            ]),
          ),
        ],
      ];
    };
    // Written as text: JSON.stringify itself cannot go this deep.
    const deepBodies: [string, string][] = [
      ['arrays nested 100,000 deep', '['.repeat(100_000) + ']'.repeat(100_000)],
      ['objects nested 100,000 deep', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)],
    ];
    const multipart = () => {
      const boundary = '----walker';
      const part = (name: string, value: string, filename?: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
        (filename ? `; filename="${filename}"\r\nContent-Type: image/png` : '') +
        `\r\n\r\n${value}\r\n`;
      const payload =
        part('body', 'hola\u0000') +
        part('name', 'walker\u0000') +
        part('file', 'PNG', 'a\u0000b.png') +
        `--${boundary}--\r\n`;
      return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
    };

    const failures: string[] = [];
    // Super-only routes (which may suspend or delete the company) after the company's own, deletes
    // after writes, logout last.
    const order = (r: RouteInfo) =>
      (r.url === '/auth/logout' ? 4 : r.access.superOnly ? 2 : 0) + (r.method === 'DELETE' ? 1 : 0);
    const ordered = [...routes].sort((a, b) => order(a) - order(b));
    let requests = 0;
    // Routes where some malformed request was still accepted: the walk reached their handlers.
    const reached = new Set<string>();
    const [help] = await t.db.insert(helps).values({ title: 'Walker help' }).returning();
    const [announcement] = await t.db
      .insert(announcements)
      .values({ companyId: sessions.super.companyId, title: 'Walker', text: 'Hola' })
      .returning();
    const globalIds: Record<string, number> = {
      'helps:id': help.id,
      'announcements:id': announcement.id,
      'plans:id': (await t.db.select().from(plans).limit(1))[0].id,
    };
    for (const route of ordered) {
      const session = route.access.superOnly ? sessions.super : sessions.admin;
      const url = fill(
        route.url,
        (p) =>
          fixtures[`${resourceOf(route.url)}:${p}`]?.own ??
          globalIds[`${resourceOf(route.url)}:${p}`] ??
          1,
      );
      const send = async (
        label: string,
        options: {
          payload?: string;
          headers?: Record<string, string>;
          query?: Record<string, string>;
        },
      ) => {
        requests += 1;
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          ...options,
          headers: { ...auth(session), ...options.headers },
        });
        if (res.statusCode >= 500)
          failures.push(`${key(route)} [${label}] → ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode < 300) reached.add(key(route));
      };
      if (route.method !== 'GET') {
        for (const [label, body] of bodyVariants(route))
          await send(
            label,
            body === undefined
              ? {}
              : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
          );
        for (const [label, payload] of deepBodies)
          await send(label, { payload, headers: { 'content-type': 'application/json' } });
        const form = multipart();
        await send('multipart with NUL file name and fields', {
          payload: form.payload,
          headers: { 'content-type': form.contentType },
        });
      }
      for (const [label, query] of queryVariants(route)) await send(label, { query });
      const nulParams = fill(route.url, () => 'a\u0000b');
      if (nulParams !== route.url) {
        requests += 1;
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: nulParams,
          headers: auth(session),
        });
        if (res.statusCode >= 500)
          failures.push(
            `${key(route)} [NUL path parameter] → ${res.statusCode} ${res.body.slice(0, 200)}`,
          );
      }
    }
    expect(requests).toBeGreaterThan(routes.length * 4);
    // Most handlers were reached past validation, so the walk exercised them and not only zod.
    expect(reached.size, [...reached].sort().join(', ')).toBeGreaterThan(routes.length * 0.6);
    expect(failures).toEqual([]);
  }, 600_000);
});
