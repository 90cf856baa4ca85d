import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { RoutingMode, WhatsappView } from '@atendi/shared';
import { queues, tickets, userQueues, users } from '../../db/schema';
import {
  inject,
  login,
  makeCompany,
  makeUser,
  sharedTestApp,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import {
  inbound,
  noteTexts,
  pairedSimulator,
  setSetting,
  untilReceived,
} from '../../../test/inbox';
import { closeSockets, listenAs, openSocket } from '../../../test/sockets';
import { ingestMessage } from '../tickets/inbound/ingest';
import { planAssignments, reassignUnanswered } from './routing';

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});
afterAll(() => closeSockets());

type TicketRow = typeof tickets.$inferSelect;
const waiting = (id: number, queueId: number) => ({ id, queueId }) as TicketRow;
const candidate = (
  userId: number,
  fields: Partial<Parameters<typeof planAssignments>[1][number]> = {},
) => ({
  queueId: 1,
  routing: 'round_robin' as RoutingMode,
  userId,
  maxTickets: null,
  lastAssignedMs: null,
  open: 0,
  queueMaxTickets: null,
  queueOpen: 0,
  ...fields,
});
const picks = (assignments: ReturnType<typeof planAssignments>) =>
  assignments.map((a) => [a.ticket.id, a.userId]);

describe('planAssignments', () => {
  const now = new Date('2026-11-29T12:00:00Z');

  it('round robin: the agent given one longest ago first, then in turn', () => {
    const plan = planAssignments(
      [1, 2, 3, 4].map((id) => waiting(id, 1)),
      [candidate(7, { lastAssignedMs: 500 }), candidate(8, { lastAssignedMs: 100 }), candidate(9)],
      now,
    );
    expect(picks(plan)).toEqual([
      [1, 9],
      [2, 8],
      [3, 7],
      [4, 9],
    ]);
  });

  it('balanced: the agent with the fewest open conversations, counting each pick', () => {
    const plan = planAssignments(
      [1, 2, 3, 4].map((id) => waiting(id, 1)),
      [
        candidate(7, { routing: 'balanced', open: 3 }),
        candidate(8, { routing: 'balanced', open: 1 }),
      ],
      now,
    );
    expect(picks(plan)).toEqual([
      [1, 8],
      [2, 8],
      [3, 7],
      [4, 8],
    ]);
  });

  it('never past an agent’s limit, counted over every queue; the rest keep waiting', () => {
    const plan = planAssignments(
      [waiting(1, 1), waiting(2, 2), waiting(3, 1), waiting(4, 2)],
      [
        candidate(7, { maxTickets: 2, open: 1 }),
        candidate(7, { queueId: 2, maxTickets: 2, open: 1 }),
        candidate(8, { queueId: 2, maxTickets: 1, open: 0 }),
      ],
      now,
    );
    expect(picks(plan)).toEqual([
      [1, 7],
      [2, 8],
    ]);
  });

  it('never past an agent’s limit in a queue, while they still take others elsewhere', () => {
    const plan = planAssignments(
      [waiting(1, 1), waiting(2, 1), waiting(3, 2), waiting(4, 1)],
      [
        candidate(7, { queueMaxTickets: 2, queueOpen: 1, open: 3 }),
        candidate(7, { queueId: 2, open: 3 }),
        candidate(8, { lastAssignedMs: 1 }),
      ],
      now,
    );
    // Agent 7 takes one more of queue 1 (then it is full there) and queue 2's; 8 takes the rest of 1.
    expect(picks(plan)).toEqual([
      [1, 7],
      [2, 8],
      [3, 7],
      [4, 8],
    ]);
  });

  it('gives a ticket only to agents of its own queue', () => {
    expect(picks(planAssignments([waiting(1, 3)], [candidate(7)], now))).toEqual([]);
  });
});

