import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamps } from './_columns';
import { companies } from './companies';

// Single sign-on with OpenID Connect (issue 37): a company's provider (the client secret sealed
// with the server's key, platform/secrets.ts), whether it creates accounts, whether passwords still
// work for the company.
export const companySso = pgTable('company_sso', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  issuer: text().notNull(),
  clientId: text().notNull(),
  clientSecret: text().notNull(),
  enabled: boolean().notNull().default(true),
  createUsers: boolean().notNull().default(false),
  passwordLogin: boolean().notNull().default(true),
  ...timestamps(),
});

// The email domains a company's provider covers: each domain belongs to one company at most.
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [index().on(t.companyId)],
);

// A sign-in on its way through the provider, named by the hash of its `state`: the nonce, the PKCE
// verifier (sealed) and the hash of the browser binding cookie it must come back with. Used once.
export const ssoRequests = pgTable(
  'sso_requests',
  {
    id: id(),
    stateHash: text().notNull().unique(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    browserHash: text().notNull(),
    nonce: text().notNull(),
    codeVerifier: text().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.expiresAt)],
);
