import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import {
  MB,
  type ChatMessageView,
  type CompaniesPage,
  type CompanyView,
  type PlanView,
  type QuickMessageView,
  type WhatsappView,
} from '@atendi/shared';
import { companies, messages, storedFiles, tickets } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  SUPER_EMAIL,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { pairedSimulator, ticketOf } from '../../../test/inbox';
import { multipart, type Part } from '../../../test/multipart';

// Bounded storage: a cap on one request's files, a per-sender rate of uploads, and a
// per-company storage quota from the plan, kept exact under parallel uploads.

const REQUEST_MAX_MB = 1;
const RATE_LIMIT_MB = 2;
const KB = 1024;

let t: TestContext;
let port = 0;
let superSession: Session;
let numbers = 0;

beforeAll(async () => {
  t = await createTestApp({
    UPLOAD_REQUEST_MAX_MB: String(REQUEST_MAX_MB),
    UPLOAD_RATE_LIMIT_MB: String(RATE_LIMIT_MB),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  superSession = await login(t.app, SUPER_EMAIL);
});
afterAll(() => t.close());

const file = (name: string, bytes: number): Part => ({
  name,
  type: 'application/pdf',
  data: Buffer.alloc(bytes, 7),
});

type Setup = {
  companyId: number;
  admin: Session;
  connection: WhatsappView;
  ticketId: number;
};

// A company (plan storage in MB, 0 unlimited) with an admin holding an open conversation.
const setup = async (storageMb = 0): Promise<Setup> => {
  const company = await makeCompany(t.db, { planLimits: { storageMb } });
  const admin = await login(t.app, company.admin.email);
  const connection = await pairedSimulator(t.app, admin, {});
  const number = `5491188${String((numbers += 1)).padStart(6, '0')}`;
  const res = await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, {
    from: number,
    body: 'Hola',
  });
  expect(res.statusCode, res.body).toBe(200);
  const ticket = await eventually(
    () => ticketOf(t.db, company.company.id, number),
    (found) => found !== undefined,
    'ticket',
  );
  await t.db
    .update(tickets)
    .set({ status: 'open', userId: admin.userId })
    .where(eq(tickets.id, ticket!.id));
  return { companyId: company.company.id, admin, connection, ticketId: ticket!.id };
};

const filesOnDisk = (companyId: number) => {
  const folder = path.join(t.config.dataDir, 'uploads', String(companyId));
  return existsSync(folder) ? readdirSync(folder) : [];
};
const usage = async (companyId: number) =>
  (await t.db.select().from(companies).where(eq(companies.id, companyId)))[0]!.storageUsed;
const ledger = async (companyId: number) =>
  (
    await t.db.select({ n: count() }).from(storedFiles).where(eq(storedFiles.companyId, companyId))
  )[0]!.n;
const messageCount = async (ticketId: number) =>
  (await t.db.select({ n: count() }).from(messages).where(eq(messages.ticketId, ticketId)))[0]!.n;

// Over the network, so parallel requests really overlap (each its own connection to the API).
const post = async (url: string, token: string, form: ReturnType<typeof multipart>) => {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...form.headers },
    body: form.payload,
  });
  const body = (await res.json()) as { error?: string; message?: string; details?: object };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
};

