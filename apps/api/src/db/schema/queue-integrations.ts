import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { integrationTypes } from '@atendi/shared';
import { id, timestamps } from './_columns';
import { companies } from './companies';

export const queueIntegrations = pgTable(
  'queue_integrations',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    type: text().$type<(typeof integrationTypes)[number]>().notNull(),
    projectName: text().notNull().default(''),
    // Dialogflow service-account JSON, kept verbatim as the client sent it.
    jsonContent: text().notNull().default(''),
    language: text().notNull().default(''),
    urlN8N: text().notNull().default(''),
    typebotSlug: text().notNull().default(''),
    // Minutes of inactivity before a Typebot session is dropped.
    typebotExpires: integer().notNull().default(1),
    typebotDelayMessage: integer().notNull().default(1000),
    typebotKeywordFinish: text().notNull().default(''),
    typebotKeywordRestart: text().notNull().default(''),
    typebotUnknownMessage: text().notNull().default(''),
    typebotRestartMessage: text().notNull().default(''),
    ...timestamps(),
  },
  (t) => [uniqueIndex().on(t.companyId, t.name)],
);
