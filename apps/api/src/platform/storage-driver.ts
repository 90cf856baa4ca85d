import path from 'node:path';
import type { StorageConfig } from '../config';
import type { FileStore } from './file-store';
import { createLocalFileStore } from './local-file-store';
import { createS3FileStore } from './s3-file-store';

// The file store STORAGE_DRIVER asks for: DATA_DIR/uploads, or the S3 bucket.
export const createFileStore = (options: { dataDir: string; storage: StorageConfig }): FileStore =>
  options.storage.driver === 's3'
    ? createS3FileStore(options.storage)
    : createLocalFileStore(path.join(options.dataDir, 'uploads'));
