import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { createS3FileStore } from './platform/s3-file-store';
import { migrateLocalFiles } from './platform/storage-migration';

// npm run storage:migrate --workspace apps/api: moves the files kept under DATA_DIR/uploads to the
// S3 bucket configured with STORAGE_DRIVER=s3 and the S3_ variables (README "Storage"). Run it again
// after a failure or a stop: it carries on with what is left.
const run = async () => {
  const config = loadConfig();
  if (config.storage.driver !== 's3') {
    console.error('Set STORAGE_DRIVER=s3 and the S3_ variables: the files move to that bucket.');
    return 1;
  }
  const to = createS3FileStore(config.storage);
  try {
    await to.check();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  const result = await migrateLocalFiles({
    root: path.join(config.dataDir, 'uploads'),
    to,
    report: (line) => console.log(line),
  });
  return result.failed ? 1 : 0;
};

run().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  },
);
