import { sql } from 'drizzle-orm';

// A moment from the process clock as a timestamptz in SQL. Jobs compare rows with the time they were
// handed (tests move it with a fake clock), never the database's now(): PGlite's follows the process
// clock, PostgreSQL's does not.
export const sqlTime = (date: Date) => sql`${date.toISOString()}::timestamptz`;

// The moment a calendar day (YYYY-MM-DD) of a time zone begins, `after` days later, as SQL: the start
// (inclusive) and the day after the last (exclusive) of a range of days the company's people mean.
export const zonedDayStart = (day: string, zone: string, after = 0) =>
  sql`((${day})::date + ${after}::int)::timestamp at time zone ${zone}`;
