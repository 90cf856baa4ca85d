import {
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { invoiceStatuses } from '@atendi/shared';
import { id, timestamps } from './_columns';
import { companies, plans } from './companies';

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    detail: text().notNull().default(''),
    value: numeric({ precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    dueDate: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    status: text().$type<(typeof invoiceStatuses)[number]>().notNull().default('open'),
    // Payment provider's reference; unique so a repeated payment webhook settles it once.
    paymentRef: text(),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.dueDate), uniqueIndex().on(t.paymentRef)],
);

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
    // The provider's status as received (active, canceled, incomplete, trialing, ...).
    status: text().notNull().default('incomplete'),
    providerSubscriptionId: text(),
    providerCustomerId: text(),
    currentPeriodStart: timestamp({ withTimezone: true, mode: 'date' }),
    currentPeriodEnd: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId), uniqueIndex().on(t.providerSubscriptionId)],
);
