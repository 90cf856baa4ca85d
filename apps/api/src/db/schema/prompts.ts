import { index, integer, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { id, timestamps, updatedAt } from './_columns';
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
    // The queue a conversation goes to when the agent hands it to a person without naming one.
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    // What last went wrong reaching the provider while answering a customer (admins see it).
    lastErrorCode: text(),
    lastErrorMessage: text(),
    lastErrorAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.name)],
);

// A company's own OpenAI-compatible provider (OpenAI, Azure, Ollama, vLLM, OpenRouter…). The key is
// sealed with the server's ENCRYPTION_KEY (platform/secrets.ts) and never leaves the API.
export const aiProviders = pgTable('ai_providers', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  baseUrl: text(),
  apiKeySealed: text(),
  updatedAt: updatedAt(),
});
