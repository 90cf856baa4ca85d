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
import lockfile from 'proper-lockfile';
import { StartRefused } from '../config';
import { waitForService } from '../platform/wait-for';
import { MIGRATION_LOCK_CLASS } from './locks';
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
  // Call it inside oneNodeAtATime where several nodes may start together.
  migrate: () => Promise<void>;
  // Runs `work` as the one node doing so: nodes starting together on a new database take turns
  // (migrations, then the first start's rows), so none sees another's half-done work.
  oneNodeAtATime: <T>(work: () => Promise<T>) => Promise<T>;
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
    // One process per embedded database (lockDataDir).
    oneNodeAtATime: (work) => work(),
    close: () => client.close(),
  };
};

// Nodes started together on a new database take turns under an advisory lock held by a connection
// of its own: one applies the migrations and seeds while the others wait, then find nothing left to
// do (without it, two ran `CREATE EXTENSION pg_trgm` at once and died). A node that dies holding it
// lets it go with its connection.
const underStartLock = async <T>(pool: pg.Pool, work: () => Promise<T>) => {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1, 0)', [MIGRATION_LOCK_CLASS]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1, 0)', [MIGRATION_LOCK_CLASS]);
    }
  } finally {
    client.release();
  }
};

// A server that is still starting is waited for; a refusal of another kind (a wrong password, no
// such database) stops the start at once.
const STARTING_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', '57P03']);
const hostOf = (connectionString: string) => {
  try {
    return new URL(connectionString).host;
  } catch {
    return 'DATABASE_URL';
  }
};

export const openPostgres = async (connectionString: string, max = 10): Promise<Database> => {
  const pool = new pg.Pool({ connectionString, max });
  // The server may drop an idle connection (restart, failover); the pool discards it and reconnects on
  // next use. Without a listener, that 'error' event would end the process.
  pool.on('error', () => undefined);
  await waitForService(
    `PostgreSQL at ${hostOf(connectionString)}`,
    async () => (await pool.connect()).release(),
    (error) => STARTING_CODES.has((error as { code?: string }).code ?? ''),
  );
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    connectionString,
    migrate: () => migratePg(db, { migrationsFolder }),
    oneNodeAtATime: (work) => underStartLock(pool, work),
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
  const unlock = await lockDataDir(dir, options.dataDir);
  try {
    const database = await openPglite(new PGlite(dir, { extensions: pgliteExtensions }));
    return {
      ...database,
      close: async () => {
        await database.close();
        await unlock();
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
};

// The embedded database is one process's: a second one on the same folder would write beside the
// first and each would lose the other's data. The lock is a folder next to pgdata whose time the
// holder refreshes; one left by a process that died goes stale after DATA_DIR_LOCK_STALE_MS, so a
// restart right after a crash waits that long instead of refusing.
const DATA_DIR_LOCK_STALE_MS = 10_000;
const lockDataDir = async (dir: string, dataDir: string) => {
  try {
    return await lockfile.lock(dir, {
      lockfilePath: `${dir}.lock`,
      stale: DATA_DIR_LOCK_STALE_MS,
      update: DATA_DIR_LOCK_STALE_MS / 2,
      realpath: false,
      retries: { retries: DATA_DIR_LOCK_STALE_MS / 1000 + 2, minTimeout: 1000, maxTimeout: 1000 },
      // Someone removed the lock or the disk stopped answering: another process may take the data
      // next, so this one must not write any more.
      onCompromised: (error) => {
        process.stderr.write(`The lock on ${dataDir} was lost (${error.message}); stopping.\n`);
        process.exit(1);
      },
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED')
      throw new StartRefused(
        `DATA_DIR ${dataDir} is in use by another Atendi process: the embedded database takes one. ` +
          'Stop the other process, give this one its own DATA_DIR, or run several API nodes on ' +
          'PostgreSQL (DATABASE_URL) and Redis (REDIS_URL).',
      );
    throw error;
  }
};
