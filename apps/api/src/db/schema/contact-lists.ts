import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { companies } from './companies';

// Campaign audiences: imported numbers, not necessarily contacts yet.
export const contactLists = pgTable(
  'contact_lists',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.name)],
);

export const contactListItems = pgTable(
  'contact_list_items',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactListId: integer()
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    number: text().notNull(),
    email: text().notNull().default(''),
    // Whether WhatsApp has the number: null until a connection able to look numbers up said so.
    isWhatsappValid: boolean(),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.contactListId, t.number)],
);
