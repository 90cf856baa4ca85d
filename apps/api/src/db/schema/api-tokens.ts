import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id } from './_columns';
import { companies } from './companies';
import { users } from './users';

// A company's API token (issue 38): a keyed hash of the token (platform/tokens.ts), its first
// characters to tell it apart, its scopes, an optional expiry, and who made it (the token acts as
// them, and ends with their account). Revoked tokens stay, for the audit log's targets.
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    createdBy: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    tokenHash: text().notNull().unique(),
    prefix: text().notNull(),
    scopes: jsonb().$type<string[]>().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp({ withTimezone: true, mode: 'date' }),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.companyId)],
);
