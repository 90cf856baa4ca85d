import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type {
  ConnectionCause,
  ConnectionStatus,
  Provider,
  ScheduleSlot,
  TemplateComponent,
} from '@atendi/shared';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { queueIntegrations } from './queue-integrations';
import { prompts, queues } from './queues';

export const whatsapps = pgTable(
  'whatsapps',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    status: text().$type<ConnectionStatus>().notNull().default('DISCONNECTED'),
    isDefault: boolean().notNull().default(false),
    qrcode: text().notNull().default(''),
    // A pairing code waiting to be typed on the phone (the alternative to scanning the QR).
    pairingCode: text().notNull().default(''),
    retries: integer().notNull().default(0),
    session: text().notNull().default(''),
    number: text().notNull().default(''),
    greetingMessage: text().notNull().default(''),
    complationMessage: text().notNull().default(''),
    outOfHoursMessage: text().notNull().default(''),
    ratingMessage: text().notNull().default(''),
    // Bearer token of the external messages API (SPEC §7), unique across the platform.
    token: text(),
    provider: text().$type<Provider>().notNull().default('beta'),
    // The AI agent that answers every new conversation of this connection.
    promptId: integer().references((): AnyPgColumn => prompts.id, { onDelete: 'set null' }),
    integrationId: integer().references((): AnyPgColumn => queueIntegrations.id, {
      onDelete: 'set null',
    }),
    transferQueueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    timeToTransfer: integer(),
    expiresTicket: integer().notNull().default(0),
    expiresInactiveMessage: text().notNull().default(''),
    timeUseBotQueues: integer().notNull().default(0),
    maxUseBotQueues: integer().notNull().default(3),
    // Business hours of the connection (SPEC §3), same shape as queue and company schedules.
    schedules: jsonb().$type<ScheduleSlot[]>().notNull().default([]),
    // WhatsApp Business Cloud API credentials (provider 'cloud').
    cloudPhoneNumberId: text(),
    cloudAccessToken: text(),
    cloudAppSecret: text(),
    cloudVerifyToken: text(),
    cloudApiBaseUrl: text(),
    // The WhatsApp Business Account the number belongs to: its message templates live there.
    cloudBusinessAccountId: text(),
    // When the account's templates were last copied from the Graph API.
    templatesSyncedAt: timestamp({ withTimezone: true, mode: 'date' }),
    // Meta's view of the number (issue 39): its quality rating (GREEN, YELLOW, RED, UNKNOWN) and its
    // messaging limit tier (TIER_250 … TIER_UNLIMITED: new conversations a business may start in 24
    // hours), from the phone number's fields and the quality webhooks; when Meta last said so.
    cloudQualityRating: text(),
    cloudMessagingLimit: text(),
    cloudHealthAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [
    index().on(t.companyId),
    uniqueIndex().on(t.companyId, t.name),
    uniqueIndex().on(t.token),
    uniqueIndex().on(t.cloudPhoneNumberId),
  ],
);

export const whatsappQueues = pgTable(
  'whatsapp_queues',
  {
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    queueId: integer()
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index().on(t.queueId)],
);

// The Cloud API connection's message templates, as last synced from its WhatsApp Business Account
// (shared/templates.ts). A sync replaces the connection's rows; Meta's status webhooks update one.
export const messageTemplates = pgTable(
  'message_templates',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    // Meta's template id.
    providerId: text().notNull(),
    name: text().notNull(),
    language: text().notNull(),
    status: text().notNull(),
    category: text().notNull().default(''),
    components: jsonb().$type<TemplateComponent[]>().notNull().default([]),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.whatsappId, t.name, t.language), index().on(t.providerId)],
);

// Every status change of a connection (issue 39: number health), with why when WhatsApp or the
// provider decided it, written in the transaction that changed the status (a connection.status
// recorder). `alerted`: the company's admins were emailed about it (at most one an hour a connection).
export const connectionHistory = pgTable(
  'connection_history',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    status: text().$type<ConnectionStatus>().notNull(),
    previous: text().$type<ConnectionStatus>(),
    cause: text().$type<ConnectionCause>(),
    detail: text().notNull().default(''),
    alerted: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index().on(t.whatsappId, t.id)],
);
