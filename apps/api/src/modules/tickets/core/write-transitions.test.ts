import { beforeAll, describe, expect, it } from 'vitest';
import { eq, isNull } from 'drizzle-orm';
import {
  makeConnectionIds,
  makeUser,
  sharedTestApp,
  type SharedTestContext,
} from '../../../../test/harness';
import { contacts, queues, tickets } from '../../../db/schema';
import type { DomainEvent } from '../../../events/domain-events';
import { writeTransition, writeTransitions } from './ticket-transition';

// writeTransitions moves many tickets in one statement (the queue bot's replies to a batch): each
// ticket must end as writeTransition would leave it, with the same events, and a ticket whose
// condition no longer holds must stay untouched.
describe('writeTransitions', () => {
  let t: SharedTestContext;
  beforeAll(async () => {
    t = await sharedTestApp();
  });

  const waitingTickets = async (count: number) => {
    const ids = await makeConnectionIds(t.db);
    const made = await t.db
      .insert(contacts)
      .values(
        Array.from({ length: count }, (_, i) => ({
          companyId: ids.companyId,
          number: `54911700${String(i).padStart(5, '0')}`,
          name: `Contacto ${i}`,
        })),
      )
      .returning();
    const rows = await t.db
      .insert(tickets)
      .values(made.map((c) => ({ ...ids, contactId: c.id, status: 'pending' as const })))
      .returning();
    const [queue] = await t.db
      .insert(queues)
      .values({ companyId: ids.companyId, name: 'Ventas', color: '#000001' })
      .returning();
    return { ...ids, rows, queue };
  };

  it('moves each ticket as writeTransition would, skips one taken meanwhile, and tells each once', async () => {
    const { companyId, rows, queue } = await waitingTickets(4);
    const [routed, menu, taken, twin] = rows;
    const agent = await makeUser(t.db, companyId);
    await t.db.update(tickets).set({ userId: agent.id }).where(eq(tickets.id, taken.id));
    const botAt = new Date('2026-11-29T10:00:00.250Z');
    const still = isNull(tickets.userId);

    const raised: DomainEvent[] = [];
    const moved = await writeTransitions(
      t.db,
      (event) => raised.push(event),
      [
        { before: routed, change: { queueId: queue.id, chatbot: false }, byMessageId: 41 },
        {
          before: menu,
          change: { chatbot: true, botAt },
          add: { amountUsedBotQueues: 1 },
          detail: 'bot',
        },
        { before: taken, change: { queueId: queue.id }, byMessageId: 43 },
      ],
      { byUserId: null, still },
    );

    expect(moved[2]).toBeUndefined();
    expect(moved[0]).toMatchObject({ id: routed.id, queueId: queue.id, chatbot: false });
    expect(moved[1]).toMatchObject({ id: menu.id, queueId: null, chatbot: true, botAt });
    expect(moved[1]!.amountUsedBotQueues).toBe(menu.amountUsedBotQueues + 1);
    const [stillTaken] = await t.db.select().from(tickets).where(eq(tickets.id, taken.id));
    expect(stillTaken).toMatchObject({ queueId: null, userId: agent.id });

    // The same move by writeTransition on a twin ticket: the same row, the same event.
    const alone: DomainEvent[] = [];
    const single = await writeTransition(
      t.db,
      (event) => alone.push(event),
      twin,
      { queueId: queue.id, chatbot: false },
      { byUserId: null, byMessageId: 41, still },
    );
    const comparable = (row: typeof routed) => {
      const {
        id: _id,
        contactId: _contact,
        createdAt: _c,
        updatedAt: _u,
        uuid: _uuid,
        ...rest
      } = row;
      return rest;
    };
    expect(comparable(moved[0]!)).toEqual(comparable(single!));
    expect(raised).toEqual([
      { ...alone[0], ticketId: routed.id },
      { type: 'ticket.updated', companyId, ticketId: menu.id, detail: 'bot' },
    ]);
  });

  it('refuses two moves of one ticket, which one statement cannot order', async () => {
    const { rows } = await waitingTickets(1);
    await expect(
      writeTransitions(
        t.db,
        () => undefined,
        [
          { before: rows[0], change: { chatbot: true } },
          { before: rows[0], change: { chatbot: false } },
        ],
        { byUserId: null },
      ),
    ).rejects.toThrow(/one move per ticket/);
    const [after] = await t.db.select().from(tickets).where(eq(tickets.id, rows[0].id));
    expect(after.chatbot).toBe(rows[0].chatbot);
  });
});
