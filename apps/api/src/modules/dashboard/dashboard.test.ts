import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DashboardReport, DashboardView, QueueView, WhatsappView } from '@atendi/shared';
import { dashboardHours, ticketTracking, userQueues, users } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  superUser,
  travel,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { inbound, pairedSimulator, setSetting, ticketOf } from '../../../test/inbox';
import { closeSockets, openSocket } from '../../../test/sockets';
import { ingestMessage } from '../tickets/inbound/ingest';
import { foldDashboardHours } from './ticket-tracking';

// The dashboard's figures, each on conversations built through the API with a moved clock, so every
// definition (ARCHITECTURE.md "Dashboard") is checked on known minutes.

const MIN = 60 * 1000;
const DAY = 24 * 60 * MIN;
// UTC−6 all year (no daylight saving), so calendar days are easy to reason about.
const ZONE = 'America/Mexico_City';

let t: TestContext;
let admin: Session;
let companyId: number;
let connection: WhatsappView;
let phone = 525550000000;
const nextPhone = () => String((phone += 1));

beforeAll(async () => {
  // Tokens outlive the days the clock is moved.
  t = await createTestApp({ TIME_ZONE: ZONE, ACCESS_TOKEN_TTL: String(90 * 24 * 3600) });
});
afterAll(async () => {
  closeSockets();
  await t.close();
});
beforeEach(async () => {
  const made = await makeCompany(t.db);
  companyId = made.company.id;
  admin = await login(t.app, made.admin.email);
  connection = await pairedSimulator(t.app, admin, {});
});
afterEach(() => {
  vi.useRealTimers();
});

