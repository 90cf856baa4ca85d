import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  companies,
  messages,
  prompts,
  queueOptions,
  queues,
  ticketNotes,
  userRatings,
} from '../../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  travel,
  type Session,
  type TestContext,
} from '../../../../test/harness';
import { eventually } from '../../../../test/eventually';
import { inbound, outbound, pairedSimulator, setSetting, ticketOf } from '../../../../test/inbox';
import { caughtUp, closeSockets, listenAs } from '../../../../test/sockets';
import { TICKET_TIMERS_JOB } from './ticket-timers';

// Queue options, bot limits, business hours, the automatic messages of accept / transfer / resolve,
// rating answers and the timed rules (transfer, expiry), all through a simulator connection.

let t: TestContext;
let admin: Session;
let adminName: string;
let adminEmail: string;
let companyId: number;
let phone = 5491180000000;
const nextPhone = () => String((phone += 1));

const closedAllWeek = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
].map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '00:00', endTime: '00:00' }));

beforeAll(async () => {
  t = await createTestApp({ TIME_ZONE: 'America/Bogota', TICKET_TIMERS_INTERVAL: '0' });
});
afterAll(() => t.close());
beforeEach(async () => {
  const made = await makeCompany(t.db);
  companyId = made.company.id;
  adminName = made.admin.name;
  adminEmail = made.admin.email;
  admin = await login(t.app, made.admin.email);
});
afterEach(() => {
  vi.useRealTimers();
});

const makeQueues = async (defs: Partial<typeof queues.$inferInsert>[]) =>
  t.db
    .insert(queues)
    .values(
      defs.map((q, i) => ({
        companyId,
        name: `Queue ${i + 1}`,
        color: `#10000${i}`,
        orderQueue: i + 1,
        ...q,
      })),
    )
    .returning();

const sentTo = async (connectionId: number, to: string) =>
  (await outbound(t.app, admin, connectionId)).filter((m) => m.to === to).map((m) => m.body);

const waitSent = (connectionId: number, to: string, count: number) =>
  eventually(
    () => sentTo(connectionId, to),
    (bodies) => bodies.length >= count,
    `${count} messages to ${to}`,
  );

// The barrier before asserting that nothing more was sent: an agent's message to the open ticket.
// Whatever the platform queued for the contact before it is sent before it (the outbox sends a
// ticket's messages in order), so once the phone has it, the bodies before it are all there were.
const AGENT_NOTE = 'Un momento, por favor.';
const sentBeforeAgentNote = async (connectionId: number, to: string, ticketId: number) => {
  const res = await inject(t.app, admin, 'POST', `/messages/${ticketId}`, { body: AGENT_NOTE });
  expect(res.statusCode, res.body).toBe(201);
  const bodies = await eventually(
    () => sentTo(connectionId, to),
    (list) => list.includes(AGENT_NOTE),
    'the agent message',
  );
  expect(bodies.at(-1)).toBe(AGENT_NOTE);
  return bodies.slice(0, -1);
};

// Moves the clock to that long after now (undoing an earlier move first) and logs in again, as the
// access token would have expired meanwhile.
const later = async (ms: number) => {
  vi.useRealTimers();
  travel(ms);
  admin = await login(t.app, adminEmail);
};

const put = (id: number, body: object, session = admin) =>
  inject(t.app, session, 'PUT', `/tickets/${id}`, body);

