import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { companies } from './companies';

// Written by super users and shown to every user of every company; companyId is the author's.
export const announcements = pgTable(
  'announcements',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    text: text().notNull(),
    // 1 high, 2 medium, 3 low.
    priority: integer().notNull().default(3),
    status: boolean().notNull().default(true),
    mediaPath: text(),
    mediaName: text(),
    ...timestamps(),
  },
  (t) => [index().on(t.status, t.priority)],
);
