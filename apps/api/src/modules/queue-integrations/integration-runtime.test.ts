import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { IntegrationView, WhatsappView } from '@atendi/shared';
import { integrationDeliveries, queueIntegrations, queues, ticketNotes } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { campaignSent } from '../../../test/campaigns';
import type { Ingested, MessageInput } from '../tickets/inbound/ingest';
import { ingestBatch } from '../tickets/inbound/ingest-batch';
import { runQueueBots } from '../tickets/bots/queue-bot';
import {
  inbound,
  messageTexts,
  outbound,
  pairedSimulator,
  ticketOf,
  ticketSettled,
} from '../../../test/inbox';

// n8n and webhook integrations conversing with contacts: a local receiver that checks the signature as
// a real one would, answers with replies and actions, or fails on demand.

type Received = { headers: Record<string, string>; body: Record<string, unknown>; valid: boolean };

let t: TestContext;
let admin: Session;
let companyId: number;
let receiver: Server;
let receiverUrl: string;
let received: Received[] = [];
let secret = '';
let answer: (body: Record<string, unknown>) => { status: number; body?: unknown } = () => ({
  status: 200,
});
// How long the receiver takes to answer, and how many deliveries it held at once.
let answerDelayMs = 0;
let inFlight = 0;
let maxInFlight = 0;
let numbers = 0;
const nextNumber = () => `5491180000${String((numbers += 1)).padStart(3, '0')}`;

// Checks X-Atendi-Signature the way the README tells receivers to.
const signatureValid = (headers: Record<string, string>, raw: string) => {
  const expected = `sha256=${createHmac('sha256', secret)
    .update(`${headers['x-atendi-timestamp']}.${raw}`)
    .digest('hex')}`;
  const given = headers['x-atendi-signature'] ?? '';
  return (
    given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  );
};

const integration = async (type: 'webhook' | 'n8n' = 'webhook') => {
  const res = await inject(t.app, admin, 'POST', '/queueIntegration', {
    name: `Flujo ${Math.random().toString(36).slice(2, 8)}`,
    type,
    urlN8N: `${receiverUrl}/hook`,
  });
  expect(res.statusCode, res.body).toBe(201);
  const view = res.json() as IntegrationView;
  secret = view.signingSecret!;
  return view;
};

