import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  environmentVariables,
  fastifyTrustProxy,
  loadConfig,
  publicApiUrlFromEnv,
} from './config';

const secret = 'x'.repeat(32);
const load = (env: Record<string, string>) =>
  loadConfig({ JWT_SECRET: secret, JWT_REFRESH_SECRET: secret, ...env });

describe("the API's address (npm run stripe:local posts its webhooks there)", () => {
  it('is the same as the API reads it: its default port, PORT, or PUBLIC_API_URL', () => {
    const envs: Record<string, string>[] = [
      {},
      { PORT: '9090' },
      { PUBLIC_API_URL: 'https://api.example.com/' },
    ];
    for (const env of envs) {
      expect(publicApiUrlFromEnv(env)).toBe(load(env).publicApiUrl);
    }
    expect(publicApiUrlFromEnv({})).toBe('http://localhost:8080');
    expect(publicApiUrlFromEnv({ PORT: '9090' })).toBe('http://localhost:9090');
    expect(() => publicApiUrlFromEnv({ PORT: 'abc' })).toThrow(/PORT/);
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default: no client may set its own address', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('takes true, a hop count, or a list of addresses and CIDRs', () => {
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual(
      ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback'],
    );
  });

  it('stops the start, naming the variable, for anything else', () => {
    for (const value of ['banana', '10.0.0.0/33', '10.0.0.1/8/2', '-1', '1.5']) {
      expect(() => load({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => load({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    }
  });

  it('a hop count trusts only that many hops nearest the server', () => {
    const trust = fastifyTrustProxy(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => trust('10.0.0.1', hop))).toEqual([true, true, false]);
    expect(fastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
  });
});

describe('STORAGE_DRIVER', () => {
  const s3 = {
    STORAGE_DRIVER: 's3',
    S3_REGION: 'us-east-1',
    S3_BUCKET: 'atendi-files',
    S3_ACCESS_KEY_ID: 'key-id',
    S3_SECRET_ACCESS_KEY: 'secret-key',
  };

  it('keeps files on the local disk by default', () => {
    expect(load({}).storage).toEqual({ driver: 'local' });
    expect(load({ STORAGE_DRIVER: '' }).storage).toEqual({ driver: 'local' });
  });

  it('reads the bucket, its address and path style for s3', () => {
    expect(
      load({ ...s3, S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' }).storage,
    ).toEqual({
      driver: 's3',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      bucket: 'atendi-files',
      accessKeyId: 'key-id',
      secretAccessKey: 'secret-key',
      forcePathStyle: true,
    });
    expect(load(s3).storage).toMatchObject({ endpoint: undefined, forcePathStyle: false });
  });

  it('stops the start, naming what is missing or wrong, for s3 without its settings', () => {
    const { S3_BUCKET: _bucket, S3_SECRET_ACCESS_KEY: _secret, ...partial } = s3;
    expect(() => load(partial)).toThrow(ConfigError);
    expect(() => load(partial)).toThrow(/S3_BUCKET: Required when STORAGE_DRIVER=s3/);
    expect(() => load(partial)).toThrow(/S3_SECRET_ACCESS_KEY: Required/);
    expect(() => load({ ...s3, S3_BUCKET: 'Not A Bucket' })).toThrow(/S3_BUCKET/);
    expect(() => load({ ...s3, S3_ENDPOINT: 'minio' })).toThrow(/S3_ENDPOINT/);
    expect(() => load({ STORAGE_DRIVER: 'nfs' })).toThrow(/STORAGE_DRIVER/);
  });
});

describe('VAPID keys (Web Push)', () => {
  it('are made once and kept in DATA_DIR, so devices stay subscribed across restarts', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vapid-'));
    try {
      const first = load({ DATA_DIR: dataDir }).vapid;
      expect(first.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
      expect(first.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(first.publicKey, 'base64url')[0]).toBe(0x04);
      expect(load({ DATA_DIR: dataDir }).vapid).toEqual(first);
      expect(first.subject).toBe('mailto:admin@atendi.local');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('are read from the environment, both or neither', () => {
    const configured = {
      VAPID_PUBLIC_KEY: `B${'a'.repeat(86)}`,
      VAPID_PRIVATE_KEY: 'k'.repeat(43),
      VAPID_SUBJECT: 'https://atendi.example',
    };
    expect(load(configured).vapid).toEqual({
      publicKey: configured.VAPID_PUBLIC_KEY,
      privateKey: configured.VAPID_PRIVATE_KEY,
      subject: 'https://atendi.example',
    });
    expect(() => load({ VAPID_PUBLIC_KEY: configured.VAPID_PUBLIC_KEY })).toThrow(
      /VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/,
    );
    expect(() => load({ ...configured, VAPID_PRIVATE_KEY: 'short' })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => load({ ...configured, VAPID_SUBJECT: 'admin@example.com' })).toThrow(
      /VAPID_SUBJECT/,
    );
  });
});

describe('the documented environment', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
  const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

  it('.env.example lists exactly the variables config.ts reads', () => {
    const example = read('.env.example');
    const atendis = example.slice(0, example.indexOf('# --- Docker Compose only'));
    const listed = [...atendis.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(sorted(listed)).toEqual(sorted(environmentVariables));
  });

  it('README "Configuration" lists every variable config.ts reads but NODE_ENV', () => {
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('### Health'));
    const listed = [...table.matchAll(/^\| (`[A-Z0-9_]+`(?:, `[A-Z0-9_]+`)*) +\|/gm)].flatMap((m) =>
      m[1]!.split(', ').map((name) => name.replaceAll('`', '')),
    );
    expect(sorted(listed)).toEqual(sorted(environmentVariables.filter((n) => n !== 'NODE_ENV')));
  });
});
