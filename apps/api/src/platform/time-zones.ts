import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies } from '../db/schema';

// A company's time zone (IANA): business hours, greetings, variables, SLA clocks and the dashboard's
// days are read in it. A company that never chose one (it predates per-company zones) has the
// platform's TIME_ZONE.
export const companyTimeZone = async (
  deps: { db: Db; config: { timeZone: string } },
  companyId: number,
) => {
  const [row] = await deps.db
    .select({ timeZone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.timeZone ?? deps.config.timeZone;
};
