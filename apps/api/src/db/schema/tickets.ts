import {
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { SlaKind, TicketStatus } from '@atendi/shared';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { contacts } from './contacts';
import { queueIntegrations } from './queue-integrations';
import { prompts, queueOptions, queues } from './queues';
import { users } from './users';
import { whatsapps } from './whatsapps';

export const tickets = pgTable(
  'tickets',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    uuid: uuid().notNull().defaultRandom().unique(),
    status: text().$type<TicketStatus>().notNull().default('pending'),
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    whatsappId: integer()
      .notNull()
      // Conversation history outlives a connection: deleting one with tickets is refused (company deletion still cascades).
      .references(() => whatsapps.id, { onDelete: 'no action' }),
    isGroup: boolean().notNull().default(false),
    chatbot: boolean().notNull().default(false),
    lastMessage: text().notNull().default(''),
    // The contact's own newest message (what a notification previews; lastMessage may be the bot's).
    lastContactMessage: text().notNull().default(''),
    unreadMessages: integer().notNull().default(0),
    useIntegration: boolean().notNull().default(false),
    // The AI agent answering this conversation until a person takes it (null: none).
    promptId: integer().references(() => prompts.id, { onDelete: 'set null' }),
    // The newest message of the contact the AI agent has answered (modules/prompts/agent.ts).
    promptRepliedTo: integer(),
    integrationId: integer().references(() => queueIntegrations.id, { onDelete: 'set null' }),
    amountUsedBotQueues: integer().notNull().default(0),
    // Where the contact stands in the queue option menu; null at the top.
    queueOptionId: integer().references(() => queueOptions.id, { onDelete: 'set null' }),
    // When the bot last sent a menu (timeUseBotQueues counts from here).
    botAt: timestamp({ withTimezone: true, mode: 'date' }),
    // When the contact was last told we are closed (sent once per closed period).
    outOfHoursAt: timestamp({ withTimezone: true, mode: 'date' }),
    // A resolved ticket whose contact was asked to rate it, until the answer (or another message) arrives.
    ratingAt: timestamp({ withTimezone: true, mode: 'date' }),
    // When automatic assignment gave it to its agent, until the agent writes or it moves otherwise:
    // the queue's reassignMinutes count from here.
    routedAt: timestamp({ withTimezone: true, mode: 'date' }),
    // The agent it was taken back from for not answering: not its next candidate.
    unansweredBy: integer().references(() => users.id, { onDelete: 'set null' }),
    // SLA clocks of the running conversation (modules/sla): since when its queue's policy counts
    // (null: none runs), whether a person answered yet, each promise's deadline while it is open and
    // whether it was breached, the deadline last warned of; sla_due_at is the nearest of the three.
    slaStartedAt: timestamp({ withTimezone: true, mode: 'date' }),
    slaAnswered: boolean().notNull().default(false),
    slaFirstDueAt: timestamp({ withTimezone: true, mode: 'date' }),
    slaNextDueAt: timestamp({ withTimezone: true, mode: 'date' }),
    slaResolveDueAt: timestamp({ withTimezone: true, mode: 'date' }),
    slaFirstBreached: boolean().notNull().default(false),
    slaNextBreached: boolean().notNull().default(false),
    slaResolveBreached: boolean().notNull().default(false),
    slaWarnedDue: timestamp({ withTimezone: true, mode: 'date' }),
    slaDueAt: timestamp({ withTimezone: true, mode: 'date' }).generatedAlwaysAs(
      sql`least(sla_first_due_at, sla_next_due_at, sla_resolve_due_at)`,
    ),
    // Raised by a trigger on every update (migration 0014): screens keep the newest state of a
    // ticket whatever order its events reach them in.
    version: integer().notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    // nullsFirst matches plain ORDER BY updated_at DESC; drizzle's NULLS LAST default would not be used.
    // With id, a page deep in a status list is read from the index alone (index-only scan).
    index().on(t.companyId, t.status, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Every status at once, newest first: the search's walk over the newest tickets.
    index().on(t.companyId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index().on(t.companyId, t.queueId, t.status, t.updatedAt.desc().nullsFirst()),
    index().on(t.companyId, t.userId, t.status, t.updatedAt.desc().nullsFirst()),
    index().on(t.contactId, t.whatsappId, t.status),
    // A contact has at most one pending or open ticket per connection.
    uniqueIndex('tickets_one_active_per_contact_idx')
      .on(t.contactId, t.whatsappId)
      .where(sql`status <> 'closed'`),
    // Routed conversations whose agent has not written yet (the reassignment sweep).
    index('tickets_routed_idx')
      .on(t.routedAt)
      .where(sql`routed_at is not null`),
    // Deadlines coming or past (the SLA watch) and the lists sorted by urgency.
    index('tickets_sla_due_idx')
      .on(t.slaDueAt)
      .where(sql`sla_due_at is not null`),
    index('tickets_sla_list_idx')
      .on(t.companyId, t.status, t.slaDueAt)
      .where(sql`sla_due_at is not null`),
    // The contact's latest resolved ticket still waiting for a rating (looked up on each new conversation).
    index('tickets_rating_pending_idx')
      .on(t.contactId, t.whatsappId)
      .where(sql`rating_at is not null`),
  ],
);

export const ticketNotes = pgTable(
  'ticket_notes',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    note: text().notNull(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    // A note the platform wrote: the AI agent or integration that wrote it, by its name then.
    botName: text(),
    ...timestamps(),
  },
  (t) => [index().on(t.ticketId), index().on(t.contactId)],
);

// Customer's rating of the attendant when a ticket is closed (scale 1 to 3).
export const userRatings = pgTable(
  'user_ratings',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    rate: integer().notNull(),
    ...timestamps(),
  },
  (t) => [
    index().on(t.ticketId),
    index().on(t.companyId, t.userId),
    check('user_ratings_rate_check', sql`rate between 1 and 3`),
  ],
);

// The conversation history the dashboard reads (ARCHITECTURE.md "Dashboard"): one row per
// conversation of a ticket, from the moment it starts waiting (created or reopened) until it is
// resolved. Written by the ticket and message events in the transaction that causes them.
export const ticketTracking = pgTable(
  'ticket_tracking',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    whatsappId: integer().notNull(),
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    // Who has (or last had) the conversation; the resolver once it is resolved.
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    // First taken by an agent; first answered by a person of the company; resolved.
    acceptedAt: timestamp({ withTimezone: true, mode: 'date' }),
    firstReplyAt: timestamp({ withTimezone: true, mode: 'date' }),
    finishedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // At most one running conversation per ticket.
    uniqueIndex('ticket_tracking_running_idx')
      .on(t.ticketId)
      .where(sql`finished_at is null`),
    index().on(t.ticketId),
    index().on(t.companyId, t.startedAt),
    index().on(t.companyId, t.acceptedAt),
    index().on(t.companyId, t.firstReplyAt),
    index().on(t.companyId, t.finishedAt),
  ],
);