describe('queue options', () => {
  it('walks the option tree: a branch lists its children, "#" goes back, a leaf ends the bot', async () => {
    const [queue] = await makeQueues([{ name: 'Soporte' }]);
    const [billing, technical] = await t.db
      .insert(queueOptions)
      .values([
        {
          companyId,
          queueId: queue.id,
          title: 'Facturación',
          message: 'Sobre facturación:',
          option: '1',
        },
        {
          companyId,
          queueId: queue.id,
          title: 'Técnico',
          message: 'Un técnico le atenderá.',
          option: '2',
        },
      ])
      .returning();
    await t.db.insert(queueOptions).values({
      companyId,
      queueId: queue.id,
      parentId: billing.id,
      title: 'Segunda vía',
      message: 'Le enviamos la segunda vía.',
      option: '1',
    });
    const connection = await pairedSimulator(t.app, admin, { queueIds: [queue.id] });
    const from = nextPhone();

    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    expect((await waitSent(connection.id, from, 1))[0]).toBe('*1* - Facturación\n*2* - Técnico');
    expect(await ticketOf(t.db, companyId, from)).toMatchObject({
      queueId: queue.id,
      chatbot: true,
    });

    await inbound(t.app, admin, connection.id, { from, body: '1' });
    expect((await waitSent(connection.id, from, 2))[1]).toBe(
      'Sobre facturación:\n\n*1* - Segunda vía\n*#* - Volver',
    );
    expect((await ticketOf(t.db, companyId, from))?.queueOptionId).toBe(billing.id);

    await inbound(t.app, admin, connection.id, { from, body: '#' });
    expect((await waitSent(connection.id, from, 3))[2]).toBe('*1* - Facturación\n*2* - Técnico');
    expect((await ticketOf(t.db, companyId, from))?.queueOptionId).toBeNull();

    await inbound(t.app, admin, connection.id, { from, body: '2' });
    expect((await waitSent(connection.id, from, 4))[3]).toBe('Un técnico le atenderá.');
    expect(await ticketOf(t.db, companyId, from)).toMatchObject({
      queueOptionId: technical.id,
      chatbot: false,
      status: 'pending',
    });

    // The bot is done: the contact now waits for a person, and the bot answers nothing more.
    await inbound(t.app, admin, connection.id, { from, body: '¿hola?' });
    const ticket = await ticketOf(t.db, companyId, from);
    expect((await put(ticket!.id, { status: 'open' })).statusCode).toBe(200);
    expect(await sentBeforeAgentNote(connection.id, from, ticket!.id)).toHaveLength(4);
  });

  it('does not repeat a menu within timeUseBotQueues minutes, but always understands a choice', async () => {
    const [first, second] = await makeQueues([{ name: 'Ventas' }, { name: 'Soporte' }]);
    const connection = await pairedSimulator(t.app, admin, {
      queueIds: [first.id, second.id],
      greetingMessage: 'Elija:',
      maxUseBotQueues: 0,
      timeUseBotQueues: 10,
    });
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    const menu = 'Elija:\n\n*1* - Ventas\n*2* - Soporte';
    expect(await waitSent(connection.id, from, 1)).toEqual([menu]);
    // Within the 10 minutes: no menu (counted at the end, as the menus all read the same).
    await inbound(t.app, admin, connection.id, { from, body: '¿alguien?' });

    await later(11 * 60_000);
    await inbound(t.app, admin, connection.id, { from, body: '¿alguien?' });
    expect((await waitSent(connection.id, from, 2))[1]).toBe(menu);

    await inbound(t.app, admin, connection.id, { from, body: '2' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.queueId === second.id,
      'queue chosen',
    );
    // Two menus in all: the first one and the one after the 10 minutes (the queue has no greeting).
    expect((await put(ticket!.id, { status: 'open' })).statusCode).toBe(200);
    expect(await sentBeforeAgentNote(connection.id, from, ticket!.id)).toEqual([menu, menu]);
  });
});

describe('business hours', () => {
  it('company hours: outside them the contact is told once an hour and the bot waits', async () => {
    await setSetting(t.db, companyId, 'scheduleType', 'company');
    await t.db
      .update(companies)
      .set({ schedules: closedAllWeek })
      .where(eq(companies.id, companyId));
    const made = await makeQueues([{ name: 'A' }, { name: 'B' }]);
    const connection = await pairedSimulator(t.app, admin, {
      queueIds: made.map((q) => q.id),
      greetingMessage: 'Elija:',
      outOfHoursMessage: 'Estamos cerrados, {{firstName}}.',
    });
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola', name: 'Ana Gómez' });
    expect(await waitSent(connection.id, from, 1)).toEqual(['Estamos cerrados, Ana.']);
    await inbound(t.app, admin, connection.id, { from, body: '¿hola?' });
    expect((await ticketOf(t.db, companyId, from))?.queueId).toBeNull();

    // Open again (no slots: always open): the menu goes out. It is queued after anything the
    // second message got, so a repeated notice would be the second message the phone received.
    await t.db.update(companies).set({ schedules: [] }).where(eq(companies.id, companyId));
    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    expect(await waitSent(connection.id, from, 2)).toEqual([
      'Estamos cerrados, Ana.',
      'Elija:\n\n*1* - A\n*2* - B',
    ]);
  });

  it("reads the hours in the company's own time zone, the platform's until it chooses one", async () => {
    // Every day open for three hours around this hour in Bogotá (the platform's zone, UTC−5), which
    // are never this hour in Tokyo (UTC+9: 14 hours ahead).
    const bogota = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Bogota',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    const hour = Number(bogota.format(new Date()));
    const hhmm = (h: number) => `${String(Math.min(Math.max(h, 0), 24)).padStart(2, '0')}:00`;
    const openNow = closedAllWeek.map((slot) => ({
      ...slot,
      startTime: hhmm(hour - 1),
      endTime: hhmm(hour + 2),
    }));
    await setSetting(t.db, companyId, 'scheduleType', 'company');
    await t.db.update(companies).set({ schedules: openNow }).where(eq(companies.id, companyId));
    const made = await makeQueues([{ name: 'A' }, { name: 'B' }]);
    const connection = await pairedSimulator(t.app, admin, {
      queueIds: made.map((q) => q.id),
      greetingMessage: 'Elija:',
      outOfHoursMessage: 'Estamos cerrados.',
    });
    const open = nextPhone();
    await inbound(t.app, admin, connection.id, { from: open, body: 'hola' });
    expect(await waitSent(connection.id, open, 1)).toEqual(['Elija:\n\n*1* - A\n*2* - B']);

    const res = await inject(t.app, admin, 'PUT', `/companies/${companyId}/time-zone`, {
      timeZone: 'Asia/Tokyo',
    });
    expect(res.statusCode, res.body).toBe(200);
    const closed = nextPhone();
    await inbound(t.app, admin, connection.id, { from: closed, body: 'hola' });
    expect(await waitSent(connection.id, closed, 1)).toEqual(['Estamos cerrados.']);
  });

  it('queue hours: a closed queue answers with its own out-of-hours message', async () => {
    await setSetting(t.db, companyId, 'scheduleType', 'queue');
    const [queue] = await makeQueues([
      { name: 'Soporte', schedules: closedAllWeek, outOfHoursMessage: 'Soporte abre mañana.' },
    ]);
    const connection = await pairedSimulator(t.app, admin, { queueIds: [queue.id] });
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    expect(await waitSent(connection.id, from, 1)).toEqual(['Soporte abre mañana.']);
    expect(await ticketOf(t.db, companyId, from)).toMatchObject({
      queueId: queue.id,
      chatbot: false,
    });
  });

  it('out-of-hours routing: a closed queue sends what enters it to its out-of-hours queue, or to its AI agent', async () => {
    await setSetting(t.db, companyId, 'scheduleType', 'queue');
    const [guard] = await makeQueues([
      { name: 'Guardia', greetingMessage: 'Guardia 24 h: ¿en qué le ayudo?' },
    ]);
    const [prompt] = await t.db
      .insert(prompts)
      .values({ companyId, name: 'Nocturno', prompt: 'Eres el asistente nocturno.' })
      .returning();
    const [support] = await t.db
      .insert(queues)
      .values({
        companyId,
        name: 'Soporte',
        color: '#200001',
        schedules: closedAllWeek,
        outOfHoursMessage: 'Soporte abre mañana.',
        outOfHoursQueueId: guard.id,
      })
      .returning();
    const connection = await pairedSimulator(t.app, admin, { queueIds: [support.id] });
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    expect(await waitSent(connection.id, from, 1)).toEqual([
      'Soporte abre mañana.\n\nGuardia 24 h: ¿en qué le ayudo?',
    ]);
    expect(await ticketOf(t.db, companyId, from)).toMatchObject({
      queueId: guard.id,
      promptId: null,
    });

    // To its AI agent instead: the conversation is the agent's, in the closed queue.
    const put = await inject(t.app, admin, 'PUT', `/queue/${support.id}`, {
      outOfHoursQueueId: null,
      outOfHoursPromptId: prompt.id,
    });
    expect(put.json()).toMatchObject({ outOfHoursQueueId: null, outOfHoursPromptId: prompt.id });
    const other = nextPhone();
    await inbound(t.app, admin, connection.id, { from: other, body: 'hola' });
    // It holds it, or (no AI server in this test) already handed it back with a note of its own.
    const heldByAgent = async () => {
      const ticket = (await ticketOf(t.db, companyId, other))!;
      const notes = await t.db
        .select()
        .from(ticketNotes)
        .where(eq(ticketNotes.ticketId, ticket.id));
      return {
        ticket,
        agent: ticket.promptId === prompt.id || notes.some((n) => n.botName === 'Nocturno'),
      };
    };
    const held = await eventually(heldByAgent, (seen) => seen.agent, 'the AI agent took it');
    expect(held.ticket).toMatchObject({ queueId: support.id });

    // Both at once, itself, or another company's queue: refused.
    for (const body of [
      { outOfHoursQueueId: guard.id },
      { outOfHoursPromptId: null, outOfHoursQueueId: support.id },
      { outOfHoursPromptId: null, outOfHoursQueueId: 999_999 },
    ]) {
      const bad = await inject(t.app, admin, 'PUT', `/queue/${support.id}`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(bad.statusCode).toBeLessThan(500);
    }
  });
});

describe('automatic messages on accept, transfer and resolve', () => {
  it('greets naming the attendant on accept when sendGreetingAccepted is enabled', async () => {
    const connection = await pairedSimulator(t.app, admin, {});
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola', name: 'Juan Pérez' });
    const ticket = await eventually(() => ticketOf(t.db, companyId, from), Boolean, 'ticket');

    // Disabled (the default): nothing is said.
    expect((await put(ticket!.id, { status: 'open' })).statusCode).toBe(200);
    expect(await sentBeforeAgentNote(connection.id, from, ticket!.id)).toEqual([]);
    await put(ticket!.id, { status: 'pending' });

    await setSetting(t.db, companyId, 'sendGreetingAccepted', 'enabled');
    await put(ticket!.id, { status: 'open' });
    const greeting = (await waitSent(connection.id, from, 2))[1];
    expect(greeting).toMatch(/^Buen(os|as) (días|tardes|noches) \*Juan\*, mi nombre es \*/);
    expect(greeting).toContain(`*${adminName}*`);
  });

  it('tells the contact where a transfer took the conversation when sendMsgTransfTicket is enabled', async () => {
    await setSetting(t.db, companyId, 'sendMsgTransfTicket', 'enabled');
    const [sales] = await makeQueues([{ name: 'Ventas' }]);
    const connection = await pairedSimulator(t.app, admin, {});
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    const ticket = await eventually(() => ticketOf(t.db, companyId, from), Boolean, 'ticket');
    await put(ticket!.id, { status: 'open' });

    await put(ticket!.id, { userId: null, queueId: sales.id });
    expect((await waitSent(connection.id, from, 1))[0]).toContain('departamento *Ventas*');

    const agentMade = await inject(t.app, admin, 'POST', '/users', {
      name: 'Marta Ruiz',
      email: `marta-${companyId}@test.local`,
      password: 'Secret123',
      profile: 'user',
      queueIds: [sales.id],
    });
    expect(agentMade.statusCode).toBe(201);
    await put(ticket!.id, { userId: agentMade.json().id, queueId: sales.id });
    expect((await waitSent(connection.id, from, 2))[1]).toContain('transferida a *Marta Ruiz*');
  });

  it('resolving sends the completion message and the rating question; a 1–3 answer is recorded', async () => {
    await setSetting(t.db, companyId, 'userRating', 'enabled');
    const connection = await pairedSimulator(t.app, admin, {
      complationMessage: 'Gracias por escribirnos, {{firstName}}.',
      ratingMessage: '¿Cómo le atendimos?',
    });
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola', name: 'Lucía Díaz' });
    const ticket = await eventually(() => ticketOf(t.db, companyId, from), Boolean, 'ticket');
    await put(ticket!.id, { status: 'open' });
    await put(ticket!.id, { status: 'closed' });
    const [completion, question] = await waitSent(connection.id, from, 2);
    expect(completion).toBe('Gracias por escribirnos, Lucía.');
    expect(question).toContain('¿Cómo le atendimos?');
    expect(question).toContain('*1* - ');
    expect(question).toContain('*3* - ');

    await inbound(t.app, admin, connection.id, { from, body: '3' });
    await eventually(
      () => t.db.select().from(userRatings).where(eq(userRatings.ticketId, ticket!.id)),
      (rows) => rows.length === 1,
      'rating stored',
    );
    const [rating] = await t.db
      .select()
      .from(userRatings)
      .where(eq(userRatings.ticketId, ticket!.id));
    expect(rating).toMatchObject({ rate: 3, userId: admin.userId, companyId });
    expect((await waitSent(connection.id, from, 3))[2]).toBe('¡Gracias por tu evaluación!');
    // The answer belongs to the resolved conversation: no new ticket was opened for it.
    const latest = await ticketOf(t.db, companyId, from);
    expect(latest).toMatchObject({ id: ticket!.id, status: 'closed', ratingAt: null });
    const stored = await t.db.select().from(messages).where(eq(messages.ticketId, ticket!.id));
    expect(stored.some((m) => m.body === '3' && !m.fromMe)).toBe(true);

    // A later "2" is an ordinary message: a new conversation, no second rating.
    await inbound(t.app, admin, connection.id, { from, body: '2' });
    const next = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.id !== ticket!.id,
      'new ticket',
    );
    expect(next).toMatchObject({ status: 'pending' });
    expect(
      await t.db.select().from(userRatings).where(eq(userRatings.ticketId, ticket!.id)),
    ).toHaveLength(1);
  });

  it('a reply that is not a rating opens a new conversation and nothing is recorded', async () => {
    await setSetting(t.db, companyId, 'userRating', 'enabled');
    const connection = await pairedSimulator(t.app, admin, {});
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    const ticket = await eventually(() => ticketOf(t.db, companyId, from), Boolean, 'ticket');
    await put(ticket!.id, { status: 'open' });
    await put(ticket!.id, { status: 'closed' });
    // The default question when the connection has none.
    expect((await waitSent(connection.id, from, 1))[0]).toContain(
      '¿Cómo evaluarías nuestra atención?',
    );
    await inbound(t.app, admin, connection.id, { from, body: 'tengo otra duda' });
    const next = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.id !== ticket!.id,
      'new ticket',
    );
    expect(next).toMatchObject({ status: 'pending', lastMessage: 'tengo otra duda' });
    expect(
      await t.db.select().from(userRatings).where(eq(userRatings.ticketId, ticket!.id)),
    ).toEqual([]);
  });
});

