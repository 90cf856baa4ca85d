/// <reference types="node" />
import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // A worker runs its files one after another in one window and module graph: React, MUI and the
    // app are imported once per worker, not once per file (that was a third of the project's time).
    // The stand-ins of mocked modules are the worker's one set (src/test/module-mocks.ts); setup.ts
    // fails a file that leaves fake timers, a changed process.env or elements in the page behind.
    isolate: false,
    clearMocks: true,
    restoreMocks: true,
    // A page test renders its page alone (src/test/render-page.tsx); only the shell's own tests render
    // the whole app. The longest dialog flows take about 1 s of CPU, the first test of a file more
    // (warm-up): up to 5 s when other work shares the two cores (load average 12), so 10 s, not 5.
    testTimeout: 10_000,
    // The main process idles while files run; the default (cores - 1) would run one file at a
    // time on a two-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker count of its own needs a group of its own (vitest runs groups one after another).
    sequence: { groupOrder: 2 },
  },
});
