import { act } from '@testing-library/react';
import { vi } from 'vitest';
import { setupUser } from './user-event';

// For a test whose subject is time (a debounce, a pause, a deadline): timeouts are faked. They still
// move with real time, so that waits and transitions go on, and jump when the test moves the clock.
// setup.ts puts real timers back after every test.
export const setupUserOnFakeClock = (options: Parameters<typeof setupUser>[0] = {}) => {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
  return setupUser({ advanceTimers: vi.advanceTimersByTime, ...options });
};

// Moves the faked clock on, running what falls due, inside act.
export const advanceClock = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
