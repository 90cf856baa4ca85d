import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { IntegrationView, WhatsappView } from '@atendi/shared';
import { integrationDeliveries, messages, queueIntegrations, queues } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  travel,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { startFakeTypebot, type FakeTypebot } from '../../../test/fake-typebot';
import { eventually } from '../../../test/eventually';
import {
  inbound,
  messageTexts,
  noteTexts,
  pairedSimulator,
  receivedBy,
  ticketOf,
  ticketSettled,
  untilReceived,
} from '../../../test/inbox';

// Typebot flows conversing with contacts, against a local server that speaks Typebot's chat API and
// runs a small published flow: the product's adapter talks to it over HTTP as it would to typebot.io.

let t: TestContext;
let admin: Session;
let adminEmail: string;
let companyId: number;
let typebot: FakeTypebot;
let numbers = 0;
const nextNumber = () => `5491170000${String((numbers += 1)).padStart(3, '0')}`;

const FLOW = [
  {
    id: 'start',
    say: ['Hola **{{name}}**, soy el asistente.', '¿En qué podemos ayudarte?'],
    choices: [
      { label: 'Ventas', next: 'sales' },
      { label: 'Soporte', next: 'support' },
    ],
  },
  { id: 'sales', say: ['Un vendedor te escribirá pronto.'] },
  {
    id: 'support',
    say: ['Contanos tu problema.'],
    ask: { variable: 'problem', next: 'done' },
  },
  { id: 'done', say: ['Anotado: {{problem}}.', { image: 'ticket.png' }] },
];
const MENU = '¿En qué podemos ayudarte?\n\n1 - Ventas\n2 - Soporte';

