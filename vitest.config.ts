import { defineConfig } from 'vitest/config';

// One run covers every workspace's unit and integration tests; e2e runs separately (npm run test:e2e).
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/api', 'apps/web'],
  },
});
