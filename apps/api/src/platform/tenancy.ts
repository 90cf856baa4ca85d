import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuthContext } from './context';
import { AppError } from './errors';
import type { ErrorCode } from '@atendi/shared';
import type { Db } from '../db/client';
import { companies } from '../db/schema';

type TenantTable = { companyId: PgColumn };
type TenantRowTable = TenantTable & { id: PgColumn };

// The one way a query is scoped to the caller's company.
export const ofCompany = (
  table: TenantTable,
  ctx: Pick<AuthContext, 'companyId'>,
  ...more: (SQL | undefined)[]
) => and(eq(table.companyId, ctx.companyId), ...more) as SQL;

export const ownedRow = (table: TenantRowTable, id: number, ctx: Pick<AuthContext, 'companyId'>) =>
  and(eq(table.id, id), eq(table.companyId, ctx.companyId)) as SQL;

// A missing row and another company's row look the same: 404.
export const foundOr404 = <T>(row: T | undefined, code: ErrorCode = 'ERR_NOT_FOUND'): T => {
  if (row === undefined || row === null) throw new AppError(code);
  return row;
};

// The company a caller asks about (a `companyId` parameter): their own, or, for super users only,
// another one that exists. Anyone else's is 404, as if it did not exist.
export const companyInScope = async (
  db: Db,
  ctx: Pick<AuthContext, 'companyId' | 'isSuper'>,
  companyId = ctx.companyId,
) => {
  if (companyId === ctx.companyId) return companyId;
  if (!ctx.isSuper) throw new AppError('ERR_NO_COMPANY_FOUND');
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, companyId));
  return foundOr404(row, 'ERR_NO_COMPANY_FOUND').id;
};

// Which of the ids a form names (an agent, an integration…) are not rows of the caller's company:
// their fields, each with `code`, for one ERR_VALIDATION answer (a foreign id is refused like a typo).
export const foreignReferences = async (
  db: Db,
  ctx: Pick<AuthContext, 'companyId'>,
  references: Record<string, { table: PgTable & TenantRowTable; id: number | null | undefined }>,
  code = 'ERR_NOT_FOUND',
) => {
  const fields: Record<string, string[]> = {};
  for (const [field, { table, id }] of Object.entries(references)) {
    if (!id) continue;
    const [found] = await db
      .select({ id: table.id })
      .from(table)
      .where(ownedRow(table, id, ctx));
    if (!found) fields[field] = [code];
  }
  return fields;
};
