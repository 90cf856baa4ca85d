import { boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './_columns';
import { companies } from './companies';
import { queueIntegrations } from './queue-integrations';
import { tickets } from './tickets';

// A bubble of a flow's answer still to be sent: a text, or a media file by its URL (a caption may follow).
export type FlowBubble = { text: string } | { mediaUrl: string; kind: 'image' | 'video' | 'audio' };

// The conversation a flow holds with a ticket's contact (Typebot): its session, the choices it last
// offered (a contact may answer by number) and the turn being delivered, bubble by bubble.
export const integrationSessions = pgTable('integration_sessions', {
  ticketId: integer()
    .primaryKey()
    .references(() => tickets.id, { onDelete: 'cascade' }),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  integrationId: integer()
    .notNull()
    .references(() => queueIntegrations.id, { onDelete: 'cascade' }),
  // The flow's session id (Typebot's sessionId).
  sessionId: text().notNull(),
  choices: jsonb().$type<string[]>().notNull().default([]),
  // The contact's message the current turn answers, and the bubbles of its answer not sent yet.
  turnMessageId: integer(),
  pending: jsonb().$type<FlowBubble[]>().notNull().default([]),
  // The flow ended with this turn: once its bubbles are out, the ticket waits in its queue.
  ended: boolean().notNull().default(false),
  // The contact's last message in this session (a session idle longer than typebotExpires starts over).
  lastActiveAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  createdAt: createdAt(),
});
