import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../../test/local-s3';
import type { FileStore } from './file-store';
import { createS3FileStore } from './s3-file-store';
import { migrateLocalFiles } from './storage-migration';

// `npm run storage:migrate`: the files of DATA_DIR/uploads move into the bucket (s3rver through the
// real SDK), each removed locally only once the bucket holds it; a second run finds nothing to do.

let s3: LocalS3;
let bucket: FileStore;
let root: string;

beforeAll(async () => {
  s3 = await startLocalS3();
  bucket = createS3FileStore(s3.config);
  root = path.join(mkdtempSync(path.join(tmpdir(), 'atendi-migrate-')), 'uploads');
});
afterAll(async () => {
  await s3.close();
  rmSync(path.dirname(root), { recursive: true, force: true });
});

const NAMES = ['a'.repeat(32) + '.png', 'b'.repeat(32) + '.pdf', 'c'.repeat(32) + '.ogg'];
const keep = (key: string, content: Buffer) => {
  const file = path.join(root, ...key.split('/'));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
};
const localFiles = () =>
  existsSync(root)
    ? readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name)
    : [];

describe('moving local files to the bucket', () => {
  it('moves every company’s files under the same keys, then finds nothing left to do', async () => {
    const files = {
      [`1/${NAMES[0]}`]: Buffer.from('png bytes'),
      [`1/${NAMES[1]}`]: Buffer.alloc(70_000, 3),
      [`2/${NAMES[2]}`]: Buffer.from('ogg bytes'),
    };
    for (const [key, content] of Object.entries(files)) keep(key, content);
    // Not a company's folder: left alone.
    writeFileSync(path.join(root, 'notes.txt'), 'x');
    const lines: string[] = [];

    const first = await migrateLocalFiles({ root, to: bucket, report: (line) => lines.push(line) });
    expect(first).toEqual({ moved: 3, alreadyThere: 0, failed: 0 });
    for (const [key, content] of Object.entries(files))
      expect((await bucket.read(key))?.equals(content), key).toBe(true);
    expect(localFiles()).toEqual(['notes.txt']);
    expect(lines[0]).toMatch(/^3 file\(s\) under .* to move to the S3 bucket atendi-test/);
    expect(lines).toContain(`[2/3] 1/${NAMES[1]} moved (70000 bytes)`);
    expect(lines.at(-1)).toBe('Done: 3 moved, 0 already in the store, 0 failed');

    const again = await migrateLocalFiles({ root, to: bucket, report: () => undefined });
    expect(again).toEqual({ moved: 0, alreadyThere: 0, failed: 0 });
    expect((await bucket.read(`1/${NAMES[1]}`))?.length).toBe(70_000);
  });

  it('carries on after a stop: a file already in the bucket is not sent again, only removed', async () => {
    const key = `3/${NAMES[0]}`;
    const content = Buffer.from('copied before the stop');
    keep(key, content);
    // The stopped run had written the object but not yet removed the local file.
    await bucket.put(key, content);
    keep(`3/${NAMES[1]}`, Buffer.from('not yet copied'));
    const result = await migrateLocalFiles({ root, to: bucket, report: () => undefined });
    expect(result).toEqual({ moved: 1, alreadyThere: 1, failed: 0 });
    expect(localFiles()).toEqual(['notes.txt']);
    expect((await bucket.read(`3/${NAMES[1]}`))?.toString()).toBe('not yet copied');
  });

  it('keeps a local file whose copy the bucket did not confirm', async () => {
    keep(`4/${NAMES[2]}`, Buffer.from('kept'));
    const unreachable = createS3FileStore({ ...s3.config, bucket: 'no-such-bucket' });
    const lines: string[] = [];
    const result = await migrateLocalFiles({
      root,
      to: unreachable,
      report: (line) => lines.push(line),
    });
    expect(result).toEqual({ moved: 0, alreadyThere: 0, failed: 1 });
    expect(localFiles().sort()).toEqual([NAMES[2], 'notes.txt']);
    expect(lines).toContainEqual(expect.stringMatching(/NOT moved, kept/));
    // The next run, with the bucket there, moves it.
    expect(await migrateLocalFiles({ root, to: bucket, report: () => undefined })).toEqual({
      moved: 1,
      alreadyThere: 0,
      failed: 0,
    });
  });
});
