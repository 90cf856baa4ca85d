import { inspect } from 'node:util';

// The one wait-until of the API tests, e2e and bench: reads until the value read is acceptable and
// answers it, or fails naming what it waited for and the last value it read. For what happens after a
// request returns (events, jobs, the outbox, another process); an error thrown by `read` or `ok` ends
// the wait at once. Measured on the monotonic clock, so a test that moved `Date` still times out.
export const eventually = async <T>(
  read: () => T | Promise<T>,
  ok: (value: T) => boolean,
  what: string,
  { timeoutMs = 10_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> => {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (performance.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last read: ${inspect(value, { depth: 3 })}`,
      );
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};
