import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { tickets } from './tickets';
import { users } from './users';

export const tags = pgTable(
  'tags',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    color: text().notNull().default(''),
    // 1 makes the tag a kanban lane (SPEC keeps it numeric, 0 or 1).
    kanban: integer().notNull().default(0),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.companyId, t.name)],
);

export const ticketTags = pgTable(
  'ticket_tags',
  {
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    tagId: integer()
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.tagId] }), index().on(t.tagId)],
);
