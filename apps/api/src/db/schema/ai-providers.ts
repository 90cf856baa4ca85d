import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { updatedAt } from './_columns';
import { companies } from './companies';

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