const sentTo = async (connection: WhatsappView, to: string) =>
  (await outbound(t.app, admin, connection.id)).filter((m) => m.to === to).map((m) => m.body);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers = req.headers as Record<string, string>;
      const body = JSON.parse(raw) as Record<string, unknown>;
      received.push({ headers, body, valid: signatureValid(headers, raw) });
      const reply = answer(body);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      }, answerDelayMs);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await createTestApp({ INTEGRATION_RETRY_BASE_MS: '20', INTEGRATION_TIMEOUT_MS: '2000' });
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
});
beforeEach(() => {
  received = [];
  answerDelayMs = 0;
  maxInFlight = 0;
  answer = () => ({ status: 200 });
});
afterAll(async () => {
  await t.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('webhook and n8n integrations', () => {
  it('post each message of the contact, signed, and send the replies they answer', async () => {
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    answer = (body) => ({
      status: 200,
      body: {
        replies: [{ text: `Recibido: ${(body.message as { body: string }).body}` }],
      },
    });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, name: 'Rosa Díaz', body: 'Hola' });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 1,
      'the reply',
    );
    expect(await sentTo(connection, from)).toEqual(['Recibido: Hola']);
    const [event] = received;
    expect(event.valid).toBe(true);
    expect(event.headers).toMatchObject({
      'x-atendi-event': 'message.received',
      'content-type': 'application/json',
    });
    expect(event.body).toMatchObject({
      event: 'message.received',
      company: { id: companyId },
      integration: { id: flow.id, type: 'webhook' },
      contact: { name: 'Rosa Díaz', number: from },
      message: { body: 'Hola' },
    });
    expect(event.headers['x-atendi-delivery']).toBe(
      `msg-${(event.body.message as { id: number }).id}`,
    );
    const ticket = (await ticketOf(t.db, companyId, from))!;
    expect(ticket).toMatchObject({
      useIntegration: true,
      integrationId: flow.id,
      status: 'pending',
    });
    // The deliveries tell what came from the contact and what the flow answered, sent to the contact.
    const deliveries = (
      await inject(t.app, admin, 'GET', `/queueIntegration/${flow.id}/deliveries`)
    ).json();
    expect(deliveries.deliveries).toEqual([
      expect.objectContaining({
        event: 'message.received',
        ticketId: ticket.id,
        ok: true,
        received: { body: 'Hola', mediaType: 'chat' },
        sent: ['Recibido: Hola'],
      }),
    ]);
    // A signature made with another secret does not pass.
    secret = 'whsec_other';
    expect(signatureValid(event.headers, JSON.stringify(event.body))).toBe(false);
  });

  it('deliver the messages of one ticket one at a time, in order', async () => {
    const flow = await integration('n8n');
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    // A slow receiver: the later messages are stored while the first is being delivered.
    answerDelayMs = 150;
    for (const body of ['uno', 'dos', 'tres'])
      expect((await inbound(t.app, admin, connection.id, { from, body })).statusCode).toBe(200);
    await eventually(
      () => received.length,
      (n) => n === 3,
      'three deliveries',
    );
    expect(received.map((r) => (r.body.message as { body: string }).body)).toEqual([
      'uno',
      'dos',
      'tres',
    ]);
    expect(maxInFlight).toBe(1);
  });

  it('are not sent a campaign recipient’s opt-out word: it is confirmed to them instead', async () => {
    const flow = await integration('n8n');
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    answer = (body) => ({
      status: 200,
      body: { replies: [{ text: `Recibido: ${(body.message as { body: string }).body}` }] },
    });
    const from = nextNumber();
    await campaignSent(t.app, admin, t.db, connection.id, [{ name: 'Marta', number: from }]);
    await inbound(t.app, admin, connection.id, { from, body: 'STOP' });
    const ticket = (await ticketOf(t.db, companyId, from))!;
    expect(ticket).toMatchObject({ useIntegration: true, integrationId: flow.id });
    await ticketSettled(t.db, ticket.id);
    const postedFor = () =>
      received
        .filter((r) => (r.body.contact as { number: string }).number === from)
        .map((r) => (r.body.message as { body: string }).body);
    expect(postedFor()).toEqual([]);
    expect(await sentTo(connection, from)).toEqual([
      'Hola Marta',
      'Listo, ya no te enviaremos mensajes de nuestras campañas.',
    ]);
    // What they write next reaches the flow as usual.
    await inbound(t.app, admin, connection.id, { from, body: 'Quiero ver el menú' });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 3,
      'the reply',
    );
    expect(postedFor()).toEqual(['Quiero ver el menú']);
    expect((await sentTo(connection, from)).at(-1)).toBe('Recibido: Quiero ver el menú');
  });

  it('hand the conversation to a person, in the queue they name, or close it', async () => {
    const [queue] = await t.db
      .insert(queues)
      .values({ companyId, name: 'Humanos', color: '#0f0f0f' })
      .returning();
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    answer = () => ({
      status: 200,
      body: { replies: [{ text: 'Le paso con un asesor' }], action: 'transfer', queueId: queue.id },
    });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Quiero un asesor' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the transfer',
    );
    expect(ticket).toMatchObject({ queueId: queue.id, integrationId: null, status: 'pending' });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 1,
      'the reply',
    );
    // Later messages stay with the person.
    await inbound(t.app, admin, connection.id, { from, body: '¿Hola?' });
    await eventually(
      () => messageTexts(t.db, ticket!.id),
      (texts) => texts.includes('¿Hola?'),
      'the later message stored',
    );
    await ticketSettled(t.db, ticket!.id);
    expect(received).toHaveLength(1);

    answer = () => ({ status: 200, body: { action: 'close' } });
    const other = nextNumber();
    await inbound(t.app, admin, connection.id, { from: other, body: 'Listo, gracias' });
    await eventually(
      () => ticketOf(t.db, companyId, other),
      (row) => row?.status === 'closed',
      'the close',
    );
  });

  it('retry a failing receiver, record every attempt, then fall back to a person with a note', async () => {
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    answer = () => ({ status: 503 });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Necesito ayuda' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the fallback',
      { timeoutMs: 20_000 },
    );
    expect(received).toHaveLength(5);
    const deliveries = await t.db
      .select()
      .from(integrationDeliveries)
      .where(eq(integrationDeliveries.integrationId, flow.id))
      .orderBy(asc(integrationDeliveries.id));
    expect(deliveries.map((d) => [d.attempt, d.status, d.ok, d.replies])).toEqual([
      [1, 503, false, null],
      [2, 503, false, null],
      [3, 503, false, null],
      [4, 503, false, null],
      [5, 503, false, null],
    ]);
    const notes = await t.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticket!.id));
    expect(notes.map((n) => n.note).join(' ')).toContain('no respondió');
    // Signed with the integration's name.
    expect(notes.map((n) => n.botName)).toEqual([flow.name]);
    const [row] = await t.db
      .select()
      .from(queueIntegrations)
      .where(eq(queueIntegrations.id, flow.id));
    expect(row.lastErrorMessage).toBe('HTTP 503');
    expect(
      (await inject(t.app, admin, 'GET', `/queueIntegration/${flow.id}`)).json().lastError,
    ).toMatchObject({ message: 'HTTP 503' });
    // The contact's message is kept.
    const chat = (await inject(t.app, admin, 'GET', `/messages/${ticket!.id}`)).json();
    expect(chat.messages.map((m: { body: string }) => m.body)).toEqual(['Necesito ayuda']);
  });

  it('never post to an address on a private network: refused once in the log, then a person takes over', async () => {
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    // Saved before the guard, or a name that resolves privately by now: refused when called.
    await t.db
      .update(queueIntegrations)
      .set({ urlN8N: 'http://169.254.169.254/latest/meta-data/' })
      .where(eq(queueIntegrations.id, flow.id));
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
    await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the fallback',
      { timeoutMs: 20_000 },
    );
    const deliveries = await t.db
      .select()
      .from(integrationDeliveries)
      .where(eq(integrationDeliveries.integrationId, flow.id));
    // One attempt (retrying cannot help), no status: nothing was sent or read.
    expect(deliveries.map((d) => [d.attempt, d.status, d.ok])).toEqual([[1, null, false]]);
    expect(deliveries[0].error).toMatch(/^Not sent: .*private or reserved network/);
    expect(received).toHaveLength(0);
  });

  it('take the conversations the queue bot puts in a queue with an integration', async () => {
    const flow = await integration();
    const made = await t.db
      .insert(queues)
      .values([
        { companyId, name: 'Bot externo', color: '#1a1a1a', orderQueue: 1, integrationId: flow.id },
        { companyId, name: 'Caja 2', color: '#2a2a2a', orderQueue: 2 },
      ])
      .returning();
    const connection = await pairedSimulator(t.app, admin, {
      queueIds: made.map((q) => q.id),
      greetingMessage: 'Elija:',
    });
    answer = () => ({ status: 200, body: { replies: [{ text: 'Flujo externo activo' }] } });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 1,
      'the menu',
    );
    expect(received).toHaveLength(0);
    await inbound(t.app, admin, connection.id, { from, body: '1' });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.includes('Flujo externo activo'),
      'the flow answers',
    );
    expect((received[0].body.message as { body: string }).body).toBe('1');
  });

  // The queue bot's turn comes after the store of the messages it answers: messages the contact wrote
  // right after the choice may be stored before the bot hands the ticket to the flow.
  const menuQueues = async () => {
    const flow = await integration();
    const made = await t.db
      .insert(queues)
      .values([
        {
          companyId,
          name: `Bot ${flow.id}`,
          color: `#3${String(flow.id).padStart(5, '0')}`,
          orderQueue: 1,
          integrationId: flow.id,
        },
        {
          companyId,
          name: `Caja ${flow.id}`,
          color: `#4${String(flow.id).padStart(5, '0')}`,
          orderQueue: 2,
        },
      ])
      .returning();
    const connection = await pairedSimulator(t.app, admin, {
      queueIds: made.map((q) => q.id),
      greetingMessage: 'Elija:',
    });
    answer = (body) => ({
      status: 200,
      body: { replies: [{ text: `Recibido: ${(body.message as { body: string }).body}` }] },
    });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 1,
      'the menu',
    );
    let sequence = 0;
    const message = (body: string): MessageInput => ({
      connection: { id: connection.id, companyId, provider: 'simulator' },
      event: {
        type: 'message',
        message: {
          providerId: `MENU-${from}-${(sequence += 1)}`,
          from,
          body,
          mediaType: 'chat',
          isGroup: false,
          fromMe: false,
          timestamp: new Date(),
        },
      },
    });
    // The bot's turn on stored messages, as the tickets engine takes it after their store.
    const botTurn = (stored: (Ingested | null)[]) =>
      runQueueBots(
        t.app.deps,
        stored.filter((one): one is Ingested => one !== null),
        t.app.deps.outbox.kick,
        (error) => {
          throw error;
        },
      );
    return { connection, from, message, botTurn, menu: (await sentTo(connection, from))[0] };
  };
  const forwarded = () => received.map((r) => (r.body.message as { body: string }).body);

  it('forward the menu choice first, then what the contact wrote with it, each once', async () => {
    const { connection, from, message, botTurn, menu } = await menuQueues();
    // The choice and the next message stored together (one batch), then the bot's turn.
    const stored = await ingestBatch(t.app.deps, [message('1'), message('Quiero saber mi saldo')]);
    await botTurn(stored);
    // The same turn again (a redelivery): the ticket is the flow's already, nothing more is sent.
    await botTurn(stored);
    const ticket = (await ticketOf(t.db, companyId, from))!;
    await eventually(
      () => received.length,
      (n) => n >= 2,
      'both messages delivered',
    );
    await ticketSettled(t.db, ticket.id);
    expect(forwarded()).toEqual(['1', 'Quiero saber mi saldo']);
    expect(new Set(received.map((r) => r.headers['x-atendi-delivery'])).size).toBe(2);
    expect(await sentTo(connection, from)).toEqual([
      menu,
      'Recibido: 1',
      'Recibido: Quiero saber mi saldo',
    ]);
  });

  it('forward the menu choice even when the next message was stored before the bot took its turn', async () => {
    const { connection, from, message, botTurn, menu } = await menuQueues();
    // Two stores, one message each, then their bot turns in order (each on its store's view of the
    // ticket, which the first turn outdates).
    const choice = await ingestBatch(t.app.deps, [message('1')]);
    const next = await ingestBatch(t.app.deps, [message('Hola otra vez')]);
    await botTurn(choice);
    await botTurn(next);
    const ticket = (await ticketOf(t.db, companyId, from))!;
    await eventually(
      () => received.length,
      (n) => n >= 2,
      'both messages delivered',
    );
    await ticketSettled(t.db, ticket.id);
    expect(forwarded()).toEqual(['1', 'Hola otra vez']);
    // The menu is not shown again for the second message: the flow holds the conversation.
    expect(await sentTo(connection, from)).toEqual([
      menu,
      'Recibido: 1',
      'Recibido: Hola otra vez',
    ]);
  });
});
