import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { queues } from './queues';
import { users } from './users';

export const quickMessages = pgTable(
  'quick_messages',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    shortcode: text().notNull(),
    message: text().notNull().default(''),
    // true: shared with the whole company; false: only its author sees it.
    geral: boolean().notNull().default(false),
    status: boolean().notNull().default(true),
    mediaPath: text(),
    mediaName: text(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    // An answer of one queue, for its agents (issue 36); a deleted queue leaves it to its author.
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.shortcode)],
);
