import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { isTicketListed, type TicketStatus, type TicketViewer } from '@atendi/shared';
import { contacts, queues, tickets, userQueues } from '../../db/schema';
import {
  createTestApp,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type TestContext,
} from '../../../test/harness';
import { listScope, ticketViewer } from './visibility';

// The list filter is SQL and the rule it must follow is the shared function: over every kind of
// ticket and viewer, the rows the filter keeps are exactly those the function lists.

let t: TestContext;
let companyId: number;
let me: number;
let myQueue: number;
let otherQueue: number;
let grid: { id: number; status: TicketStatus; queueId: number | null; userId: number | null }[];

beforeAll(async () => {
  t = await createTestApp();
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  const [mine, other] = await t.db
    .insert(queues)
    .values([
      { companyId, name: 'Ventas', color: '#00aa00' },
      { companyId, name: 'Soporte', color: '#0000aa' },
    ])
    .returning();
  myQueue = mine.id;
  otherQueue = other.id;
  me = (await makeUser(t.db, companyId, 'user')).id;
  const someoneElse = (await makeUser(t.db, companyId, 'user')).id;
  await t.db.insert(userQueues).values({ userId: me, queueId: myQueue, companyId });
  const connection = await makeWhatsapp(t.db, companyId);
  const shapes = (['open', 'pending', 'closed'] as const).flatMap((status) =>
    [null, myQueue, otherQueue].flatMap((queueId) =>
      [null, me, someoneElse].map((userId) => ({ status, queueId, userId })),
    ),
  );
  // One contact each: a contact has one non-closed ticket per connection.
  const people = await t.db
    .insert(contacts)
    .values(shapes.map((_, i) => ({ companyId, name: `Contacto ${i}`, number: `54911000${i}` })))
    .returning();
  grid = await t.db
    .insert(tickets)
    .values(
      shapes.map((shape, i) => ({
        companyId,
        contactId: people[i].id,
        whatsappId: connection.id,
        ...shape,
      })),
    )
    .returning({
      id: tickets.id,
      status: tickets.status,
      queueId: tickets.queueId,
      userId: tickets.userId,
    });
});
afterAll(() => t.close());

const listedBySql = async (viewer: TicketViewer, showAll: boolean) =>
  (
    await t.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), listScope(viewer, showAll)))
  )
    .map((row) => row.id)
    .sort((a, b) => a - b);

describe('ticket list scope', () => {
  it('keeps exactly the tickets the shared rule lists, for every viewer', async () => {
    const queueSets = [[], [myQueue], [myQueue, otherQueue]];
    for (const seesAll of [false, true])
      for (const queueIds of queueSets)
        for (const showAll of [false, true]) {
          const viewer: TicketViewer = { userId: me, queueIds, seesAll };
          const expected = grid
            .filter((ticket) => isTicketListed(viewer, ticket, showAll))
            .map((ticket) => ticket.id)
            .sort((a, b) => a - b);
          expect({ viewer, showAll, ids: await listedBySql(viewer, showAll) }).toEqual({
            viewer,
            showAll,
            ids: expected,
          });
        }
  });

  it('sees the caller with their queues and whether they see every ticket', async () => {
    expect(await ticketViewer(t.db, { userId: me, profile: 'user', isSuper: false })).toEqual({
      userId: me,
      queueIds: [myQueue],
      seesAll: false,
    });
    const admin = await makeUser(t.db, companyId, 'admin');
    expect(
      await ticketViewer(t.db, { userId: admin.id, profile: 'admin', isSuper: false }),
    ).toEqual({ userId: admin.id, queueIds: [], seesAll: true });
  });
});
