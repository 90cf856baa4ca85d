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
    // testTimeout stays vitest's 5 s: a page test renders its page alone (src/test/render-page.tsx),
    // and only the shell's own tests render the whole app.
    // The main process idles while files run; the default (cores - 1) would run one file at a
    // time on a two-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker count of its own needs a group of its own (vitest runs groups one after another).
    sequence: { groupOrder: 2 },
  },
});
