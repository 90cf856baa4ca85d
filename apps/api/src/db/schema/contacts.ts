import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { whatsapps } from './whatsapps';

export const contacts = pgTable(
  'contacts',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    number: text().notNull(),
    email: text().notNull().default(''),
    // Picture URL reported by WhatsApp; urlPicture is our stored copy of it.
    profilePicUrl: text().notNull().default(''),
    urlPicture: text().notNull().default(''),
    isGroup: boolean().notNull().default(false),
    // WhatsApp LID (privacy id) seen on this contact, to map LID-addressed messages to the phone.
    lid: text(),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    disableBot: boolean().notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex().on(t.companyId, t.number),
    uniqueIndex()
      .on(t.companyId, t.lid)
      .where(sql`lid is not null`),
    index().on(t.companyId, t.name),
    // Ticket search matches contacts by any part of the name or number (ILIKE '%term%').
    index('contacts_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('contacts_number_trgm_idx').using('gin', t.number.op('gin_trgm_ops')),
  ],
);

// SPEC extraInfo: free name/value pairs on a contact.
export const contactCustomFields = pgTable(
  'contact_custom_fields',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    value: text().notNull().default(''),
    ...timestamps(),
  },
  (t) => [index().on(t.contactId)],
);
