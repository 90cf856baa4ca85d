import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps';
import { queryRows } from '../../../db/client';
import { arrayParam, rowMapper } from '../../../db/rows';
import { groupCommit } from '../../../platform/group-commit';
import { contacts, messages, tickets } from '../../../db/schema';
import type { ChannelEventInput } from '../../../channels/manager';
import type { MessageChange } from '../../../events/domain-events';
import type { Ingested, MessageInput } from './ingest';
import { batchable, storeMessages, type Outcome } from './ingest-batch';
import { runQueueBots } from '../bots/queue-bot';
import { confirmOptOut, thankForRating } from '../bots/ticket-automation';
import { messageRouted, messageUpdated } from '../core/ticket-events';
import { storeReaction } from '../core/reactions';
import { createRoomResolver, createTicketGuard } from '../core/visibility';

// Wires the channel layer's events into tickets and messages. Screens hear of them from the events
// raised here (modules/inbox/inbox.projector.ts).

type EngineDeps = Pick<
  AppDeps,
  | 'db'
  | 'realtime'
  | 'uploads'
  | 'outbox'
  | 'config'
  | 'ticketMessages'
  | 'events'
  | 'campaignAnswers'
>;

// Inbound messages wait here while a store is in flight, and go together in the next one
// (ingest-batch.ts): one arriving alone goes at once, so a quiet inbox waits for nothing. Stores run one
// at a time, in arrival order, and their messages reach the screens in that order (after the store's
// commit, while the next store runs: events.lane). Then the bots take their turn on a store's messages
// (the queue bot over the batch, the rating thanks), once the screens have them and after the turns of
// earlier stores on the same tickets; then each caller learns its message's result. A message the queue bot may route (awaitsBot) reaches the screens with the bot's
// turn instead, and so do its conversation's later messages until that turn is done.
type Waiting = {
  input: MessageInput;
  done: (outcome: Outcome) => void;
};

const MAX_INGEST_BATCH = 100;

