import { sql } from 'drizzle-orm';
import type { AuditAction } from '@atendi/shared';
import type { Db } from '../db/client';
import { auditLog, users } from '../db/schema';
import type { AuthContext } from './context';

// Writes an entry of the audit log (issue 37) with the transaction (`db`) of the change it records,
// so an entry stands or falls with its change. The actor's email is read in the same statement.
type AuditWrite = {
  companyId: number | null;
  userId: number | null;
  action: AuditAction;
  target?: string;
  detail?: Record<string, unknown>;
  address?: string;
};

export const audit = async (db: Db, entry: AuditWrite) => {
  await db.insert(auditLog).values({
    companyId: entry.companyId,
    userId: entry.userId,
    actor:
      entry.userId === null
        ? ''
        : sql`coalesce((select ${users.email} from ${users} where ${users.id} = ${entry.userId}), '')`,
    action: entry.action,
    target: entry.target ?? '',
    detail: entry.detail ?? {},
    address: entry.address ?? '',
  });
};

// An entry of the signed-in caller's, in their company.
export const auditAs = (
  db: Db,
  ctx: AuthContext,
  entry: Omit<AuditWrite, 'companyId' | 'userId'>,
) => audit(db, { ...entry, companyId: ctx.companyId, userId: ctx.userId, address: ctx.address });

// The filters of a download as its entry keeps them: those the caller gave, never the file's content.
export const filtersOf = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
