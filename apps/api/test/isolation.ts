import { afterAll, beforeAll, expect, vi } from 'vitest';

// The api project runs each worker's test files one after another in one process and module graph
// (`isolate: false`): what a file changes in the process must be undone before the next one starts.
// Checked after every file: the file that leaks fails, and the process is put back for the next.
let env: Record<string, string | undefined> = {};
beforeAll(() => {
  env = { ...process.env };
});
afterAll(() => {
  const fakeTimers = vi.isFakeTimers();
  vi.useRealTimers();
  const changed = [...new Set([...Object.keys(env), ...Object.keys(process.env)])].filter(
    (name) => process.env[name] !== env[name],
  );
  for (const name of changed) {
    if (env[name] === undefined) delete process.env[name];
    else process.env[name] = env[name];
  }
  expect(fakeTimers, 'fake timers (or a moved Date) left on: vi.useRealTimers()').toBe(false);
  expect(changed, 'process.env changed').toEqual([]);
});
