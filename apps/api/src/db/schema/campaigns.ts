import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { campaignStatuses } from '@atendi/shared';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { contactLists } from './contact-lists';
import { contacts } from './contacts';
import { fileLists } from './file-lists';
import { tags } from './tags';
import { whatsapps } from './whatsapps';

export const campaigns = pgTable(
  'campaigns',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    message1: text().notNull().default(''),
    message2: text().notNull().default(''),
    message3: text().notNull().default(''),
    message4: text().notNull().default(''),
    message5: text().notNull().default(''),
    confirmation: boolean().notNull().default(false),
    confirmationMessage1: text().notNull().default(''),
    confirmationMessage2: text().notNull().default(''),
    confirmationMessage3: text().notNull().default(''),
    confirmationMessage4: text().notNull().default(''),
    confirmationMessage5: text().notNull().default(''),
    status: text().$type<(typeof campaignStatuses)[number]>().notNull().default('INATIVA'),
    scheduledAt: timestamp({ withTimezone: true, mode: 'date' }),
    completedAt: timestamp({ withTimezone: true, mode: 'date' }),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    contactListId: integer().references(() => contactLists.id, { onDelete: 'set null' }),
    // Audience by tag instead of list; null is the SPEC's 'Ninguna' (none).
    tagListId: integer().references(() => tags.id, { onDelete: 'set null' }),
    fileListId: integer().references(() => fileLists.id, { onDelete: 'set null' }),
    mediaPath: text(),
    mediaName: text(),
    ...timestamps(),
  },
  (t) => [index().on(t.companyId, t.status), index().on(t.status, t.scheduledAt)],
);

// One row per key (messageInterval, longerIntervalAfter, greaterInterval, variables); value is JSON.
export const campaignSettings = pgTable(
  'campaign_settings',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    value: text().notNull().default(''),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.companyId, t.key)],
);

// One row per recipient of a campaign; the unique number makes a restart resume, not resend.
export const campaignShipping = pgTable(
  'campaign_shipping',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    campaignId: integer()
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    contactId: integer().references(() => contacts.id, { onDelete: 'set null' }),
    number: text().notNull(),
    message: text().notNull().default(''),
    confirmationMessage: text().notNull().default(''),
    confirmation: boolean().notNull().default(false),
    deliveredAt: timestamp({ withTimezone: true, mode: 'date' }),
    confirmationRequestedAt: timestamp({ withTimezone: true, mode: 'date' }),
    confirmedAt: timestamp({ withTimezone: true, mode: 'date' }),
    jobId: text(),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.campaignId, t.number), index().on(t.contactId)],
);
