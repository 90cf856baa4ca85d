import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPglite, pgliteExtensions } from '../../apps/api/src/db/client';
import { chromiumPath } from './browser';

/* eslint-disable @typescript-eslint/consistent-type-definitions -- vitest's provide/inject typing */
declare module 'vitest' {
  export interface ProvidedContext {
    // A migrated embedded database each flow's server starts from (a copy); '' on PostgreSQL.
    migratedPgdata: string;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

export default async function setup(project: TestProject) {
  // Said once, before any flow starts, rather than as the same failure in every file.
  chromiumPath();
  if (process.env.TEST_DATABASE_URL) {
    project.provide('migratedPgdata', '');
    return;
  }
  // Creating and migrating an embedded database takes seconds of WASM; the flows start from a copy
  // (the first start on an empty folder is apps/api/test/start.test.ts's).
  const dir = mkdtempSync(path.join(tmpdir(), 'atendi-e2e-pgdata-'));
  const database = await openPglite(new PGlite(dir, { extensions: pgliteExtensions }));
  await database.migrate();
  await database.close();
  project.provide('migratedPgdata', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
