import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
// Both drivers produce this; a transaction is one too, so services accept either.
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

// The rows of a raw statement (reports that the query builder would only obscure): both drivers
// answer { rows }.
export const queryRows = async <T>(db: Db, query: SQL): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  // PostgreSQL only: for the connection that holds session leases (channels/leases.ts).
  connectionString?: string;
  migrate: () => Promise<void>;
  close: () => Promise<void>;
};

export const migrationsFolder = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

// Message search (trigram index) needs pg_trgm; PostgreSQL ships it, PGlite loads it here.
export const pgliteExtensions = { pg_trgm };

export const openPglite = async (client: PGlite): Promise<Database> => {
  await client.waitReady;
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
};

export const openPostgres = async (connectionString: string, max = 10): Promise<Database> => {
  const pool = new pg.Pool({ connectionString, max });
  // The server may drop an idle connection (restart, failover); the pool discards it and reconnects on
  // next use. Without a listener, that 'error' event would end the process.
  pool.on('error', () => undefined);
  // Fail fast with a clear message when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    connectionString,
    migrate: () => migratePg(db, { migrationsFolder }),
    close: () => pool.end(),
  };
};

export const openDatabase = async (options: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<Database> => {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const dir = path.join(options.dataDir, 'pgdata');
  mkdirSync(dir, { recursive: true });
  return openPglite(new PGlite(dir, { extensions: pgliteExtensions }));
};
