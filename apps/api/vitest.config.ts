import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Behaviour only PostgreSQL has (a server that drops connections) is tested only there.
    exclude: [
      ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts']),
      // Several API nodes sharing Redis are tested where a Redis server is given.
      ...(process.env.TEST_REDIS_URL ? [] : ['**/*.redis.test.ts']),
    ],
    globalSetup: ['test/global-setup.ts'],
    // A worker's files share its modules (imported once, not once per file) and, where they need
    // nothing of their own, one app (test/harness.ts sharedTestApp); test/isolation.ts fails a file
    // that leaves fake timers or a changed process.env behind.
    isolate: false,
    setupFiles: ['test/isolation.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite runs on the main thread: a few files at a time keeps each one quick.
    maxWorkers: 2,
    // Its own worker pool, so it runs as its own group after the light projects.
    sequence: { groupOrder: 1 },
  },
});
