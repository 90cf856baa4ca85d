import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { MediaError, MediaType } from '@atendi/shared';
import { createdAt, id, timestamps } from './_columns';
import { companies } from './companies';
import { contacts } from './contacts';
import { prompts } from './queues';
import { tickets } from './tickets';
import { users } from './users';
import { whatsapps } from './whatsapps';

export const messages = pgTable(
  'messages',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    // The provider's message id (WhatsApp key id); null until an outgoing message is sent.
    providerId: text(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    // Sender; in groups the participant, not the group.
    contactId: integer().references(() => contacts.id, { onDelete: 'set null' }),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'no action' }),
    body: text().notNull().default(''),
    fromMe: boolean().notNull().default(false),
    mediaType: text().$type<MediaType>().notNull().default('chat'),
    mediaUrl: text(),
    mediaName: text(),
    // A received file that was not kept, and why (the message is kept anyway).
    mediaError: text().$type<MediaError>(),
    // What a voice note says, written by the company's AI provider (issue 40, modules/voice-notes);
    // null until then. The body stays the caption its sender wrote.
    transcript: text(),
    quotedMsgId: integer().references((): AnyPgColumn => messages.id, { onDelete: 'set null' }),
    isDeleted: boolean().notNull().default(false),
    isEdited: boolean().notNull().default(false),
    // Forwarded from another chat (issue 39), shown as WhatsApp shows it.
    isForwarded: boolean().notNull().default(false),
    read: boolean().notNull().default(false),
    // 0 not yet sent, then SPEC's 1 to 5.
    ack: integer().notNull().default(0),
    remoteJid: text(),
    participant: text(),
    // Raw provider payload, kept for quoting, media refetch and edits.
    dataJson: jsonb().$type<Record<string, unknown>>(),
    scheduled: boolean().notNull().default(false),
    // Written by this AI agent (a bot's answer), else null.
    promptId: integer().references((): AnyPgColumn => prompts.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    // A redelivered inbound message is stored once.
    uniqueIndex().on(t.whatsappId, t.providerId),
    // nullsFirst matches plain ORDER BY created_at DESC, id DESC.
    index().on(t.ticketId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index().on(t.companyId, t.createdAt),
    // Indexes the FK columns so deleting a ticket or contact does not scan every message.
    index().on(t.contactId),
    // Deleting an AI agent clears its mark on messages without scanning them all.
    index()
      .on(t.promptId)
      .where(sql`prompt_id is not null`),
    index()
      .on(t.quotedMsgId)
      .where(sql`quoted_msg_id is not null`),
    // Substring search (ILIKE '%term%') over bodies; needs the pg_trgm extension.
    index('messages_body_trgm_idx').using('gin', t.body.op('gin_trgm_ops')),
    // The same search over voice notes' transcripts (few messages have one).
    index('messages_transcript_trgm_idx')
      .using('gin', t.transcript.op('gin_trgm_ops'))
      .where(sql`transcript is not null`),
  ],
);

// Reactions on a message (issue 39): WhatsApp keeps one per account, so one row per sender: the
// contact (in groups each member, by number) or the company's number (fromMe, sender ''), whichever of
// its people or its phone chose it. A taken-back reaction stays as an empty emoji, so a late, older
// report (reactedAt) never brings it back.
export const messageReactions = pgTable(
  'message_reactions',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    messageId: integer()
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    fromMe: boolean().notNull(),
    // The reacting member's or contact's number ('' for the company's own number).
    sender: text().notNull(),
    emoji: text().notNull(),
    // The person of the company who chose the company's reaction (null: the phone, or a contact).
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    reactedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.messageId, t.fromMe, t.sender)],
);

// External messages API (SPEC §7): a call's Idempotency-Key per connection and what it answered, so a
// retried call finds the first one's messages instead of sending again. Kept a day (jobs prune them).
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    // A digest of the request (number, body, files' names and sizes): the same key with another
    // request is refused.
    requestHash: text().notNull(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    messageIds: integer().array().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex().on(t.whatsappId, t.key), index().on(t.createdAt)],
);

// An agent's send from the inbox (POST /messages/{ticketId}) with an Idempotency-Key: a retry of the
// same send (the client never saw the answer) answers the messages the first call stored instead of
// sending again. Kept a day, as the external API's keys.
export const messageSendKeys = pgTable(
  'message_send_keys',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    // A digest of the send (ticket, text, quoted message, files' names and types): the same key with
    // another send is refused.
    requestHash: text().notNull(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    messageIds: integer().array().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex().on(t.userId, t.key), index().on(t.createdAt)],
);
