import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { CompanyStatus, Recurrence, ScheduleSlot } from '@atendi/shared';
import { id, timestamps } from './_columns';

export const plans = pgTable('plans', {
  id: id(),
  name: text().notNull().unique(),
  users: integer().notNull().default(0),
  connections: integer().notNull().default(0),
  queues: integer().notNull().default(0),
  value: numeric({ precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
  useCampaigns: boolean().notNull().default(true),
  useKanban: boolean().notNull().default(true),
  useOpenAi: boolean().notNull().default(true),
  useIntegrations: boolean().notNull().default(true),
  useSchedules: boolean().notNull().default(true),
  useExternalApi: boolean().notNull().default(true),
  // The card payment provider's price checkout charges for this plan.
  stripePriceId: text(),
  ...timestamps(),
});

export const companies = pgTable(
  'companies',
  {
    id: id(),
    name: text().notNull().unique(),
    email: text().notNull().default(''),
    phone: text().notNull().default(''),
    planId: integer()
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    status: text().$type<CompanyStatus>().notNull().default('active'),
    dueDate: timestamp({ withTimezone: true, mode: 'date' }),
    recurrence: text().$type<Recurrence>().notNull().default('MENSAL'),
    schedules: jsonb().$type<ScheduleSlot[]>().notNull().default([]),
    // The card payment provider's customer that checkout reuses (set at the first checkout).
    providerCustomerId: text(),
    ...timestamps(),
  },
  (t) => [index().on(t.planId), index().on(t.name)],
);

export const settings = pgTable(
  'settings',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    value: text().notNull().default(''),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.companyId, t.key)],
);

// Platform-wide help videos, managed by super users.
export const helps = pgTable('helps', {
  id: id(),
  title: text().notNull(),
  video: text().notNull().default(''),
  description: text().notNull().default(''),
  ...timestamps(),
});