describe('one request’s files together', () => {
  it('past UPLOAD_REQUEST_MAX_MB: 413 before a byte is read, no message, no file', async () => {
    const s = await setup();
    const before = await messageCount(s.ticketId);
    const form = multipart({ body: 'tres' }, [
      file('a.pdf', 400 * KB),
      file('b.pdf', 400 * KB),
      file('c.pdf', 400 * KB),
    ]);
    const res = await post(`/messages/${s.ticketId}`, s.admin.token, form);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      error: 'ERR_UPLOAD_REQUEST_TOO_LARGE',
      details: { maxMb: REQUEST_MAX_MB },
    });
    expect(res.body.message).toMatch(/at most 1 MB/);
    expect(await messageCount(s.ticketId)).toBe(before);
    expect(filesOnDisk(s.companyId)).toEqual([]);
    expect(await usage(s.companyId)).toBe(0);
  });

  it('past the cap with no declared length: the files already written are removed', async () => {
    const s = await setup();
    const before = await messageCount(s.ticketId);
    const form = multipart({ body: 'tres' }, [
      file('a.pdf', 400 * KB),
      file('b.pdf', 400 * KB),
      file('c.pdf', 400 * KB),
    ]);
    // A stream has no Content-Length: the form is read, and refused at its third file.
    const res = await t.app.inject({
      method: 'POST',
      url: `/messages/${s.ticketId}`,
      headers: { authorization: `Bearer ${s.admin.token}`, ...form.headers },
      payload: Readable.from([form.payload]),
    });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().error).toBe('ERR_UPLOAD_REQUEST_TOO_LARGE');
    expect(await messageCount(s.ticketId)).toBe(before);
    expect(filesOnDisk(s.companyId)).toEqual([]);
    expect(await usage(s.companyId)).toBe(0);
    expect(await ledger(s.companyId)).toBe(0);
  });

  it('applies to the external API and to file lists too', async () => {
    const s = await setup();
    const api = await post(
      '/api/messages/send',
      s.connection.token!,
      multipart({ number: '5491188999999', body: 'x' }, [
        file('a.pdf', 600 * KB),
        file('b.pdf', 600 * KB),
      ]),
    );
    expect(api.status).toBe(413);
    expect(api.body.error).toBe('ERR_UPLOAD_REQUEST_TOO_LARGE');
    const list = await inject(t.app, s.admin, 'POST', '/files', {
      name: 'Catálogo',
      message: 'Nuestros precios',
    });
    expect(list.statusCode, list.body).toBe(201);
    const form = multipart({}, [
      { ...file('a.pdf', 600 * KB), field: 'files' },
      { ...file('b.pdf', 600 * KB), field: 'files' },
    ]);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/files/uploadList/${list.json().id}`,
      headers: { authorization: `Bearer ${s.admin.token}`, ...form.headers },
      payload: Readable.from([form.payload]),
    });
    expect(upload.statusCode, upload.body).toBe(413);
    expect(filesOnDisk(s.companyId)).toEqual([]);
    expect(await usage(s.companyId)).toBe(0);
  });
});

describe('the rate of uploads', () => {
  it('parallel sends by one agent past UPLOAD_RATE_LIMIT_MB a minute: some 429 with Retry-After', async () => {
    const s = await setup();
    const sends = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(
          `/messages/${s.ticketId}`,
          s.admin.token,
          multipart({ body: `n${i}` }, [file(`f${i}.pdf`, 400 * KB)]),
        ),
      ),
    );
    const accepted = sends.filter((r) => r.status === 201);
    const refused = sends.filter((r) => r.status === 429);
    expect(accepted.length + refused.length).toBe(8);
    // 2 MB a minute hold five files of 400 KB.
    expect(accepted.length).toBe(5);
    for (const r of refused) {
      expect(r.body.error).toBe('ERR_TOO_MANY_REQUESTS');
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Refused sends keep nothing; another agent of the company is not held back.
    expect(filesOnDisk(s.companyId)).toHaveLength(5);
    const agent = await makeUser(t.db, s.companyId, 'admin');
    const other = await login(t.app, agent.email);
    await t.db.update(tickets).set({ userId: other.userId }).where(eq(tickets.id, s.ticketId));
    const again = await post(
      `/messages/${s.ticketId}`,
      other.token,
      multipart({ body: 'otra' }, [file('g.pdf', 400 * KB)]),
    );
    expect(again.status).toBe(201);
  });

  it('counts the external API per connection token', async () => {
    const s = await setup();
    const sends = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post(
          '/api/messages/send',
          s.connection.token!,
          multipart({ number: '5491188777777', body: `n${i}` }, [file(`f${i}.pdf`, 600 * KB)]),
        ),
      ),
    );
    expect(sends.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = sends.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3);
    expect(refused.every((r) => Number(r.retryAfter) >= 1)).toBe(true);
  });
});

describe('the company’s storage quota', () => {
  it('a company at its quota is refused with ERR_STORAGE_QUOTA_EXCEEDED and keeps nothing', async () => {
    const s = await setup(1);
    await t.db.update(companies).set({ storageUsed: MB }).where(eq(companies.id, s.companyId));
    const before = await messageCount(s.ticketId);
    const res = await post(
      `/messages/${s.ticketId}`,
      s.admin.token,
      multipart({ body: 'foto' }, [file('a.pdf', 10 * KB)]),
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: 'ERR_STORAGE_QUOTA_EXCEEDED',
      details: { usedBytes: MB, limitBytes: MB },
    });
    expect(res.body.message).toMatch(/storage is full/);
    expect(await messageCount(s.ticketId)).toBe(before);
    expect(filesOnDisk(s.companyId)).toEqual([]);
    expect(await usage(s.companyId)).toBe(MB);

    // Every way a file comes in is held to it: a quick answer's attachment too.
    const answer = await inject(t.app, s.admin, 'POST', '/quick-messages', {
      shortcode: 'promo',
      message: 'Promo',
    });
    const form = multipart({}, [{ ...file('promo.pdf', 10 * KB), field: 'file' }]);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/quick-messages/${answer.json().id}/media-upload`,
      headers: { authorization: `Bearer ${s.admin.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(upload.statusCode).toBe(403);
    expect(upload.json().error).toBe('ERR_STORAGE_QUOTA_EXCEEDED');
    expect(filesOnDisk(s.companyId)).toEqual([]);
  });

  it('parallel uploads near the quota never push usage past it; deleting frees it', async () => {
    const s = await setup(1);
    const size = 300 * KB;
    const sends = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post(
          `/messages/${s.ticketId}`,
          s.admin.token,
          multipart({ body: '' }, [file(`f${i}.pdf`, size)]),
        ),
      ),
    );
    // 1 MB holds three files of 300 KB, whatever order they arrive in.
    expect(sends.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = sends.filter((r) => r.status === 403);
    expect(refused).toHaveLength(3);
    expect(refused.every((r) => r.body.error === 'ERR_STORAGE_QUOTA_EXCEEDED')).toBe(true);
    expect(await usage(s.companyId)).toBe(3 * size);
    expect(await ledger(s.companyId)).toBe(3);
    expect(filesOnDisk(s.companyId)).toHaveLength(3);

    // What the company and the super user read.
    const own = await inject(t.app, s.admin, 'GET', `/companies/${s.companyId}`);
    expect(own.json()).toMatchObject({ storageUsed: 3 * size, storageLimit: MB });
    const listed = await inject(t.app, superSession, 'GET', '/companies?searchParam=');
    const row = (listed.json() as CompaniesPage).companies.find((c) => c.id === s.companyId);
    // The list pages by name; the company may be on a later page.
    const shown =
      row ??
      ((
        await inject(t.app, superSession, 'GET', `/companies/${s.companyId}`)
      ).json() as CompanyView);
    expect(shown).toMatchObject({ storageUsed: 3 * size, storageLimit: MB });

    // Deleting the conversation deletes its files and frees their bytes.
    const deleted = await inject(t.app, s.admin, 'DELETE', `/tickets/${s.ticketId}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await usage(s.companyId)).toBe(0);
    expect(filesOnDisk(s.companyId)).toEqual([]);
    expect(await ledger(s.companyId)).toBe(0);
  });

  it('a replaced or removed attachment frees its bytes', async () => {
    const s = await setup(1);
    const answer = (
      await inject(t.app, s.admin, 'POST', '/quick-messages', { shortcode: 'a', message: 'A' })
    ).json() as QuickMessageView;
    const upload = (bytes: number) => {
      const form = multipart({}, [{ ...file('a.pdf', bytes), field: 'file' }]);
      return t.app.inject({
        method: 'POST',
        url: `/quick-messages/${answer.id}/media-upload`,
        headers: { authorization: `Bearer ${s.admin.token}`, ...form.headers },
        payload: form.payload,
      });
    };
    expect((await upload(100 * KB)).statusCode).toBe(200);
    expect(await usage(s.companyId)).toBe(100 * KB);
    expect((await upload(200 * KB)).statusCode).toBe(200);
    expect(await usage(s.companyId)).toBe(200 * KB);
    const removed = await inject(
      t.app,
      s.admin,
      'DELETE',
      `/quick-messages/${answer.id}/media-upload`,
    );
    expect(removed.statusCode).toBe(200);
    expect(await usage(s.companyId)).toBe(0);
    expect(filesOnDisk(s.companyId)).toEqual([]);
  });

  it('plans carry storageMb: the advertised ones, a new one, an edit', async () => {
    const listed = (await inject(t.app, superSession, 'GET', '/plans/list')).json() as PlanView[];
    expect(
      Object.fromEntries(
        listed
          .filter((p) => ['Basic', 'Plus', 'Premium'].includes(p.name))
          .map((p) => [p.name, p.storageMb]),
      ),
    ).toEqual({ Basic: 5120, Plus: 20480, Premium: 51200 });
    const created = await inject(t.app, superSession, 'POST', '/plans', { name: 'Storage plan' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().storageMb).toBe(5120);
    const edited = await inject(t.app, superSession, 'PUT', `/plans/${created.json().id}`, {
      storageMb: 0,
    });
    expect(edited.json().storageMb).toBe(0);
    const bad = await inject(t.app, superSession, 'PUT', `/plans/${created.json().id}`, {
      storageMb: -1,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
  });
});

describe('media received from WhatsApp', () => {
  const receive = (s: Setup, id: string) =>
    inject(t.app, s.admin, 'POST', `/simulator/${s.connection.id}/inbound`, {
      from: '5491188000900',
      id,
      mediaType: 'image',
      fileName: 'foto.png',
      mediaBase64: Buffer.alloc(20 * KB, 1).toString('base64'),
    });
  const received = async (s: Setup, providerId: string) =>
    eventually(
      async () =>
        (
          await t.db
            .select()
            .from(messages)
            .where(and(eq(messages.companyId, s.companyId), eq(messages.providerId, providerId)))
        )[0],
      (row) => row !== undefined,
      'the message stored',
    );

  it('is counted, and a redelivery keeps no second copy', async () => {
    const s = await setup(1);
    expect((await receive(s, 'IN-1')).statusCode).toBe(200);
    const row = await received(s, 'IN-1');
    expect(row!.mediaUrl).not.toBeNull();
    expect(await usage(s.companyId)).toBe(20 * KB);
    expect((await receive(s, 'IN-1')).statusCode).toBe(200);
    await eventually(
      () => filesOnDisk(s.companyId),
      (files) => files.length === 1,
      'one file',
    );
    expect(await usage(s.companyId)).toBe(20 * KB);
  });

  it('over the quota: the message is kept without its file, marked ERR_STORAGE_QUOTA_EXCEEDED', async () => {
    const s = await setup(1);
    await t.db.update(companies).set({ storageUsed: MB }).where(eq(companies.id, s.companyId));
    expect((await receive(s, 'IN-FULL')).statusCode).toBe(200);
    const row = await received(s, 'IN-FULL');
    expect(row).toMatchObject({ mediaType: 'image', mediaUrl: null, mediaName: 'foto.png' });
    const chat = await inject(t.app, s.admin, 'GET', `/messages/${row!.ticketId}`);
    const shown = (chat.json().messages as ChatMessageView[]).find((m) => m.id === row!.id);
    expect(shown).toMatchObject({ mediaUrl: null, mediaError: 'ERR_STORAGE_QUOTA_EXCEEDED' });
    expect(filesOnDisk(s.companyId)).toEqual([]);
    expect(await usage(s.companyId)).toBe(MB);
  });
});

describe('reconciliation', () => {
  it('counts files nobody counted and forgets rows whose file is gone', async () => {
    const s = await setup(0);
    const folder = path.join(t.config.dataDir, 'uploads', String(s.companyId));
    const sent = await post(
      `/messages/${s.ticketId}`,
      s.admin.token,
      multipart({ body: '' }, [file('a.pdf', 50 * KB)]),
    );
    expect(sent.status).toBe(201);
    const [counted] = filesOnDisk(s.companyId);
    // A file left by an older version, and the counted one lost from the disk, both long ago.
    const old = `${'a'.repeat(32)}.pdf`;
    writeFileSync(path.join(folder, old), Buffer.alloc(30 * KB));
    const longAgo = new Date(Date.now() - 3600_000);
    utimesSync(path.join(folder, old), longAgo, longAgo);
    await t.db
      .update(storedFiles)
      .set({ createdAt: longAgo })
      .where(eq(storedFiles.companyId, s.companyId));
    rmSync(path.join(folder, counted!));
    await t.app.deps.uploads.reconcile(new Date());
    expect(await usage(s.companyId)).toBe(30 * KB);
    expect(await ledger(s.companyId)).toBe(1);
    // Repeatable: a second run changes nothing.
    await t.app.deps.uploads.reconcile(new Date());
    expect(await usage(s.companyId)).toBe(30 * KB);
  });
});