describe('timed rules', () => {
  const runTimers = () => t.app.deps.jobs.run(TICKET_TIMERS_JOB);

  it('timeToTransfer moves a waiting ticket nobody took to the transfer queue', async () => {
    const [target] = await makeQueues([{ name: 'Recepción' }]);
    const connection = await pairedSimulator(t.app, admin, {
      transferQueueId: target.id,
      timeToTransfer: 5,
    });
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    const ticket = await eventually(() => ticketOf(t.db, companyId, from), Boolean, 'ticket');

    await later(4 * 60_000);
    await runTimers();
    expect((await ticketOf(t.db, companyId, from))?.queueId).toBeNull();

    await later(6 * 60_000);
    await runTimers();
    expect(await ticketOf(t.db, companyId, from)).toMatchObject({
      id: ticket!.id,
      queueId: target.id,
      status: 'pending',
    });
  });

  it('expiresTicket closes an inactive conversation with its message; activity postpones it', async () => {
    const connection = await pairedSimulator(t.app, admin, {
      expiresTicket: 30,
      expiresInactiveMessage: 'Cerramos por inactividad.',
    });
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    const ticket = await eventually(() => ticketOf(t.db, companyId, from), Boolean, 'ticket');
    await put(ticket!.id, { status: 'open' });

    await later(20 * 60_000);
    await inbound(t.app, admin, connection.id, { from, body: 'sigo aquí' });
    await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.lastMessage === 'sigo aquí',
      'second message',
    );
    await later(35 * 60_000);
    await runTimers();
    expect((await ticketOf(t.db, companyId, from))?.status).toBe('open');

    await later(51 * 60_000);
    await runTimers();
    expect((await ticketOf(t.db, companyId, from))?.status).toBe('closed');
    expect(await waitSent(connection.id, from, 1)).toEqual(['Cerramos por inactividad.']);
  });

  it('what fell due while the server was down is done when it starts again', async () => {
    const restarted = await createTestApp({ TICKET_TIMERS_INTERVAL: '3600' });
    try {
      const made = await makeCompany(restarted.db);
      const session = await login(restarted.app, made.admin.email);
      const connection = await pairedSimulator(restarted.app, session, { expiresTicket: 10 });
      const from = nextPhone();
      await inbound(restarted.app, session, connection.id, { from, body: 'hola' });
      const ticket = await eventually(
        () => ticketOf(restarted.db, made.company.id, from),
        Boolean,
        'ticket',
      );
      await inject(restarted.app, session, 'PUT', `/tickets/${ticket!.id}`, { status: 'open' });

      // Down for an hour: the first run after start closes it, without anyone calling the job.
      travel(60 * 60_000);
      await restarted.restart();
      await eventually(
        () => ticketOf(restarted.db, made.company.id, from),
        (row) => row?.status === 'closed',
        'closed after restart',
      );
    } finally {
      vi.useRealTimers();
      await restarted.close();
    }
  });
});

