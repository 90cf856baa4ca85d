import { bigint, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AiFeature } from '@atendi/shared';
import { id, updatedAt } from './_columns';
import { companies } from './companies';
import { prompts } from './queues';

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

// The answers each AI agent sent contacts in a calendar month (YYYY-MM, in the company's time zone),
// counted against its plan's aiMessages (modules/prompts/ai-usage.ts). A deleted agent's rows stay
// (prompt_id null) so the company's month still shows them.
export const aiUsage = pgTable(
  'ai_usage',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    promptId: integer().references(() => prompts.id, { onDelete: 'set null' }),
    month: text().notNull(),
    messages: integer().notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex().on(t.promptId, t.month), index().on(t.companyId, t.month)],
);

// The tokens a company's uses of AI spent in a calendar month (its time zone), per feature, as the
// provider's answers counted them (modules/prompts/ai-usage.ts): counted against the plan's aiTokens.
export const aiTokens = pgTable(
  'ai_tokens',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    month: text().notNull(),
    feature: text().$type<AiFeature>().notNull(),
    calls: integer().notNull().default(0),
    promptTokens: bigint({ mode: 'number' }).notNull().default(0),
    completionTokens: bigint({ mode: 'number' }).notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex().on(t.companyId, t.month, t.feature)],
);
