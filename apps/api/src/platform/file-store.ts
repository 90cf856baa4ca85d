import type { Readable } from 'node:stream';
import type { ByteRange } from './byte-range';

// The one port in front of where uploaded and downloaded files are kept: the local disk under
// DATA_DIR/uploads (the default) or an S3-compatible bucket. Keys are `{companyId}/{storedName}`,
// built only by platform/uploads.ts from names it made itself, so a key never carries client input.
export type FileStore = {
  driver: 'local' | 's3';
  // Writes the whole body under the key (replacing what was there) and answers its size in bytes.
  put(key: string, body: Buffer | Readable): Promise<number>;
  // Size and last change of a kept file, or undefined when there is none.
  stat(key: string): Promise<FileInfo | undefined>;
  // The file's bytes from start to end inclusive (all of them without a range), or undefined when
  // there is none.
  open(key: string, range?: ByteRange): Promise<Readable | undefined>;
  read(key: string): Promise<Buffer | undefined>;
  // Removing what is not there is not an error.
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  // Every file whose key starts with the prefix (a company's folder: `{companyId}/`).
  list(prefix: string): AsyncIterable<FileInfo & { key: string }>;
  // Cheap proof that files can be kept now: the folder is writable, the bucket answers. Throws
  // StorageUnavailable when not (the readiness check calls it).
  check(): Promise<void>;
  // Where files go, for the start banner and the migrate command (no credentials).
  describe(): string;
};

export type FileInfo = { bytes: number; modifiedAt: Date };

// The store could not be reached or refused the operation; the API answers it with 503.
export class StorageUnavailable extends Error {}
