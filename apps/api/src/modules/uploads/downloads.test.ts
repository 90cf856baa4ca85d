import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ChatMessageView, FileListView } from '@atendi/shared';
import { companies } from '../../db/schema';
import { StorageUnavailable, type FileStore } from '../../platform/file-store';
import { createLocalFileStore } from '../../platform/local-file-store';
import { createS3FileStore } from '../../platform/s3-file-store';
import { RECONCILE_MIN_AGE_MS } from '../../platform/storage';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { freePort } from '../../../test/free-port';
import { eventually } from '../../../test/eventually';
import { pairedSimulator, ticketOf } from '../../../test/inbox';
import { startLocalS3, type LocalS3 } from '../../../test/local-s3';

// Files kept and served the same way on the local folder and on an S3-compatible bucket (s3rver
// through the real SDK): the bytes, byte ranges for seeking, deletes, the storage counts, and one
// company's files out of another's reach.

// A file list with one option, and the multipart form the files dialog sends for it.
const uploadForm = (listId: number, optionId: number, file: UploadedFile) => {
  const boundary = '----atendi-downloads';
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const payload = Buffer.concat([
    Buffer.from(
      field('fileId', String(optionId)) +
        field('id', String(optionId)) +
        field('name', 'Uno') +
        field('mediaType', file.type) +
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    method: 'POST' as const,
    url: `/files/uploadList/${listId}`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  };
};
type UploadedFile = { filename: string; type: string; content: Buffer };

const newList = async (t: TestContext, admin: Session) => {
  const created = await inject(t.app, admin, 'POST', '/files', {
    name: `Lista ${randomBytes(4).toString('hex')}`,
    message: 'Hola',
    options: [{ name: 'Uno' }],
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as FileListView;
};

// 100 KB that differ from byte to byte, so a slice from the wrong place shows.
const audio = Buffer.from(Array.from({ length: 100 * 1024 }, (_, i) => (i * 31 + (i >> 8)) % 256));

type Driver = 'local' | 's3';

describe.each<Driver>(['local', 's3'])('files kept on the %s store', (driver) => {
  let t: TestContext;
  let s3: LocalS3 | undefined;
  let admin: Session;
  let companyId: number;
  let otherCompanyId: number;

  beforeAll(async () => {
    s3 = driver === 's3' ? await startLocalS3() : undefined;
    t = await createTestApp(s3?.env ?? {});
    const made = await makeCompany(t.db);
    companyId = made.company.id;
    admin = await login(t.app, made.admin.email);
    otherCompanyId = (await makeCompany(t.db)).company.id;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const usage = async (id: number) =>
    (await t.db.select().from(companies).where(eq(companies.id, id)))[0]!.storageUsed;

  // A file uploaded for a new file list's one option, as the files dialog sends it.
  const upload = async (filename: string, type: string, content: Buffer) => {
    const list = await newList(t, admin);
    const form = uploadForm(list.id, list.options[0].id, { filename, type, content });
    const res = await t.app.inject({
      ...form,
      headers: { ...form.headers, authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const option = (res.json() as FileListView).options[0];
    return { listId: list.id, storedName: option.path, url: option.url! };
  };

  const download = (url: string, headers: Record<string, string> = {}) => {
    const link = new URL(url);
    return t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers });
  };

  it('gives back the bytes that were uploaded, kept in the store and counted', async () => {
    const before = await usage(companyId);
    const file = await upload('nota.ogg', 'audio/ogg', audio);
    const res = await download(file.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/ogg');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(Number(res.headers['content-length'])).toBe(audio.length);
    expect(res.rawPayload.equals(audio)).toBe(true);
    expect(await t.app.deps.files.stat(`${companyId}/${file.storedName}`)).toMatchObject({
      bytes: audio.length,
    });
    expect(await usage(companyId)).toBe(before + audio.length);
  });

  it('answers a byte range with exactly those bytes (206), as a player seeking asks', async () => {
    const { url } = await upload('nota.ogg', 'audio/ogg', audio);
    const size = audio.length;
    const middle = await download(url, { range: 'bytes=1000-1999' });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 1000-1999/${size}`);
    expect(middle.headers['accept-ranges']).toBe('bytes');
    expect(Number(middle.headers['content-length'])).toBe(1000);
    expect(middle.rawPayload.equals(audio.subarray(1000, 2000))).toBe(true);

    const tail = await download(url, { range: 'bytes=-500' });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(tail.rawPayload.equals(audio.subarray(size - 500))).toBe(true);

    const rest = await download(url, { range: `bytes=${size - 10}-` });
    expect(rest.statusCode).toBe(206);
    expect(rest.rawPayload.equals(audio.subarray(size - 10))).toBe(true);

    // Past the end is cut at the end.
    const over = await download(url, { range: `bytes=0-${size * 2}` });
    expect(over.statusCode).toBe(206);
    expect(over.headers['content-range']).toBe(`bytes 0-${size - 1}/${size}`);
    expect(over.rawPayload.equals(audio)).toBe(true);
  });

  it('answers 416 for a range that starts past the end, and the whole file for a bad one', async () => {
    const { url } = await upload('nota.ogg', 'audio/ogg', audio);
    const res = await download(url, { range: `bytes=${audio.length}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${audio.length}`);
    expect(res.json()).toMatchObject({ error: 'ERR_RANGE_NOT_SATISFIABLE' });
    // Not a range this server reads (another unit, several ranges): the whole file, as RFC 9110 lets.
    for (const range of ['items=0-5', 'bytes=0-1,5-6', 'bytes=9-3']) {
      const whole = await download(url, { range });
      expect(whole.statusCode, range).toBe(200);
      expect(whole.rawPayload.equals(audio)).toBe(true);
    }
  });

  it('keeps a voice note a contact sends and plays it from any point', async () => {
    const connection = await pairedSimulator(t.app, admin, {});
    const number = `54911${randomBytes(3).readUIntBE(0, 3).toString().padStart(8, '0')}`;
    const sent = await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, {
      from: number,
      mediaType: 'audio',
      fileName: 'nota.ogg',
      mediaBase64: audio.toString('base64'),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, number),
      (found) => found !== undefined,
      'ticket',
    );
    const chat = await inject(t.app, admin, 'GET', `/messages/${ticket!.id}`);
    const voice = (chat.json().messages as ChatMessageView[]).find((m) => m.mediaUrl);
    expect(voice).toMatchObject({ mediaType: 'audio' });
    const whole = await download(voice!.mediaUrl!);
    expect(whole.rawPayload.equals(audio)).toBe(true);
    const seek = await download(voice!.mediaUrl!, { range: 'bytes=50000-50999' });
    expect(seek.statusCode).toBe(206);
    expect(seek.rawPayload.equals(audio.subarray(50000, 51000))).toBe(true);
  });

  it("never serves one company's file through another's link", async () => {
    const file = await upload('factura.pdf', 'application/pdf', Buffer.from('%PDF-1.4 de A'));
    // A link signed for the other company names its own folder, where the file is not.
    const foreign = t.app.deps.uploads.urlFor(otherCompanyId, file.storedName)!;
    const res = await download(foreign);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
    // The company in the link changed by hand: the signature no longer matches.
    const edited = file.url.replace(`/uploads/${companyId}/`, `/uploads/${otherCompanyId}/`);
    expect((await download(edited)).statusCode).toBe(404);
    expect(await t.app.deps.uploads.read(otherCompanyId, file.storedName)).toBeUndefined();
  });

  it('deleting the record removes the file from the store and frees its bytes', async () => {
    const file = await upload('nota.ogg', 'audio/ogg', audio);
    const before = await usage(companyId);
    const res = await inject(t.app, admin, 'DELETE', `/files/${file.listId}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.app.deps.files.stat(`${companyId}/${file.storedName}`)).toBeUndefined();
    expect(await usage(companyId)).toBe(before - audio.length);
    expect((await download(file.url)).statusCode).toBe(404);
  });

  it('the reconciliation counts from what the store lists', async () => {
    const before = await usage(companyId);
    const uncounted = `${randomBytes(16).toString('hex')}.pdf`;
    // Written past the counting, as by a process that died before counting it.
    await t.app.deps.files.put(`${companyId}/${uncounted}`, Buffer.alloc(3000, 1));
    const later = new Date(Date.now() + 2 * RECONCILE_MIN_AGE_MS);
    await t.app.deps.uploads.reconcile(later);
    expect(await usage(companyId)).toBe(before + 3000);
    await t.app.deps.files.delete(`${companyId}/${uncounted}`);
    await t.app.deps.uploads.reconcile(later);
    expect(await usage(companyId)).toBe(before);
  });

  it('check() passes while the store can be reached, and throws when it cannot', async () => {
    await expect(t.app.deps.files.check()).resolves.toBeUndefined();
    let broken: FileStore;
    if (s3) {
      broken = createS3FileStore({ ...s3.config, bucket: 'no-such-bucket' });
    } else {
      // A file where the folder should be.
      const dir = mkdtempSync(path.join(tmpdir(), 'atendi-broken-'));
      writeFileSync(path.join(dir, 'uploads'), '');
      broken = createLocalFileStore(path.join(dir, 'uploads'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    }
    await expect(broken.check()).rejects.toBeInstanceOf(StorageUnavailable);
  });
});

describe('a bucket that cannot be reached', () => {
  let t: TestContext;
  let admin: Session;
  let companyId: number;

  beforeAll(async () => {
    // Nothing listens there.
    const port = await freePort();
    t = await createTestApp({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'atendi-test',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    });
    const made = await makeCompany(t.db);
    companyId = made.company.id;
    admin = await login(t.app, made.admin.email);
  });
  afterAll(() => t?.close());

  it('answers uploads and downloads 503 ERR_STORAGE_UNAVAILABLE and counts nothing', async () => {
    const list = await newList(t, admin);
    const form = uploadForm(list.id, list.options[0].id, {
      filename: 'nota.ogg',
      type: 'audio/ogg',
      content: audio,
    });
    const res = await t.app.inject({
      ...form,
      headers: { ...form.headers, authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ error: 'ERR_STORAGE_UNAVAILABLE' });
    const [company] = await t.db.select().from(companies).where(eq(companies.id, companyId));
    expect(company!.storageUsed).toBe(0);

    const link = new URL(t.app.deps.uploads.urlFor(companyId, `${'a'.repeat(32)}.ogg`)!);
    const download = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(download.statusCode).toBe(503);
    expect(download.json()).toMatchObject({ error: 'ERR_STORAGE_UNAVAILABLE' });
    await expect(t.app.deps.files.check()).rejects.toBeInstanceOf(StorageUnavailable);
  });
});
