import { sqlTime } from '../../platform/sql-time';
import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import { companies } from '../../db/schema';
import { announceCompany } from '../companies';

// SPEC §1/§4 company status over time, on the durable jobs: an active company whose due date has
// passed becomes overdue, and an overdue one suspended once the grace period (BILLING_GRACE_DAYS) is
// over too. A payment (billing-webhook.ts) or a super user's new due date makes it active again; a
// cancelled company stays cancelled. Each step is one conditional UPDATE, so two nodes running it at
// once change each company once; the company's sockets hear of it at once, so its screens lock (or
// unlock) without a new login. The API's gate does not wait for this job: it treats an active company
// past its due date as overdue already (effectiveCompanyStatus).

export const LIFECYCLE_JOB = 'company-lifecycle';
const DAY_MS = 24 * 3600_000;

export const runCompanyLifecycle = async (
  deps: Pick<AppDeps, 'db' | 'realtime' | 'config'>,
  now: Date,
  log?: FastifyBaseLogger,
) => {
  const overdue = await deps.db
    .update(companies)
    .set({ status: 'overdue' })
    .where(
      and(
        eq(companies.status, 'active'),
        isNotNull(companies.dueDate),
        lt(companies.dueDate, sqlTime(now)),
      ),
    )
    .returning({ id: companies.id });
  const graceEnd = new Date(now.getTime() - deps.config.billingGraceDays * DAY_MS);
  const suspended = await deps.db
    .update(companies)
    .set({ status: 'suspended' })
    .where(
      and(
        eq(companies.status, 'overdue'),
        isNotNull(companies.dueDate),
        lt(companies.dueDate, sqlTime(graceEnd)),
      ),
    )
    .returning({ id: companies.id });
  const changed = new Set([...overdue, ...suspended].map((row) => row.id));
  if (changed.size)
    log?.info(
      { overdue: overdue.map((r) => r.id), suspended: suspended.map((r) => r.id) },
      'company statuses moved by their due dates',
    );
  for (const id of changed) await announceCompany(deps, id);
};
