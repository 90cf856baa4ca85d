import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { contacts, messages, tickets } from '../../db/schema';
import type { ChannelEventInput } from '../../channels/manager';
import type { Ingested, MessageInput } from './ingest';
import { batchable, storeMessages, type Outcome } from './ingest-batch';
import { mayBeRouted, runQueueBots } from './queue-bot';
import { thankForRating } from './ticket-automation';
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

// One store's messages on the screens: each ticket once, as the store left it, then the messages.
const emitIngested = async (deps: EngineDeps, results: Ingested[]) => {
  const views = await loadTicketViews(deps.db, [...new Set(results.map((r) => r.ticket.id))]);
  const viewOf = new Map(views.map((view) => [view.id, view]));
  const byCompany = new Map<number, Ingested[]>();
  for (const result of results) {
    const ofCompany = byCompany.get(result.ticket.companyId) ?? [];
    ofCompany.push(result);
    byCompany.set(result.ticket.companyId, ofCompany);
  }
  for (const [companyId, ofCompany] of byCompany) {
    const shown = [...new Set(ofCompany.map((r) => r.ticket.id))].flatMap(
      (id) => viewOf.get(id) ?? [],
    );
    for (const view of shown) emitTicket(deps, companyId, view);
    await deps.ticketMessages.emit(
      companyId,
      'create',
      ofCompany.filter((r) => viewOf.has(r.ticket.id)).map((r) => r.message),
      shown,
    );
  }
};

// Inbound messages wait here while a store is in flight, and go together in the next one
// (ingest-batch.ts): one arriving alone goes at once, so a quiet inbox waits for nothing. Stores run one
// at a time, in arrival order, and their messages reach the screens in that order. Then the bots take
// their turn on a store's messages (the queue bot over the batch, the rating thanks), after the turns
// of earlier stores on the same tickets; then each caller learns its message's result.
type Waiting = {
  input: MessageInput;
  done: (outcome: Outcome) => void;
};

export const MAX_INGEST_BATCH = 100;

const createIngestQueue = (deps: EngineDeps, log: FastifyBaseLogger) => {
  let waiting: Waiting[] = [];
  let storing = false;
  // The last store's emits: the next store's follow them.
  let shown: Promise<void> = Promise.resolve();
  // Each ticket's last bot turn: a store's bots wait for those of its tickets (and for its emits),
  // so a ticket's messages are answered in order while other tickets' go meanwhile.
  const turns = new Map<number, Promise<void>>();
  // Tickets with messages held for a bot turn still to come, and that turn.
  const routing = new Map<number, Promise<void>>();
  const inLine = (ticketIds: number[], after: Promise<void>, work: () => Promise<void>) => {
    const ids = [...new Set(ticketIds)];
    const next = Promise.all([after, ...ids.map((id) => turns.get(id))]).then(work);
    for (const id of ids) turns.set(id, next);
    void next.then(() => {
      for (const id of ids) if (turns.get(id) === next) turns.delete(id);
    });
    return next;
  };

  // The longest run of messages that can be stored together, or the first alone.
  const take = () => {
    const alone = waiting.findIndex((w) => !batchable(w.input));
    const count =
      alone === 0 ? 1 : Math.min(MAX_INGEST_BATCH, alone === -1 ? waiting.length : alone);
    const batch = waiting.slice(0, count);
    waiting = waiting.slice(count);
    return batch;
  };

  const show = async (results: Ingested[]) => {
    try {
      if (results.length) await emitIngested(deps, results);
    } catch (err) {
      // Stored: the screens catch up on their next load.
      log.error({ err }, 'ingested messages not emitted');
    }
  };

  // `held`: messages not shown yet, shown by the bot's turn once it decided their queue (and here if
  // the turn failed before showing them).
  const answer = async (results: Ingested[], held: Set<Ingested>) => {
    const botFailed = (err: unknown) => log.error({ err }, 'the bot failed on an inbound message');
    for (const result of results)
      if (result.rating) await thankForRating(deps, result.ticket).catch(botFailed);
    await runQueueBots(
      deps,
      results.filter((r) => !r.rating),
      deps.outbox.kick,
      botFailed,
      held,
    ).catch(botFailed);
    if (held.size) await show([...held]);
  };

  const drain = async () => {
    storing = true;
    // The calls of this turn of the event loop go together.
    await new Promise((resolve) => setImmediate(resolve));
    while (waiting.length) {
      const batch = take();
      const outcomes = await storeMessages(
        deps,
        batch.map((w) => w.input),
        (err) => log.warn({ err, messages: batch.length }, 'batched ingest failed; one by one'),
      ).catch((error: unknown) => batch.map((): Outcome => ({ ok: false, error })));
      const results = outcomes.flatMap((o) => (o.ok && o.value ? [o.value] : []));
      // A message the bot may route waits for its turn, and so do its conversation's later ones
      // until that turn is done (a chat shows its messages in order).
      const held = new Set(results.filter((r) => mayBeRouted(r) || routing.has(r.ticket.id)));
      const thisShown = shown.then(() => show(results.filter((r) => !held.has(r))));
      shown = thisShown;
      const turn = inLine(
        results.map((r) => r.ticket.id),
        thisShown.then(() => undefined),
        () => answer(results, held),
      );
      for (const result of held) routing.set(result.ticket.id, turn);
      void turn.then(() => {
        for (const result of held)
          if (routing.get(result.ticket.id) === turn) routing.delete(result.ticket.id);
        batch.forEach((w, i) => w.done(outcomes[i]));
      });
    }
    storing = false;
  };

  return (input: MessageInput) =>
    new Promise<Ingested | null>((resolve, reject) => {
      waiting.push({
        input,
        done: (outcome) => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)),
      });
      if (!storing) void drain();
    });
};

// One ingest queue per app (registerTicketsEngine), found from its deps.
const ingestQueues = new WeakMap<object, ReturnType<typeof createIngestQueue>>();
const queueOf = (deps: EngineDeps) => {
  const queue = ingestQueues.get(deps);
  if (!queue) throw new Error('The tickets engine is not registered for these deps');
  return queue;
};

const byProviderId = (whatsappId: number, providerId: string) =>
  and(eq(messages.whatsappId, whatsappId), eq(messages.providerId, providerId));

export const handleChannelEvent = async (deps: EngineDeps, input: ChannelEventInput) => {
  const { connection, event } = input;
  const companyId = connection.companyId;
  switch (event.type) {
    case 'message': {
      // A redelivered, dropped or refused message keeps no copy of its file (nor counts it).
      const dropFile = () =>
        input.media ? deps.uploads.remove(companyId, input.media.storedName) : undefined;
      const stored = await queueOf(deps)({ ...input, event }).catch(async (error: unknown) => {
        await dropFile();
        throw error;
      });
      if (!stored) await dropFile();
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

// The ingest queue of these deps, and who may join a ticket's rooms (background.ts hands the engine
// the channels' events).
export const registerTicketsEngine = (app: FastifyInstance) => {
  const deps = app.deps;
  ingestQueues.set(deps, createIngestQueue(deps, app.log));
  deps.realtime.setTicketGuard(createTicketGuard(deps.db));
  deps.realtime.setTicketRoomResolver(createRoomResolver(deps.db));
};
