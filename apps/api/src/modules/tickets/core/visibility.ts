import { and, eq, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { canSeeTicket, seesAllTickets, type TicketScope, type TicketViewer } from '@atendi/shared';
import type { Db } from '../../../db/client';
import { preparedPer } from '../../../db/prepared';
import { tickets, userQueues, users } from '../../../db/schema';
import {
  permissionRoom,
  type RealtimeRoom,
  type SocketIdentity,
  type TicketRoomResolver,
} from '../../../realtime/realtime';

// Who may see a ticket (SPEC §6), by the rule of @atendi/shared (ticket-visibility.ts): admins see
// every ticket of their company; other profiles see the tickets of their queues, tickets without a
// queue, and tickets assigned to them.

type Who = Pick<SocketIdentity, 'userId' | 'profile' | 'isSuper'> & {
  // Read with the request's principal (AuthContext); looked up when absent.
  queueIds?: readonly number[];
};

export const seesAll = seesAllTickets;

const queueIdsOf = async (db: Db, userId: number) =>
  (
    await db
      .select({ queueId: userQueues.queueId })
      .from(userQueues)
      .where(eq(userQueues.userId, userId))
  ).map((r) => r.queueId);

// The caller as the shared rule sees them.
export const ticketViewer = async (db: Db, who: Who): Promise<TicketViewer> => ({
  userId: who.userId,
  seesAll: seesAll(who),
  queueIds: who.queueIds ? [...who.queueIds] : await queueIdsOf(db, who.userId),
});

// isTicketListed (@atendi/shared) as a filter on tickets, the viewer's user id and queue ids (an
// integer[]) given as SQL: bound values here, a prepared statement's placeholders in the inbox's lists
// (tickets.service.ts). visibility.test.ts proves they agree.
export const scopeFilter = (userId: SQLWrapper, queueIds: SQLWrapper) =>
  or(
    eq(tickets.userId, userId),
    and(
      or(isNull(tickets.userId), eq(tickets.status, 'closed')),
      or(isNull(tickets.queueId), sql`${tickets.queueId} = any(${queueIds}::integer[])`),
    ),
  );

export const listScope = (viewer: TicketViewer, showAll: boolean): SQL | undefined =>
  showAll && viewer.seesAll
    ? undefined
    : scopeFilter(sql.param(viewer.userId), sql.param([...viewer.queueIds]));

// The list slices a ticket belongs to; emit to all of them and each allowed socket hears it once.
export const ticketRooms = (ticket: TicketScope) =>
  [
    `tickets-${ticket.status}-all`,
    ticket.queueId
      ? `tickets-${ticket.status}-queue-${ticket.queueId}`
      : `tickets-${ticket.status}-noqueue`,
    ...(ticket.userId ? [`tickets-${ticket.status}-user-${ticket.userId}`] : []),
  ] as `tickets-${string}`[];

export const notificationRooms = (ticket: TicketScope) =>
  [
    'notification-all',
    ticket.queueId ? `notification-queue-${ticket.queueId}` : 'notification-noqueue',
    ...(ticket.userId ? [`notification-user-${ticket.userId}`] : []),
  ] as `notification-${string}`[];

// Every room that shows this ticket: its chat, its list slices and its notification slices.
export const roomsOf = (ticket: TicketScope & { id: number }) =>
  [`ticket-${ticket.id}`, ...ticketRooms(ticket), ...notificationRooms(ticket)] as const;

// canSeeTicket as the rooms sockets join at connection (realtime rightsRooms): whoever sees every
// ticket, its holder, its queue's members; null when it has no queue (everyone may see it).
export const chatViewerRooms = (ticket: TicketScope): Exclude<RealtimeRoom, 'company'>[] | null =>
  ticket.queueId === null
    ? null
    : [
        permissionRoom('tickets-manager:showall'),
        `queue-${ticket.queueId}`,
        ...(ticket.userId ? [`user-${ticket.userId}` as const] : []),
      ];

// What a socket's list rooms depend on, in one prepared statement (every inbox socket joins several
// lists when it connects): the user's allTicket setting and queues; no row when the user is gone.
const listMembership = preparedPer((db) =>
  db
    .select({
      allTicket: users.allTicket,
      queueIds: sql<
        number[]
      >`coalesce(array_agg(${userQueues.queueId} order by ${userQueues.queueId})
        filter (where ${userQueues.queueId} is not null), '{}')`,
    })
    .from(users)
    .leftJoin(userQueues, eq(userQueues.userId, users.id))
    .where(
      and(
        eq(users.id, sql.placeholder('userId')),
        eq(users.companyId, sql.placeholder('companyId')),
      ),
    )
    .groupBy(users.id)
    .prepare('socket_list_membership'),
);

// The slices a socket joins for a list: everything for admins; for the others their queues, the
// tickets without a queue and their own. allTicket users also hear every pending ticket's notifications.
export const createRoomResolver =
  (db: Db): TicketRoomResolver =>
  async (identity, list) => {
    const prefix = list.kind === 'tickets' ? `tickets-${list.status}` : 'notification';
    const [user] = await listMembership(db).execute({
      userId: identity.userId,
      companyId: identity.companyId,
    });
    if (!user) return [];
    if (seesAll(identity) || (list.kind === 'notification' && user.allTicket === 'enabled'))
      return [`${prefix}-all` as `tickets-${string}`];
    return [
      ...user.queueIds.map((id) => `${prefix}-queue-${id}`),
      `${prefix}-noqueue`,
      `${prefix}-user-${identity.userId}`,
    ] as `tickets-${string}`[];
  };

// joinChatBox: a socket enters a ticket's room only if its user may see the ticket.
export const createTicketGuard = (db: Db) => async (identity: SocketIdentity, ticketId: number) => {
  const [ticket] = await db
    .select({ status: tickets.status, queueId: tickets.queueId, userId: tickets.userId })
    .from(tickets)
    .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, identity.companyId)));
  if (!ticket) return false;
  return canSeeTicket(await ticketViewer(db, identity), ticket);
};
