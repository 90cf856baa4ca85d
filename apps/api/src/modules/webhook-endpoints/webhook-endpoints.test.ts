import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  webhookEnvelopeSchema,
  webhookEventDataSchemas,
  type WebhookDeliveryDetail,
  type WebhookEndpoint,
} from '@atendi/shared';
import { auditLog, tickets, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { inbound, pairedSimulator, setSetting, ticketOf } from '../../../test/inbox';
import { campaignSent } from '../../../test/campaigns';
import { watchSla } from '../sla/sla';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver';

// Outbound webhooks (issue 38): endpoints hear what happens in their company, signed per Standard
// Webhooks (checked with the `standardwebhooks` verifier in the receiver), in order per ticket, tried
// again with backoff, turned off after failing for long, replayed on demand; URLs never reach inside.

let t: TestContext;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  t = await createTestApp({
    // Retries in milliseconds, an endpoint turned off as soon as it failed 5 attempts in a row, a
    // receiver that does not answer given up on quickly.
    WEBHOOK_RETRY_BASE_MS: '10',
    WEBHOOK_DISABLE_AFTER_HOURS: '0',
    WEBHOOK_TIMEOUT_MS: '1500',
  });
});
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});
afterAll(async () => {
  await t.close();
});

const receiver = async (host?: string) => {
  const started = await startWebhookReceiver(host);
  receivers.push(started);
  return started;
};

const adminOfNewCompany = async () => {
  const { company, admin } = await makeCompany(t.db);
  return { company, session: await login(t.app, admin.email) };
};

