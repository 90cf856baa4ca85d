// s3rver with the key pair MinIO would have (MINIO_ROOT_USER / MINIO_ROOT_PASSWORD).
import S3rver from 's3rver';
import account from 's3rver/lib/models/account.js';

const { DUMMY_ACCOUNT } = account;

DUMMY_ACCOUNT.createKeyPair(process.env.MINIO_ROOT_USER, process.env.MINIO_ROOT_PASSWORD);
// Path-style only: the host name (minio) must not be read as a bucket's.
new S3rver({
  directory: '/data',
  address: '0.0.0.0',
  port: 9000,
  silent: true,
  vhostBuckets: false,
})
  .run()
  .then(() => console.log('s3rver listening on 9000'));
