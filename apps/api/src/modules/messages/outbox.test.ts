import { describe, expect, it } from 'vitest';
import { retryDelay } from './outbox';

describe('retryDelay', () => {
  it('waits 5 s, 15 s, 45 s … and never more than 10 minutes', () => {
    const waits = Array.from({ length: 8 }, (_, i) => retryDelay(i + 1, 5000));
    expect(waits).toEqual([5000, 15_000, 45_000, 135_000, 405_000, 600_000, 600_000, 600_000]);
  });

  it('scales with the configured base', () => {
    expect([1, 2, 3].map((n) => retryDelay(n, 20))).toEqual([20, 60, 180]);
  });
});