const dashboard = async (query = '', session = admin) => {
  const res = await inject(t.app, session, 'GET', `/dashboard${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DashboardView;
};
const put = (id: number, body: object, session = admin) =>
  inject(t.app, session, 'PUT', `/tickets/${id}`, body);
const reply = (ticketId: number, body: string, session = admin) =>
  inject(t.app, session, 'POST', `/messages/${ticketId}`, { body });

// A contact writes in; answers their waiting ticket.
const contactWrites = async (body = 'hola', from = nextPhone()) => {
  await inbound(t.app, admin, connection.id, { from, body, name: 'Cliente' });
  const ticket = await eventually(() => ticketOf(t.db, companyId, from), Boolean, 'ticket');
  return { ticket: ticket!, from };
};

// Waits 10 min, accepted; 5 min, answered; 15 min, resolved: wait 10, first response 15,
// support 20, resolution 30 minutes.
const attendedConversation = async (session = admin) => {
  const { ticket, from } = await contactWrites();
  travel(10 * MIN);
  expect(
    (await put(ticket.id, { status: 'open', userId: session.userId }, session)).statusCode,
  ).toBe(200);
  travel(5 * MIN);
  expect((await reply(ticket.id, '¿En qué le puedo ayudar?', session)).statusCode).toBe(201);
  travel(15 * MIN);
  expect((await put(ticket.id, { status: 'closed' }, session)).statusCode).toBe(200);
  return { ticket, from };
};

describe('GET /dashboard counters', () => {
  it('measures wait, first response, support and resolution from the moments a conversation went through', async () => {
    await attendedConversation();
    const { counters, attendants } = await dashboard('?days=1');
    expect(counters).toEqual({
      supportHappening: 0,
      supportPending: 0,
      supportFinished: 1,
      supportStarted: 1,
      avgWaitTime: 10,
      avgFirstResponseTime: 15,
      avgSupportTime: 20,
      avgResolutionTime: 30,
    });
    expect(attendants.find((a) => a.id === admin.userId)).toMatchObject({
      tickets: 1,
      avgSupportTime: 20,
      rating: 0,
    });
  });

  it('counts waiting and attended conversations as they are now, and averages over several', async () => {
    await attendedConversation();
    // A second one: waits 30 min, support 40 (resolved without a reply).
    const second = await contactWrites();
    travel(30 * MIN);
    await put(second.ticket.id, { status: 'open', userId: admin.userId });
    travel(40 * MIN);
    await put(second.ticket.id, { status: 'closed' });
    // One still waiting, one being attended.
    await contactWrites();
    const attended = await contactWrites();
    await put(attended.ticket.id, { status: 'open', userId: admin.userId });

    const { counters } = await dashboard('?days=1');
    expect(counters).toMatchObject({
      supportPending: 1,
      supportHappening: 1,
      supportFinished: 2,
      supportStarted: 4,
      // (10 + 30 + 0) / 3 accepted
      avgWaitTime: 13.3,
      // (20 + 40) / 2, (30 + 70) / 2
      avgSupportTime: 30,
      avgResolutionTime: 50,
      // Only the first was answered by a person.
      avgFirstResponseTime: 15,
    });
  });

  it('does not take the platform’s own messages for a first reply, but does a message typed on the phone', async () => {
    await setSetting(t.db, companyId, 'sendGreetingAccepted', 'enabled');
    const { ticket, from } = await contactWrites();
    travel(2 * MIN);
    // Accepting sends the greeting (a platform message): not an answer.
    await put(ticket.id, { status: 'open', userId: admin.userId });
    travel(6 * MIN);
    expect((await dashboard('?days=1')).counters.avgFirstResponseTime).toBeNull();
    // Someone answers on the connected phone itself (as a driver reports it).
    await ingestMessage(t.app.deps, {
      connection: { id: connection.id, companyId, provider: 'simulator' },
      event: {
        type: 'message',
        message: {
          providerId: `phone-${from}`,
          from,
          body: 'Le escribo desde el teléfono',
          mediaType: 'chat',
          isGroup: false,
          fromMe: true,
          timestamp: new Date(),
        },
      },
    });
    expect((await dashboard('?days=1')).counters.avgFirstResponseTime).toBe(8);
  });

  it('records one conversation for a new contact’s messages arriving at the same moment, and one first reply', async () => {
    const from = nextPhone();
    const message = (n: number, fromMe = false) =>
      ingestMessage(t.app.deps, {
        connection: { id: connection.id, companyId, provider: 'simulator' },
        event: {
          type: 'message',
          message: {
            providerId: `burst-${from}-${n}-${fromMe}`,
            from,
            body: `mensaje ${n}`,
            mediaType: 'chat',
            isGroup: false,
            fromMe,
            timestamp: new Date(),
          },
        },
      });
    await Promise.all(Array.from({ length: 6 }, (_, n) => message(n)));
    const ticket = (await ticketOf(t.db, companyId, from))!;
    await Promise.all(Array.from({ length: 4 }, (_, n) => message(n, true)));
    const rows = await t.db
      .select()
      .from(ticketTracking)
      .where(eq(ticketTracking.ticketId, ticket.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.firstReplyAt).not.toBeNull();
    expect((await dashboard('?days=1')).counters.supportStarted).toBe(1);
  });

  it('starts a new conversation when a resolved ticket is reopened', async () => {
    const { ticket } = await attendedConversation();
    travel(60 * MIN);
    expect((await put(ticket.id, { status: 'open', userId: admin.userId })).statusCode).toBe(200);
    travel(5 * MIN);
    await put(ticket.id, { status: 'closed' });
    const rows = await t.db
      .select()
      .from(ticketTracking)
      .where(eq(ticketTracking.ticketId, ticket.id));
    expect(rows).toHaveLength(2);
    const { counters } = await dashboard('?days=1');
    // The reopened one was taken at once (wait 0) and lasted 5 minutes.
    expect(counters).toMatchObject({ supportFinished: 2, avgWaitTime: 5, avgSupportTime: 12.5 });
  });

  it('gives each attendant their resolved conversations, support time, ratings and presence', async () => {
    await setSetting(t.db, companyId, 'userRating', 'enabled');
    const agentRow = await makeUser(t.db, companyId, 'user', { name: 'Bruno Agente' });
    const agent = await login(t.app, agentRow.email);
    // Online: a tab of theirs is open.
    await openSocket(t.app, agent);
    const presenceOf = async (id: number) =>
      (await t.db.select().from(users).where(eq(users.id, id)))[0].presence;
    await eventually(
      () => presenceOf(agentRow.id),
      (presence) => presence === 'online',
      'the agent online',
    );
    // Away: a tab open, and away by their own choice.
    const awayRow = await makeUser(t.db, companyId, 'user', { name: 'Carla Agente' });
    const away = await login(t.app, awayRow.email);
    await openSocket(t.app, away);
    await eventually(
      () => presenceOf(awayRow.id),
      (p) => p === 'online',
      'the other agent online',
    );
    expect(
      (await inject(t.app, away, 'PUT', '/presence', { availability: 'away' })).json(),
    ).toMatchObject({ presence: 'away' });
    const first = await attendedConversation(agent);
    await inbound(t.app, admin, connection.id, { from: first.from, body: '3' });
    const second = await attendedConversation(agent);
    await inbound(t.app, admin, connection.id, { from: second.from, body: '2' });
    const view = await eventually(
      () => dashboard('?days=1'),
      (v) => v.attendants.some((a) => a.id === agentRow.id && a.rating > 0),
      'ratings',
    );
    const bruno = view.attendants.find((a) => a.id === agentRow.id);
    expect(bruno).toEqual({
      id: agentRow.id,
      name: 'Bruno Agente',
      online: true,
      presence: 'online',
      tickets: 2,
      avgSupportTime: 20,
      rating: 2.5,
    });
    expect(view.attendants.find((a) => a.id === awayRow.id)).toMatchObject({
      online: true,
      presence: 'away',
    });
    expect(view.attendants.find((a) => a.id === admin.userId)).toMatchObject({
      tickets: 0,
      avgSupportTime: null,
      rating: 0,
      online: false,
      presence: 'offline',
    });
  });
});

describe('GET /dashboard over a long history', () => {
  it('gives the figures of every moment in the period, through transfers, deletions and folding', async () => {
    const other = await makeUser(t.db, companyId, 'user', { name: 'Carla' });
    const owners = [admin.userId, other.id, null];
    const { ticket } = await contactWrites();
    const now = Date.now();
    // 300 past conversations of the one ticket over 20 days, at moments that fall anywhere in an hour.
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const at = (ms: number) => new Date(Math.floor(ms));
    const rows = Array.from({ length: 300 }, () => {
      const started = now - random() * 20 * DAY;
      const accepted = random() < 0.8 ? started + random() * 3 * 3600_000 : null;
      const replied = accepted && random() < 0.8 ? accepted + random() * 3600_000 : null;
      const finished =
        now - started > 5 * 3600_000 ? (replied ?? started) + random() * 5 * 3600_000 : null;
      return {
        companyId,
        ticketId: ticket.id,
        whatsappId: connection.id,
        userId: owners[Math.floor(random() * owners.length)],
        startedAt: at(started),
        acceptedAt: accepted === null ? null : at(accepted),
        firstReplyAt: replied === null ? null : at(replied),
        finishedAt: at(finished ?? started + 1000),
      };
    });
    await t.db.delete(ticketTracking).where(eq(ticketTracking.companyId, companyId));
    const stored = await t.db.insert(ticketTracking).values(rows).returning();
    // Some change hands or moments afterwards; some go (their ticket deleted).
    for (const row of stored.slice(0, 40))
      await t.db
        .update(ticketTracking)
        .set({ userId: owners[(owners.indexOf(row.userId) + 1) % owners.length] })
        .where(eq(ticketTracking.id, row.id));
    for (const row of stored.slice(40, 60))
      await t.db
        .update(ticketTracking)
        .set({ acceptedAt: row.acceptedAt ?? row.startedAt })
        .where(eq(ticketTracking.id, row.id));
    for (const row of stored.slice(60, 80))
      await t.db.delete(ticketTracking).where(eq(ticketTracking.id, row.id));

    // What each figure is by definition, from the conversations as they now are.
    const history = await t.db
      .select()
      .from(ticketTracking)
      .where(eq(ticketTracking.companyId, companyId));
    const expected = (from: number, to: number) => {
      const inside = (moment: Date | null) =>
        moment !== null && moment.getTime() >= from && moment.getTime() < to;
      const seconds = (a: Date, b: Date) => (a.getTime() - b.getTime()) / 1000;
      const minutes = (total: number, count: number) =>
        count ? Math.round(total / count / 6) / 10 : null;
      const accepted = history.filter((r) => inside(r.acceptedAt));
      const answered = history.filter((r) => inside(r.firstReplyAt));
      const finished = history.filter((r) => inside(r.finishedAt));
      const supported = finished.filter((r) => r.acceptedAt);
      const sum = (list: typeof history, of: (r: (typeof history)[number]) => number) =>
        list.reduce((total, r) => total + of(r), 0);
      return {
        supportStarted: history.filter((r) => inside(r.startedAt)).length,
        supportFinished: finished.length,
        avgWaitTime: minutes(
          sum(accepted, (r) => seconds(r.acceptedAt!, r.startedAt)),
          accepted.length,
        ),
        avgFirstResponseTime: minutes(
          sum(answered, (r) => seconds(r.firstReplyAt!, r.startedAt)),
          answered.length,
        ),
        avgResolutionTime: minutes(
          sum(finished, (r) => seconds(r.finishedAt!, r.startedAt)),
          finished.length,
        ),
        avgSupportTime: minutes(
          sum(supported, (r) => seconds(r.finishedAt!, r.acceptedAt!)),
          supported.length,
        ),
        byUser: Object.fromEntries(
          [admin.userId, other.id].map((id) => [
            id,
            finished.filter((r) => r.userId === id).length,
          ]),
        ),
      };
    };
    const check = async () => {
      for (const days of [1, 7, 30]) {
        const view = await dashboard(`?days=${days}`);
        const want = expected(Date.parse(view.period.from), Infinity);
        const { byUser, ...counters } = want;
        expect(view.counters, `${days} days`).toMatchObject(counters);
        expect(
          Object.fromEntries(
            view.attendants.filter((a) => a.id in byUser).map((a) => [a.id, a.tickets]),
          ),
        ).toEqual(byUser);
      }
      const day = new Date(now - 6 * DAY).toISOString().slice(0, 10);
      const view = await dashboard(`?date_from=${day}&date_to=${day}`);
      const { byUser: _, ...counters } = expected(
        Date.parse(view.period.from),
        Date.parse(view.period.to),
      );
      expect(view.counters, 'one calendar day').toMatchObject(counters);
    };
    await check();
    // Folded into one row per past hour and user, and per day for days older than three, the figures
    // stay the same.
    while ((await foldDashboardHours(t.db, new Date())) > 0);
    const folded = await t.db
      .select({ wholeDay: dashboardHours.wholeDay, compacted: dashboardHours.compacted })
      .from(dashboardHours)
      .where(eq(dashboardHours.companyId, companyId));
    expect(folded.some((row) => row.wholeDay)).toBe(true);
    expect(folded.some((row) => !row.wholeDay)).toBe(true);
    await check();
  });
});

describe('GET /dashboard periods', () => {
  it('counts a conversation in the periods that include the moment it was resolved', async () => {
    await attendedConversation();
    travel(3 * DAY);
    expect((await dashboard('?days=1')).counters.supportFinished).toBe(0);
    expect((await dashboard('?days=7')).counters.supportFinished).toBe(1);
  });

  it('reads date_from and date_to as calendar days of the company’s time zone, both included', async () => {
    // 23:50 in Mexico City on 2026-03-10 is 05:50 UTC on the 11th.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-11T05:50:00Z'));
    await attendedConversation(); // resolved 00:20 local on the 11th, accepted 00:00 on the 11th
    const onTenth = await dashboard('?date_from=2026-03-10&date_to=2026-03-10');
    expect(onTenth.counters).toMatchObject({ supportStarted: 1, supportFinished: 0 });
    expect(onTenth.period).toEqual({
      from: '2026-03-10T06:00:00.000Z',
      to: '2026-03-11T06:00:00.000Z',
      timeZone: ZONE,
    });
    const both = await dashboard('?date_from=2026-03-10&date_to=2026-03-11');
    expect(both.counters).toMatchObject({ supportStarted: 1, supportFinished: 1 });
  });

  it('reads the days in the zone the company chose rather than the platform’s', async () => {
    const res = await inject(t.app, admin, 'PUT', `/companies/${companyId}/time-zone`, {
      timeZone: 'America/Sao_Paulo',
    });
    expect(res.statusCode, res.body).toBe(200);
    // 05:50 UTC on the 11th: 02:50 of the 11th in São Paulo (UTC−3), still the 10th in Mexico City.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-11T05:50:00Z'));
    await attendedConversation();
    const onTenth = await dashboard('?date_from=2026-03-10&date_to=2026-03-10');
    expect(onTenth.counters).toMatchObject({ supportStarted: 0, supportFinished: 0 });
    expect(onTenth.period).toEqual({
      from: '2026-03-10T03:00:00.000Z',
      to: '2026-03-11T03:00:00.000Z',
      timeZone: 'America/Sao_Paulo',
    });
    const onEleventh = await dashboard('?date_from=2026-03-11&date_to=2026-03-11');
    expect(onEleventh.counters).toMatchObject({ supportStarted: 1, supportFinished: 1 });
    const perDay = await inject(
      t.app,
      admin,
      'GET',
      '/dashboard/ticketsDay?initialDate=2026-03-10&finalDate=2026-03-11',
    );
    expect(perDay.json().data).toEqual([
      { label: '2026-03-10', total: 0 },
      { label: '2026-03-11', total: 1 },
    ]);
  });

  it('starts at the first of the month when no period is given', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-04-15T18:00:00Z'));
    const view = await dashboard();
    expect(view.period.from).toBe('2026-04-01T06:00:00.000Z');
    expect(view.period.to).toBe('2026-04-15T18:00:00.000Z');
  });

  it('refuses periods that make no sense', async () => {
    for (const query of [
      '?date_from=2026-03-10&date_to=2026-03-01',
      '?date_from=2026-02-30',
      '?date_from=10/03/2026',
      '?days=0',
      '?days=abc',
      '?date_from=2024-01-01&date_to=2026-01-01',
    ]) {
      const res = await inject(t.app, admin, 'GET', `/dashboard${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    const chart = await inject(
      t.app,
      admin,
      'GET',
      '/dashboard/ticketsDay?initialDate=2026-03-10&finalDate=2026-03-09',
    );
    expect(chart.statusCode).toBe(400);
    expect(
      (await inject(t.app, admin, 'GET', '/dashboard/ticketsUsers?initialDate=2026-03-10'))
        .statusCode,
    ).toBe(400);
  });
});

