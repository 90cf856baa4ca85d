import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { InsightAction, InsightCondition, Sentiment, TicketInsightData } from '@atendi/shared';
import { id, timestamps, updatedAt } from './_columns';
import { companies } from './companies';
import { tickets } from './tickets';

// Live insight (modules/insight): the newest analysis of a live conversation, one row per ticket. A
// later analysis replaces it only when it read further into the conversation (`messageId`, the newest
// message it read), so an older one that finishes late changes nothing.
export const ticketInsights = pgTable(
  'ticket_insights',
  {
    ticketId: integer()
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    sentiment: text().$type<Sentiment>().notNull(),
    // The conversation is over for the customer (the model's `final`).
    final: boolean().notNull().default(false),
    // The customer's and the order's data the model found (datos_cliente, datos_pedido).
    structured: jsonb().$type<TicketInsightData>().notNull(),
    messageId: integer().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.companyId)],
);

// A company's rules on live insight: when an analysis meets the condition, the action is taken on
// the ticket (a tag, or its kanban lane).
export const insightRules = pgTable(
  'insight_rules',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    enabled: boolean().notNull().default(true),
    condition: jsonb().$type<InsightCondition>().notNull(),
    action: jsonb().$type<InsightAction>().notNull(),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId)],
);
