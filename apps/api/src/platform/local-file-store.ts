import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { StorageUnavailable, type FileStore } from './file-store';

const isMissing = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === 'ENOENT' ||
  (error as { code?: unknown } | null)?.code === 'ENOTDIR';

// Files under one folder (DATA_DIR/uploads), the key's parts as folders: today's layout.
export const createLocalFileStore = (root: string): FileStore => {
  const fileOf = (key: string) => path.join(root, ...key.split('/'));
  const statOf = async (key: string) => {
    const info = await stat(fileOf(key)).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    return info?.isFile() ? { bytes: info.size, modifiedAt: info.mtime } : undefined;
  };
  return {
    driver: 'local',
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      if (Buffer.isBuffer(body)) {
        await writeFile(file, body, { mode: 0o600 });
        return body.length;
      }
      try {
        await pipeline(body, createWriteStream(file, { mode: 0o600 }));
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
      return (await stat(file)).size;
    },
    stat: statOf,
    async open(key, range) {
      const file = fileOf(key);
      // Opened first so a missing file is told apart from one that fails while streaming.
      if (!(await statOf(key))) return undefined;
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    read: (key) =>
      readFile(fileOf(key)).catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      }),
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      await rm(fileOf(prefix.replace(/\/$/, '')), { recursive: true, force: true });
    },
    async *list(prefix) {
      const folder = prefix.replace(/\/$/, '');
      const names = await readdir(fileOf(folder)).catch(() => [] as string[]);
      for (const name of names) {
        const key = `${folder}/${name}`;
        const info = await statOf(key).catch(() => undefined);
        if (info) yield { key, ...info };
      }
    },
    async check() {
      const probe = path.join(root, `.check-${randomBytes(6).toString('hex')}`);
      try {
        await mkdir(root, { recursive: true });
        await access(root, constants.W_OK);
        await writeFile(probe, '');
        await rm(probe, { force: true });
      } catch (error) {
        throw new StorageUnavailable(`The folder ${root} is not writable`, { cause: error });
      }
    },
    describe: () => `local folder ${root}`,
  };
};
