import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../src/config';

const LOCAL_S3_BUCKET = 'atendi-test';

export type LocalS3 = {
  // The STORAGE_DRIVER=s3 environment that points the API at this server.
  env: Record<string, string>;
  config: S3StorageConfig;
  close: () => Promise<void>;
};

// An S3-compatible server (s3rver) on a free port, its objects in a temporary folder, with one
// empty bucket: the real SDK talks to it as it would to MinIO or AWS.
export const startLocalS3 = async (): Promise<LocalS3> => {
  const directory = mkdtempSync(path.join(tmpdir(), 'atendi-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: LOCAL_S3_BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  const env = {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_BUCKET: LOCAL_S3_BUCKET,
    // s3rver's own credentials.
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  return {
    env,
    config: {
      driver: 's3',
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      bucket: LOCAL_S3_BUCKET,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: true,
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};
