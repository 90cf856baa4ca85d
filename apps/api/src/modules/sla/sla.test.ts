import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { TicketView } from '@atendi/shared';
import { companies, queues, slaOutcomes, tickets } from '../../db/schema';
import {
  inject,
  login,
  makeCompany,
  sharedTestApp,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { inbound, pairedSimulator, ticketOf } from '../../../test/inbox';
import { closeSockets, listenAs } from '../../../test/sockets';
import { addBusinessMinutes } from './sla-clock';
import { watchSla } from './sla';

// A queue's SLA policy on conversations built through the API: clocks start when a conversation
// enters the queue, answers and resolving stop them, the watch warns and breaches, and each promise
// is written down once.

const MIN = 60_000;
let t: SharedTestContext;
let companyId: number;
let admin: Session;
let phone = 525560000000;
const nextPhone = () => String((phone += 1));

beforeAll(async () => {
  t = await sharedTestApp();
});
afterAll(() => closeSockets());

const setUp = async (policy: Partial<typeof queues.$inferInsert>) => {
  const made = await makeCompany(t.db);
  companyId = made.company.id;
  admin = await login(t.app, made.admin.email);
  const [queue] = await t.db
    .insert(queues)
    .values({ companyId, name: 'Soporte', color: '#123456', schedules: [], ...policy })
    .returning();
  const connection = await pairedSimulator(t.app, admin, { queueIds: [queue.id] });
  return { queue, connection };
};

const view = async (id: number) => {
  const res = await inject(t.app, admin, 'GET', `/tickets/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TicketView;
};

// A contact writes; the conversation lands in the connection's only queue.
const arrives = async (connectionId: number, queueId: number) => {
  const from = nextPhone();
  const started = Date.now();
  await inbound(t.app, admin, connectionId, { from, body: 'hola' });
  const ticket = await eventually(
    () => ticketOf(t.db, companyId, from),
    (row) => row?.queueId === queueId && row.slaStartedAt !== null,
    'the conversation in the queue',
  );
  return { from, ticket: ticket!, started };
};

const outcomes = (ticketId: number) =>
  t.db
    .select({ kind: slaOutcomes.kind, met: slaOutcomes.met, dueAt: slaOutcomes.dueAt })
    .from(slaOutcomes)
    .where(eq(slaOutcomes.ticketId, ticketId))
    .orderBy(asc(slaOutcomes.id));

const reply = async (ticketId: number, body = 'Hola, ¿en qué le ayudo?') => {
  const res = await inject(t.app, admin, 'POST', `/messages/${ticketId}`, { body });
  expect(res.statusCode, res.body).toBe(201);
};

describe('SLA clocks', () => {
  it('runs first answer, next answer and resolution through a conversation', async () => {
    const { queue, connection } = await setUp({
      slaFirstResponseMinutes: 10,
      slaNextResponseMinutes: 15,
      slaResolutionMinutes: 120,
      slaWarningMinutes: 3,
    });
    const { from, ticket, started } = await arrives(connection.id, queue.id);

    // Waiting: the first answer is the nearest promise, ten minutes after it entered the queue.
    const waiting = await view(ticket.id);
    expect(waiting.slaKind).toBe('firstResponse');
    const firstDue = Date.parse(waiting.slaDueAt!);
    expect(firstDue).toBeGreaterThanOrEqual(started + 10 * MIN);
    expect(firstDue).toBeLessThan(Date.now() + 10 * MIN + 1);

    // Accepted and answered: the first answer met; the resolution is what remains.
    expect(
      (await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open' })).statusCode,
    ).toBe(200);
    await reply(ticket.id);
    expect(await outcomes(ticket.id)).toEqual([
      { kind: 'firstResponse', met: true, dueAt: new Date(firstDue) },
    ]);
    const answered = await view(ticket.id);
    expect(answered.slaKind).toBe('resolution');
    expect(Date.parse(answered.slaDueAt!) - firstDue).toBe(110 * MIN);

    // The contact writes again: a next answer is owed within 15 minutes.
    await inbound(t.app, admin, connection.id, { from, body: '¿Sigue ahí?' });
    const owed = await eventually(
      () => view(ticket.id),
      (v) => v.slaKind === 'nextResponse',
      'the next-answer clock',
    );
    const nextDue = Date.parse(owed.slaDueAt!);

    // The watch, 13 minutes on: a warning to the agent holding it; then past the deadline, a breach.
    const heard = await listenAs(t.app, admin, async () => undefined);
    await watchSla(t.app.deps, new Date(nextDue - 2 * MIN));
    await watchSla(t.app.deps, new Date(nextDue - 1 * MIN));
    await watchSla(t.app.deps, new Date(nextDue + MIN));
    await watchSla(t.app.deps, new Date(nextDue + 2 * MIN));
    const notices = await eventually(
      () => heard.filter((h) => h.event === `company-${companyId}-sla`).map((h) => h.payload),
      (list) => list.length >= 2,
      'the warning and the breach',
    );
    expect(notices).toEqual([
      expect.objectContaining({ action: 'warning', ticketId: ticket.id, kind: 'nextResponse' }),
      expect.objectContaining({ action: 'breached', ticketId: ticket.id, kind: 'nextResponse' }),
    ]);
    expect((await outcomes(ticket.id)).slice(1)).toEqual([
      { kind: 'nextResponse', met: false, dueAt: new Date(nextDue) },
    ]);

    // Answered late: nothing more is written for that promise; resolving meets the resolution.
    await reply(ticket.id, 'Disculpe la demora.');
    expect((await view(ticket.id)).slaKind).toBe('resolution');
    expect(
      (await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, { status: 'closed' })).statusCode,
    ).toBe(200);
    expect((await outcomes(ticket.id)).map((o) => [o.kind, o.met])).toEqual([
      ['firstResponse', true],
      ['nextResponse', false],
      ['resolution', true],
    ]);
    const closed = await view(ticket.id);
    expect([closed.slaDueAt, closed.slaKind]).toEqual([null, null]);
  });

  it('counts only within the queue’s hours, in the company’s time zone', async () => {
    const hours = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekdayEn) => ({
      weekday: weekdayEn,
      weekdayEn,
      startTime: '09:00',
      endTime: '10:00',
    }));
    const { queue, connection } = await setUp({ slaFirstResponseMinutes: 90, schedules: hours });
    await t.db.update(companies).set({ timeZone: 'Asia/Tokyo' }).where(eq(companies.id, companyId));
    const { ticket } = await arrives(connection.id, queue.id);
    const [row] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    // An hour a day: 90 minutes span two opening days of Tokyo, whatever today is.
    expect(row.slaFirstDueAt).toEqual(
      addBusinessMinutes(row.slaStartedAt!, 90, hours, 'Asia/Tokyo'),
    );
    expect(row.slaFirstDueAt!.getTime() - row.slaStartedAt!.getTime()).toBeGreaterThan(
      24 * 60 * MIN,
    );
  });

  it('a late answer the watch has not seen yet is written down as breached, once', async () => {
    const { queue, connection } = await setUp({ slaFirstResponseMinutes: 5 });
    const { ticket } = await arrives(connection.id, queue.id);
    const past = new Date(Date.now() - MIN);
    await t.db.update(tickets).set({ slaFirstDueAt: past }).where(eq(tickets.id, ticket.id));
    await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open' });
    // The answer and the watch at once: one of them decides the promise.
    await Promise.all([reply(ticket.id), watchSla(t.app.deps, new Date())]);
    expect(await outcomes(ticket.id)).toEqual([{ kind: 'firstResponse', met: false, dueAt: past }]);
  });

  it('stops in a queue without a policy and starts again in one with it', async () => {
    const { queue, connection } = await setUp({ slaResolutionMinutes: 60 });
    const [plain] = await t.db
      .insert(queues)
      .values({ companyId, name: 'Ventas', color: '#654321', schedules: [] })
      .returning();
    const { ticket } = await arrives(connection.id, queue.id);
    const before = await view(ticket.id);
    expect(before.slaKind).toBe('resolution');
    await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, { queueId: plain.id });
    expect((await view(ticket.id)).slaDueAt).toBeNull();
    await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, { queueId: queue.id });
    const again = await view(ticket.id);
    expect(again.slaKind).toBe('resolution');
    expect(Date.parse(again.slaDueAt!)).toBeGreaterThanOrEqual(Date.parse(before.slaDueAt!));
    // Moving it decided nothing.
    expect(await outcomes(ticket.id)).toEqual([]);
  });

  it('lists the most urgent first when asked, breached ones first of all', async () => {
    const { queue, connection } = await setUp({ slaFirstResponseMinutes: 30 });
    const made = [];
    for (let i = 0; i < 3; i += 1) made.push((await arrives(connection.id, queue.id)).ticket);
    const [soon, late, none] = made;
    await t.db
      .update(tickets)
      .set({ slaFirstDueAt: new Date(Date.now() - MIN) })
      .where(eq(tickets.id, late.id));
    await t.db
      .update(tickets)
      .set({ slaStartedAt: null, slaFirstDueAt: null })
      .where(and(eq(tickets.id, none.id), eq(tickets.companyId, companyId)));
    const list = async (sortBy: string) => {
      const res = await inject(
        t.app,
        admin,
        'GET',
        `/tickets?status=pending&showAll=true&sortBy=${sortBy}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().tickets as TicketView[]).map((v) => v.id);
    };
    expect(await list('urgency')).toEqual([late.id, soon.id, none.id]);
    expect(await list('recent')).toEqual([none.id, late.id, soon.id]);
    const bad = await inject(t.app, admin, 'GET', '/tickets?sortBy=oldest');
    expect(bad.statusCode).toBe(400);
  });

  it('validates a queue’s SLA settings', async () => {
    await setUp({});
    const create = (fields: object) =>
      inject(t.app, admin, 'POST', '/queue', {
        name: `Q${nextPhone()}`,
        color: `#${nextPhone().slice(-6)}`,
        ...fields,
      });
    const ok = await create({
      slaFirstResponseMinutes: 15,
      slaResolutionMinutes: 480,
      slaWarningMinutes: 10,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      slaFirstResponseMinutes: 15,
      slaNextResponseMinutes: null,
      slaResolutionMinutes: 480,
      slaWarningMinutes: 10,
    });
    for (const bad of [
      { slaFirstResponseMinutes: 0 },
      { slaNextResponseMinutes: -5 },
      { slaResolutionMinutes: 50_000 },
      { slaWarningMinutes: 0 },
      { slaFirstResponseMinutes: 'soon' },
    ]) {
      const res = await create(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
  });
});
