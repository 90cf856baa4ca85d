import { index, integer, pgTable, real, text } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { queues } from './queues';

// AI agents (SPEC "Prompt").
export const prompts = pgTable(
  'prompts',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    prompt: text().notNull(),
    model: text().notNull().default('gpt-3.5-turbo-1106'),
    maxTokens: integer().notNull().default(100),
    temperature: real().notNull().default(1),
    maxMessages: integer().notNull().default(10),
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    // OpenAI key of the company; to be stored encrypted, never returned by the API.
    apiKey: text(),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.name)],
);
