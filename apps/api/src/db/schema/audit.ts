import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// The audit log (issue 37): who did what, when, from where. Append-only: no route changes an entry,
// and a trigger refuses UPDATE and DELETE (migration 0036) except the retention job's prune of entries
// past AUDIT_RETENTION_DAYS. No foreign keys: an entry outlives the user, and the company, it names.
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    // The company the action belongs to (null: the platform's own, e.g. an unknown email's sign-in).
    companyId: integer(),
    // Who did it (null: nobody signed in), and their email then.
    userId: integer(),
    actor: text().notNull().default(''),
    action: text().notNull(),
    // What it was done to, as type:id (user:12, setting:twoFactor, session:…).
    target: text().notNull().default(''),
    detail: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    address: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index().on(t.companyId, t.createdAt), index().on(t.createdAt)],
);
