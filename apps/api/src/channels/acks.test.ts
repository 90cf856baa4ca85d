import { describe, expect, it } from 'vitest';
import { applyAck } from './acks';

const replay = (start: number, acks: number[]) => acks.reduce(applyAck, start);

describe('applyAck', () => {
  it('moves forward through sent, delivered and read', () => {
    expect(replay(1, [2, 3, 4])).toBe(4);
  });

  it('ignores a late delivered after read, and duplicates', () => {
    expect(replay(1, [2, 4, 3])).toBe(4);
    expect(replay(1, [3, 3, 2, 3])).toBe(3);
  });

  it('applies a failure only while the message is not yet delivered', () => {
    expect(applyAck(1, 0)).toBe(0);
    expect(applyAck(2, 0)).toBe(0);
    expect(applyAck(3, 0)).toBe(3);
    expect(applyAck(4, 0)).toBe(4);
  });

  it('lets a later delivery report win over an earlier failure', () => {
    expect(replay(1, [2, 0, 3])).toBe(3);
  });
});
