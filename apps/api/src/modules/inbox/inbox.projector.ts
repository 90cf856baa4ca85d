import type { ChatMessageView, TicketDetail } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { DomainEvent, EventOf, TicketSnapshot } from '../../events/domain-events';
import type { Realtime } from '../../realtime/realtime';
import { loadShownMessages, viewMessages } from '../messages';
import {
  chatViewerRooms,
  loadTicketViews,
  notificationRooms,
  roomsOf,
  ticketRooms,
  type TicketView,
} from '../tickets';

// The one place that tells screens about tickets and messages (company-{id}-ticket and -appMessage,
// SPEC §7): services raise domain events in their transaction, and after the commit this projector
// loads what they changed, once for the whole transaction (one statement for the tickets' views, one
// for the messages), and emits it to the rooms that show it:
// - a ticket that changed, was updated or got a message: `update` to every room that shows it, and
//   `delete` (with its version) to the list slices it left, whose viewers no longer may see its chat;
// - a deleted ticket: `delete` to its chat and the slices it was in;
// - messages created (or released by the queue bot) and then messages updated, each with its ticket.
// Projections of one ticket run one after the other, in the order their transactions committed on this
// node, so a message's create reaches a screen before its updates.

type ScreenEvent = Extract<
  DomainEvent,
  {
    type:
      | 'ticket.changed'
      | 'ticket.updated'
      | 'ticket.deleted'
      | 'message.created'
      | 'message.updated'
      | 'message.routed';
  }
>;

const screenEvents = new Set<DomainEvent['type']>([
  'ticket.changed',
  'ticket.updated',
  'ticket.deleted',
  'message.created',
  'message.updated',
  'message.routed',
]);
const isScreenEvent = (event: DomainEvent): event is ScreenEvent => screenEvents.has(event.type);

export type ProjectorLoads = {
  // The tickets' views, in the order given (ids not found are left out).
  tickets: (ids: number[]) => Promise<TicketView[]>;
  // The messages as a chat shows them, in the order given (those in `created` were created by the
  // events shown: nothing has reacted to them yet).
  messages: (ids: number[], created: ReadonlySet<number>) => Promise<ChatMessageView[]>;
};

// What one transaction did to a ticket, as its screens see it.
type TicketMoves = {
  companyId: number;
  // Its rooms hear it as it is now.
  shown: boolean;
  // Where it was before its first lifecycle change here (null: created here).
  before?: TicketSnapshot | null;
  // Screens never showed it: its first messages awaited the queue bot.
  unseen: boolean;
  // Automatic assignment gave it to this agent here (their screens notify them).
  routedTo?: number;
  // What else changed on it here (ticket.updated): its notes, its insight… (the event's `changed`).
  details?: Set<TicketDetail>;
  deleted?: TicketSnapshot;
};

type MessageMove = { companyId: number; ticketId: number; messageId: number };

// What a transaction's events ask of the screens, without reading anything yet.
const planOf = (events: ScreenEvent[]) => {
  const tickets = new Map<number, TicketMoves>();
  const moves = (event: ScreenEvent) => {
    let found = tickets.get(event.ticketId);
    if (!found) {
      found = { companyId: event.companyId, shown: false, unseen: false };
      tickets.set(event.ticketId, found);
    }
    return found;
  };
  const created = new Map<number, MessageMove>();
  const updated = new Map<number, MessageMove>();
  // A conversation whose only news here awaits the queue bot stays off the screens until its turn.
  const awaiting = new Set<number>();
  const news = new Set<number>();
  const moveOf = (event: EventOf<'message.created' | 'message.updated' | 'message.routed'>) => ({
    companyId: event.companyId,
    ticketId: event.ticketId,
    messageId: event.messageId,
  });
  for (const event of events) {
    const ticket = moves(event);
    switch (event.type) {
      case 'ticket.changed':
        ticket.shown = true;
        if (ticket.before === undefined) ticket.before = event.before;
        if (event.routedTo !== undefined) ticket.routedTo = event.routedTo;
        break;
      case 'ticket.updated':
        ticket.shown = true;
        news.add(event.ticketId);
        (ticket.details ??= new Set()).add(event.detail);
        break;
      case 'ticket.deleted':
        ticket.deleted = event.before;
        break;
      case 'message.created':
        if (event.awaitsBot) {
          awaiting.add(event.ticketId);
          break;
        }
        ticket.shown = true;
        news.add(event.ticketId);
        created.set(event.messageId, moveOf(event));
        break;
      case 'message.routed':
        ticket.shown = true;
        news.add(event.ticketId);
        if (event.ticketCreated) ticket.unseen = true;
        created.set(event.messageId, moveOf(event));
        break;
      case 'message.updated':
        updated.set(event.messageId, moveOf(event));
        break;
    }
  }
  for (const id of awaiting)
    if (!news.has(id)) {
      const ticket = tickets.get(id)!;
      ticket.shown = false;
      ticket.unseen = true;
    }
  for (const id of created.keys()) updated.delete(id);
  const byId = (a: MessageMove, b: MessageMove) => a.messageId - b.messageId;
  return {
    tickets,
    created: [...created.values()].sort(byId),
    updated: [...updated.values()].sort(byId),
  };
};

