import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id } from './_columns';
import { companies } from './companies';
import { users } from './users';

// A company-wide export of conversations (issue 38): what was asked (days, format, files or not), how
// far the build got, and the file in the file store (`fileKey`) until `expiresAt`.
export const conversationExports = pgTable(
  'conversation_exports',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    status: text().$type<'pending' | 'running' | 'done' | 'failed'>().notNull().default('pending'),
    format: text().$type<'jsonl' | 'csv'>().notNull(),
    includeMedia: boolean().notNull().default(false),
    dateFrom: text().notNull(),
    dateTo: text().notNull(),
    total: integer(),
    done: integer().notNull().default(0),
    size: bigint({ mode: 'number' }),
    error: text(),
    fileKey: text(),
    createdAt: createdAt(),
    finishedAt: timestamp({ withTimezone: true, mode: 'date' }),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [index().on(t.companyId, t.id), index().on(t.expiresAt)],
);
