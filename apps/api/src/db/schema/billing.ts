import {
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { InvoiceStatus } from '@atendi/shared';
import { createdAt, id, timestamps } from './_columns';
import { companies, plans } from './companies';

// Billing through the card payment provider (modules/subscriptions). Rows are written only by the
// provider's webhooks, so they mirror what the provider says; `providerUpdatedAt` is the time of the
// last event applied, and an older event arriving late changes nothing.

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    planId: integer()
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    // The provider's status as received (active, canceled, incomplete, trialing, past_due, ...).
    status: text().notNull().default('incomplete'),
    providerSubscriptionId: text(),
    providerCustomerId: text(),
    startedAt: timestamp({ withTimezone: true, mode: 'date' }),
    currentPeriodStart: timestamp({ withTimezone: true, mode: 'date' }),
    currentPeriodEnd: timestamp({ withTimezone: true, mode: 'date' }),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    providerUpdatedAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId), uniqueIndex().on(t.providerSubscriptionId)],
);

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    subscriptionId: integer().references(() => subscriptions.id, { onDelete: 'set null' }),
    detail: text().notNull().default(''),
    // In the currency's main unit.
    value: numeric({ precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    currency: text().notNull().default('usd'),
    dueDate: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    status: text().$type<InvoiceStatus>().notNull().default('open'),
    // The provider's invoice id; unique so a repeated payment webhook settles it once.
    paymentRef: text(),
    paidAt: timestamp({ withTimezone: true, mode: 'date' }),
    hostedInvoiceUrl: text(),
    providerUpdatedAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.dueDate), uniqueIndex().on(t.paymentRef)],
);

// Every provider webhook event received, by its id: a redelivered event finds its row and is not
// processed again. The event itself waits in the jobs table (queue billing.webhook) until processed.
export const billingEvents = pgTable(
  'billing_events',
  {
    providerEventId: text().primaryKey(),
    type: text().notNull(),
    companyId: integer().references(() => companies.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.createdAt)],
);