export const createInboxProjector = (
  realtime: Pick<Realtime, 'toRooms' | 'leaveChat'>,
  load: ProjectorLoads,
) => {
  const emitTicket = (companyId: number, ticket: TicketView, moves: TicketMoves) =>
    realtime.toRooms(companyId, [...roomsOf(ticket)]).emit('ticket', {
      action: 'update',
      ticket,
      ...(moves.routedTo ? { routedTo: moves.routedTo } : {}),
      ...(moves.details ? { changed: [...moves.details].sort() } : {}),
    });

  // A ticket moved out of slices (another status, queue or holder): those slices drop it, and whoever
  // may no longer see it leaves its chat.
  const leave = (companyId: number, before: TicketSnapshot, after: TicketView) => {
    const keep = chatViewerRooms(after);
    if (keep && (before.queueId !== after.queueId || before.userId !== after.userId))
      realtime.leaveChat(companyId, after.id, keep);
    const old = new Set([...ticketRooms(before), ...notificationRooms(before)]);
    for (const room of [...ticketRooms(after), ...notificationRooms(after)]) old.delete(room);
    if (old.size)
      realtime
        .toRooms(companyId, [...old])
        .emit('ticket', { action: 'delete', ticketId: after.id, version: after.version });
  };

  const show = async (events: ScreenEvent[]) => {
    const plan = planOf(events);
    const messages = [...plan.created, ...plan.updated];
    const ticketIds = [
      ...new Set([
        ...[...plan.tickets].flatMap(([id, t]) => (t.shown && !t.deleted ? [id] : [])),
        ...messages.map((m) => m.ticketId),
      ]),
    ];
    const [views, shown] = await Promise.all([
      ticketIds.length ? load.tickets(ticketIds) : [],
      messages.length
        ? load.messages(
            messages.map((m) => m.messageId),
            new Set(plan.created.map((m) => m.messageId)),
          )
        : [],
    ]);
    const viewOf = new Map(views.map((view) => [view.id, view]));
    const messageOf = new Map(shown.map((message) => [message.id, message]));

    for (const [id, ticket] of plan.tickets) {
      if (ticket.deleted) {
        realtime
          .toRooms(ticket.companyId, [
            `ticket-${id}`,
            ...ticketRooms(ticket.deleted),
            ...notificationRooms(ticket.deleted),
          ])
          .emit('ticket', { action: 'delete', ticketId: id });
        continue;
      }
      const view = viewOf.get(id);
      if (!ticket.shown || !view) continue;
      if (ticket.before && !ticket.unseen) leave(ticket.companyId, ticket.before, view);
      emitTicket(ticket.companyId, view, ticket);
    }
    const emitMessages = (moves: MessageMove[], action: 'create' | 'update') => {
      for (const { companyId, ticketId, messageId } of moves) {
        const ticket = viewOf.get(ticketId);
        const message = messageOf.get(messageId);
        if (!ticket || !message) continue;
        realtime
          .toRooms(companyId, [...roomsOf(ticket)])
          .emit('appMessage', { action, message, ticket, contact: ticket.contact });
      }
    };
    emitMessages(plan.created, 'create');
    emitMessages(plan.updated, 'update');
  };

  // Each ticket's last projection: the next one of the same ticket waits for it.
  const tails = new Map<number, Promise<void>>();

  return {
    // After a transaction's commit (events.afterCommit): its events on the screens.
    project(events: DomainEvent[]): Promise<void> {
      const relevant = events.filter(isScreenEvent);
      if (!relevant.length) return Promise.resolve();
      const ids = [...new Set(relevant.map((event) => event.ticketId))];
      const run = Promise.all(ids.map((id) => tails.get(id))).then(() => show(relevant));
      const settled = run.catch(() => undefined);
      for (const id of ids) tails.set(id, settled);
      void settled.then(() => {
        for (const id of ids) if (tails.get(id) === settled) tails.delete(id);
      });
      return run;
    },
  };
};

// The app's projector, fed by every transaction of its event bus.
export const inboxProjector = (deps: Pick<AppDeps, 'db' | 'uploads' | 'realtime'>) => {
  const projector = createInboxProjector(deps.realtime, {
    tickets: (ids) => loadTicketViews(deps.db, ids),
    messages: async (ids, created) =>
      viewMessages(deps, await loadShownMessages(deps.db, ids), created),
  });
  return (events: DomainEvent[]) => projector.project(events);
};
