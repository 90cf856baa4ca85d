import { can } from './permissions';

// Which tickets a user may see (SPEC §6), defined once: the API checks a single ticket with it and
// writes the same rule as SQL for its lists (tickets/visibility.test.ts proves they agree); the web
// keeps its ticket lists and kanban board in step with live events by it.

// What the rule reads of a ticket.
export type TicketScope = { status: string; queueId: number | null; userId: number | null };

// Who looks: seesAll is seesAllTickets(user); queueIds are the user's queues.
export type TicketViewer = { userId: number; queueIds: readonly number[]; seesAll: boolean };

// Admins and super users see every ticket of their company.
export const seesAllTickets = (user: Parameters<typeof can>[0]) =>
  can(user, 'tickets-manager:showall');

const inViewerQueues = (viewer: TicketViewer, ticket: TicketScope) =>
  ticket.queueId === null || viewer.queueIds.includes(ticket.queueId);

// May open the ticket, follow its chat and act on it: whoever sees every ticket, its holder, and the
// members of its queue (everyone, when it has no queue). Otherwise the API answers 403.
export const canSeeTicket = (viewer: TicketViewer, ticket: TicketScope) =>
  viewer.seesAll || ticket.userId === viewer.userId || inViewerQueues(viewer, ticket);

// Whether a list (GET /tickets, the kanban board) shows the ticket. With showAll, whoever sees every
// ticket gets them all; otherwise one's own tickets and, in one's queues or without a queue, those
// nobody holds and the closed ones: others' open conversations stay out of the way.
export const isTicketListed = (viewer: TicketViewer, ticket: TicketScope, showAll: boolean) => {
  if (showAll && viewer.seesAll) return true;
  if (ticket.userId === viewer.userId) return true;
  return (ticket.userId === null || ticket.status === 'closed') && inViewerQueues(viewer, ticket);
};
