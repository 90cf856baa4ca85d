import {
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { PromptKnowledge, RoutingMode, ScheduleSlot } from '@atendi/shared';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { queueIntegrations } from './queue-integrations';

// Queues and AI agents name each other (a queue's agent, an agent's hand-over queue): they share this
// file, so the schema's imports form no loop.

export const queues = pgTable(
  'queues',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    color: text().notNull(),
    greetingMessage: text().notNull().default(''),
    completion: text().notNull().default(''),
    outOfHoursMessage: text().notNull().default(''),
    ratingMessage: text().notNull().default(''),
    token: text().notNull().default(''),
    orderQueue: integer(),
    integrationId: integer().references((): AnyPgColumn => queueIntegrations.id, {
      onDelete: 'set null',
    }),
    // The AI agent that answers the conversations entering this queue (instead of its option menu).
    promptId: integer().references((): AnyPgColumn => prompts.id, { onDelete: 'set null' }),
    schedules: jsonb().$type<ScheduleSlot[]>().notNull().default([]),
    // Automatic assignment of its waiting conversations (modules/routing).
    routing: text().$type<RoutingMode>().notNull().default('off'),
    // A conversation it routed whose agent writes nothing for this many minutes goes to the next
    // candidate (null: never).
    reassignMinutes: integer(),
    // Outside its hours a conversation entering it goes to this queue, or to this AI agent, instead of
    // waiting with the out-of-hours message alone.
    outOfHoursQueueId: integer().references((): AnyPgColumn => queues.id, { onDelete: 'set null' }),
    outOfHoursPromptId: integer().references((): AnyPgColumn => prompts.id, {
      onDelete: 'set null',
    }),
    // SLA policy (modules/sla): minutes to the first answer, each next answer and the resolution
    // (null: no target), counted in its hours when it has any; the warning's minutes before a breach.
    slaFirstResponseMinutes: integer(),
    slaNextResponseMinutes: integer(),
    slaResolutionMinutes: integer(),
    slaWarningMinutes: integer().notNull().default(5),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex().on(t.companyId, t.color),
    uniqueIndex().on(t.companyId, t.name),
    index().on(t.companyId, t.orderQueue),
  ],
);

// Chatbot option tree of a queue; parentId null is the top level.
export const queueOptions = pgTable(
  'queue_options',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    queueId: integer()
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    parentId: integer(),
    title: text().notNull(),
    message: text().notNull().default(''),
    option: text().notNull().default(''),
    ...timestamps(),
  },
  (t) => [index().on(t.queueId, t.parentId)],
);

// AI agents (SPEC "Prompt").
export const prompts = pgTable(
  'prompts',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    prompt: text().notNull(),
    model: text().notNull().default('gpt-3.5-turbo-1106'),
    maxTokens: integer().notNull().default(100),
    temperature: real().notNull().default(1),
    maxMessages: integer().notNull().default(10),
    // What the contact is told when the agent hands the conversation to a person ('' = nothing).
    handoffMessage: text().notNull().default('Le paso con una persona del equipo'),
    // The queue a conversation goes to when the agent hands it to a person without naming one.
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    // Answers from the company's knowledge base (issue 40): 'all' its documents, the 'selected' ones
    // (prompt_knowledge_documents), or 'none'.
    knowledge: text().$type<PromptKnowledge>().notNull().default('none'),
    // What last went wrong reaching the provider while answering a customer (admins see it).
    lastErrorCode: text(),
    lastErrorMessage: text(),
    lastErrorAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.name)],
);
