import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { databaseUrl as adminUrl } from './pg-url';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres, pgliteExtensions } from '../src/db/client';

/* eslint-disable @typescript-eslint/consistent-type-definitions -- vitest's provide/inject typing */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    pgTemplate: string;
    // Databases copied from the template start with it; the teardown drops any left.
    pgPrefix: string;
    // Where the apps' data folders go; the teardown removes it.
    dataRoot: string;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

// Migrates once; every test app then starts from a copy of this database (PGlite dump or PG template).
// The teardown also removes what the workers' shared apps leave (harness.ts sharedTestApp): they end
// with their worker, unclosed.
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'atendi-test-'));
  project.provide('dataRoot', dir);
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const prefix = `atendi_t${process.pid}_`;
    const template = `${prefix}template`;
    const admin = new pg.Client({ connectionString: adminUrl(url, 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const database = await openPostgres(adminUrl(url, template), 1);
    await database.migrate();
    await database.close();
    project.provide('pgTemplate', template);
    project.provide('pgPrefix', prefix);
    project.provide('pgliteDump', '');
    return async () => {
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
        [prefix],
      );
      for (const { datname } of rows)
        await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const database = await openPglite(new PGlite({ extensions: pgliteExtensions }));
  await database.migrate();
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteDump', file);
  project.provide('pgTemplate', '');
  project.provide('pgPrefix', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
