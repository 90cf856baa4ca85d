import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { companies } from './companies';
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
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.shortcode)],
);
