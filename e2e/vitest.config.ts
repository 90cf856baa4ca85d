import { defineConfig } from 'vitest/config';

const tag = process.env.TEST_RESULTS_TAG ?? 'local';
// The PostgreSQL pass (TEST_PASS=postgres with TEST_DATABASE_URL: CI's second pass) runs one flow: the
// compiled product starting, migrating and serving a whole conversation (inbound, sends and their
// ticks, transfer, resolution, rating) on a PostgreSQL server. The SQL that can differ there is the
// API tests' PostgreSQL pass; every flow runs on the embedded database (README "Tests").
const onPostgres = ['inbox-flow.e2e.ts'];
const postgresPass = process.env.TEST_PASS === 'postgres';
if (postgresPass && !process.env.TEST_DATABASE_URL)
  throw new Error('TEST_PASS=postgres needs TEST_DATABASE_URL');

export default defineConfig({
  test: {
    name: 'e2e',
    include: postgresPass ? onPostgres : ['**/*.e2e.ts'],
    // Every browser page is checked for Content-Security-Policy violations (support/browser.ts).
    setupFiles: ['support/csp-guard.ts'],
    // No browser: one clear message naming where it looked and `npm run test:unit`.
    globalSetup: ['support/global-setup.ts'],
    exclude: ['node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser flow at a time: the machine has two cores and the server needs one.
    fileParallelism: false,
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: `../test-results/e2e-${tag}.json` }]]
      : ['default'],
  },
});