// A company whose one connection serves one queue, routed as asked, and its agents in that queue.
const routedTeam = async (routing: RoutingMode, agents: { maxTickets?: number | null }[]) => {
  const { company, admin } = await makeCompany(t.db);
  const adminSession = await login(t.app, admin.email);
  const [queue] = await t.db
    .insert(queues)
    .values({ companyId: company.id, name: 'Soporte', color: '#123456', routing })
    .returning();
  const connection = (await pairedSimulator(t.app, adminSession, {
    queueIds: [queue.id],
  })) as WhatsappView;
  const people: { id: number; session: Session }[] = [];
  for (const [i, fields] of agents.entries()) {
    const row = await makeUser(t.db, company.id, 'user', {
      name: `Agente ${i + 1}`,
      maxTickets: fields.maxTickets ?? null,
    });
    await t.db
      .insert(userQueues)
      .values({ userId: row.id, queueId: queue.id, companyId: company.id });
    people.push({ id: row.id, session: await login(t.app, row.email) });
  }
  return { companyId: company.id, admin: adminSession, queue, connection, agents: people };
};

const online = async (session: Session, userId: number) => {
  await openSocket(t.app, session);
  await eventually(
    async () =>
      (await t.db.select({ p: users.presence }).from(users).where(eq(users.id, userId)))[0].p,
    (p) => p === 'online',
    `user ${userId} online`,
  );
};

const ticketsOf = (companyId: number) =>
  t.db.select().from(tickets).where(eq(tickets.companyId, companyId)).orderBy(tickets.id);

const holders = async (companyId: number) =>
  (await ticketsOf(companyId)).map((ticket) => (ticket.status === 'open' ? ticket.userId : null));

const until = <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean) =>
  eventually(read, done, what);

