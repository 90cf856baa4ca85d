import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { contacts, messages, tickets } from '../../db/schema';
import type { ChannelEventInput } from '../../channels/manager';
import { ingestMessage, type Ingested } from './ingest';
import { runQueueBot } from './queue-bot';
import { thankForRating } from './ticket-automation';
import { runTicketTimers } from './ticket-timers';
import { loadTicketViews, type TicketView } from './ticket-views';
import {
  createRoomResolver,
  createTicketGuard,
  notificationRooms,
  ticketRooms,
} from './visibility';

// Wires the channel layer's events into tickets and messages, and tells the screens that may see them.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads'>;
type EngineDeps = Deps & Pick<AppDeps, 'outbox' | 'config' | 'ticketMessages' | 'events'>;

// Every room that shows this ticket: its chat, its list slices and its notification slices.
export const roomsOf = (ticket: TicketView) =>
  [`ticket-${ticket.id}`, ...ticketRooms(ticket), ...notificationRooms(ticket)] as const;

export const emitTicket = (deps: Deps, companyId: number, ticket: TicketView) =>
  deps.realtime
    .toRooms(companyId, [...roomsOf(ticket)])
    .emit('ticket', { action: 'update', ticket });

const emitIngested = async (deps: EngineDeps, companyId: number, result: Ingested) => {
  const [ticket] = await loadTicketViews(deps.db, [result.ticket.id]);
  if (!ticket) return;
  emitTicket(deps, companyId, ticket);
  await deps.ticketMessages.emit(companyId, 'create', [result.message], [ticket]);
};

const byProviderId = (whatsappId: number, providerId: string) =>
  and(eq(messages.whatsappId, whatsappId), eq(messages.providerId, providerId));

export const handleChannelEvent = async (deps: EngineDeps, input: ChannelEventInput) => {
  const { connection, event } = input;
  const companyId = connection.companyId;
  switch (event.type) {
    case 'message': {
      const result = await ingestMessage(deps, { ...input, event });
      if (!result) return;
      await emitIngested(deps, companyId, result);
      if (result.rating) await thankForRating(deps, result.ticket);
      else await runQueueBot(deps, result, deps.outbox.kick);
      return;
    }
    case 'typing': {
      // SPEC §4 Typing indicator: shown on the contact's open conversation on this connection.
      const [ticket] = await deps.db
        .select({ id: tickets.id })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(
          and(
            eq(tickets.whatsappId, connection.id),
            eq(contacts.companyId, companyId),
            eq(contacts.number, event.from),
            ne(tickets.status, 'closed'),
          ),
        )
        .limit(1);
      if (ticket)
        deps.realtime.typing(companyId, ticket.id, {
          ticketId: ticket.id,
          chatJid: event.from,
          who: event.from,
          typing: event.typing,
        });
      return;
    }
    case 'ack': {
      // A high-water mark (channels/acks.ts), applied in SQL so concurrent reports cannot undo each other.
      const [row] = await deps.db
        .update(messages)
        .set({
          ack:
            event.ack === 0
              ? sql`case when ${messages.ack} < 3 then 0 else ${messages.ack} end`
              : sql`greatest(${messages.ack}, ${event.ack})`,
          updatedAt: new Date(),
        })
        .where(and(byProviderId(connection.id, event.providerId), eq(messages.fromMe, true)))
        .returning();
      if (row) await deps.ticketMessages.emit(companyId, 'update', [row]);
      return;
    }
    case 'edit':
    case 'revoke': {
      const [row] = await deps.db
        .update(messages)
        .set(
          event.type === 'edit'
            ? { body: event.body, isEdited: true, updatedAt: new Date() }
            : { isDeleted: true, updatedAt: new Date() },
        )
        .where(byProviderId(connection.id, event.providerId))
        .returning();
      if (row) await deps.ticketMessages.emit(companyId, 'update', [row]);
      return;
    }
    default:
      return;
  }
};

export const TICKET_TIMERS_JOB = 'ticket-timers';

export const registerTicketsEngine = (app: FastifyInstance) => {
  const deps = app.deps;
  deps.realtime.setTicketGuard(createTicketGuard(deps.db));
  deps.realtime.setTicketRoomResolver(createRoomResolver(deps.db));
  deps.channels.onEvent((input) => handleChannelEvent(deps, input));
  deps.jobs.every({
    name: TICKET_TIMERS_JOB,
    everyMs: deps.config.ticketTimersInterval * 1000,
    run: (now) => runTicketTimers(deps, now),
  });
};
