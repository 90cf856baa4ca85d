import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { ConfigError, loadConfig } from './config';
import { s3ClientFor } from './platform/s3-file-store';

// `node dist/create-bucket.js` (docker-compose.yml's `bucket` service): makes S3_BUCKET on the
// configured store if it is not there, waiting up to a minute for the store to answer (it may be
// starting beside it). Exits 0 when the bucket exists.
const WAIT_MS = 60_000;

const run = async () => {
  const config = loadConfig();
  if (config.storage.driver !== 's3') {
    console.error('STORAGE_DRIVER is not s3: there is no bucket to create.');
    return 1;
  }
  const { bucket } = config.storage;
  const client = s3ClientFor(config.storage);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
      console.log(`The bucket ${bucket} is there.`);
      return 0;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
        ?.httpStatusCode;
      if (status === 404) {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        console.log(`Created the bucket ${bucket}.`);
        return 0;
      }
      if (Date.now() > deadline) {
        console.error(`The store did not answer for the bucket ${bucket}: ${String(error)}`);
        return 1;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
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
