import type { SQL } from 'drizzle-orm';
import type { PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

// UPDATE … RETURNING for a partial edit. Drizzle refuses a SET with nothing in it, and a PUT whose
// body changes no field is a valid request: it answers the row as it is.
export const updateReturning = async <T extends PgTable>(
  db: Db,
  table: T,
  values: PgUpdateSetSource<T>,
  where: SQL,
): Promise<T['$inferSelect'][]> => {
  const set = Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as PgUpdateSetSource<T>;
  if (!Object.keys(set).length)
    return (await db
      .select()
      .from(table as PgTable)
      .where(where)) as T['$inferSelect'][];
  return (await db.update(table).set(set).where(where).returning()) as T['$inferSelect'][];
};
