import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '../config';
import { StorageUnavailable, type FileStore } from './file-store';

// Objects live under this prefix, so the bucket mirrors DATA_DIR/uploads and can hold other things.
const S3_KEY_PREFIX = 'uploads/';
// DeleteObjects takes at most this many keys.
const DELETE_BATCH = 1000;

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
const isMissing = (error: unknown) =>
  statusOf(error) === 404 ||
  ['NoSuchKey', 'NotFound'].includes((error as { name?: string } | null)?.name ?? '');

// The SDK's client for the configured store (also create-bucket.ts's).
export const s3ClientFor = (config: S3StorageConfig) =>
  new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Checksums only where S3 demands them: several S3-compatible stores refuse the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

// Files as objects of one bucket of any S3-compatible store (AWS, MinIO, R2, ...), through the SDK.
export const createS3FileStore = (config: S3StorageConfig): FileStore => {
  const client = s3ClientFor(config);
  const Bucket = config.bucket;
  const objectKey = (key: string) => `${S3_KEY_PREFIX}${key}`;
  // A failure of the store is told apart from a missing file; its message names no credential.
  const unavailable = (what: string, error: unknown) => {
    const { name, code } = (error ?? {}) as { name?: string; code?: string };
    const status = statusOf(error);
    const reason = [name ?? 'Error', code, status ? `HTTP ${status}` : undefined].filter(Boolean);
    return new StorageUnavailable(`The bucket ${Bucket} could not ${what}: ${reason.join(' ')}`, {
      cause: error,
    });
  };
  const get = async (key: string, range?: string) => {
    try {
      return await client.send(
        new GetObjectCommand({ Bucket, Key: objectKey(key), ...(range ? { Range: range } : {}) }),
      );
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw unavailable('read a file', error);
    }
  };
  const putObject = async (key: string, Body: Buffer | Readable, ContentLength: number) => {
    try {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body, ContentLength }));
    } catch (error) {
      throw unavailable('keep a file', error);
    }
  };
  const keysUnder = async function* (prefix: string) {
    let ContinuationToken: string | undefined;
    do {
      let page;
      try {
        page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: objectKey(prefix), ContinuationToken }),
        );
      } catch (error) {
        throw unavailable('list files', error);
      }
      for (const object of page.Contents ?? [])
        if (object.Key)
          yield {
            key: object.Key.slice(S3_KEY_PREFIX.length),
            bytes: object.Size ?? 0,
            modifiedAt: object.LastModified ?? new Date(0),
          };
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  };

  return {
    driver: 's3',
    async put(key, body) {
      if (Buffer.isBuffer(body)) {
        await putObject(key, body, body.length);
        return body.length;
      }
      // PutObject needs the length before the first byte: a stream of unknown length is spooled
      // to a temporary file first (the caller's limits bound it).
      const spool = path.join(tmpdir(), `atendi-put-${randomBytes(8).toString('hex')}`);
      try {
        await pipeline(body, createWriteStream(spool, { mode: 0o600 }));
        const { size } = await stat(spool);
        await putObject(key, createReadStream(spool), size);
        return size;
      } finally {
        await rm(spool, { force: true });
      }
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { bytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw unavailable('read a file', error);
      }
    },
    async open(key, range) {
      const object = await get(key, range ? `bytes=${range.start}-${range.end}` : undefined);
      return object?.Body as Readable | undefined;
    },
    async read(key) {
      const object = await get(key);
      return object?.Body ? Buffer.from(await object.Body.transformToByteArray()) : undefined;
    },
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (error) {
        if (!isMissing(error)) throw unavailable('delete a file', error);
      }
    },
    async deletePrefix(prefix) {
      let batch: string[] = [];
      const flush = async () => {
        if (!batch.length) return;
        const Objects = batch.map((key) => ({ Key: objectKey(key) }));
        batch = [];
        try {
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
        } catch (error) {
          throw unavailable('delete files', error);
        }
      };
      for await (const { key } of keysUnder(prefix)) {
        batch.push(key);
        if (batch.length === DELETE_BATCH) await flush();
      }
      await flush();
    },
    list: keysUnder,
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw unavailable('be reached', error);
      }
    },
    // The endpoint's origin only: credentials written into its URL never reach the banner.
    describe: () =>
      `S3 bucket ${Bucket}${config.endpoint ? ` at ${new URL(config.endpoint).origin}` : ''}`,
  };
};
