import { describe, expect, it } from 'vitest';
import { parseByteRange } from './byte-range';

describe('parseByteRange', () => {
  it('reads a start and end, an open end, and a suffix', () => {
    expect(parseByteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
  });

  it('cuts an end past the file, and a suffix longer than the file, at the file', () => {
    expect(parseByteRange('bytes=500-5000', 1000)).toEqual({ start: 500, end: 999 });
    expect(parseByteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('is unsatisfiable when it starts past the end or asks for no bytes', () => {
    expect(parseByteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('ignores what it does not read, so the whole file is sent', () => {
    for (const header of [
      undefined,
      '',
      'bytes=',
      'bytes=-',
      'items=0-1',
      'bytes=0-1,4-5',
      'bytes=5-1',
      'bytes=a-b',
      `bytes=0-${'9'.repeat(400)}`,
      'bytes=99999999999999999999-',
    ])
      expect(parseByteRange(header, 1000), header).toBeUndefined();
  });
});
