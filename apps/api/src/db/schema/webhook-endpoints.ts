import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamps } from './_columns';
import { companies } from './companies';

// A company's outbound webhook endpoint (issue 38): where it is, the event types it hears, its signing
// secret (`whsec_…`, sealed like the AI keys: platform/secrets.ts), and its health: attempts failed in a
// row since when, and whether the platform turned it off for failing too long.
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    description: text().notNull().default(''),
    events: text().array().notNull(),
    enabled: boolean().notNull().default(true),
    secretSealed: text().notNull(),
    consecutiveFailures: integer().notNull().default(0),
    failingSince: timestamp({ withTimezone: true, mode: 'date' }),
    disabledAt: timestamp({ withTimezone: true, mode: 'date' }),
    disabledReason: text().$type<'failures'>(),
    lastDeliveryAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId)],
);

// One attempt of a delivery, as its log keeps it.
export type WebhookAttempt = {
  at: string;
  status: number | null;
  durationMs: number;
  error: string | null;
  response: string;
};

// One event for one endpoint: the body as it is sent on every attempt (built when the event happened),
// its stable `webhook-id` (messageId), and how its attempts went (the newest 20 in `log`). Kept for
// WEBHOOK_LOG_DAYS.
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    endpointId: integer()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text().notNull().unique(),
    eventType: text().notNull(),
    // What the delivery is about, for its order: deliveries of one key go one after another.
    orderKey: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text().$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    responseStatus: integer(),
    durationMs: integer(),
    error: text(),
    log: jsonb().$type<WebhookAttempt[]>().notNull().default([]),
    createdAt: createdAt(),
    lastAttemptAt: timestamp({ withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [index().on(t.endpointId, t.id), index().on(t.createdAt)],
);
