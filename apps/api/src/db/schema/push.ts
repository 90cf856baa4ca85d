import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, timestamps, updatedAt } from './_columns';
import { companies } from './companies';
import { users } from './users';

// Issue 41, Web Push: a device a user opted in on (its browser's PushSubscription). The endpoint is
// the push service's address for that browser, unique: a browser where another user signs in and opts
// in becomes theirs. p256dh and auth are the keys payloads are encrypted for (RFC 8291).
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text().notNull().unique(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    // How the user knows the device (the browser's user agent unless they named it).
    device: text().notNull().default(''),
    // The language its pushes are written in (the app's on the device when it opted in).
    language: text().notNull().default('es'),
    lastSuccessAt: timestamp({ withTimezone: true, mode: 'date' }),
    lastFailureAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [index().on(t.userId)],
);

// What a user is pushed about (no row: pushPreferenceDefaults of @atendi/shared).
export const pushPreferences = pgTable('push_preferences', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  newMessage: boolean().notNull().default(true),
  assigned: boolean().notNull().default(true),
  transferred: boolean().notNull().default(true),
  waitingInQueues: boolean().notNull().default(false),
  slaWarning: boolean().notNull().default(true),
  updatedAt: updatedAt(),
});
