import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

// The platform operators' own company: the company of the first super user.
export const platformCompanyId = async (db: Db) => {
  const [row] = await db
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.super, true))
    .orderBy(asc(users.id))
    .limit(1);
  return row?.companyId;
};
