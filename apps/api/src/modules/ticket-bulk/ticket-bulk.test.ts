import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { TicketBulkResult } from '@atendi/shared';
import { contacts, messages, queues, tags, ticketTags, tickets, userQueues } from '../../db/schema';
import {
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  sharedTestApp,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { setSetting } from '../../../test/inbox';

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

let numbers = 0;

// A company with two queues, an agent of the first and another of the second, and a way to make
// waiting tickets on its connection.
const company = async () => {
  const { company: row, admin } = await makeCompany(t.db);
  const companyId = row.id;
  const connection = (await makeWhatsapp(t.db, companyId, { isDefault: true })).id;
  const [sales, support] = await t.db
    .insert(queues)
    .values([
      { companyId, name: 'Ventas', color: '#00aa00' },
      { companyId, name: 'Soporte', color: '#0000aa' },
    ])
    .returning();
  const agentRow = await makeUser(t.db, companyId, 'user');
  const otherRow = await makeUser(t.db, companyId, 'user');
  await t.db.insert(userQueues).values([
    { userId: agentRow.id, queueId: sales.id, companyId },
    { userId: otherRow.id, queueId: sales.id, companyId },
  ]);
  const waiting = async (count: number, queueId: number | null = sales.id) => {
    const made = [];
    for (let i = 0; i < count; i++) {
      const [contact] = await t.db
        .insert(contacts)
        .values({
          companyId,
          name: `Cliente ${i}`,
          number: `5491170${String((numbers += 1)).padStart(5, '0')}`,
        })
        .returning();
      const [ticket] = await t.db
        .insert(tickets)
        .values({ companyId, contactId: contact.id, whatsappId: connection, queueId })
        .returning();
      made.push(ticket);
    }
    return made;
  };
  return {
    companyId,
    admin: await login(t.app, admin.email),
    agent: { id: agentRow.id, session: await login(t.app, agentRow.email) },
    other: { id: otherRow.id, session: await login(t.app, otherRow.email) },
    sales: sales.id,
    support: support.id,
    waiting,
  };
};

const bulk = async (session: Session, body: object) => {
  const res = await inject(t.app, session, 'POST', '/tickets/bulk', body);
  return { status: res.statusCode, body: res.json() as TicketBulkResult & { error?: string } };
};

const rowsOf = (ids: number[]) =>
  t.db.select().from(tickets).where(inArray(tickets.id, ids)).orderBy(tickets.id);

describe('bulk actions on tickets', () => {
  it('resolves the chosen tickets one by one and says which could not be and why', async () => {
    const a = await company();
    const b = await company();
    const mine = await a.waiting(3);
    const [foreign] = await b.waiting(1);
    // One of them is the other agent's conversation: not the agent's to resolve.
    await inject(t.app, a.other.session, 'PUT', `/tickets/${mine[2].id}`, { status: 'open' });
    for (const ticket of mine.slice(0, 2))
      await inject(t.app, a.agent.session, 'PUT', `/tickets/${ticket.id}`, { status: 'open' });

    const done = await bulk(a.agent.session, {
      action: 'resolve',
      ids: [...mine.map((x) => x.id), foreign.id],
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ total: 4, succeeded: 2, failed: 2 });
    expect(done.body.results).toEqual([
      { id: mine[0].id, ok: true },
      { id: mine[1].id, ok: true },
      {
        id: mine[2].id,
        ok: false,
        error: 'ERR_NO_PERMISSION',
        message: expect.any(String),
      },
      // Another company's ticket is as unknown as one that does not exist.
      { id: foreign.id, ok: false, error: 'ERR_NO_TICKET_FOUND', message: expect.any(String) },
    ]);
    expect((await rowsOf(mine.map((x) => x.id))).map((r) => r.status)).toEqual([
      'closed',
      'closed',
      'open',
    ]);
    expect((await rowsOf([foreign.id]))[0].status).toBe('pending');
  });

  it('transfers every ticket a list filter shows to a queue, and tags a chosen few', async () => {
    const a = await company();
    const waiting = await a.waiting(45);
    const [open] = await a.waiting(1);
    await inject(t.app, a.admin, 'PUT', `/tickets/${open.id}`, { status: 'open' });

    // More than a list page: the filter is read to its end.
    const moved = await bulk(a.admin, {
      action: 'transfer',
      queueId: a.support,
      filter: { status: 'pending', showAll: 'true' },
    });
    expect(moved.body).toMatchObject({ total: 45, succeeded: 45, failed: 0 });
    const rows = await rowsOf(waiting.map((x) => x.id));
    expect(rows.every((r) => r.queueId === a.support && r.status === 'pending')).toBe(true);
    expect((await rowsOf([open.id]))[0]).toMatchObject({ queueId: a.sales, status: 'open' });

    // To a person: open as theirs.
    const handed = await bulk(a.admin, {
      action: 'transfer',
      userId: a.agent.id,
      ids: waiting.slice(0, 2).map((x) => x.id),
    });
    expect(handed.body.succeeded).toBe(2);
    expect((await rowsOf(waiting.slice(0, 2).map((x) => x.id))).map((r) => r.userId)).toEqual([
      a.agent.id,
      a.agent.id,
    ]);

    const [tag] = await t.db
      .insert(tags)
      .values({ companyId: a.companyId, name: 'VIP', color: '#ff0000' })
      .returning();
    const tagged = await bulk(a.admin, {
      action: 'tag',
      tagId: tag.id,
      ids: waiting.slice(0, 3).map((x) => x.id),
    });
    expect(tagged.body).toMatchObject({ succeeded: 3, failed: 0 });
    const links = await t.db.select().from(ticketTags).where(eq(ticketTags.tagId, tag.id));
    expect(links.map((l) => l.ticketId).sort()).toEqual(
      waiting
        .slice(0, 3)
        .map((x) => x.id)
        .sort(),
    );
  });

  it('two people resolving the same tickets at once close each once, with one completion message', async () => {
    const a = await company();
    await setSetting(t.db, a.companyId, 'userRating', 'disabled');
    await t.db
      .update(queues)
      .set({ completion: 'Gracias por escribirnos' })
      .where(eq(queues.id, a.sales));
    const chosen = await a.waiting(8);
    for (const ticket of chosen)
      await inject(t.app, a.admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open' });
    const ids = chosen.map((x) => x.id);
    const [first, second] = await Promise.all([
      bulk(a.admin, { action: 'resolve', ids }),
      bulk(a.admin, { action: 'resolve', ids }),
    ]);
    // Each ticket was resolved by one of the two; for the other it was already as asked.
    expect(first.body.succeeded + second.body.succeeded).toBe(16);
    expect((await rowsOf(ids)).every((r) => r.status === 'closed')).toBe(true);
    const completions = await t.db
      .select({ ticketId: messages.ticketId })
      .from(messages)
      .where(and(inArray(messages.ticketId, ids), eq(messages.body, 'Gracias por escribirnos')));
    expect(completions.map((m) => m.ticketId).sort()).toEqual([...ids].sort());
  });

  it('refuses a request that does not say what to act on or how', async () => {
    const a = await company();
    const [ticket] = await a.waiting(1);
    for (const body of [
      { action: 'resolve' },
      { action: 'resolve', ids: [ticket.id], filter: { status: 'pending' } },
      { action: 'resolve', ids: [] },
      { action: 'resolve', ids: Array.from({ length: 501 }, (_, i) => i + 1) },
      { action: 'transfer', ids: [ticket.id] },
      { action: 'tag', ids: [ticket.id] },
      { action: 'delete', ids: [ticket.id] },
      { action: 'resolve', ids: ['x'] },
    ]) {
      const res = await bulk(a.admin, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    expect((await rowsOf([ticket.id]))[0].status).toBe('pending');
  });
});
