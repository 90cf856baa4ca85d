import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { MediaType } from '@atendi/shared';
import { createdAt, id, timestamps } from './_columns';
import { companies } from './companies';
import { whatsapps } from './whatsapps';

// Baileys auth state, one row per key, so sessions survive restarts without files.
export const whatsappAuthKeys = pgTable(
  'whatsapp_auth_keys',
  {
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    // 'creds', a Baileys key type (pre-key, session, sender-key, app-state-sync-key, ...), or
    // 'phone-contact' (the paired phone's address book, channels/phone-book.ts).
    type: text().notNull(),
    keyId: text().notNull().default(''),
    // Serialised with Baileys' BufferJSON so buffers round-trip.
    value: jsonb().$type<unknown>().notNull(),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.type, t.keyId] })],
);

// Messages a Baileys session sent, kept so WhatsApp's retry requests (getMessage) can be answered.
export const whatsappMessageStore = pgTable(
  'whatsapp_message_store',
  {
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    keyId: text().notNull(),
    // The WAMessage content, serialised with BufferJSON.
    message: jsonb().$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.keyId] }), index().on(t.createdAt)],
);

// The simulator's virtual phone: what the platform sent to it and what its contacts wrote to the
// platform, so a person or a test can read the whole conversation.
export const simulatorMessages = pgTable(
  'simulator_messages',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    providerId: text().notNull(),
    // 'out': the platform sent it to the contact; 'in': the contact wrote it to the platform.
    direction: text().$type<'in' | 'out'>().notNull().default('out'),
    // The contact's number (or group id): whom the platform wrote to, or who wrote.
    to: text().notNull(),
    body: text().notNull().default(''),
    mediaType: text().$type<MediaType>().notNull().default('chat'),
    fileName: text(),
    quotedId: text(),
    ack: integer().notNull().default(1),
    deleted: boolean().notNull().default(false),
    // Marked forwarded by the platform; the reactions of each side on it ('' none).
    forwarded: boolean().notNull().default(false),
    contactReaction: text().notNull().default(''),
    platformReaction: text().notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex().on(t.whatsappId, t.providerId), index().on(t.whatsappId, t.id)],
);

// Requests between API nodes whose arguments are too large for a NOTIFY payload (channels/leases.ts).
export const channelRequests = pgTable('channel_requests', {
  id: text().primaryKey(),
  payload: jsonb().$type<unknown>().notNull(),
  createdAt: createdAt(),
});
