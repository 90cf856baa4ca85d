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

const monthFormats = new Map<string, Intl.DateTimeFormat>();

// The calendar month (YYYY-MM) a moment falls in, in a time zone: monthly quotas count by it.
export const monthIn = (at: Date, timeZone: string) => {
  let format = monthFormats.get(timeZone);
  if (!format) {
    // Canada's English writes it so.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' });
    monthFormats.set(timeZone, format);
  }
  return format.format(at);
};
