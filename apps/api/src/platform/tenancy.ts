import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuthContext } from './context';
import { AppError } from './errors';
import type { ErrorCode } from '@atendi/shared';

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