const register = async (
  session: Session,
  hook: WebhookReceiver,
  events: string[],
  extra: object = {},
) => {
  const res = await inject(t.app, session, 'POST', '/webhook-endpoints', {
    url: hook.url,
    events,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json() as WebhookEndpoint & { secret: string };
  hook.setSecret(created.secret);
  return created;
};

// A conversation: a contact writes to a paired simulator connection of the company.
const conversation = async (
  session: Session,
  companyId: number,
  from: string,
  connectionId?: number,
) => {
  const id = connectionId ?? (await pairedSimulator(t.app, session, {})).id;
  await inbound(t.app, session, id, { from, body: 'Hola', name: 'Ana' });
  const ticket = await eventually(
    () => ticketOf(t.db, companyId, from),
    (found) => Boolean(found),
    'the ticket',
  );
  return { connectionId: id, ticket: ticket! };
};

const deliveriesOf = async (endpointId: number) =>
  t.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.id);

const endpointRow = async (id: number) =>
  (await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0];

describe('webhook endpoints', () => {
  it('are registered, listed, changed and deleted by admins of their company only', async () => {
    const { session } = await adminOfNewCompany();
    const hook = await receiver();
    const made = await register(session, hook, ['ticket.created'], { description: 'CRM' });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(made).toMatchObject({ enabled: true, description: 'CRM', consecutiveFailures: 0 });

    const list = await inject(t.app, session, 'GET', '/webhook-endpoints');
    expect(list.json().endpoints).toEqual([
      expect.objectContaining({ id: made.id, url: hook.url }),
    ]);
    expect(JSON.stringify(list.json())).not.toContain(made.secret);
    const secret = await inject(t.app, session, 'GET', `/webhook-endpoints/${made.id}/secret`);
    expect(secret.json()).toEqual({ secret: made.secret });

    const changed = await inject(t.app, session, 'PUT', `/webhook-endpoints/${made.id}`, {
      events: ['ticket.resolved', 'message.created'],
      enabled: false,
    });
    expect(changed.json()).toMatchObject({
      events: ['ticket.resolved', 'message.created'],
      enabled: false,
      disabledReason: null,
    });

    // Another company's admin, and an agent of this one, reach none of it.
    const other = await adminOfNewCompany();
    for (const [method, path] of [
      ['GET', `/webhook-endpoints/${made.id}/secret`],
      ['PUT', `/webhook-endpoints/${made.id}`],
      ['POST', `/webhook-endpoints/${made.id}/test`],
      ['GET', `/webhook-endpoints/${made.id}/deliveries`],
      ['DELETE', `/webhook-endpoints/${made.id}`],
    ] as const) {
      const res = await inject(
        t.app,
        other.session,
        method,
        path,
        method === 'PUT' ? {} : undefined,
      );
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await inject(t.app, other.session, 'GET', '/webhook-endpoints')).json()).toEqual({
      endpoints: [],
    });
    const [row] = await t.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, made.id));
    const agent = await makeUser(t.db, row.companyId, 'user');
    const agentSession = await login(t.app, agent.email);
    expect((await inject(t.app, agentSession, 'GET', '/webhook-endpoints')).statusCode).toBe(403);
    // The secret is kept sealed.
    expect(row.secretSealed).not.toContain(made.secret.slice(6));

    const gone = await inject(t.app, session, 'DELETE', `/webhook-endpoints/${made.id}`);
    expect(gone.statusCode).toBe(204);
    expect((await inject(t.app, session, 'GET', '/webhook-endpoints')).json()).toEqual({
      endpoints: [],
    });
    const actions = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.target, `webhook:${made.id}`));
    expect(actions.map((a) => a.action).sort()).toEqual([
      'webhook.created',
      'webhook.deleted',
      'webhook.secret_viewed',
      'webhook.updated',
    ]);
  });

  it('refuse URLs of private, loopback, link-local and metadata addresses and bad input', async () => {
    const { session } = await adminOfNewCompany();
    for (const url of [
      'http://10.0.0.7/hook',
      'http://192.168.1.2/hook',
      'http://169.254.169.254/latest/meta-data',
      // Only 127.0.0.1 is let through in the tests (where the stand-ins listen).
      'http://127.0.0.2:8080/hook',
      'http://[::ffff:127.0.0.3]/hook',
      'http://0x7f000002/hook',
      'http://[fd00::1]/hook',
    ]) {
      const res = await inject(t.app, session, 'POST', '/webhook-endpoints', {
        url,
        events: ['ticket.created'],
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({
        error: 'ERR_OUTBOUND_URL_NOT_ALLOWED',
        fields: { url: [expect.any(String)] },
      });
    }
    for (const body of [
      { url: 'ftp://example.com/x', events: ['ticket.created'] },
      { url: 'https://example.com/x', events: [] },
      { url: 'https://example.com/x', events: ['ticket.exploded'] },
      { url: 'https://example.com/x', events: ['ticket.created', 'ticket.created'] },
    ]) {
      const res = await inject(t.app, session, 'POST', '/webhook-endpoints', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    expect((await inject(t.app, session, 'GET', '/webhook-endpoints')).json().endpoints).toEqual(
      [],
    );
  });

  it('deliver a resolved conversation signed, with the documented payloads, in order', async () => {
    const { company, session } = await adminOfNewCompany();
    const hook = await receiver();
    await register(session, hook, [
      'ticket.created',
      'message.created',
      'ticket.assigned',
      'ticket.resolved',
    ]);
    const { ticket } = await conversation(session, company.id, '5491155501001');
    const accepted = await inject(t.app, session, 'PUT', `/tickets/${ticket.id}`, {
      status: 'open',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const reply = await inject(t.app, session, 'POST', `/messages/${ticket.id}`, { body: 'Listo' });
    expect(reply.statusCode, reply.body).toBe(201);
    await inject(t.app, session, 'PUT', `/tickets/${ticket.id}`, { status: 'closed' });

    await eventually(hook.types, (types) => types.includes('ticket.resolved'), 'the resolution');
    expect(hook.types()).toEqual([
      'ticket.created',
      'message.created',
      'ticket.assigned',
      'message.created',
      'ticket.resolved',
    ]);
    for (const delivery of hook.received) {
      expect(delivery.verified).toBe(true);
      expect(delivery.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(delivery.headers['content-type']).toBe('application/json');
      webhookEnvelopeSchema.parse(delivery.payload);
      const type = delivery.payload.type as keyof typeof webhookEventDataSchemas;
      webhookEventDataSchemas[type].parse(delivery.payload.data);
      expect(delivery.payload.companyId).toBe(company.id);
    }
    const resolved = hook.received.at(-1)!.payload.data;
    expect(resolved).toMatchObject({
      ticket: { id: ticket.id, uuid: ticket.uuid, status: 'closed' },
      previous: { status: 'open' },
    });
    expect(hook.received[1].payload.data).toMatchObject({
      message: { body: 'Hola', fromMe: false },
      author: 'contact',
    });
    expect(hook.received[3].payload.data).toMatchObject({
      message: { body: expect.stringContaining('Listo'), fromMe: true },
      author: 'agent',
    });
    // Each a different message: receivers dedupe by webhook-id.
    expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(5);
  });

  it('tell of contacts, connections, campaigns, SLA breaches and ratings', async () => {
    const { company, session } = await adminOfNewCompany();
    const hook = await receiver();
    await register(session, hook, [
      'contact.created',
      'contact.updated',
      'connection.status_changed',
      'campaign.started',
      'campaign.finished',
      'sla.breached',
      'rating.received',
    ]);
    const made = await inject(t.app, session, 'POST', '/contacts', {
      name: 'Rosa',
      number: '5491155502001',
    });
    await inject(t.app, session, 'PUT', `/contacts/${made.json().id}`, { name: 'Rosa Paz' });
    await setSetting(t.db, company.id, 'userRating', 'enabled');
    const { connectionId, ticket } = await conversation(session, company.id, '5491155502002');
    await campaignSent(t.app, session, t.db, connectionId, [
      { name: 'Eva', number: '5491155502003' },
    ]);
    // The conversation misses its resolution deadline.
    await t.db
      .update(tickets)
      .set({
        slaStartedAt: new Date(Date.now() - 120_000),
        slaResolveDueAt: new Date(Date.now() - 60_000),
      })
      .where(eq(tickets.id, ticket.id));
    await watchSla(t.app.deps, new Date());
    // Resolved, then rated 3 by the contact.
    await inject(t.app, session, 'PUT', `/tickets/${ticket.id}`, { status: 'open' });
    await inject(t.app, session, 'PUT', `/tickets/${ticket.id}`, { status: 'closed' });
    await eventually(
      () => ticketOf(t.db, company.id, '5491155502002'),
      (row) => Boolean(row?.ratingAt),
      'the rating asked',
    );
    await inbound(t.app, session, connectionId, { from: '5491155502002', body: '3' });

    const received = await eventually(
      () => hook.received.map((r) => r.payload),
      (payloads) => payloads.some((p) => p.type === 'rating.received'),
      'the rating',
    );
    const first = (type: string) => received.find((p) => p.type === type)!.data;
    for (const payload of received) {
      const type = payload.type as keyof typeof webhookEventDataSchemas;
      webhookEventDataSchemas[type].parse(payload.data);
    }
    expect(hook.received.every((r) => r.verified)).toBe(true);
    expect(first('contact.created')).toMatchObject({
      contact: { name: 'Rosa', number: '5491155502001' },
    });
    expect(first('contact.updated')).toMatchObject({ contact: { name: 'Rosa Paz' } });
    expect(
      received
        .filter((p) => p.type === 'connection.status_changed')
        .map((p) => p.data.connection.status),
    ).toContain('CONNECTED');
    expect(first('campaign.started')).toMatchObject({ campaign: { status: 'EM_ANDAMENTO' } });
    expect(first('campaign.finished')).toMatchObject({ campaign: { status: 'FINALIZADA' } });
    expect(first('sla.breached')).toMatchObject({
      ticket: { id: ticket.id },
      sla: { kind: 'resolution' },
    });
    expect(first('rating.received')).toMatchObject({
      ticket: { id: ticket.id, status: 'closed' },
      rating: { rate: 3, userId: session.userId },
    });
  });

  it('retry a failed delivery with the same webhook-id, and log every attempt', async () => {
    const { company, session } = await adminOfNewCompany();
    const hook = await receiver();
    const endpoint = await register(session, hook, ['ticket.created']);
    hook.answer((_request, index) =>
      index < 2 ? { status: 503, body: 'busy' } : { status: 204, body: '' },
    );
    await conversation(session, company.id, '5491155501002');
    await eventually(
      () => hook.received.length,
      (n) => n === 3,
      'three attempts',
    );
    expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(hook.received.every((r) => r.verified)).toBe(true);

    const [delivery] = await eventually(
      () => deliveriesOf(endpoint.id),
      (rows) => rows[0]?.status === 'delivered',
      'the delivery marked delivered',
    );
    const page = await inject(
      t.app,
      session,
      'GET',
      `/webhook-endpoints/${endpoint.id}/deliveries`,
    );
    expect(page.json()).toMatchObject({
      count: 1,
      hasMore: false,
      deliveries: [{ id: delivery.id, status: 'delivered', attempts: 3, responseStatus: 204 }],
    });
    const detail = (
      await inject(
        t.app,
        session,
        'GET',
        `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}`,
      )
    ).json() as WebhookDeliveryDetail;
    expect(detail.log.map((a) => [a.status, a.error])).toEqual([
      [503, 'HTTP 503'],
      [503, 'HTTP 503'],
      [204, null],
    ]);
    expect(detail.log[0].response).toBe('busy');
    expect(detail.payload.type).toBe('ticket.created');
    expect((await endpointRow(endpoint.id)).consecutiveFailures).toBe(0);
  });

  it('keep one ticket’s deliveries in order while an earlier one is retried', async () => {
    const { session } = await adminOfNewCompany();
    const hook = await receiver();
    await register(session, hook, ['message.created']);
    // The first ticket's first message is refused until another ticket's message has arrived: the
    // first ticket's later messages wait behind its retries, the other ticket's does not.
    hook.answer((request) =>
      request.payload.data.message.body === 'uno' &&
      !hook.received.some((r) => r.payload.data.message.body === 'otro')
        ? { status: 500 }
        : { status: 200 },
    );
    const connection = await pairedSimulator(t.app, session, {});
    for (const body of ['uno', 'dos', 'tres'])
      await inbound(t.app, session, connection.id, { from: '5491155501003', body });
    await eventually(
      () => hook.received.filter((r) => r.payload.data.message.body === 'uno').length,
      (n) => n >= 1,
      'the first delivery refused',
    );
    await inbound(t.app, session, connection.id, { from: '5491155501004', body: 'otro' });
    await eventually(
      () => hook.received.map((r) => r.payload.data.message.body as string),
      (bodies) => bodies.includes('tres'),
      'the first ticket’s messages',
    );
    const bodies = hook.received.map((r) => r.payload.data.message.body as string);
    const first = bodies.filter((b) => b !== 'otro');
    expect(first.slice(-2)).toEqual(['dos', 'tres']);
    expect(first.slice(0, -2).every((b) => b === 'uno')).toBe(true);
    expect(first.length).toBeGreaterThanOrEqual(4);
    // The other ticket's message went while the first waited for its retry.
    expect(bodies.indexOf('otro')).toBeLessThan(bodies.lastIndexOf('uno'));
  });

  it('send a signed test event on demand, and say what went wrong', async () => {
    const { session } = await adminOfNewCompany();
    const hook = await receiver();
    const endpoint = await register(session, hook, ['contact.created']);
    const sent = await inject(t.app, session, 'POST', `/webhook-endpoints/${endpoint.id}/test`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      type: 'webhook.test',
      status: 'delivered',
      attempts: 1,
      responseStatus: 200,
    });
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]).toMatchObject({
      verified: true,
      payload: { type: 'webhook.test', data: { endpointId: endpoint.id } },
    });

    hook.answer(() => ({ status: 410, body: 'gone' }));
    const refused = await inject(t.app, session, 'POST', `/webhook-endpoints/${endpoint.id}/test`);
    expect(refused.json()).toMatchObject({
      status: 'failed',
      responseStatus: 410,
      error: 'HTTP 410',
      log: [expect.objectContaining({ response: 'gone' })],
    });
  });

  it('do not follow redirects, nor call an address that became private', async () => {
    const { session } = await adminOfNewCompany();
    const inside = await receiver();
    const hook = await receiver();
    const endpoint = await register(session, hook, ['ticket.created']);
    hook.answer(() => ({ status: 307, headers: { location: inside.url } }));
    const redirected = await inject(
      t.app,
      session,
      'POST',
      `/webhook-endpoints/${endpoint.id}/test`,
    );
    expect(redirected.json()).toMatchObject({ status: 'failed', responseStatus: 307 });
    expect(redirected.json().error).toContain('Redirected');
    expect(inside.received).toHaveLength(0);

    // The URL now leads somewhere the guard refuses (as a name whose address changed would): the
    // delivery fails at once, without retries, and says why.
    await t.db
      .update(webhookEndpoints)
      .set({ url: 'http://127.0.0.9:9/hook' })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const blocked = await inject(t.app, session, 'POST', `/webhook-endpoints/${endpoint.id}/test`);
    expect(blocked.json()).toMatchObject({ status: 'failed', responseStatus: null, attempts: 1 });
    expect(blocked.json().error).toMatch(/^Not sent: .*private or reserved network/);
  });

  it('are turned off after failing for long, tell the admins, and replay once on again', async () => {
    const { company, session } = await adminOfNewCompany();
    const hook = await receiver();
    const endpoint = await register(session, hook, ['message.created']);
    hook.answer(() => ({ status: 500 }));
    const mailsBefore = t.mail.length;
    const { connectionId } = await conversation(session, company.id, '5491155501005');
    await eventually(
      () => endpointRow(endpoint.id),
      (row) => !row.enabled,
      'the endpoint turned off',
    );
    const row = await endpointRow(endpoint.id);
    expect(row).toMatchObject({ disabledReason: 'failures', consecutiveFailures: 5 });
    const [delivery] = await eventually(
      () => deliveriesOf(endpoint.id),
      (rows) => rows[0]?.status === 'failed',
      'the delivery given up',
    );
    expect(delivery.attempts).toBe(5);
    // The admins' email follows the delivery's last state: awaited, not assumed sent.
    const notices = await eventually(
      () => t.mail.slice(mailsBefore),
      (sent) => sent.length > 0,
      'the admins told',
    );
    expect(notices).toEqual([
      expect.objectContaining({
        subject: 'Webhook desactivado / Webhook turned off / Webhook desativado',
        text: expect.stringContaining(hook.url),
      }),
    ]);
    expect(notices[0]!.text).toContain('foi desativado. Verifique o registro de entregas');
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.target, `webhook:${endpoint.id}`), eq(auditLog.action, 'webhook.disabled')),
      );
    expect(entry).toMatchObject({ companyId: company.id, userId: null });

    // Off: what happens now is not stored for it, and a replay is refused until it is on again.
    await inbound(t.app, session, connectionId, { from: '5491155501005', body: 'sigo aquí' });
    const replayPath = `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/replay`;
    const refused = await inject(t.app, session, 'POST', replayPath);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('ERR_WEBHOOK_DISABLED');

    hook.answer(() => ({ status: 200 }));
    const on = await inject(t.app, session, 'PUT', `/webhook-endpoints/${endpoint.id}`, {
      enabled: true,
    });
    expect(on.json()).toMatchObject({
      enabled: true,
      disabledReason: null,
      consecutiveFailures: 0,
      failingSince: null,
    });
    const seen = hook.received.length;
    const replayed = await inject(t.app, session, 'POST', replayPath);
    expect(replayed.statusCode, replayed.body).toBe(200);
    await eventually(
      () => hook.received.length,
      (n) => n === seen + 1,
      'the replay',
    );
    const again = hook.received.at(-1)!;
    expect(again.verified).toBe(true);
    expect(again.headers['webhook-id']).toBe(delivery.messageId);
    expect(again.payload.data.message.body).toBe('Hola');
    await eventually(
      () => deliveriesOf(endpoint.id),
      (rows) => rows.length === 1 && rows[0].status === 'delivered' && rows[0].attempts === 6,
      'the replayed delivery delivered',
    );
  });

  it('wait only for their own slow receiver', async () => {
    const { company, session } = await adminOfNewCompany();
    const slow = await receiver();
    const quick = await receiver();
    await register(session, slow, ['ticket.created']);
    await register(session, quick, ['ticket.created']);
    slow.hold();
    await conversation(session, company.id, '5491155501006');
    await eventually(
      () => quick.received.length,
      (n) => n === 1,
      'the quick receiver',
    );
    await eventually(
      () => slow.received.length,
      (n) => n === 1,
      'the slow receiver’s request',
    );
    // The slow one still has not answered: the quick one did not wait for it.
    slow.release();
  });
});
