import { defineConfig } from 'vitest/config';

const tag = process.env.TEST_RESULTS_TAG ?? 'local';

// One run covers every workspace's unit and integration tests; e2e runs separately (npm run test:e2e).
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/api', 'apps/web'],
    // CI adds a JSON report so .ci/run can print one closing count over all runs.
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: `test-results/unit-${tag}.json` }]]
      : ['default'],
  },
});
