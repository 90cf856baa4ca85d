import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

describe('groupCommit', () => {
  it('runs a call alone at once, and the calls that arrive meanwhile together in the next run', async () => {
    const runs: number[][] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const double = groupCommit(async (items: number[]) => {
      runs.push(items);
      if (runs.length === 1) await held;
      return items.map((n) => n * 2);
    });
    const first = double(1);
    const rest = [double(2), double(3), double(4)];
    expect(runs).toEqual([[1]]);
    release();
    expect(await first).toBe(2);
    expect(await Promise.all(rest)).toEqual([4, 6, 8]);
    expect(runs).toEqual([[1], [2, 3, 4]]);
  });

  it('rejects the calls of a run that fails, and the next run goes on', async () => {
    let fail = true;
    const save = groupCommit(async (items: string[]) => {
      if (fail) {
        fail = false;
        throw new Error('database down');
      }
      return items.map((item) => `${item} saved`);
    });
    const failed = save('a');
    const later = save('b');
    await expect(failed).rejects.toThrow('database down');
    expect(await later).toBe('b saved');
  });
});