describe('dashboard charts', () => {
  it('counts conversations started per calendar day, zeros included, or per hour of one day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-05-02T03:00:00Z')); // 21:00 on May 1st in Mexico City
    await contactWrites();
    vi.setSystemTime(new Date('2026-05-03T15:30:00Z')); // 09:30 on May 3rd
    await contactWrites();
    await contactWrites();
    const days = await inject(
      t.app,
      admin,
      'GET',
      '/dashboard/ticketsDay?initialDate=2026-04-30&finalDate=2026-05-03',
    );
    expect(days.json()).toEqual({
      count: 3,
      unit: 'day',
      data: [
        { label: '2026-04-30', total: 0 },
        { label: '2026-05-01', total: 1 },
        { label: '2026-05-02', total: 0 },
        { label: '2026-05-03', total: 2 },
      ],
    });
    const hours = (
      await inject(
        t.app,
        admin,
        'GET',
        '/dashboard/ticketsDay?initialDate=2026-05-03&finalDate=2026-05-03',
      )
    ).json();
    expect(hours.unit).toBe('hour');
    expect(hours.data).toHaveLength(24);
    expect(hours.data[9]).toEqual({ label: '09:00', total: 2 });
    expect(hours.count).toBe(2);
  });

  it('counts conversations accepted per user', async () => {
    const agentRow = await makeUser(t.db, companyId, 'user', { name: 'Carla' });
    const agent = await login(t.app, agentRow.email);
    await attendedConversation(agent);
    await attendedConversation(agent);
    await attendedConversation(admin);
    await contactWrites(); // never accepted
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const res = await inject(
      t.app,
      admin,
      'GET',
      `/dashboard/ticketsUsers?initialDate=${yesterday}&finalDate=${today}`,
    );
    expect(res.json().data).toEqual([
      { userId: agentRow.id, name: 'Carla', total: 2 },
      { userId: admin.userId, name: expect.any(String), total: 1 },
    ]);
  });
});

