import { createReadStream } from 'node:fs';
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from './file-store';

type MigrationResult = { moved: number; alreadyThere: number; failed: number };

// Company folders are numbers; anything else under the folder (a stray file, a probe) is not ours.
const COMPANY_FOLDER = /^[1-9][0-9]*$/;

// The files under the local folder (DATA_DIR/uploads) as their keys, `{companyId}/{name}`.
const localKeys = async (root: string) => {
  const keys: string[] = [];
  const folders = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const folder of folders) {
    if (!folder.isDirectory() || !COMPANY_FOLDER.test(folder.name)) continue;
    for (const file of await readdir(path.join(root, folder.name), { withFileTypes: true }))
      if (file.isFile()) keys.push(`${folder.name}/${file.name}`);
  }
  return keys.sort();
};

// Moves every file of the local folder into the store, one at a time: a local file is removed only
// once the store answers an object of the same size under the same key, so a run stopped anywhere
// (or a failed file) loses nothing and the next run carries on from what is left. A file already
// in the store with its size is not sent again. The counts (stored_files) name files by key, which
// does not change.
export const migrateLocalFiles = async (options: {
  root: string;
  to: FileStore;
  report: (line: string) => void;
}): Promise<MigrationResult> => {
  const { root, to, report } = options;
  const keys = await localKeys(root);
  const result: MigrationResult = { moved: 0, alreadyThere: 0, failed: 0 };
  report(`${keys.length} file(s) under ${root} to move to the ${to.describe()}`);
  for (const [index, key] of keys.entries()) {
    const file = path.join(root, ...key.split('/'));
    const step = `[${index + 1}/${keys.length}] ${key}`;
    try {
      const local = await stat(file).catch(() => undefined);
      // Removed (by the API) since the listing.
      if (!local) continue;
      const there = await to.stat(key);
      if (there?.bytes === local.size) {
        result.alreadyThere += 1;
        report(`${step} already in the store`);
      } else {
        await to.put(key, createReadStream(file));
        const written = await to.stat(key);
        if (written?.bytes !== local.size)
          throw new Error(`the store holds ${written?.bytes ?? 'nothing'} of ${local.size} bytes`);
        result.moved += 1;
        report(`${step} moved (${local.size} bytes)`);
      }
      await rm(file, { force: true });
    } catch (error) {
      result.failed += 1;
      report(`${step} NOT moved, kept: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // Emptied company folders go too; one still holding a file that failed stays.
  for (const folder of new Set(keys.map((key) => key.split('/')[0])))
    await rmdir(path.join(root, folder)).catch(() => undefined);
  report(
    `Done: ${result.moved} moved, ${result.alreadyThere} already in the store, ${result.failed} failed`,
  );
  return result;
};
