import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type {
  CampaignStatus,
  ConnectionCause,
  ConnectionStatus,
  Presence,
  SlaKind,
  TicketDetail,
} from '@atendi/shared';
import type { Db } from '../db/client';
import { enqueueJobs, jobQueue, type JobQueue, type Jobs, type QueueOptions } from '../jobs/queue';

// What happened in the product, told once to whoever listens, instead of each service calling the
// side effects of other modules inline. A service raises events inside the transaction that makes
// them true (`transaction`):
// - durable listeners (`onDurable`) get a job of their own queue (`event.{name}`), written in that
//   same transaction, so they hear of every committed event even if the process dies right after, at
//   least once, retried with backoff (none yet: meant for outbound webhooks and the like);
// - recorders (`record`) run inside that transaction, so what they write (the dashboard's
//   conversation history, the AI agents' and integrations' turns as jobs) commits or rolls back with
//   the change itself;
// - in-process listeners (`on`) run after the commit, on the node that made the change, and a failure
//   is logged and goes no further; `afterCommit` listeners hear all of one transaction's events at
//   once (the screens' projector, modules/inbox: one load of the views for the set).
// An event is a fact about a committed change: listeners read fresh rows by id when they need more.

export type TicketSnapshot = {
  status: 'open' | 'pending' | 'closed';
  userId: number | null;
  queueId: number | null;
  whatsappId: number;
  // The AI agent answering it, if any.
  promptId: number | null;
  // The integration (flow) conversing with the contact, if any.
  integrationId: number | null;
  // The queue bot is walking the contact through the queue's menu.
  chatbot: boolean;
};

// Who a message comes from: the contact; an agent in the inbox; someone typing on the connected
// phone itself; the platform on its own (bots, greetings, timers, schedules); a company system
// through the external API.
export type MessageAuthor = 'contact' | 'agent' | 'phone' | 'platform' | 'api';

// What changed on a stored message: WhatsApp's delivery report; the contact edited or revoked it;
// the outbox handed it to WhatsApp, or gave up on it; an agent sent a failed one again, or deleted it
// for everyone; the AI provider wrote down what a voice note says; someone reacted to it.
export type MessageChange =
  | 'ack'
  | 'edit'
  | 'revoke'
  | 'sent'
  | 'failed'
  | 'retried'
  | 'deleted'
  | 'transcribed'
  | 'reaction';

export type DomainEvent =
  // A ticket was created (before null) or its lifecycle moved: status, owner, queue, connection, AI
  // agent or integration (modules/tickets/core/ticket-transition.ts writes these).
  | {
      type: 'ticket.changed';
      companyId: number;
      ticketId: number;
      byUserId: number | null;
      // The contact's message that made the platform move it (the queue bot's pick of a queue).
      byMessageId?: number;
      // Automatic assignment gave it to this agent (modules/routing).
      routedTo?: number;
      before: TicketSnapshot | null;
      after: TicketSnapshot;
    }
  // Something else its view shows changed (its snapshot did not).
  | { type: 'ticket.updated'; companyId: number; ticketId: number; detail: TicketDetail }
  | { type: 'ticket.deleted'; companyId: number; ticketId: number; before: TicketSnapshot }
  // A message was stored: received from the contact, or written here (agent, bot, schedule).
  | {
      type: 'message.created';
      companyId: number;
      ticketId: number;
      messageId: number;
      fromMe: boolean;
      author: MessageAuthor;
      // The agent who wrote it (author 'agent'), else null.
      byUserId: number | null;
      // The ticket as the storing transaction holds it (locked), when the raiser has it: recorders
      // that only act on some tickets skip their statement for the others.
      ticket?: TicketSnapshot;
      // A contact's message the queue bot may route (its conversation has no queue yet), or a later
      // one of that conversation: screens hear of it with its message.routed, once the bot decided.
      awaitsBot?: true;
      // An audio message (a voice note) with its file: the transcription recorder looks at these
      // only, so other messages cost it no statement.
      audio?: true;
    }
  | {
      type: 'message.updated';
      companyId: number;
      ticketId: number;
      messageId: number;
      reason: MessageChange;
    }
  // The queue bot took its turn on a message that awaited it: the conversation is in the queue the
  // bot chose (or still in none). `ticketCreated`: the message created its ticket, so no screen has
  // shown that ticket yet.
  | {
      type: 'message.routed';
      companyId: number;
      ticketId: number;
      messageId: number;
      ticketCreated: boolean;
    }
  // An SLA deadline of a conversation is near (its queue's warning minutes) or was missed
  // (modules/sla). `userId`: the agent holding it then (null: nobody).
  | {
      type: 'ticket.sla';
      companyId: number;
      ticketId: number;
      state: 'warning' | 'breached';
      kind: SlaKind;
      dueAt: string;
      queueId: number | null;
      userId: number | null;
    }
  // A user's presence changed (modules/presence): their sockets, their inactivity or their choice.
  | {
      type: 'user.presence';
      companyId: number;
      userId: number;
      before: Presence;
      after: Presence;
      availability: Presence;
    }
  // A contact was created (`created`) or its own fields changed: by a person or the external API
  // (modules/contacts, a sheet or the phone's address book), or by an inbound message (a contact still
  // named after its number takes WhatsApp's name; one known by its LID takes its number).
  | { type: 'contact.changed'; companyId: number; contactId: number; created: boolean }
  // A connection's status changed (channels/manager.ts as its session reports it); before null: the
  // connection was just created.
  | {
      type: 'connection.status';
      companyId: number;
      whatsappId: number;
      before: ConnectionStatus | null;
      after: ConnectionStatus;
      // Why, when WhatsApp or the provider decided it (null: the ordinary course, or a person), and
      // what it said.
      cause: ConnectionCause | null;
      detail: string;
    }
  // A campaign's status changed: scheduled or unscheduled, started, finished, cancelled or restarted
  // (modules/campaigns).
  | {
      type: 'campaign.status';
      companyId: number;
      campaignId: number;
      before: CampaignStatus;
      after: CampaignStatus;
    }
  // A contact answered a resolved ticket's rating question (1 to 3); `userId`: the agent who held it.
  | {
      type: 'ticket.rated';
      companyId: number;
      ticketId: number;
      userId: number | null;
      rate: number;
    };

