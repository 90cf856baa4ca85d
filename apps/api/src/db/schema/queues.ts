import {
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { ScheduleSlot } from '@atendi/shared';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { prompts } from './prompts';
import { queueIntegrations } from './queue-integrations';

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
