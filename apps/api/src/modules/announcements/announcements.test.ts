import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SUPER_EMAIL,
  createTestApp,
  inject,
  login,
  makeCompany,
  type Method,
  type Session,
  type TestContext,
} from '../../../test/harness';

let t: TestContext;
let root: Session;
let admin: Session;
beforeAll(async () => {
  t = await createTestApp();
  root = await login(t.app, SUPER_EMAIL);
  admin = await login(t.app, (await makeCompany(t.db)).admin.email);
});
afterAll(() => t.close());

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

// A minimal multipart body with one file field, as a browser form sends it.
const multipart = (filename: string, content: Buffer, field = 'file') => {
  const boundary = '----atendi-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    payload: body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
};
// The 8-byte PNG signature plus a little data is enough: the server checks names, not pixels.
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);

const upload = (session: Session, id: number, filename: string, content = png) => {
  const form = multipart(filename, content);
  return t.app.inject({
    method: 'POST',
    url: `/announcements/${id}/media-upload`,
    headers: { authorization: `Bearer ${session.token}`, ...form.headers },
    payload: form.payload,
  });
};

const create = async (body: Record<string, unknown> = {}) =>
  (
    await call(root, 'POST', '/announcements', { title: 'Aviso', text: 'Texto del aviso', ...body })
  ).json();

const uploadsDir = () => path.join(t.config.dataDir, 'uploads');
const storedFiles = () => {
  try {
    return readdirSync(uploadsDir(), { recursive: true }).filter((f) => String(f).includes('.'));
  } catch {
    return [];
  }
};

describe('announcements', () => {
  it('super users create with SPEC defaults (priority 3, active) and validate fields', async () => {
    const created = await create();
    expect(created).toMatchObject({ priority: 3, status: true, mediaUrl: null });
    const bad = await call(root, 'POST', '/announcements', { title: '', text: '', priority: 4 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['priority', 'text', 'title']);
  });

  it('company users read only active announcements, newest first; super users see all', async () => {
    const hidden = await create({ title: 'Borrador', status: false });
    const shown = await create({ title: 'Publicado' });
    const forAdmin = (await call(admin, 'GET', '/announcements')).json();
    const titles = forAdmin.records.map((r: { title: string }) => r.title);
    expect(titles).toContain('Publicado');
    expect(titles).not.toContain('Borrador');
    expect(forAdmin.records[0].id).toBe(shown.id);
    expect((await call(admin, 'GET', `/announcements/${hidden.id}`)).statusCode).toBe(404);
    const forSuper = (await call(root, 'GET', '/announcements?searchParam=borrador')).json();
    expect(forSuper.records.map((r: { id: number }) => r.id)).toEqual([hidden.id]);
  });

  it('company users cannot write', async () => {
    const created = await create();
    expect(
      (await call(admin, 'POST', '/announcements', { title: 'x', text: 'y' })).statusCode,
    ).toBe(403);
    expect(
      (await call(admin, 'PUT', `/announcements/${created.id}`, { title: 'x' })).statusCode,
    ).toBe(403);
    expect((await call(admin, 'DELETE', `/announcements/${created.id}`)).statusCode).toBe(403);
    expect((await upload(admin, created.id, 'a.png')).statusCode).toBe(403);
  });

  it('stays readable for a company that is not active (SPEC §2 gate)', async () => {
    const suspended = await makeCompany(t.db, { status: 'suspended' });
    const session = await login(t.app, suspended.admin.email);
    expect((await call(session, 'GET', '/announcements')).statusCode).toBe(200);
  });
});

describe('announcement images', () => {
  it('stores a .png under a random name and serves it through the signed link only', async () => {
    const created = await create();
    const res = await upload(root, created.id, 'Banner Final.PNG');
    expect(res.statusCode).toBe(200);
    const record = res.json();
    expect(record.mediaName).toBe('Banner Final.PNG');
    const url = new URL(record.mediaUrl);
    expect(url.pathname).toMatch(/^\/uploads\/\d+\/[a-f0-9]{32}\.png$/);

    const served = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);

    const unsigned = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(unsigned.statusCode).toBe(400);
    const forged = await t.app.inject({
      method: 'GET',
      url: `${url.pathname}?expires=${url.searchParams.get('expires')}&sig=AAAA`,
    });
    expect(forged.statusCode).toBe(404);
    const expired = await t.app.inject({
      method: 'GET',
      url: `${url.pathname}?expires=1000&sig=${url.searchParams.get('sig')}`,
    });
    expect(expired.statusCode).toBe(404);
  });

  it('refuses other file types and oversize files, storing nothing', async () => {
    const created = await create();
    const before = storedFiles().length;
    const svg = await upload(root, created.id, 'logo.svg', Buffer.from('<svg onload="alert(1)"/>'));
    expect(svg.statusCode).toBe(415);
    expect(svg.json().error).toBe('ERR_UPLOAD_TYPE_NOT_ALLOWED');
    const big = await upload(root, created.id, 'huge.jpg', Buffer.alloc(5 * 1024 * 1024 + 10, 1));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('ERR_UPLOAD_TOO_LARGE');
    expect(storedFiles().length).toBe(before);
    expect((await call(root, 'GET', `/announcements/${created.id}`)).json().mediaUrl).toBeNull();
  });

  it('ignores path tricks in the client file name', async () => {
    const created = await create();
    const res = await upload(root, created.id, '../../../etc/evil.jpg');
    expect(res.statusCode).toBe(200);
    expect(res.json().mediaName).toBe('evil.jpg');
    expect(storedFiles().every((f) => !String(f).includes('evil'))).toBe(true);
  });

  it('replacing or removing the image deletes the old file', async () => {
    const created = await create();
    await upload(root, created.id, 'one.png');
    const count = storedFiles().length;
    await upload(root, created.id, 'two.jpg');
    expect(storedFiles().length).toBe(count);
    const removed = await call(root, 'DELETE', `/announcements/${created.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaName: null, mediaUrl: null });
    expect(storedFiles().length).toBe(count - 1);
  });

  it('a request without a file is a clear 400', async () => {
    const created = await create();
    const res = await call(root, 'POST', `/announcements/${created.id}/media-upload`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_UPLOAD_MISSING_FILE');
  });
});
