import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { contacts } from './contacts';
import { tickets } from './tickets';
import { users } from './users';
import { whatsapps } from './whatsapps';

// Messages scheduled to be sent to a contact at sendAt.
export const schedules = pgTable(
  'schedules',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    body: text().notNull(),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    ticketId: integer().references(() => tickets.id, { onDelete: 'set null' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    sendAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    sentAt: timestamp({ withTimezone: true, mode: 'date' }),
    status: text().notNull().default('PENDENTE'),
    mediaPath: text(),
    mediaName: text(),
    ...timestamps(),
  },
  (t) => [
    index().on(t.companyId, t.sendAt),
    // The sender job's scan for due, unsent schedules.
    index('schedules_due_idx')
      .on(t.sendAt)
      .where(sql`sent_at is null`),
    index().on(t.contactId),
  ],
);