export type DomainEventType = DomainEvent['type'];
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

type Listener<T extends DomainEventType> = (event: EventOf<T>) => Promise<void> | void;
// Hears every committed transaction's events together, in the order they were raised.
type CommitListener = (events: DomainEvent[]) => Promise<void>;
// A recorder may answer the name of a job queue it wrote to: that queue is woken after the commit.
// It may raise events of its own (what its writes make true), heard like the others.
type Raise = (event: DomainEvent) => void;
type Recorder<T extends DomainEventType> = (
  tx: Db,
  event: EventOf<T>,
  raise: Raise,
) => Promise<void | string>;
// One that takes all the transaction's events of its type at once (a batch of inbound messages raises
// many): one statement for the set instead of one per event.
type SetRecorder<T extends DomainEventType> = (
  tx: Db,
  events: EventOf<T>[],
  raise: Raise,
) => Promise<void | string>;

export type DomainEvents = ReturnType<typeof createDomainEvents>;

export const createDomainEvents = (options: { jobs: Jobs; log: FastifyBaseLogger }) => {
  const { jobs, log } = options;
  const listeners = new Map<DomainEventType, Listener<DomainEventType>[]>();
  const commitListeners: CommitListener[] = [];
  const durable = new Map<DomainEventType, JobQueue<DomainEvent>[]>();
  const recorders = new Map<DomainEventType, Recorder<DomainEventType>[]>();
  const setRecorders = new Map<DomainEventType, SetRecorder<DomainEventType>[]>();
  const roundRecorders: ((tx: Db, events: DomainEvent[]) => Promise<void | string>)[] = [];

  // Within the transaction: the recorders, in the order the events were raised, then the set
  // recorders, each with its type's events, then a job for each durable listener of each event.
  // Events a recorder raises join the list (their own recorders run too, once the set recorders
  // of the round are done). Answers the queues recorders wrote to.
  const publish = async (tx: Db, events: DomainEvent[]) => {
    const woken: string[] = [];
    const raise: Raise = (event) => events.push(event);
    for (let from = 0; from < events.length;) {
      const round = events.slice(from);
      from = events.length;
      for (const event of round)
        for (const recorder of recorders.get(event.type) ?? []) {
          const queue = await recorder(tx, event, raise);
          if (queue) woken.push(queue);
        }
      for (const [type, ofType] of setRecorders) {
        const raised = round.filter((event) => event.type === type);
        if (!raised.length) continue;
        for (const recorder of ofType) {
          const queue = await recorder(tx, raised, raise);
          if (queue) woken.push(queue);
        }
      }
      for (const recorder of roundRecorders) {
        const queue = await recorder(tx, round);
        if (queue) woken.push(queue);
      }
    }
    for (const event of events)
      for (const queue of durable.get(event.type) ?? [])
        await enqueueJobs(tx, queue, [{ payload: event, companyId: event.companyId }]);
    return woken;
  };

  // `work` in a transaction that publishes what it raised; the events, for dispatch after the commit.
  const committed = async <T>(
    db: Db,
    work: (tx: Db, raise: (event: DomainEvent) => void) => Promise<T>,
  ) => {
    const raised: DomainEvent[] = [];
    let woken: string[] = [];
    const value = await db.transaction(async (tx) => {
      const result = await work(tx, (event) => raised.push(event));
      woken = await publish(tx, raised);
      return result;
    });
    return { value, raised, woken };
  };

  // After the commit: the durable listeners' and recorders' queues are woken, and the in-process
  // listeners run, in the order they subscribed: those of the whole transaction first.
  const dispatch = async (events: DomainEvent[], woken: string[]) => {
    for (const queue of new Set([
      ...events.flatMap((event) => (durable.get(event.type) ?? []).map((q) => q.name)),
      ...woken,
    ]))
      jobs.kick(queue);
    if (!events.length) return;
    for (const listener of commitListeners) {
      try {
        await listener(events);
      } catch (err) {
        log.error({ err, events: events.length }, 'commit listener failed');
      }
    }
    for (const event of events)
      for (const listener of listeners.get(event.type) ?? []) {
        try {
          await listener(event);
        } catch (err) {
          log.error({ err, event: event.type }, 'event listener failed');
        }
      }
  };

  return {
    on<T extends DomainEventType>(type: T, listener: Listener<T>) {
      listeners.set(type, [
        ...(listeners.get(type) ?? []),
        listener as unknown as Listener<DomainEventType>,
      ]);
    },

    // Hears each committed transaction's events at once, after the commit, on this node (the screens'
    // projector: one load of the views for all the changes of a transaction).
    afterCommit(listener: CommitListener) {
      commitListeners.push(listener);
    },

    // Writes what follows from an event in the transaction that raised it: a failure rolls the change
    // back, so keep recorders to a statement or two on indexed rows.
    record<T extends DomainEventType>(type: T, recorder: Recorder<T>) {
      recorders.set(type, [
        ...(recorders.get(type) ?? []),
        recorder as unknown as Recorder<DomainEventType>,
      ]);
    },

    // A recorder of all the transaction's events of a type at once (recorded after the one-event
    // recorders): for work that one statement can do for a set.
    recordAll<T extends DomainEventType>(type: T, recorder: SetRecorder<T>) {
      setRecorders.set(type, [
        ...(setRecorders.get(type) ?? []),
        recorder as unknown as SetRecorder<DomainEventType>,
      ]);
    },

    // A recorder of every event of the transaction, whatever its type, in the order they were raised
    // (after the other recorders of each round, so it also hears what they raised): for what keeps
    // the order of events of different types (the outbound webhooks' deliveries).
    recordInOrder(recorder: (tx: Db, events: DomainEvent[]) => Promise<void | string>) {
      roundRecorders.push(recorder);
    },

    // A listener that must hear of every committed event: `name` is its queue (event.{name}), whose
    // payloads are the events, checked with `payload` (what the listener reads of them).
    onDurable<T extends DomainEventType>(
      name: string,
      type: T,
      payload: z.ZodType<EventOf<T>>,
      listener: (event: EventOf<T>) => Promise<void>,
      queueOptions: Omit<QueueOptions<EventOf<T>>, 'handle'> = {},
    ) {
      const queue = jobQueue(`event.${name}`, payload);
      jobs.define(queue, { ...queueOptions, handle: (job) => listener(job.payload) });
      durable.set(type, [...(durable.get(type) ?? []), queue as JobQueue<DomainEvent>]);
    },

    // Runs `work` in a transaction; the events it raises are published with the commit and
    // dispatched after it. A rolled-back transaction tells nobody anything.
    async transaction<T>(
      db: Db,
      work: (tx: Db, raise: (event: DomainEvent) => void) => Promise<T>,
    ): Promise<T> {
      const { value, raised, woken } = await committed(db, work);
      await dispatch(raised, woken);
      return value;
    },

    // Transactions whose events are dispatched one transaction after another, without their callers
    // waiting for it: `transaction` answers at the commit, and listeners hear of it once the lane's
    // earlier transactions were dispatched (the ingest's stores: the next store begins while the
    // screens hear of the last one, and they hear of them in order). `idle()`: every transaction
    // committed so far has been dispatched.
    lane() {
      let last: Promise<void> = Promise.resolve();
      return {
        transaction: async <T>(
          db: Db,
          work: (tx: Db, raise: (event: DomainEvent) => void) => Promise<T>,
        ): Promise<T> => {
          const { value, raised, woken } = await committed(db, work);
          last = last
            .then(() => dispatch(raised, woken))
            .catch((err: unknown) => log.error({ err }, 'dispatching a lane transaction failed'));
          return value;
        },
        idle: () => last,
      };
    },
  };
};
