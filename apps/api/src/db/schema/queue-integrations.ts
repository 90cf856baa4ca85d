import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { integrationTypes } from '@atendi/shared';
import { createdAt, id, timestamps } from './_columns';
import { companies } from './companies';

export const queueIntegrations = pgTable(
  'queue_integrations',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    type: text().$type<(typeof integrationTypes)[number]>().notNull(),
    projectName: text().notNull().default(''),
    // Dialogflow service-account JSON, sealed with ENCRYPTION_KEY (platform/secrets.ts); never answered.
    jsonContent: text().notNull().default(''),
    language: text().notNull().default(''),
    urlN8N: text().notNull().default(''),
    typebotSlug: text().notNull().default(''),
    // Minutes of inactivity before a Typebot session is dropped.
    typebotExpires: integer().notNull().default(1),
    typebotDelayMessage: integer().notNull().default(1000),
    typebotKeywordFinish: text().notNull().default(''),
    typebotKeywordRestart: text().notNull().default(''),
    typebotUnknownMessage: text().notNull().default(''),
    typebotRestartMessage: text().notNull().default(''),
    // The HMAC-SHA256 key of the events posted to n8n and webhooks, sealed like jsonContent.
    signingSecretSealed: text(),
    // What last went wrong talking to the flow while serving a contact (admins see it).
    lastErrorCode: text(),
    lastErrorMessage: text(),
    lastErrorAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.companyId, t.name)],
);

// Every event posted to an n8n or webhook integration, each attempt with its answer (admins read them
// to see why a flow did not answer).
export const integrationDeliveries = pgTable(
  'integration_deliveries',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    integrationId: integer()
      .notNull()
      .references(() => queueIntegrations.id, { onDelete: 'cascade' }),
    ticketId: integer(),
    messageId: integer(),
    event: text().notNull(),
    attempt: integer().notNull(),
    // The receiver's HTTP status, null when it could not be reached.
    status: integer(),
    ok: boolean().notNull(),
    durationMs: integer().notNull(),
    error: text(),
    // The texts the flow answered, sent to the contact (null: none).
    replies: jsonb().$type<string[]>(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.integrationId, t.createdAt)],
);
