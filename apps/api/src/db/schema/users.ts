import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Presence, Profile } from '@atendi/shared';
import { createdAt, id, timestamps } from './_columns';
import { companies } from './companies';
import { queues } from './queues';
import { whatsapps } from './whatsapps';

export const users = pgTable(
  'users',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    // Login is by email, so it is unique across the platform (stored lower-cased).
    email: text().notNull(),
    passwordHash: text().notNull(),
    profile: text().$type<Profile>().notNull().default('user'),
    super: boolean().notNull().default(false),
    allTicket: text().$type<'enabled' | 'desabled'>().notNull().default('desabled'),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    // What the platform makes of the user's sockets and choice (modules/presence): written only by
    // settlePresence.
    presence: text().$type<Presence>().notNull().default('offline'),
    // The user's own choice: online (available), away or offline.
    availability: text().$type<Presence>().notNull().default('online'),
    // When their last socket closed: offline once the reconnect grace has passed since.
    lastSeenAt: timestamp({ withTimezone: true, mode: 'date' }),
    // Automatic assignment gives them at most this many open conversations (null: no limit).
    maxTickets: integer(),
    // Two-factor sign-in (modules/auth/two-factor.ts): the TOTP secret (sealed) once enabled, the one
    // being enrolled, when it was enabled, and the time step of the last code accepted (a code is
    // good once).
    totpSecret: text(),
    totpPending: text(),
    totpEnabledAt: timestamp({ withTimezone: true, mode: 'date' }),
    totpLastStep: bigint({ mode: 'number' }),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.email), index().on(t.companyId, t.name)],
);

export const userQueues = pgTable(
  'user_queues',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    queueId: integer()
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    // When automatic assignment last gave them a conversation of this queue (round robin's turn).
    lastAssignedAt: timestamp({ withTimezone: true, mode: 'date' }),
    // Their most open conversations of this queue that automatic assignment gives them (null: only
    // their overall limit counts).
    maxTickets: integer(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.queueId] }), index().on(t.queueId)],
);

// The API processes that hold sockets, each seen at its heartbeat (modules/presence): a node that
// stops beating is forgotten, and its sockets with it.
export const presenceNodes = pgTable('presence_nodes', {
  id: text().primaryKey(),
  seenAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

// Every open socket of a user, on whichever node holds it: a user is online while they have one.
export const presenceSockets = pgTable(
  'presence_sockets',
  {
    socketId: text().primaryKey(),
    nodeId: text()
      .notNull()
      .references(() => presenceNodes.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    // The tab reported no activity for a while.
    idle: boolean().notNull().default(false),
    connectedAt: createdAt(),
  },
  (t) => [index().on(t.userId), index().on(t.nodeId)],
);

// One row per issued refresh token; a family is one login. Reusing a rotated token revokes the family.
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    familyId: text().notNull(),
    tokenHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    rotatedAt: timestamp({ withTimezone: true, mode: 'date' }),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex().on(t.tokenHash), index().on(t.familyId), index().on(t.userId)],
);

// Single-use, expiring password reset codes; only a hash of the code is stored.
export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
    attempts: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.userId)],
);

// A user's one-time recovery codes (hashed; each used once).
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex().on(t.userId, t.codeHash)],
);

// The second step of a sign-in whose password was right: single-use, short-lived, few tries. Only a
// hash of its token is stored; an enrolment's new secret waits here (sealed) until confirmed.
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: id(),
    tokenHash: text().notNull().unique(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().$type<'verify' | 'enroll'>().notNull(),
    secret: text(),
    attempts: integer().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.userId), index().on(t.expiresAt)],
);

// A login as its owner sees it (issue 37): the refresh-token family `family_id` names (the access
// tokens' `sid`), the device and address it signed in from, and when it was last refreshed. Live
// while its family holds a token not revoked (platform/sessions.ts).
export const userSessions = pgTable(
  'user_sessions',
  {
    familyId: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    device: text().notNull().default(''),
    // The keyed hash of the browser's id cookie (issue 41: one session per device); null for the
    // sessions signed in before it was kept.
    deviceKey: text(),
    address: text().notNull().default(''),
    createdAt: createdAt(),
    lastUsedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId)],
);
