import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { canSeeTicket, isTicketListed, type TicketStatus, type TicketViewer } from '@atendi/shared';
import { rightsRooms } from '../../../realtime/realtime';
import { contacts, queues, tickets, userQueues } from '../../../db/schema';
import {
  sharedTestApp,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type SharedTestContext,
} from '../../../../test/harness';
import { chatViewerRooms, listScope, ticketViewer } from './visibility';

// The list filter is SQL and the rule it must follow is the shared function: over every kind of
// ticket and viewer, the rows the filter keeps are exactly those the function lists. The same for the
// socket rooms that keep a ticket's chat (after a transfer) against the rule for one ticket.

let t: SharedTestContext;
let companyId: number;
let me: number;
let myQueue: number;
let otherQueue: number;
let grid: { id: number; status: TicketStatus; queueId: number | null; userId: number | null }[];

beforeAll(async () => {
  t = await sharedTestApp();
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

describe("who stays in a ticket's chat", () => {
  it('a socket is in one of the rooms that keep the chat exactly when the shared rule lets it see the ticket', () => {
    for (const profile of ['admin', 'supervisor', 'user'] as const)
      for (const queueIds of [[], [myQueue], [myQueue, otherQueue]]) {
        const viewer: TicketViewer = { userId: me, queueIds, seesAll: profile === 'admin' };
        const rooms = new Set<string>([
          `user-${me}`,
          ...rightsRooms({ profile, isSuper: false, queueIds }),
        ]);
        for (const ticket of grid) {
          const keep = chatViewerRooms(ticket);
          const stays = keep === null || keep.some((room) => rooms.has(room));
          expect({ profile, queueIds, ticket, stays }).toEqual({
            profile,
            queueIds,
            ticket,
            stays: canSeeTicket(viewer, ticket),
          });
        }
      }
  });
});
