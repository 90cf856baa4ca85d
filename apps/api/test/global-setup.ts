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
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

// Migrates once; every test file then starts from a copy of this database (PGlite dump or PG template).
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `atendi_tmpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl(url, 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const database = await openPostgres(adminUrl(url, template), 1);
    await database.migrate();
    await database.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteDump', '');
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'atendi-test-'));
  const database = await openPglite(new PGlite({ extensions: pgliteExtensions }));
  await database.migrate();
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteDump', file);
  project.provide('pgTemplate', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
