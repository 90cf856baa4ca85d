import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { CampaignHoldReason, campaignStatuses, ShippingStatus } from '@atendi/shared';
import { id, timestamps } from './_columns';
import { companies } from './companies';
import { contactLists } from './contact-lists';
import { contacts } from './contacts';
import { fileLists } from './file-lists';
import { messages } from './messages';
import { tags } from './tags';
import { messageTemplates, whatsapps } from './whatsapps';

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
    // Cloud API: the template that opens each recipient's conversation, and its values.
    templateId: integer().references(() => messageTemplates.id, { onDelete: 'set null' }),
    templateParams: jsonb()
      .$type<{ header: string[]; body: string[] }>()
      .notNull()
      .default({ header: [], body: [] }),
    // When the dispatcher planned its recipients (null until it starts).
    startedAt: timestamp({ withTimezone: true, mode: 'date' }),
    // Messages handed to WhatsApp so far (paces the longer pause after every N).
    sentCount: integer().notNull().default(0),
    // Waiting for the number's limit (issue 39): Meta's tier on the Cloud API, the daily cap or the
    // warm-up on Baileys; sends again from heldUntil (null: not held).
    heldReason: text().$type<CampaignHoldReason>(),
    heldUntil: timestamp({ withTimezone: true, mode: 'date' }),
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

// One row per recipient of a campaign, planned when it starts; the unique number makes a restart resume,
// not resend. A row is claimed (sending) before its message is handed to WhatsApp and marked after
// (delivered with the provider id), so a dispatcher that died in between finds it and settles it.
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
    name: text().notNull().default(''),
    // pending, sending, confirmation, delivered, failed, opted_out (shared shippingStatuses).
    status: text().$type<ShippingStatus>().notNull().default('pending'),
    // The message slot chosen for this recipient (1 to 5), and its confirmation slot.
    variant: integer(),
    confirmationVariant: integer(),
    // The text as sent (variables filled), WhatsApp's id for it, and how far it got (SPEC §4 ack:
    // 1-2 sent, 3 delivered, 4-5 read), kept up by WhatsApp's reports.
    message: text().notNull().default(''),
    providerId: text(),
    ack: integer().notNull().default(0),
    error: text(),
    // The confirmation request as sent, and WhatsApp's id for it (confirmation campaigns).
    confirmationMessage: text().notNull().default(''),
    confirmationProviderId: text(),
    confirmation: boolean().notNull().default(false),
    deliveredAt: timestamp({ withTimezone: true, mode: 'date' }),
    confirmationRequestedAt: timestamp({ withTimezone: true, mode: 'date' }),
    confirmedAt: timestamp({ withTimezone: true, mode: 'date' }),
    // When the recipient answered this campaign with an opt-out word (its status stays what it was
    // when it got the message; skipped recipients are status opted_out).
    optedOutAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex().on(t.campaignId, t.number),
    index().on(t.contactId),
    // The dispatcher's next recipient, and the report's counts.
    index().on(t.campaignId, t.status, t.id),
    // A contact's message finds whether it answers a campaign (confirmation or opt-out).
    index().on(t.companyId, t.number),
    // The conversations a number's campaigns started in the last 24 hours (its limit).
    index().on(t.campaignId, t.deliveredAt),
    // WhatsApp's reports (acks) find the recipient of the message they are about.
    index()
      .on(t.providerId)
      .where(sql`provider_id is not null`),
  ],
);

// Numbers that asked not to get campaigns (an opt-out word answered to one); never planned again.
export const campaignOptOuts = pgTable(
  'campaign_opt_outs',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    number: text().notNull(),
    // The word they answered, and the campaign they answered.
    keyword: text().notNull(),
    campaignId: integer().references(() => campaigns.id, { onDelete: 'set null' }),
    // Their latest opt-out answer: confirmed to them, and not answered by a bot.
    messageId: integer().references(() => messages.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex().on(t.companyId, t.number),
    index()
      .on(t.messageId)
      .where(sql`message_id is not null`),
  ],
);
