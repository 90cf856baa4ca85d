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
    clearMocks: true,
    restoreMocks: true,
    // A whole app shell renders per test; on a loaded two-core machine (CI runs the API suite beside
    // it) 5 s is too tight for the longest dialog flows, which take 1-3 s when the machine is idle;
    // 15 s still timed out three of them in a loaded CI run (82 files now).
    testTimeout: 30_000,
    // The main process idles while files run; the default (cores - 1) would run one file at a
    // time on a two-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker count of its own needs a group of its own (vitest runs groups one after another).
    sequence: { groupOrder: 2 },
  },
});
