import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { IntegrationView } from '@atendi/shared';
import { integrationDeliveries, queueIntegrations, queues, whatsapps } from '../../db/schema';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type Method,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { caughtUp, closeSockets, listenAs } from '../../../test/sockets';

// SPEC §7 Integrations: CRUD with the §5 rules per type, §9 defaults, secrets kept, tenancy.

const SERVICE_ACCOUNT = JSON.stringify({
  type: 'service_account',
  project_id: 'pizzeria-bot',
  client_email: 'bot@pizzeria-bot.iam.gserviceaccount.com',
  private_key:
    '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n',
});

let t: SharedTestContext;
let admin: Session;
let agent: Session;
let outsider: Session;
let companyId: number;

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

const create = async (body: object) => {
  const res = await call(admin, 'POST', '/queueIntegration', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as IntegrationView;
};

beforeAll(async () => {
  t = await sharedTestApp();
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  agent = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
  outsider = await login(t.app, (await makeCompany(t.db)).admin.email);
});
afterAll(async () => {
  closeSockets();
});

describe('queue integrations', () => {
  it('creates a Typebot flow with the SPEC §9 defaults, reads, changes and deletes it', async () => {
    const made = await create({
      name: 'Menú Typebot',
      type: 'typebot',
      urlN8N: 'https://typebot.example.com',
      typebotSlug: 'menu-pizzeria',
    });
    expect(made).toMatchObject({
      name: 'Menú Typebot',
      type: 'typebot',
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      signingSecret: null,
      hasJsonContent: false,
    });
    expect((await call(admin, 'GET', `/queueIntegration/${made.id}`)).json()).toEqual(made);
    const changed = await call(admin, 'PUT', `/queueIntegration/${made.id}`, {
      typebotKeywordRestart: '#menu',
      typebotExpires: 30,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      typebotKeywordRestart: '#menu',
      typebotExpires: 30,
      typebotSlug: 'menu-pizzeria',
    });
    const removed = await call(admin, 'DELETE', `/queueIntegration/${made.id}`);
    expect(removed.json()).toEqual({ message: expect.any(String) });
    const gone = await call(admin, 'GET', `/queueIntegration/${made.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('ERR_NO_INTEGRATION_FOUND');
  });

  it('asks each type for the fields it needs (SPEC §5)', async () => {
    const refused = async (body: object) => {
      const res = await call(admin, 'POST', '/queueIntegration', body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().fields as Record<string, string[]>;
    };
    expect(await refused({ name: 'T', type: 'typebot' })).toHaveProperty('name');
    expect(await refused({ name: 'Sin slug', type: 'typebot', urlN8N: 'https://t.io' })).toEqual({
      typebotSlug: ['ERR_REQUIRED'],
    });
    expect(await refused({ name: 'Sin URL', type: 'webhook' })).toEqual({
      urlN8N: ['ERR_REQUIRED'],
    });
    expect(await refused({ name: 'URL rara', type: 'n8n', urlN8N: 'ftp://x' })).toHaveProperty(
      'urlN8N',
    );
    expect(await refused({ name: 'Dialogflow', type: 'dialogflow' })).toEqual({
      projectName: ['ERR_REQUIRED'],
      language: ['ERR_REQUIRED'],
      jsonContent: ['ERR_REQUIRED'],
    });
    expect(
      await refused({
        name: 'Clave rota',
        type: 'dialogflow',
        projectName: 'p',
        language: 'es',
        jsonContent: '{"client_email": "x"}',
      }),
    ).toEqual({ jsonContent: ['ERR_INVALID_SERVICE_ACCOUNT'] });
    // A change is judged on the whole integration it leaves.
    const hook = await create({
      name: 'Webhook CRM',
      type: 'webhook',
      urlN8N: 'https://crm.test/in',
    });
    const emptied = await call(admin, 'PUT', `/queueIntegration/${hook.id}`, { urlN8N: '' });
    expect(emptied.json().fields).toEqual({ urlN8N: ['ERR_REQUIRED'] });
    const retyped = await call(admin, 'PUT', `/queueIntegration/${hook.id}`, { type: 'typebot' });
    expect(retyped.json().fields).toEqual({ typebotSlug: ['ERR_REQUIRED'] });
  });

  it('keeps a Dialogflow key sealed and never answers it; an edit without it keeps it', async () => {
    const made = await create({
      name: 'Dialogflow ventas',
      type: 'dialogflow',
      projectName: 'pizzeria-bot',
      language: 'es',
      jsonContent: SERVICE_ACCOUNT,
    });
    expect(made).toMatchObject({
      jsonContent: '',
      hasJsonContent: true,
      clientEmail: 'bot@pizzeria-bot.iam.gserviceaccount.com',
    });
    const [row] = await t.db
      .select()
      .from(queueIntegrations)
      .where(eq(queueIntegrations.id, made.id));
    expect(row.jsonContent).not.toContain('PRIVATE KEY');
    const edited = await call(admin, 'PUT', `/queueIntegration/${made.id}`, {
      language: 'pt-BR',
      jsonContent: '',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ language: 'pt-BR', hasJsonContent: true });
    const list = await call(admin, 'GET', '/queueIntegration?searchParam=dialogflow');
    expect(list.body).not.toContain('PRIVATE KEY');
    expect(list.json().queueIntegrations.map((i: IntegrationView) => i.id)).toEqual([made.id]);
    // Another type keeps no key.
    const retyped = await call(admin, 'PUT', `/queueIntegration/${made.id}`, {
      type: 'webhook',
      urlN8N: 'https://hook.test',
    });
    expect(retyped.json()).toMatchObject({ hasJsonContent: false, clientEmail: null });
  });

  it('gives n8n and webhooks a signing secret of their own', async () => {
    const a = await create({
      name: 'n8n pedidos',
      type: 'n8n',
      urlN8N: 'https://n8n.test/webhook/1',
    });
    const b = await create({ name: 'Webhook ERP', type: 'webhook', urlN8N: 'https://erp.test/in' });
    expect(a.signingSecret).toMatch(/^whsec_/);
    expect(b.signingSecret).toMatch(/^whsec_/);
    expect(a.signingSecret).not.toBe(b.signingSecret);
    const [row] = await t.db.select().from(queueIntegrations).where(eq(queueIntegrations.id, a.id));
    expect(row.signingSecretSealed).not.toContain(a.signingSecret);
  });

  it('keeps names unique in the company, pages by 40 and searches literally', async () => {
    await create({ name: 'Único', type: 'webhook', urlN8N: 'https://a.test' });
    const twice = await call(admin, 'POST', '/queueIntegration', {
      name: 'Único',
      type: 'webhook',
      urlN8N: 'https://b.test',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      error: 'ERR_INTEGRATION_NAME_EXISTS',
      fields: { name: ['ERR_INTEGRATION_NAME_EXISTS'] },
    });
    // Another company may use the name.
    expect(
      (
        await call(outsider, 'POST', '/queueIntegration', {
          name: 'Único',
          type: 'webhook',
          urlN8N: 'https://c.test',
        })
      ).statusCode,
    ).toBe(201);
    for (let i = 0; i < 41; i += 1)
      await t.db.insert(queueIntegrations).values({
        companyId,
        name: `Lote ${String(i).padStart(2, '0')}`,
        type: 'webhook',
        urlN8N: 'https://x.test',
      });
    const first = (await call(admin, 'GET', '/queueIntegration?searchParam=Lote')).json();
    expect(first.queueIntegrations).toHaveLength(40);
    expect(first.hasMore).toBe(true);
    const second = (
      await call(admin, 'GET', '/queueIntegration?searchParam=Lote&pageNumber=2')
    ).json();
    expect(second.queueIntegrations.map((i: IntegrationView) => i.name)).toEqual(['Lote 40']);
    expect(second.hasMore).toBe(false);
    expect(
      (await call(admin, 'GET', '/queueIntegration?searchParam=%25')).json().queueIntegrations,
    ).toEqual([]);
  });

  it('lists every integration for pickers, by name', async () => {
    const made = [
      await create({ name: 'Zeta flujo', type: 'webhook', urlN8N: 'https://z.test' }),
      await create({
        name: 'Alfa flujo',
        type: 'typebot',
        urlN8N: 'https://a.test',
        typebotSlug: 'a',
      }),
    ];
    const res = await call(admin, 'GET', '/queueIntegration/list');
    expect(res.statusCode, res.body).toBe(200);
    const options = (res.json() as { id: number; name: string; type: string }[]).filter((o) =>
      made.some((m) => m.id === o.id),
    );
    expect(options).toEqual([
      { id: made[1].id, name: 'Alfa flujo', type: 'typebot' },
      { id: made[0].id, name: 'Zeta flujo', type: 'webhook' },
    ]);
  });

  it('answers the exchanges with the flow, newest first, 40 a page, or only the failed ones', async () => {
    const flow = await create({ name: 'Con entregas', type: 'webhook', urlN8N: 'https://d.test' });
    const base = Date.now() - 3_600_000;
    await t.db.insert(integrationDeliveries).values(
      Array.from({ length: 45 }, (_, i) => ({
        companyId,
        integrationId: flow.id,
        ticketId: null,
        messageId: i + 1,
        event: 'message.received',
        attempt: 1,
        status: i % 5 === 0 ? 503 : 200,
        ok: i % 5 !== 0,
        durationMs: 10 + i,
        error: i % 5 === 0 ? 'HTTP 503' : null,
        createdAt: new Date(base + i * 1000),
      })),
    );
    const first = (await call(admin, 'GET', `/queueIntegration/${flow.id}/deliveries`)).json();
    expect(first.hasMore).toBe(true);
    expect(first.deliveries).toHaveLength(40);
    expect(first.deliveries[0]).toMatchObject({ messageId: 45, ok: true, durationMs: 54 });
    const second = (
      await call(admin, 'GET', `/queueIntegration/${flow.id}/deliveries?pageNumber=2`)
    ).json();
    expect(second.hasMore).toBe(false);
    expect(second.deliveries.map((d: { messageId: number }) => d.messageId)).toEqual([
      5, 4, 3, 2, 1,
    ]);
    const failed = (
      await call(admin, 'GET', `/queueIntegration/${flow.id}/deliveries?failed=true`)
    ).json();
    expect(failed.deliveries.map((d: { messageId: number }) => d.messageId)).toEqual([
      41, 36, 31, 26, 21, 16, 11, 6, 1,
    ]);
    expect(failed.deliveries[0]).toMatchObject({ status: 503, error: 'HTTP 503', ok: false });
    const bad = await call(admin, 'GET', `/queueIntegration/${flow.id}/deliveries?pageNumber=0`);
    expect(bad.statusCode).toBe(400);
  });

  it('is for admins of plans with useIntegrations', async () => {
    expect((await call(agent, 'GET', '/queueIntegration')).json().error).toBe('ERR_NO_PERMISSION');
    const noPlan = await makeCompany(t.db, { planLimits: { useIntegrations: false } });
    const noPlanAdmin = await login(t.app, noPlan.admin.email);
    const res = await call(noPlanAdmin, 'GET', '/queueIntegration');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });

  it("another company's integrations are invisible and cannot be attached", async () => {
    const mine = await create({ name: 'Privada', type: 'webhook', urlN8N: 'https://p.test' });
    for (const [method, url, payload] of [
      ['GET', `/queueIntegration/${mine.id}`, undefined],
      ['PUT', `/queueIntegration/${mine.id}`, { name: 'Robada' }],
      ['GET', `/queueIntegration/${mine.id}/deliveries`, undefined],
      ['DELETE', `/queueIntegration/${mine.id}`, undefined],
    ] as const) {
      const res = await call(outsider, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const theirs = (await call(outsider, 'GET', '/queueIntegration?searchParam=Privada')).json();
    expect(theirs.queueIntegrations).toEqual([]);
    const theirOptions = (await call(outsider, 'GET', '/queueIntegration/list')).json();
    expect(theirOptions.map((o: { id: number }) => o.id)).not.toContain(mine.id);
    const [theirQueue] = await t.db
      .insert(queues)
      .values({ companyId: outsider.companyId, name: 'Ajena', color: '#123123' })
      .returning();
    const queueRes = await call(outsider, 'PUT', `/queue/${theirQueue.id}`, {
      integrationId: mine.id,
    });
    expect(queueRes.json().fields).toEqual({ integrationId: ['ERR_NOT_FOUND'] });
    const theirConnection = await makeWhatsapp(t.db, outsider.companyId);
    const connRes = await call(outsider, 'PUT', `/whatsapp/${theirConnection.id}`, {
      integrationId: mine.id,
    });
    expect(connRes.json().fields).toMatchObject({ integrationId: ['ERR_NOT_FOUND'] });
  });

  it('deleting one takes it off the queues and connections that used it', async () => {
    const doomed = await create({ name: 'Pasajera', type: 'webhook', urlN8N: 'https://z.test' });
    const queue = await call(admin, 'POST', '/queue', {
      name: 'Con flujo',
      color: '#654321',
      integrationId: doomed.id,
      completion: 'Gracias por escribirnos',
      ratingMessage: 'Califique de 1 a 3',
      token: 'tok-123',
    });
    expect(queue.statusCode, queue.body).toBe(201);
    expect(queue.json()).toMatchObject({
      integrationId: doomed.id,
      completion: 'Gracias por escribirnos',
      ratingMessage: 'Califique de 1 a 3',
      token: 'tok-123',
    });
    const connection = await makeWhatsapp(t.db, companyId, { integrationId: doomed.id });
    await call(admin, 'DELETE', `/queueIntegration/${doomed.id}`);
    const [queueAfter] = await t.db.select().from(queues).where(eq(queues.id, queue.json().id));
    const [connectionAfter] = await t.db
      .select()
      .from(whatsapps)
      .where(eq(whatsapps.id, connection.id));
    expect([queueAfter.integrationId, connectionAfter.integrationId]).toEqual([null, null]);
  });

  it('tells the company, and nobody else, on company-{id}-queueIntegration', async () => {
    const colleague = await listenAs(t.app, admin);
    const stranger = await listenAs(t.app, outsider);
    const made = await create({ name: 'En vivo', type: 'webhook', urlN8N: 'https://v.test' });
    await call(admin, 'PUT', `/queueIntegration/${made.id}`, { name: 'En vivo 2' });
    await call(admin, 'DELETE', `/queueIntegration/${made.id}`);
    const events = await eventually(
      async () => colleague.filter((h) => h.event === `company-${companyId}-queueIntegration`),
      (heard) => heard.length >= 3,
      'integration events',
    );
    expect(events.map((e) => e.payload.action)).toEqual(['create', 'update', 'delete']);
    expect(events[1].payload.queueIntegration).toMatchObject({ name: 'En vivo 2' });
    expect(events[2].payload).toEqual({ action: 'delete', integrationId: made.id });
    // The signing secret is answered over HTTP to admins, never carried on a socket.
    expect(made.signingSecret).toMatch(/^whsec_/);
    expect(events[0].payload.queueIntegration).toMatchObject({ signingSecret: null });
    expect(JSON.stringify(colleague)).not.toContain(made.signingSecret);
    await caughtUp(stranger);
    expect(stranger.filter((h) => h.event.endsWith('-queueIntegration'))).toEqual([]);
  });
});