describe('automatic assignment', () => {
  it('gives each conversation entering a routed queue to its online agents in turn, within their limit, and the oldest waiting one to whoever gets room', async () => {
    const team = await routedTeam('round_robin', [{ maxTickets: 2 }, { maxTickets: 2 }]);
    const [ana, beto] = team.agents;
    await setSetting(t.db, team.companyId, 'sendGreetingAccepted', 'enabled');
    await online(ana.session, ana.id);
    await online(beto.session, beto.id);
    const anaHeard = await listenAs(t.app, ana.session, (socket) =>
      socket.timeout(5000).emitWithAck('joinTickets', 'open'),
    );

    for (let i = 1; i <= 5; i++) {
      const sent = await inbound(t.app, team.admin, team.connection.id, {
        from: `54911000000${i}`,
        body: `Hola ${i}`,
      });
      expect(sent.statusCode).toBeLessThan(300);
      // Each is routed before the next arrives, so the order of turns is known.
      if (i <= 4)
        await until(
          `conversation ${i} assigned`,
          () => holders(team.companyId),
          (h) => h.slice(0, i).every((id) => id !== null),
        );
    }
    const [first] = await ticketsOf(team.companyId);
    const firstHolder = first.userId!;
    const other = firstHolder === ana.id ? beto.id : ana.id;
    expect((await holders(team.companyId)).slice(0, 4)).toEqual([
      firstHolder,
      other,
      firstHolder,
      other,
    ]);
    // Both at their limit of two: the fifth waits.
    const fifth = (await ticketsOf(team.companyId))[4];
    expect(fifth).toMatchObject({ status: 'pending', userId: null, queueId: team.queue.id });

    // The greeting the accept would send goes out in the agent's name.
    const greeted = await untilReceived(
      t.app,
      team.admin,
      team.connection.id,
      '549110000001',
      1,
      'the greeting',
    );
    expect(greeted.join('\n')).toContain(firstHolder === ana.id ? 'Agente 1' : 'Agente 2');

    // Ana's screens were told which conversations were routed to her.
    const routedToAna = () =>
      anaHeard.filter(
        (h) => h.event === `company-${team.companyId}-ticket` && h.payload.routedTo === ana.id,
      ).length;
    await until(
      'ana notified',
      async () => routedToAna(),
      (n) => n === 2,
    );

    // Ana resolves one: the waiting fifth is hers.
    const anas = (await ticketsOf(team.companyId)).filter((x) => x.userId === ana.id);
    const resolved = await inject(t.app, ana.session, 'PUT', `/tickets/${anas[0].id}`, {
      status: 'closed',
    });
    expect(resolved.statusCode).toBe(200);
    await until(
      'the fifth assigned',
      async () => (await ticketsOf(team.companyId))[4],
      (x) => x.userId !== null,
    );
    expect((await ticketsOf(team.companyId))[4]).toMatchObject({ status: 'open', userId: ana.id });
  });

  it('balanced: the agent with the fewest open conversations; offline agents and other companies’ agents are never chosen', async () => {
    const team = await routedTeam('balanced', [{}, {}, {}]);
    const [busy, free, away] = team.agents;
    // A stranger in another company, online, in a queue of their own.
    const stranger = await routedTeam('balanced', [{}]);
    await online(stranger.agents[0].session, stranger.agents[0].id);
    await online(busy.session, busy.id);
    await online(free.session, free.id);
    await openSocket(t.app, away.session);
    await inject(t.app, away.session, 'PUT', '/presence', { availability: 'away' });
    // Busy already holds two conversations.
    for (const from of ['549112000001', '549112000002']) {
      await inbound(t.app, team.admin, team.connection.id, { from, body: 'Hola' });
    }
    await until(
      'the first two assigned',
      () => holders(team.companyId),
      (h) => h.every((id) => id !== null),
    );
    const taken = await ticketsOf(team.companyId);
    for (const ticket of taken)
      if (ticket.userId !== busy.id)
        await inject(t.app, team.admin, 'PUT', `/tickets/${ticket.id}`, { userId: busy.id });
    await until(
      'busy holds both',
      () => holders(team.companyId),
      (h) => h.every((id) => id === busy.id),
    );

    for (const from of ['549112000003', '549112000004']) {
      await inbound(t.app, team.admin, team.connection.id, { from, body: 'Hola' });
    }
    await until(
      'the next two assigned',
      () => holders(team.companyId),
      (h) => h.length === 4 && h.every((id) => id !== null),
    );
    // Free had none: both new ones are theirs (then two each would tie; the third would alternate).
    expect((await holders(team.companyId)).slice(2)).toEqual([free.id, free.id]);
    const everyHolder = (await holders(team.companyId)).filter((id) => id !== null);
    expect(everyHolder).not.toContain(away.id);
    expect(everyHolder).not.toContain(stranger.agents[0].id);
  });

  it('assigns what waits when routing is turned on or an agent comes online, and never more than the limit when conversations arrive together', async () => {
    const team = await routedTeam('off', [{ maxTickets: 3 }, { maxTickets: 3 }, { maxTickets: 3 }]);
    const numbers = Array.from({ length: 14 }, (_, i) => `5491130000${String(i).padStart(2, '0')}`);
    // All at once, while routing is off: they wait.
    const sent = await Promise.all(
      numbers.map((from) => inbound(t.app, team.admin, team.connection.id, { from, body: 'Hola' })),
    );
    expect(sent.every((r) => r.statusCode < 300)).toBe(true);
    await until(
      'all in the queue',
      () => ticketsOf(team.companyId),
      (rows) => rows.length === 14 && rows.every((r) => r.queueId === team.queue.id),
    );
    for (const agent of team.agents.slice(0, 2)) await online(agent.session, agent.id);
    expect((await holders(team.companyId)).every((id) => id === null)).toBe(true);

    const turnedOn = await inject(t.app, team.admin, 'PUT', `/queue/${team.queue.id}`, {
      routing: 'round_robin',
    });
    expect(turnedOn.json()).toMatchObject({ routing: 'round_robin' });
    await until(
      'two agents filled',
      () => holders(team.companyId),
      (h) => h.filter((id) => id !== null).length === 6,
    );
    // The third comes online: three more, the oldest waiting ones.
    await online(team.agents[2].session, team.agents[2].id);
    await until(
      'the third filled',
      () => holders(team.companyId),
      (h) => h.filter((id) => id !== null).length === 9,
    );
    const rows = await ticketsOf(team.companyId);
    expect(rows.slice(0, 9).every((r) => r.status === 'open')).toBe(true);
    expect(rows.slice(9).every((r) => r.status === 'pending' && r.userId === null)).toBe(true);
    const counts = new Map<number, number>();
    for (const r of rows) if (r.userId) counts.set(r.userId, (counts.get(r.userId) ?? 0) + 1);
    expect([...counts.values()]).toEqual([3, 3, 3]);

    // A raised limit gives room at once.
    const raised = await inject(t.app, team.admin, 'PUT', `/users/${team.agents[0].id}`, {
      maxTickets: 5,
    });
    expect(raised.json()).toMatchObject({ maxTickets: 5 });
    await until(
      'two more for the first agent',
      () => holders(team.companyId),
      (h) => h.filter((id) => id === team.agents[0].id).length === 5,
    );
    const still = await t.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, team.companyId), inArray(tickets.status, ['pending'])));
    expect(still).toHaveLength(3);
  });

  it('takes a conversation back from an agent who does not answer in the queue’s minutes and gives it to the next one, never back to them', async () => {
    const team = await routedTeam('round_robin', [{}, {}]);
    const [first, second] = team.agents;
    await inject(t.app, team.admin, 'PUT', `/queue/${team.queue.id}`, { reassignMinutes: 5 });
    await online(first.session, first.id);
    await inbound(t.app, team.admin, team.connection.id, { from: '549114000001', body: 'Hola' });
    const [ticket] = await until(
      'assigned',
      () => ticketsOf(team.companyId),
      (rows) => rows.some((r) => r.userId === first.id),
    );
    expect(ticket.routedAt).not.toBeNull();
    // Within the minutes: nothing happens.
    await reassignUnanswered(t.app.deps, new Date(Date.now() + 4 * 60_000));
    expect((await ticketsOf(team.companyId))[0]).toMatchObject({ userId: first.id });

    // The other agent is offline: past the minutes it waits, with a note saying why.
    await reassignUnanswered(t.app.deps, new Date(Date.now() + 6 * 60_000));
    expect((await ticketsOf(team.companyId))[0]).toMatchObject({
      status: 'pending',
      userId: null,
      unansweredBy: first.id,
    });
    expect((await noteTexts(t.db, ticket.id)).join('\n')).toMatch(/no respondió en 5 minutos/);
    // The second comes online: it is theirs, not the first's (who has room).
    await online(second.session, second.id);
    await until(
      'given to the second',
      () => ticketsOf(team.companyId),
      (rows) => rows[0].userId === second.id,
    );

    // An agent who answers keeps the conversation.
    const answered = await inject(t.app, second.session, 'POST', `/messages/${ticket.id}`, {
      body: 'Hola, ¿en qué te ayudo?',
    });
    expect(answered.statusCode).toBe(201);
    expect((await ticketsOf(team.companyId))[0].routedAt).toBeNull();
    await reassignUnanswered(t.app.deps, new Date(Date.now() + 60 * 60_000));
    expect((await ticketsOf(team.companyId))[0]).toMatchObject({
      status: 'open',
      userId: second.id,
    });
  });

  it('counts a reply typed on the connected phone as the agent’s answer', async () => {
    const team = await routedTeam('round_robin', [{}]);
    const [agent] = team.agents;
    await inject(t.app, team.admin, 'PUT', `/queue/${team.queue.id}`, { reassignMinutes: 5 });
    await online(agent.session, agent.id);
    const from = '549114000077';
    await inbound(t.app, team.admin, team.connection.id, { from, body: 'Hola' });
    const [ticket] = await until(
      'assigned',
      () => ticketsOf(team.companyId),
      (rows) => rows.some((r) => r.userId === agent.id),
    );
    expect(ticket.routedAt).not.toBeNull();
    await ingestMessage(t.app.deps, {
      connection: { id: team.connection.id, companyId: team.companyId, provider: 'simulator' },
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
    expect((await ticketsOf(team.companyId))[0].routedAt).toBeNull();
    await reassignUnanswered(t.app.deps, new Date(Date.now() + 60 * 60_000));
    expect((await ticketsOf(team.companyId))[0]).toMatchObject({
      status: 'open',
      userId: agent.id,
    });
  });

  it('holds an agent to their limit in a queue, set and kept with their queues', async () => {
    const team = await routedTeam('round_robin', [{}]);
    const [agent] = team.agents;
    const put = (body: object, session = team.admin) =>
      inject(t.app, session, 'PUT', `/users/${agent.id}`, body);
    const limited = await put({ queueLimits: [{ queueId: team.queue.id, maxTickets: 1 }] });
    expect(limited.statusCode, limited.body).toBe(200);
    expect(limited.json().queueLimits).toEqual([{ queueId: team.queue.id, maxTickets: 1 }]);
    await online(agent.session, agent.id);
    for (const from of ['549114000091', '549114000092'])
      await inbound(t.app, team.admin, team.connection.id, { from, body: 'Hola' });
    const rows = await until(
      'one given, one waiting',
      () => ticketsOf(team.companyId),
      (list) => list.length === 2 && list.some((r) => r.userId === agent.id),
    );
    expect(rows.map((r) => r.status).sort()).toEqual(['open', 'pending']);
    // Raised: the waiting one is theirs too.
    await put({ queueLimits: [{ queueId: team.queue.id, maxTickets: 2 }] });
    await until(
      'both given',
      () => ticketsOf(team.companyId),
      (list) => list.every((r) => r.userId === agent.id),
    );

    // Kept when their queues are saved again without limits; a queue they are not in is refused,
    // and an agent may not change their own.
    const [other] = await t.db
      .insert(queues)
      .values({ companyId: team.companyId, name: 'Ventas', color: '#654321' })
      .returning();
    const requeued = await put({ queueIds: [team.queue.id, other.id] });
    expect(requeued.json().queueLimits).toEqual([{ queueId: team.queue.id, maxTickets: 2 }]);
    const stranger = await put({
      queueIds: [team.queue.id],
      queueLimits: [{ queueId: other.id, maxTickets: 1 }],
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    for (const maxTickets of [0, 501, 'many']) {
      const bad = await put({ queueLimits: [{ queueId: team.queue.id, maxTickets }] });
      expect(bad.statusCode, String(maxTickets)).toBe(400);
    }
    const own = await put({ queueLimits: [] }, agent.session);
    expect(own.statusCode).toBe(403);
    const cleared = await put({ queueLimits: [] });
    expect(cleared.json().queueLimits).toEqual([]);
  });

  it('validates the settings and keeps limits for those who manage queues', async () => {
    const team = await routedTeam('off', [{}]);
    const [agent] = team.agents;
    const badQueue = await inject(t.app, team.admin, 'PUT', `/queue/${team.queue.id}`, {
      routing: 'random',
    });
    expect(badQueue.statusCode).toBe(400);
    expect(badQueue.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    for (const reassignMinutes of [0, 1441, 'soon']) {
      const bad = await inject(t.app, team.admin, 'PUT', `/queue/${team.queue.id}`, {
        reassignMinutes,
      });
      expect(bad.statusCode, String(reassignMinutes)).toBe(400);
    }
    for (const maxTickets of [0, -1, 501, 2.5, 'many']) {
      const bad = await inject(t.app, team.admin, 'PUT', `/users/${agent.id}`, { maxTickets });
      expect(bad.statusCode, String(maxTickets)).toBe(400);
    }
    // An agent may not raise their own limit.
    const own = await inject(t.app, agent.session, 'PUT', `/users/${agent.id}`, { maxTickets: 50 });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    const cleared = await inject(t.app, team.admin, 'PUT', `/users/${agent.id}`, {
      maxTickets: null,
    });
    expect(cleared.json()).toMatchObject({ maxTickets: null });
  });
});