const integration = async (fields: Record<string, unknown> = {}) => {
  const res = await inject(t.app, admin, 'POST', '/queueIntegration', {
    name: `Typebot ${Math.random().toString(36).slice(2, 8)}`,
    type: 'typebot',
    urlN8N: typebot.url,
    typebotSlug: 'soporte-abc123',
    typebotDelayMessage: 0,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as IntegrationView;
};

const sentTo = (connection: WhatsappView, to: string) =>
  receivedBy(t.app, admin, connection.id, to);
const textsTo = async (connection: WhatsappView, to: string) =>
  (await sentTo(connection, to)).map((m) => m.body);
const until = (connection: WhatsappView, to: string, count: number, what: string) =>
  untilReceived(t.app, admin, connection.id, to, count, what);
const calls = (kind: 'startChat' | 'continueChat') =>
  typebot.requests.filter((r) => r.path.endsWith(kind));
const notesOf = (ticketId: number) => noteTexts(t.db, ticketId);

beforeAll(async () => {
  typebot = await startFakeTypebot();
  typebot.publish('soporte-abc123', FLOW);
  t = await createTestApp({ INTEGRATION_RETRY_BASE_MS: '20', INTEGRATION_TIMEOUT_MS: '2000' });
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  adminEmail = company.admin.email;
  admin = await login(t.app, adminEmail);
});
beforeEach(() => {
  typebot.requests.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await t.close();
  await typebot.close();
});

describe('typebot integrations', () => {
  it('never fetch an image bubble from a private network: the contact gets its link instead', async () => {
    // 127.0.0.2 stands for the server's own network: the tests let only 127.0.0.1 through.
    const hits: string[] = [];
    const inside = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from('89504e470d0a1a0a', 'hex'));
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.2', resolve));
    const secret = `http://127.0.0.2:${(inside.address() as AddressInfo).port}/latest/secret.png`;
    try {
      typebot.publish('foto-privada', [{ id: 'start', say: ['Mirá esto:', { image: secret }] }]);
      const flow = await integration({ typebotSlug: 'foto-privada' });
      const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
      const from = nextNumber();
      await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
      await until(connection, from, 2, 'both bubbles');
      expect((await sentTo(connection, from)).map((m) => [m.mediaType, m.body])).toEqual([
        ['chat', 'Mirá esto:'],
        ['chat', secret],
      ]);
      expect(hits).toEqual([]);
    } finally {
      await new Promise((resolve) => inside.close(resolve));
    }
  });

  it('walk the flow: variables, choices by number, text answers, media, and the end hands over to the queue', async () => {
    const flow = await integration();
    const [queue] = await t.db
      .insert(queues)
      .values({ companyId, name: 'Soporte TB', color: '#3a3a3a', integrationId: flow.id })
      .returning();
    const connection = await pairedSimulator(t.app, admin, { queueIds: [queue.id] });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, name: 'Rosa Díaz', body: 'Hola' });
    await until(connection, from, 2, 'the greeting');
    expect(await textsTo(connection, from)).toEqual(['Hola *Rosa Díaz*, soy el asistente.', MENU]);
    expect(calls('startChat')[0].body).toMatchObject({
      prefilledVariables: { number: from, name: 'Rosa Díaz' },
    });

    // "2" is the second option: Typebot hears its text.
    await inbound(t.app, admin, connection.id, { from, body: '2' });
    await until(connection, from, 3, 'the support step');
    expect(calls('continueChat').map((r) => r.body)).toEqual([
      { message: { type: 'text', text: 'Soporte' }, textBubbleContentFormat: 'richText' },
    ]);
    expect((await textsTo(connection, from))[2]).toBe('Contanos tu problema.');

    await inbound(t.app, admin, connection.id, { from, body: 'No tengo internet' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the end of the flow',
    );
    await until(connection, from, 5, 'the last bubbles');
    const sent = await sentTo(connection, from);
    expect(sent.slice(3).map((m) => [m.mediaType, m.body])).toEqual([
      ['chat', 'Anotado: No tengo internet.'],
      ['image', ''],
    ]);
    // The flow ended: the conversation waits for a person in the queue.
    expect(ticket).toMatchObject({
      status: 'pending',
      queueId: queue.id,
      integrationId: null,
      userId: null,
    });
    expect((await notesOf(ticket!.id)).join(' ')).toContain('fin del flujo');
    expect(typebot.sessions()).toBe(0);
    // Later messages are the person's: Typebot hears nothing more.
    const before = typebot.requests.length;
    await inbound(t.app, admin, connection.id, { from, body: '¿Hola?' });
    await eventually(
      () => messageTexts(t.db, ticket!.id),
      (texts) => texts.includes('¿Hola?'),
      'the later message stored',
    );
    await ticketSettled(t.db, ticket!.id);
    expect(typebot.requests).toHaveLength(before);
  });

  it('pace the bubbles by typebotDelayMessage and keep the next message for after them', async () => {
    const flow = await integration({ typebotDelayMessage: 1200 });
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, name: 'Leo', body: 'Hola' });
    // The contact answers before the menu is out: the answer is taken after it (else the menu would
    // be lost or come after the answer's step).
    await until(connection, from, 1, 'the first bubble');
    await inbound(t.app, admin, connection.id, { from, body: '1' });
    await until(connection, from, 3, 'the sales step');
    expect(await textsTo(connection, from)).toEqual([
      'Hola *Leo*, soy el asistente.',
      MENU,
      'Un vendedor te escribirá pronto.',
    ]);
    // Each bubble was written at least typebotDelayMessage after the one before it (the phone may
    // receive them closer together when the machine is busy; the product's pause is what is tested).
    const ticket = (await ticketOf(t.db, companyId, from))!;
    const written = await t.db
      .select({ createdAt: messages.createdAt })
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)))
      .orderBy(asc(messages.id));
    expect(written[1].createdAt.getTime() - written[0].createdAt.getTime()).toBeGreaterThanOrEqual(
      1190,
    );
  });

  it('start over after typebotExpires minutes without a message', async () => {
    const flow = await integration({ typebotExpires: 2 });
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, name: 'Ana', body: 'Hola' });
    await until(connection, from, 2, 'the greeting');
    // A minute later the session holds: the answer continues the chat.
    travel(60_000);
    admin = await login(t.app, adminEmail);
    await inbound(t.app, admin, connection.id, { from, body: 'Soporte' });
    await until(connection, from, 3, 'the support step');
    expect(calls('startChat')).toHaveLength(1);
    // Three idle minutes later it has expired: the next message starts the flow again.
    vi.useRealTimers();
    travel(60_000 + 3 * 60_000);
    admin = await login(t.app, adminEmail);
    await inbound(t.app, admin, connection.id, { from, body: 'Hola de nuevo' });
    await until(connection, from, 5, 'the greeting again');
    expect(calls('startChat')).toHaveLength(2);
    expect((await textsTo(connection, from)).slice(3)).toEqual([
      'Hola *Ana*, soy el asistente.',
      MENU,
    ]);
  });

  it('restart on the restart keyword, end on the finish keyword', async () => {
    const flow = await integration({
      typebotKeywordRestart: '#reiniciar',
      typebotRestartMessage: 'Empecemos de nuevo.',
      typebotKeywordFinish: '#salir',
    });
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, name: 'Iván', body: 'Hola' });
    await until(connection, from, 2, 'the greeting');
    await inbound(t.app, admin, connection.id, { from, body: '#REINICIAR' });
    await until(connection, from, 5, 'the restart');
    expect((await textsTo(connection, from)).slice(2)).toEqual([
      'Empecemos de nuevo.',
      'Hola *Iván*, soy el asistente.',
      MENU,
    ]);
    expect(calls('startChat')).toHaveLength(2);
    expect(calls('continueChat')).toHaveLength(0);

    await inbound(t.app, admin, connection.id, { from, body: '#salir' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the finish',
    );
    expect(ticket).toMatchObject({ status: 'pending', integrationId: null });
    expect((await notesOf(ticket!.id)).join(' ')).toContain('terminó el flujo');
    expect(calls('continueChat')).toHaveLength(0);
  });

  it('answer what the flow cannot take with the unknown message, and offer the options again', async () => {
    const flow = await integration({ typebotUnknownMessage: 'No entendí, elegí una opción.' });
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, name: 'Eva', body: 'Hola' });
    await until(connection, from, 2, 'the greeting');
    await inbound(t.app, admin, connection.id, { from, body: '7' });
    await until(connection, from, 3, 'the unknown message');
    expect((await textsTo(connection, from))[2]).toBe(
      'No entendí, elegí una opción.\n\n1 - Ventas\n2 - Soporte',
    );
    // A picture without text, too.
    await inbound(t.app, admin, connection.id, {
      from,
      mediaType: 'image',
      fileName: 'foto.png',
      mediaBase64:
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    } as never);
    await until(connection, from, 4, 'the unknown message again');
    expect(calls('continueChat')).toHaveLength(0);
    // A valid answer by its text still goes through.
    await inbound(t.app, admin, connection.id, { from, body: 'ventas' });
    await until(connection, from, 5, 'the sales step');
    expect(calls('continueChat').map((r) => r.body)).toMatchObject([
      { message: { text: 'Ventas' } },
    ]);
  });

  it('start a new chat when Typebot has forgotten the session', async () => {
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, name: 'Tom', body: 'Hola' });
    await until(connection, from, 2, 'the greeting');
    typebot.forgetSessions();
    await inbound(t.app, admin, connection.id, { from, body: '1' });
    await until(connection, from, 4, 'the greeting again');
    expect(calls('startChat')).toHaveLength(2);
    expect((await textsTo(connection, from)).slice(2)).toEqual([
      'Hola *Tom*, soy el asistente.',
      MENU,
    ]);
  });

  it('one chat per conversation when the contact writes several messages at once', async () => {
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    const answers = await Promise.all(
      ['Hola', 'uno', 'dos', 'tres'].map((body) =>
        inbound(t.app, admin, connection.id, { from, name: 'Ema', body }),
      ),
    );
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    await eventually(
      () => typebot.requests.length,
      (n) => n === 4,
      'four turns',
    );
    // No turn is left to make a fifth call.
    await ticketSettled(t.db, (await ticketOf(t.db, companyId, from))!.id);
    expect(typebot.requests).toHaveLength(4);
    expect(calls('startChat')).toHaveLength(1);
    expect(calls('continueChat')).toHaveLength(3);
  });

  it('retry a failing Typebot, record each call, then hand the conversation to a person', async () => {
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    typebot.fail(5, 503);
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the fallback',
      { timeoutMs: 20_000 },
    );
    const deliveries = await t.db
      .select()
      .from(integrationDeliveries)
      .where(eq(integrationDeliveries.integrationId, flow.id))
      .orderBy(asc(integrationDeliveries.id));
    expect(deliveries.map((d) => [d.event, d.attempt, d.status, d.ok])).toEqual(
      [1, 2, 3, 4, 5].map((n) => ['typebot.startChat', n, 503, false]),
    );
    expect((await notesOf(ticket!.id)).join(' ')).toContain('no respondió');
    const [row] = await t.db
      .select()
      .from(queueIntegrations)
      .where(eq(queueIntegrations.id, flow.id));
    expect(row.lastErrorMessage).toContain('HTTP 503');
    expect(await textsTo(connection, from)).toEqual([]);
  });

  it('give up at once on a bot that does not exist', async () => {
    const flow = await integration({ typebotSlug: 'no-such-bot' });
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
    await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the fallback',
    );
    expect(calls('startChat')).toHaveLength(1);
    const [row] = await t.db
      .select()
      .from(queueIntegrations)
      .where(eq(queueIntegrations.id, flow.id));
    expect(row.lastErrorMessage).toContain('HTTP 404');

    // Fixed, it answers the next conversation, and the error admins saw is gone.
    await inject(t.app, admin, 'PUT', `/queueIntegration/${flow.id}`, {
      typebotSlug: 'soporte-abc123',
    });
    const next = nextNumber();
    await inbound(t.app, admin, connection.id, { from: next, body: 'Hola' });
    await until(connection, next, 2, 'the greeting');
    const view = (await inject(t.app, admin, 'GET', `/queueIntegration/${flow.id}`)).json();
    expect(view.lastError).toBeNull();
  });
});
