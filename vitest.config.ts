import { defineConfig } from 'vitest/config';

const tag = process.env.TEST_RESULTS_TAG ?? 'local';
const allProjects = ['packages/shared', 'apps/api', 'apps/web'];
// TEST_PROJECTS=apps/api runs only those (CI's PostgreSQL pass: the others never touch a database).
const chosen = process.env.TEST_PROJECTS?.split(',')
  .map((name) => name.trim())
  .filter(Boolean);

// One run covers every workspace's unit and integration tests; e2e runs separately (npm run test:e2e).
export default defineConfig({
  test: {
    projects: chosen?.length ? allProjects.filter((name) => chosen.includes(name)) : allProjects,
    // CI adds a JSON report so .ci/run can print one closing count over all runs.
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: `test-results/unit-${tag}.json` }]]
      : ['default'],
  },
});
