import { sql } from 'drizzle-orm';

// A moment from the process clock as a timestamptz in SQL. Jobs compare rows with the time they were
// handed (tests move it with a fake clock), never the database's now(): PGlite's follows the process
// clock, PostgreSQL's does not.
export const sqlTime = (date: Date) => sql`${date.toISOString()}::timestamptz`;
