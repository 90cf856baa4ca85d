import { afterAll, afterEach, expect } from 'vitest';
import { takeCspViolations } from './browser';

// The app must run under its Content-Security-Policy; any violation fails the test that
// caused it (or, for a beforeAll/afterAll page, the file).
afterEach(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
});
afterAll(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
});