describe('typing', () => {
  afterAll(() => closeSockets());

  it('reaches the chat of that ticket only, as wa:typing', async () => {
    const connection = await pairedSimulator(t.app, admin, {});
    const from = nextPhone();
    await inbound(t.app, admin, connection.id, { from, body: 'hola' });
    const ticket = await eventually(() => ticketOf(t.db, companyId, from), Boolean, 'ticket');
    const other = await makeCompany(t.db);
    // The chat's join is acknowledged once joined; another company's is refused without an answer.
    const mine = await listenAs(t.app, admin, (socket) =>
      socket.timeout(5000).emitWithAck('joinChatBox', String(ticket!.id)),
    );
    const stranger = await listenAs(
      t.app,
      await login(t.app, other.admin.email),
      async (socket) => {
        socket.emit('joinChatBox', String(ticket!.id));
      },
    );
    const typings = (heard: typeof mine) =>
      heard.filter((h) => h.event === 'wa:typing').map((h) => h.payload);
    // The simulator's request returns once the typing is announced.
    await inject(t.app, admin, 'POST', `/simulator/${connection.id}/typing`, {
      from,
      typing: true,
    });
    await caughtUp(mine, stranger);
    expect(typings(mine)).toHaveLength(1);
    expect(typings(mine)[0]).toMatchObject({ ticketId: ticket!.id, typing: true, chatJid: from });
    expect(typings(stranger)).toEqual([]);
  });
});
