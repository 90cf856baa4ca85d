import { defineConfig } from 'vitest/config';

const tag = process.env.TEST_RESULTS_TAG ?? 'local';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.ts'],
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
