import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { SimulatorOutboundView, WhatsappView } from '@atendi/shared';
import { contacts, queues, settings, tickets, userQueues } from '../../../db/schema';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type SharedTestContext,
} from '../../../../test/harness';
import { eventually } from '../../../../test/eventually';
import { caughtUp, closeSockets, listenAs } from '../../../../test/sockets';
import { chosenIndex, queueMenu } from './queue-bot';

let t: SharedTestContext;
let admin: Session;
let companyId: number;

beforeAll(async () => {
  t = await sharedTestApp();
});

// A paired simulator connection of a new company, serving the queues given.
const connectionWith = async (
  queueDefs: { name: string; greetingMessage?: string }[],
  greeting: string,
) => {
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  const made = await t.db
    .insert(queues)
    .values(
      queueDefs.map((q, i) => ({
        companyId,
        name: q.name,
        color: `#00000${i}`,
        greetingMessage: q.greetingMessage ?? '',
        orderQueue: i + 1,
      })),
    )
    .returning();
  const created = await inject(t.app, admin, 'POST', '/whatsapp', {
    name: 'Bot',
    provider: 'simulator',
    greetingMessage: greeting,
    queueIds: made.map((q) => q.id),
  });
  const connection = created.json() as WhatsappView;
  await eventually(
    async () => (await inject(t.app, admin, 'POST', `/simulator/${connection.id}/scan`)).statusCode,
    (status) => status === 200,
    'scan',
  );
  return { connection, queues: made };
};

const outbound = async (id: number) =>
  (
    await inject(t.app, admin, 'GET', `/simulator/${id}/outbound`)
  ).json() as SimulatorOutboundView[];

const ticketOf = async (number: string) => {
  const [contact] = await t.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)));
  return (await t.db.select().from(tickets).where(eq(tickets.contactId, contact.id)))[0];
};

// The barrier before asserting that the bot sent a contact nothing more: the ticket is accepted
// and an agent writes. The outbox sends a ticket's messages in order, so once the phone has the
// agent's message, the bodies before it are all the contact was sent.
const AGENT_NOTE = 'Un momento, por favor.';
const sentBeforeAgentNote = async (connectionId: number, to: string) => {
  const { id } = await ticketOf(to);
  expect((await inject(t.app, admin, 'PUT', `/tickets/${id}`, { status: 'open' })).statusCode).toBe(
    200,
  );
  const res = await inject(t.app, admin, 'POST', `/messages/${id}`, { body: AGENT_NOTE });
  expect(res.statusCode, res.body).toBe(201);
  const rows = await eventually(
    () => outbound(connectionId),
    (list) => list.some((m) => m.to === to && m.body === AGENT_NOTE),
    'the agent message',
  );
  const bodies = rows.filter((m) => m.to === to).map((m) => m.body);
  expect(bodies.at(-1)).toBe(AGENT_NOTE);
  return bodies.slice(0, -1);
};

