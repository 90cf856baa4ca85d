import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  DEFAULT_PLAN_STORAGE_MB,
  type CompanyStatus,
  type Recurrence,
  type ScheduleSlot,
} from '@atendi/shared';
import { id, timestamps } from './_columns';

export const plans = pgTable('plans', {
  id: id(),
  name: text().notNull().unique(),
  users: integer().notNull().default(0),
  connections: integer().notNull().default(0),
  queues: integer().notNull().default(0),
  // AI agents a company may have, and answers each may send in a calendar month (0: unlimited).
  aiAgents: integer().notNull().default(0),
  aiMessages: integer().notNull().default(0),
  // Tokens the company's every use of AI (agents, co-pilot, transcriptions, embeddings) may spend in
  // a calendar month (0: unlimited).
  aiTokens: integer().notNull().default(0),
  value: numeric({ precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
  useCampaigns: boolean().notNull().default(true),
  useKanban: boolean().notNull().default(true),
  useOpenAi: boolean().notNull().default(true),
  useIntegrations: boolean().notNull().default(true),
  useSchedules: boolean().notNull().default(true),
  useExternalApi: boolean().notNull().default(true),
  // MB of files its companies may keep (0: unlimited); plans older than the limit get the default.
  storageMb: integer().notNull().default(DEFAULT_PLAN_STORAGE_MB),
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
    // IANA; null: the platform's TIME_ZONE (companies from before zones were per company).
    timeZone: text(),
    // The card payment provider's customer that checkout reuses (set at the first checkout).
    providerCustomerId: text(),
    // Bytes of the company's files, the sum of its stored_files (platform/storage.ts keeps both).
    storageUsed: bigint({ mode: 'number' }).notNull().default(0),
    ...timestamps(),
  },
  (t) => [index().on(t.planId), index().on(t.name)],
);

// Every file kept under DATA_DIR/uploads/{companyId}/ and its size: a file is counted once and
// uncounted once, however often it is stored or removed.
export const storedFiles = pgTable(
  'stored_files',
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    bytes: bigint({ mode: 'number' }).notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.name] })],
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