const createIngestQueue = (deps: EngineDeps, log: FastifyBaseLogger) => {
  // The stores' events reach the screens in store order, without the next store waiting for it.
  const lane = deps.events.lane();
  const laneDeps = { ...deps, events: { ...deps.events, transaction: lane.transaction } };
  let waiting: Waiting[] = [];
  let storing = false;
  // Each ticket's last bot turn: a store's bots wait for those of its tickets, so a ticket's messages
  // are answered in order while other tickets' go meanwhile.
  const turns = new Map<number, Promise<void>>();
  // Tickets with messages awaiting a bot turn still to come, and that turn.
  const routing = new Map<number, Promise<void>>();
  const inLine = (ticketIds: number[], work: () => Promise<void>) => {
    const ids = [...new Set(ticketIds)];
    const next = Promise.all(ids.map((id) => turns.get(id))).then(work);
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

  // `held`: messages not on the screens yet, released by the bot's turn once it decided their queue
  // (and here if the turn failed before releasing them).
  const answer = async (results: Ingested[], held: Set<Ingested>) => {
    const botFailed = (err: unknown) => log.error({ err }, 'the bot failed on an inbound message');
    for (const result of results)
      if (result.rating) await thankForRating(deps, result.ticket).catch(botFailed);
    // A campaign recipient's opt-out word is confirmed to them, not answered by the bot's menu.
    const contactMessages = results.filter((r) => !r.rating && !r.message.fromMe);
    const optOuts = contactMessages.length
      ? await deps.campaignAnswers
          .optOutConfirmations(
            deps.db,
            contactMessages.map((r) => r.message.id),
          )
          .catch((err: unknown) => {
            botFailed(err);
            return new Map<number, string>();
          })
      : new Map<number, string>();
    await runQueueBots(
      deps,
      results.filter((r) => !r.rating && !optOuts.has(r.message.id)),
      deps.outbox.kick,
      botFailed,
      held,
    ).catch(botFailed);
    if (held.size)
      await deps.events
        .transaction(deps.db, async (_tx, raise) => {
          for (const result of held) raise(messageRouted(result.message, result.ticketCreated));
        })
        .catch((err: unknown) => log.error({ err }, 'held messages not released to the screens'));
    for (const result of results) {
      const confirmation = optOuts.get(result.message.id);
      if (confirmation) await confirmOptOut(deps, result.ticket, confirmation).catch(botFailed);
    }
  };

  const drain = async () => {
    storing = true;
    // The calls of this turn of the event loop go together.
    await new Promise((resolve) => setImmediate(resolve));
    while (waiting.length) {
      const batch = take();
      const outcomes = await storeMessages(
        laneDeps,
        batch.map((w) => w.input),
        (err) => log.warn({ err, messages: batch.length }, 'batched ingest failed; one by one'),
        (ticketId) => routing.has(ticketId),
      ).catch((error: unknown) => batch.map((): Outcome => ({ ok: false, error })));
      const results = outcomes.flatMap((o) => (o.ok && o.value ? [o.value] : []));
      const held = new Set(results.filter((r) => r.awaitsBot));
      // The bots answer once the screens have the messages they answer.
      const shown = lane.idle();
      const turn = inLine(
        results.map((r) => r.ticket.id),
        () => shown.then(() => answer(results, held)),
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

type AckReport = { whatsappId: number; providerId: string; ack: number };

// Delivery and read reports, applied together: the reports that arrive while an update is in flight
// go in the next one, one statement for all of them (a campaign's thousands come in bursts). An ack is
// a high-water mark (channels/acks.ts), applied in SQL so concurrent reports cannot undo each other;
// a message reported twice in one update takes the higher.
const createAckQueue = (deps: EngineDeps) =>
  groupCommit(async (batch: AckReport[]) => {
    const highest = new Map<string, AckReport>();
    for (const report of batch) {
      const key = `${report.whatsappId}:${report.providerId}`;
      const had = highest.get(key);
      if (!had || had.ack < report.ack) highest.set(key, report);
    }
    const reports = [...highest.values()];
    await deps.events.transaction(deps.db, async (tx, raise) => {
      const rows = await queryRows<Record<string, unknown>>(
        tx,
        sql`update ${messages} set ack = greatest(messages.ack, v.ack), updated_at = now()
              from unnest(${arrayParam(reports.map((r) => r.whatsappId))}::int[],
                          ${arrayParam(reports.map((r) => r.providerId))}::text[],
                          ${arrayParam(reports.map((r) => r.ack))}::int[])
                   as v(whatsapp_id, provider_id, ack)
             where messages.whatsapp_id = v.whatsapp_id and messages.provider_id = v.provider_id
               and messages.from_me
            returning messages.*`,
      );
      for (const row of rows) raise(messageUpdated(messageRow(row), 'ack'));
    });
    return batch.map(() => undefined);
  });

const messageRow = rowMapper(messages);

const ackQueues = new WeakMap<object, ReturnType<typeof createAckQueue>>();
const ackQueueOf = (deps: EngineDeps) => {
  let queue = ackQueues.get(deps);
  if (!queue) {
    queue = createAckQueue(deps);
    ackQueues.set(deps, queue);
  }
  return queue;
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

// A change the provider reports on a stored message, told as message.updated.
const updateMessage = (
  deps: EngineDeps,
  reason: MessageChange,
  update: (db: AppDeps['db']) => Promise<(typeof messages.$inferSelect)[]>,
) =>
  deps.events.transaction(deps.db, async (tx, raise) => {
    for (const row of await update(tx)) raise(messageUpdated(row, reason));
  });

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
      // A failure report goes on its own; delivery and reading go with the others that arrive meanwhile.
      if (event.ack === 0)
        await updateMessage(deps, 'ack', (db) =>
          db
            .update(messages)
            .set({
              ack: sql`case when ${messages.ack} < 3 then 0 else ${messages.ack} end`,
              updatedAt: new Date(),
            })
            .where(and(byProviderId(connection.id, event.providerId), eq(messages.fromMe, true)))
            .returning(),
        );
      else
        await ackQueueOf(deps)({
          whatsappId: connection.id,
          providerId: event.providerId,
          ack: event.ack,
        });
      return;
    }
    case 'edit':
    case 'revoke': {
      await updateMessage(deps, event.type, (db) =>
        db
          .update(messages)
          .set(
            event.type === 'edit'
              ? { body: event.body, isEdited: true, updatedAt: new Date() }
              : { isDeleted: true, updatedAt: new Date() },
          )
          .where(byProviderId(connection.id, event.providerId))
          .returning(),
      );
      return;
    }
    case 'reaction': {
      // A reaction to a message the platform never stored (older than the connection here, or gone
      // with its ticket) has nothing to show on.
      await deps.events.transaction(deps.db, async (tx, raise) => {
        const [target] = await tx
          .select({ id: messages.id, companyId: messages.companyId, ticketId: messages.ticketId })
          .from(messages)
          .where(byProviderId(connection.id, event.providerId))
          .limit(1);
        if (!target) return;
        const changed = await storeReaction(tx, {
          companyId,
          messageId: target.id,
          fromMe: event.fromMe,
          sender: event.participant ?? event.from,
          emoji: event.emoji,
          reactedAt: event.timestamp,
        });
        if (changed) raise(messageUpdated(target, 'reaction'));
      });
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
