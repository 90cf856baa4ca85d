import { and, desc, eq, gte, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { AuditQuery } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { queryRows, type Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { csvLine } from '../../platform/csv';
import { AppError } from '../../platform/errors';
import { companyTimeZone } from '../../platform/time-zones';
import { zonedDayStart } from '../../platform/sql-time';

// Reading the audit log (issue 37): an admin reads their company's entries, a super user any
// company's (companyId) or the platform's entries of none (companyId 0). Nothing here writes one.

type Deps = Pick<AppDeps, 'db' | 'config'>;
const PAGE_SIZE = 50;
const CSV_MAX = 50_000;

const conditions = async (deps: Deps, ctx: AuthContext, query: Omit<AuditQuery, 'pageNumber'>) => {
  if (query.companyId !== undefined && query.companyId !== ctx.companyId && !ctx.isSuper)
    throw new AppError('ERR_NO_COMPANY_FOUND');
  const companyId = query.companyId ?? ctx.companyId;
  // Calendar days of the company's zone (the platform's for entries of none).
  const zone = companyId ? await companyTimeZone(deps, companyId) : deps.config.timeZone;
  const dayStart = (day: string, after = 0) => zonedDayStart(day, zone, after);
  const where: (SQL | undefined)[] = [
    companyId === 0 ? isNull(auditLog.companyId) : eq(auditLog.companyId, companyId),
    query.userId ? eq(auditLog.userId, query.userId) : undefined,
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.date_from ? gte(auditLog.createdAt, dayStart(query.date_from)) : undefined,
    query.date_to ? lt(auditLog.createdAt, dayStart(query.date_to, 1)) : undefined,
  ];
  return and(...where);
};

const view = (row: typeof auditLog.$inferSelect) => ({
  id: row.id,
  companyId: row.companyId,
  userId: row.userId,
  actor: row.actor,
  action: row.action,
  target: row.target,
  detail: row.detail,
  address: row.address,
  createdAt: row.createdAt,
});

export const listAudit = async (deps: Deps, ctx: AuthContext, query: AuditQuery) => {
  const rows = await deps.db
    .select()
    .from(auditLog)
    .where(await conditions(deps, ctx, query))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * PAGE_SIZE);
  return { entries: rows.slice(0, PAGE_SIZE).map(view), hasMore: rows.length > PAGE_SIZE };
};

export const auditCsv = async (
  deps: Deps,
  ctx: AuthContext,
  query: Omit<AuditQuery, 'pageNumber'>,
) => {
  const rows = await deps.db
    .select()
    .from(auditLog)
    .where(await conditions(deps, ctx, query))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(CSV_MAX);
  return [
    csvLine(['createdAt', 'actor', 'userId', 'companyId', 'action', 'target', 'address', 'detail']),
    ...rows.map((row) =>
      csvLine([
        row.createdAt.toISOString(),
        row.actor,
        row.userId,
        row.companyId,
        row.action,
        row.target,
        row.address,
        JSON.stringify(row.detail),
      ]),
    ),
  ].join('');
};

export const AUDIT_PRUNE_JOB = 'audit-prune';

// Entries older than the retention go, the only deletes the table's trigger lets through (this
// transaction says it is the prune). Answers how many.
export const pruneAudit = async (db: Db, now: Date, retentionDays: number) => {
  if (!retentionDays) return 0;
  const before = new Date(now.getTime() - retentionDays * 24 * 3600_000);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('atendi.audit_prune', 'on', true)`);
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`with gone as (delete from ${auditLog} where ${lte(auditLog.createdAt, before)} returning 1)
          select count(*)::int as n from gone`,
    );
    return rows[0]?.n ?? 0;
  });
};
