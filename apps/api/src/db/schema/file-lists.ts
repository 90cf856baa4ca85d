import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { companies } from './companies';

export const fileLists = pgTable(
  'file_lists',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    message: text().notNull().default(''),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.name)],
);

export const fileListOptions = pgTable(
  'file_list_options',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    fileListId: integer()
      .notNull()
      .references(() => fileLists.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    path: text().notNull().default(''),
    // MIME type of the stored file.
    mediaType: text().notNull().default(''),
    ...timestamps(),
  },
  (t) => [index().on(t.fileListId)],
);