describe('dashboard access', () => {
  it('is for admins; another company’s figures are 404 except to super users', async () => {
    const agentRow = await makeUser(t.db, companyId, 'user');
    const agent = await login(t.app, agentRow.email);
    const refused = await inject(t.app, agent, 'GET', '/dashboard');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');
    for (const path of ['/dashboard/ticketsUsers', '/dashboard/ticketsDay'])
      expect(
        (await inject(t.app, agent, 'GET', `${path}?initialDate=2026-01-01&finalDate=2026-01-02`))
          .statusCode,
      ).toBe(403);

    await attendedConversation();
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const peek = await inject(t.app, otherAdmin, 'GET', `/dashboard?days=1&companyId=${companyId}`);
    expect(peek.statusCode).toBe(404);
    // Their own dashboard knows nothing of this company's conversations.
    expect((await dashboard('?days=1', otherAdmin)).counters.supportFinished).toBe(0);

    const root = await superUser(t.db);
    const operator = await login(t.app, root!.email);
    const seen = await dashboard(`?days=1&companyId=${companyId}`, operator);
    expect(seen.counters.supportFinished).toBe(1);
    expect((await inject(t.app, operator, 'GET', '/dashboard?companyId=999999')).statusCode).toBe(
      404,
    );
  });
});

describe('GET /dashboard/report', () => {
  const report = async (query: string, session = admin) => {
    const res = await inject(t.app, session, 'GET', `/dashboard/report${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as DashboardReport;
  };
  let colors = 0;
  const makeQueue = async (name: string) => {
    const color = `#${(0x200000 + (colors += 1)).toString(16)}`;
    const res = await inject(t.app, admin, 'POST', '/queue', { name, color });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as QueueView;
  };
  // An agent of the given queues.
  const agentNamed = async (name: string, queues: QueueView[]) => {
    const row = await makeUser(t.db, companyId, 'user', { name });
    await t.db
      .insert(userQueues)
      .values(queues.map((queue) => ({ userId: row.id, queueId: queue.id, companyId })));
    return login(t.app, row.email);
  };
  // The agent accepts the conversation and answers it at once.
  const take = async (ticketId: number, session: Session) => {
    expect(
      (await put(ticketId, { status: 'open', userId: session.userId }, session)).statusCode,
    ).toBe(200);
    expect((await reply(ticketId, 'Buenos días', session)).statusCode).toBe(201);
  };
  const resolve = async (ticketId: number, session: Session) =>
    expect((await put(ticketId, { status: 'closed' }, session)).statusCode).toBe(200);

  it('gives each queue and each agent the figures of their conversations, those of none last', async () => {
    await setSetting(t.db, companyId, 'userRating', 'enabled');
    const support = await makeQueue('Soporte');
    const sales = await makeQueue('Ventas');
    // Soporte promises a first answer within 15 minutes, around the clock.
    const policy = await inject(t.app, admin, 'PUT', `/queue/${support.id}`, {
      schedules: [],
      slaFirstResponseMinutes: 15,
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const bruno = await agentNamed('Bruno Agente', [support, sales]);
    const carla = await agentNamed('Carla Agente', [support]);
    // Four contacts write at once, before the clock moves: a rating is stamped by the database's own
    // clock, and counts for the conversation its ticket started last before it.
    const first = await contactWrites();
    const second = await contactWrites();
    const third = await contactWrites();
    await contactWrites(); // waits, in no queue
    await put(first.ticket.id, { queueId: support.id });
    await put(second.ticket.id, { queueId: support.id });
    await put(third.ticket.id, { queueId: sales.id });
    travel(10 * MIN);
    await take(first.ticket.id, bruno); // first response 10: the SLA met
    travel(10 * MIN);
    await take(second.ticket.id, carla); // 20: the SLA missed
    await take(third.ticket.id, bruno); // 20
    travel(10 * MIN);
    await resolve(first.ticket.id, bruno); // resolution 30
    await resolve(third.ticket.id, bruno); // 30
    travel(30 * MIN);
    await resolve(second.ticket.id, carla); // 60
    for (const [{ from }, rate] of [
      [first, '3'],
      [second, '1'],
      [third, '2'],
    ] as const)
      await inbound(t.app, admin, connection.id, { from, body: rate });
    // Another company's conversation in the same period.
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const otherConnection = await pairedSimulator(t.app, otherAdmin, {});
    const stranger = nextPhone();
    await inbound(t.app, otherAdmin, otherConnection.id, { from: stranger, body: 'hola' });
    await eventually(() => ticketOf(t.db, other.company.id, stranger), Boolean, 'their ticket');

    const byQueue = await eventually(
      () => report('?days=1&groupBy=queue'),
      (r) => r.rows.reduce((sum, row) => sum + row.ratings, 0) === 3,
      'the ratings',
    );
    expect(byQueue.groupBy).toBe('queue');
    expect(byQueue.period.timeZone).toBe(ZONE);
    expect(byQueue.rows).toEqual([
      {
        id: support.id,
        name: 'Soporte',
        started: 2,
        finished: 2,
        avgFirstResponseTime: 15,
        avgResolutionTime: 45,
        rating: 2,
        ratings: 2,
        slaDecided: 2,
        slaMet: 1,
        slaAttainment: 50,
      },
      {
        id: sales.id,
        name: 'Ventas',
        started: 1,
        finished: 1,
        avgFirstResponseTime: 20,
        avgResolutionTime: 30,
        rating: 2,
        ratings: 1,
        slaDecided: 0,
        slaMet: 0,
        slaAttainment: null,
      },
      {
        id: null,
        name: '',
        started: 1,
        finished: 0,
        avgFirstResponseTime: null,
        avgResolutionTime: null,
        rating: null,
        ratings: 0,
        slaDecided: 0,
        slaMet: 0,
        slaAttainment: null,
      },
    ]);
    expect((await report('?days=1&groupBy=user')).rows).toEqual([
      {
        id: bruno.userId,
        name: 'Bruno Agente',
        started: 2,
        finished: 2,
        avgFirstResponseTime: 15,
        avgResolutionTime: 30,
        rating: 2.5,
        ratings: 2,
        slaDecided: 1,
        slaMet: 1,
        slaAttainment: 100,
      },
      {
        id: carla.userId,
        name: 'Carla Agente',
        started: 1,
        finished: 1,
        avgFirstResponseTime: 20,
        avgResolutionTime: 60,
        rating: 1,
        ratings: 1,
        slaDecided: 1,
        slaMet: 0,
        slaAttainment: 0,
      },
      expect.objectContaining({ id: null, name: '', started: 1, finished: 0 }),
    ]);
    // The other company sees its own conversation only.
    expect((await report('?days=1&groupBy=queue', otherAdmin)).rows).toEqual([
      expect.objectContaining({ id: null, started: 1, finished: 0, ratings: 0 }),
    ]);
  });

  it('counts each conversation in the periods that hold its moments', async () => {
    const queue = await makeQueue('Soporte');
    const { ticket } = await contactWrites();
    await put(ticket.id, { queueId: queue.id });
    travel(30 * MIN);
    await resolve(ticket.id, admin);
    travel(3 * DAY);
    expect((await report('?days=1&groupBy=queue')).rows).toEqual([]);
    expect((await report('?days=7&groupBy=queue')).rows).toEqual([
      expect.objectContaining({ id: queue.id, started: 1, finished: 1, avgResolutionTime: 30 }),
    ]);
  });

  it('gives every day of the period its figures, each counted on the day it happened', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-11T05:30:00Z')); // 23:30 on the 10th in Mexico City
    const { ticket } = await contactWrites();
    travel(20 * MIN);
    expect((await put(ticket.id, { status: 'open', userId: admin.userId })).statusCode).toBe(200);
    expect((await reply(ticket.id, 'Buenas noches')).statusCode).toBe(201); // 23:50 on the 10th
    travel(40 * MIN);
    await resolve(ticket.id, admin); // 00:30 on the 11th
    const byDay = await report('?date_from=2026-03-09&date_to=2026-03-11&groupBy=day');
    expect(byDay.rows.map((row) => [row.id, row.name, row.started, row.finished])).toEqual([
      [null, '2026-03-09', 0, 0],
      [null, '2026-03-10', 1, 0],
      [null, '2026-03-11', 0, 1],
    ]);
    expect(byDay.rows[1]).toMatchObject({ avgFirstResponseTime: 20, avgResolutionTime: null });
    expect(byDay.rows[2]).toMatchObject({ avgFirstResponseTime: null, avgResolutionTime: 60 });
    const csv = await inject(
      t.app,
      admin,
      'GET',
      '/dashboard/report.csv?date_from=2026-03-09&date_to=2026-03-11&groupBy=day',
    );
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="report-day-2026-03-09-2026-03-11.csv"',
    );
    expect(csv.body.split('\r\n').slice(1, 4)).toEqual([
      ';2026-03-09;0;0;;;;0;0;0;',
      ';2026-03-10;1;0;20;;;0;0;0;',
      ';2026-03-11;0;1;;60;;0;0;0;',
    ]);
  });

  it('downloads the report as CSV, named after its grouping and days, safe to open in a spreadsheet', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-11T15:00:00Z')); // 09:00 on the 11th in Mexico City
    const quoted = await makeQueue('Ventas, "Norte"');
    const formula = await makeQueue('=HYPERLINK("http://x")');
    for (const queue of [quoted, formula]) {
      const { ticket } = await contactWrites();
      await put(ticket.id, { queueId: queue.id });
      travel(90 * 1000);
      await resolve(ticket.id, admin);
    }
    await contactWrites();

    const res = await inject(
      t.app,
      admin,
      'GET',
      '/dashboard/report.csv?date_from=2026-03-10&date_to=2026-03-11&groupBy=queue',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="report-queue-2026-03-10-2026-03-11.csv"',
    );
    // What Excel opens as columns in Spanish and Portuguese: BOM, semicolons, CRLF.
    expect(res.body.split('\r\n')).toEqual([
      '\ufeffid;name;started;finished;avgFirstResponseMinutes;avgResolutionMinutes;rating;ratings;slaDecided;slaMet;slaAttainmentPercent',
      `${formula.id};"'=HYPERLINK(""http://x"")";1;1;;1.5;;0;0;0;`,
      `${quoted.id};"Ventas, ""Norte""";1;1;;1.5;;0;0;0;`,
      ';;1;0;;;;0;0;0;',
      '',
    ]);
    // A period until now ends today.
    const recent = await inject(t.app, admin, 'GET', '/dashboard/report.csv?days=3&groupBy=user');
    expect(recent.headers['content-disposition']).toBe(
      'attachment; filename="report-user-2026-03-08-2026-03-11.csv"',
    );
  });

  it('is for admins of the company, and asks how to group', async () => {
    const agent = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const operator = await login(t.app, (await superUser(t.db))!.email);
    for (const path of ['/dashboard/report', '/dashboard/report.csv']) {
      for (const query of ['?days=1', '?days=1&groupBy=team', '?groupBy=queue&days=0']) {
        const res = await inject(t.app, admin, 'GET', `${path}${query}`);
        expect(res.statusCode, `${path}${query}`).toBe(400);
        expect(res.json().error).toBe('ERR_VALIDATION');
      }
      const refused = await inject(t.app, agent, 'GET', `${path}?groupBy=queue`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('ERR_NO_PERMISSION');
      const peek = await inject(
        t.app,
        otherAdmin,
        'GET',
        `${path}?groupBy=queue&companyId=${companyId}`,
      );
      expect(peek.statusCode).toBe(404);
      const seen = await inject(
        t.app,
        operator,
        'GET',
        `${path}?groupBy=user&companyId=${companyId}`,
      );
      expect(seen.statusCode, seen.body).toBe(200);
    }
  });
});