describe('queue bot', () => {
  it('reads numeric replies and builds the menu', () => {
    expect(chosenIndex('2', 3)).toBe(1);
    expect(chosenIndex(' 1. ', 3)).toBe(0);
    expect(chosenIndex('4', 3)).toBeUndefined();
    expect(chosenIndex('quiero ventas', 3)).toBeUndefined();
    expect(
      queueMenu('¡Hola!', [
        { id: 1, name: 'Ventas', greetingMessage: '' },
        { id: 2, name: 'Soporte', greetingMessage: '' },
      ]),
    ).toBe('¡Hola!\n\n*1* - Ventas\n*2* - Soporte');
  });

  it('with two queues, greets with the menu and routes by the reply', async () => {
    const {
      connection,
      queues: [, support],
    } = await connectionWith(
      [
        { name: 'Ventas' },
        { name: 'Soporte', greetingMessage: 'Soporte técnico, ¿en qué le ayudamos?' },
      ],
      '¡Hola! Elija una opción:',
    );
    const from = '5491170000001';
    await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, {
      from,
      body: 'hola',
    });
    const menu = await eventually(
      () => outbound(connection.id),
      (rows) => rows.length === 1,
      'the menu',
    );
    expect(menu[0]).toMatchObject({
      to: from,
      body: '¡Hola! Elija una opción:\n\n*1* - Ventas\n*2* - Soporte',
    });
    expect((await ticketOf(from)).queueId).toBeNull();

    await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, { from, body: '2' });
    const after = await eventually(
      () => outbound(connection.id),
      (rows) => rows.length === 2,
      'the queue greeting',
    );
    expect(after[1].body).toBe('Soporte técnico, ¿en qué le ayudamos?');
    const ticket = await ticketOf(from);
    expect(ticket).toMatchObject({ queueId: support.id, status: 'pending', chatbot: false });
  });

  it('repeats the menu for an unknown reply, at most maxUseBotQueues times', async () => {
    const { connection } = await connectionWith([{ name: 'A' }, { name: 'B' }], 'Menú');
    await inject(t.app, admin, 'PUT', `/whatsapp/${connection.id}`, { maxUseBotQueues: 2 });
    const from = '5491170000002';
    for (const body of ['hola', '¿hay alguien?', 'hola??', '9']) {
      await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, { from, body });
    }
    expect((await ticketOf(from)).amountUsedBotQueues).toBe(2);
    const menu = 'Menú\n\n*1* - A\n*2* - B';
    expect(await sentBeforeAgentNote(connection.id, from)).toEqual([menu, menu]);
  });

  it('with one queue, assigns it at once and greets only when the setting says so', async () => {
    const {
      connection,
      queues: [only],
    } = await connectionWith([{ name: 'Única' }], 'Bienvenido');
    await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, {
      from: '5491170000003',
      body: 'hola',
    });
    await eventually(
      () => ticketOf('5491170000003'),
      (row) => row?.queueId === only.id,
      'queue set',
    );
    expect(await sentBeforeAgentNote(connection.id, '5491170000003')).toEqual([]);

    await t.db
      .update(settings)
      .set({ value: 'enabled' })
      .where(
        and(eq(settings.companyId, companyId), eq(settings.key, 'sendGreetingMessageOneQueues')),
      );
    await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, {
      from: '5491170000004',
      body: 'hola',
    });
    const greeted = await eventually(
      async () => (await outbound(connection.id)).filter((m) => m.to === '5491170000004'),
      (r) => r.length >= 1,
      'the greeting',
    );
    expect(greeted).toMatchObject([{ body: 'Bienvenido' }]);
  });

  it('the first message of a new conversation reaches only those who may see the queue the bot routes it to', async () => {
    const {
      connection,
      queues: [sales],
    } = await connectionWith([{ name: 'Ventas' }], '');
    const [support] = await t.db
      .insert(queues)
      .values({ companyId, name: 'Soporte', color: '#0000aa' })
      .returning();
    const seller = await makeUser(t.db, companyId, 'user');
    const supporter = await makeUser(t.db, companyId, 'user');
    await t.db.insert(userQueues).values([
      { userId: seller.id, queueId: sales.id, companyId },
      { userId: supporter.id, queueId: support.id, companyId },
    ]);
    // Each listens as the inbox does: the waiting list and the notifications.
    const listen = async (session: Session) =>
      listenAs<{ message?: { body: string }; ticket?: { queueId: number | null } }>(
        t.app,
        session,
        async (socket) => {
          expect(await socket.timeout(5000).emitWithAck('joinTickets', 'pending')).toBe(true);
          expect(await socket.timeout(5000).emitWithAck('joinNotification')).toBe(true);
        },
      );
    const adminHeard = await listen(admin);
    const sellerHeard = await listen(await login(t.app, seller.email));
    const supporterHeard = await listen(await login(t.app, supporter.email));

    // The simulator's inbound request returns once the message is stored, routed and announced.
    const res = await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, {
      from: '5491170000005',
      body: 'Quiero comprar',
    });
    expect(res.statusCode).toBe(200);
    await caughtUp(adminHeard, sellerHeard, supporterHeard);

    for (const heard of [adminHeard, sellerHeard]) {
      const first = heard.find((h) => h.event === `company-${companyId}-appMessage`);
      expect(first?.payload).toMatchObject({
        message: { body: 'Quiero comprar' },
        ticket: { queueId: sales.id },
      });
    }
    expect(supporterHeard).toEqual([]);
    closeSockets();
  });
});