// The conversation history summed per hour (UTC) and per user (0: none), as the dashboard adds it up
// (modules/dashboard/dashboard.service.ts). Every change of a ticket_tracking row adds rows here from
// a trigger, in the change's own transaction (migration 0026): what the change takes from the hours of
// the row as it was, and adds to those of the row as it is. Rows are only ever added, so concurrent
// changes never wait for each other here; a recurring job folds each past hour's rows into one, and
// the hours of days older than three into one row per day. Each moment counts in the hour it
// happened, under the conversation's current user.
export const dashboardHours = pgTable(
  'dashboard_hours',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    hour: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    userId: integer().notNull(),
    started: integer().notNull().default(0),
    accepted: integer().notNull().default(0),
    waitSeconds: doublePrecision().notNull().default(0),
    answered: integer().notNull().default(0),
    replySeconds: doublePrecision().notNull().default(0),
    finished: integer().notNull().default(0),
    resolutionSeconds: doublePrecision().notNull().default(0),
    supportCount: integer().notNull().default(0),
    supportSeconds: doublePrecision().notNull().default(0),
    // A sum of rows folded together (false: a change's own row); wholeDay: of a whole day (UTC),
    // `hour` being its midnight.
    compacted: boolean().notNull().default(false),
    wholeDay: boolean().notNull().default(false),
  },
  (t) => [
    index().on(t.companyId, t.hour),
    index('dashboard_hours_to_fold_idx')
      .on(t.hour)
      .where(sql`not compacted`),
    index('dashboard_hours_hourly_idx')
      .on(t.hour)
      .where(sql`not whole_day`),
  ],
);

// What became of each SLA promise (modules/sla): met when a person answered (or the conversation was
// resolved) by its deadline, breached when the deadline passed first; decided_at is that moment. The
// dashboard's attainment per queue and agent counts these.
export const slaOutcomes = pgTable(
  'sla_outcomes',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    // The agent holding the conversation when it was decided (null: nobody).
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    kind: text().$type<SlaKind>().notNull(),
    dueAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    met: boolean().notNull(),
    decidedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index().on(t.companyId, t.decidedAt), index().on(t.ticketId)],
);
