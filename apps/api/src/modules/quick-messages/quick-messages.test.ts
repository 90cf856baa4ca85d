import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuickMessageView } from '@atendi/shared';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Method,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { caughtUp, closeSockets, listenAs, type Heard } from '../../../test/sockets';
import { queues, userQueues } from '../../db/schema';

let t: SharedTestContext;
let admin: Session;
let agent: Session;
let colleague: Session;
let supervisor: Session;
let outsider: Session;

beforeAll(async () => {
  t = await sharedTestApp();
  const company = await makeCompany(t.db);
  const companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  agent = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
  colleague = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
  supervisor = await login(t.app, (await makeUser(t.db, companyId, 'supervisor')).email);
  outsider = await login(t.app, (await makeCompany(t.db)).admin.email);
});
afterAll(async () => {
  closeSockets();
});

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

const create = async (session: Session, body: Record<string, unknown>) => {
  const res = await call(session, 'POST', '/quick-messages', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as QuickMessageView;
};

const shortcodes = (records: QuickMessageView[]) => records.map((r) => r.shortcode);

// A browser form: the SPEC's typeArch field, then the file.
const multipart = (filename: string, content: Buffer) => {
  const boundary = '----atendi-quick-message-boundary';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="typeArch"\r\n\r\nquickMessage\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
};
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const upload = (session: Session, id: number, filename = 'promo.png', content = png) => {
  const form = multipart(filename, content);
  return t.app.inject({
    method: 'POST',
    url: `/quick-messages/${id}/media-upload`,
    headers: { authorization: `Bearer ${session.token}`, ...form.headers },
    payload: form.payload,
  });
};
const removeMedia = (session: Session, id: number) =>
  call(session, 'DELETE', `/quick-messages/${id}/media-upload`);

const storedFiles = (companyId: number) => {
  const folder = path.join(t.config.dataDir, 'uploads', String(companyId));
  return existsSync(folder) ? readdirSync(folder) : [];
};
const storedPath = (record: QuickMessageView) =>
  path.join(t.config.dataDir, 'uploads', String(record.companyId), record.mediaPath!);
// Fetches a signed link as the browser would: no bearer token.
const fetchLink = (link: string) => {
  const url = new URL(link);
  return t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
};

describe('quick messages', () => {
  it('creates, reads, edits and deletes a personal quick message', async () => {
    const created = await create(agent, {
      shortcode: ' saludo ',
      message: 'Hola, ¿en qué le ayudo?',
    });
    expect(created).toMatchObject({
      shortcode: 'saludo',
      message: 'Hola, ¿en qué le ayudo?',
      geral: false,
      status: true,
      isMedia: false,
      mediaName: null,
      userId: agent.userId,
    });
    const read = await call(agent, 'GET', `/quick-messages/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: created.id, shortcode: 'saludo' });

    const edited = await call(agent, 'PUT', `/quick-messages/${created.id}`, {
      message: 'Buenos días',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ shortcode: 'saludo', message: 'Buenos días' });

    expect((await call(agent, 'DELETE', `/quick-messages/${created.id}`)).statusCode).toBe(204);
    expect((await call(agent, 'GET', `/quick-messages/${created.id}`)).statusCode).toBe(404);
  });

  it('shows a personal one only to its author, and company-wide ones to everyone', async () => {
    const mine = await create(agent, { shortcode: 'mio', message: 'Solo mío' });
    const shared = await create(admin, {
      shortcode: 'horario',
      message: 'Abrimos 9 a 18',
      geral: true,
    });

    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call(
        colleague,
        method,
        `/quick-messages/${mine.id}`,
        method === 'PUT' ? { message: 'x' } : undefined,
      );
      expect(res.statusCode, method).toBe(404);
    }
    // Not even an admin reads someone else's personal answers.
    expect((await call(admin, 'GET', `/quick-messages/${mine.id}`)).statusCode).toBe(404);
    expect((await call(colleague, 'GET', `/quick-messages/${shared.id}`)).statusCode).toBe(200);

    const agentList = (await call(agent, 'GET', '/quick-messages/list')).json();
    expect(shortcodes(agentList)).toEqual(expect.arrayContaining(['horario', 'mio']));
    const colleagueList = (
      await call(colleague, 'GET', `/quick-messages/list?companyId=999&userId=${agent.userId}`)
    ).json();
    expect(shortcodes(colleagueList)).toContain('horario');
    expect(shortcodes(colleagueList)).not.toContain('mio');
    // Ordered by shortcode.
    expect(shortcodes(agentList)).toEqual([...shortcodes(agentList)].sort());
  });

  it('lets only admins create, edit or delete company-wide ones', async () => {
    const refused = await call(agent, 'POST', '/quick-messages', {
      shortcode: 'todos',
      geral: true,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');

    const shared = await create(admin, { shortcode: 'precios', message: 'Lista', geral: true });
    for (const session of [agent, supervisor]) {
      const edit = await call(session, 'PUT', `/quick-messages/${shared.id}`, { message: 'x' });
      expect(edit.statusCode).toBe(403);
      expect((await call(session, 'DELETE', `/quick-messages/${shared.id}`)).statusCode).toBe(403);
    }
    // A personal one cannot be turned company-wide by a non-admin either.
    const mine = await create(agent, { shortcode: 'privado' });
    expect(
      (await call(agent, 'PUT', `/quick-messages/${mine.id}`, { geral: true })).statusCode,
    ).toBe(403);

    const unchanged = (await call(agent, 'GET', `/quick-messages/${shared.id}`)).json();
    expect(unchanged.message).toBe('Lista');
    const edited = await call(admin, 'PUT', `/quick-messages/${shared.id}`, { message: 'Nueva' });
    expect(edited.json()).toMatchObject({ message: 'Nueva', geral: true });
    expect((await call(admin, 'DELETE', `/quick-messages/${shared.id}`)).statusCode).toBe(204);
  });

  it('answers 404 for another company’s quick messages, and keeps them out of lists', async () => {
    const foreign = await create(outsider, {
      shortcode: 'ajeno',
      message: 'De otra empresa',
      geral: true,
    });
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call(
        admin,
        method,
        `/quick-messages/${foreign.id}`,
        method === 'PUT' ? { message: 'x' } : undefined,
      );
      expect(res.statusCode, method).toBe(404);
    }
    expect(shortcodes((await call(admin, 'GET', '/quick-messages/list')).json())).not.toContain(
      'ajeno',
    );
    const page = (await call(admin, 'GET', '/quick-messages?searchParam=ajeno')).json();
    expect(page).toEqual({ records: [], hasMore: false });
  });

  it('refuses invalid input with 400 ERR_VALIDATION', async () => {
    const empty = await call(agent, 'POST', '/quick-messages', { shortcode: '   ', message: 'x' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(Object.keys(empty.json().fields)).toEqual(['shortcode']);
    const wrongType = await call(agent, 'POST', '/quick-messages', {
      shortcode: 'a',
      geral: 'yes',
    });
    expect(wrongType.statusCode).toBe(400);
    const mine = await create(agent, { shortcode: 'valida' });
    const blank = await call(agent, 'PUT', `/quick-messages/${mine.id}`, { shortcode: '' });
    expect(blank.statusCode).toBe(400);
    expect((await call(agent, 'GET', '/quick-messages/abc')).statusCode).toBe(400);
    expect((await call(agent, 'GET', '/quick-messages?pageNumber=0')).statusCode).toBe(400);
  });

  it('pages 20 at a time and searches shortcode and text without regard to case', async () => {
    const session = await login(t.app, (await makeUser(t.db, agent.companyId, 'user')).email);
    for (let i = 0; i < 21; i += 1)
      await create(session, { shortcode: `p${String(i).padStart(2, '0')}`, message: `Texto ${i}` });
    await create(session, { shortcode: 'envio', message: 'Hacemos ENVIOS a todo el país' });

    // The admin's company-wide answers of earlier tests are gone; the rest are this user's own.
    const first = (await call(session, 'GET', '/quick-messages?pageNumber=1')).json();
    expect(first.records).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    const second = (await call(session, 'GET', '/quick-messages?pageNumber=2')).json();
    expect(second.hasMore).toBe(false);
    const visible = (await call(session, 'GET', '/quick-messages/list')).json();
    expect(first.records.length + second.records.length).toBe(visible.length);

    const byText = (await call(session, 'GET', '/quick-messages?searchParam=envios')).json();
    expect(shortcodes(byText.records)).toEqual(['envio']);
    const byCode = (await call(session, 'GET', '/quick-messages?searchParam=P2')).json();
    expect(shortcodes(byCode.records)).toEqual(['p20']);
  });

  it('searches "%" and "_" as the characters they are, not as wildcards', async () => {
    const session = await login(t.app, (await makeUser(t.db, agent.companyId, 'user')).email);
    await create(session, { shortcode: 'descuento', message: 'Hoy 50% en todo' });
    await create(session, { shortcode: 'envio', message: 'Gratis desde 500 pesos' });
    await create(session, { shortcode: 'a_b', message: 'guion bajo' });
    await create(session, { shortcode: 'axb', message: 'equis' });

    const percent = (await call(session, 'GET', '/quick-messages?searchParam=50%25')).json();
    expect(shortcodes(percent.records)).toEqual(['descuento']);
    const underscore = (await call(session, 'GET', '/quick-messages?searchParam=a_b')).json();
    expect(shortcodes(underscore.records)).toEqual(['a_b']);
  });

  it('emits company-{id}-quickemessage: company-wide to all, personal to its author only', async () => {
    const adminHeard = await listenAs(t.app, admin);
    const colleagueHeard = await listenAs(t.app, colleague);
    const agentHeard = await listenAs(t.app, agent);
    const channel = `company-${admin.companyId}-quickemessage`;

    const shared = await create(admin, { shortcode: 'aviso', message: 'Para todos', geral: true });
    const mine = await create(agent, { shortcode: 'nota', message: 'Para mí' });
    await call(admin, 'DELETE', `/quick-messages/${shared.id}`);
    // Barrier: each socket's answer from the server comes after every event the requests emitted.
    await caughtUp(adminHeard, colleagueHeard, agentHeard);

    const events = (heard: Heard[]) =>
      heard.filter((h) => h.event === channel).map((h) => h.payload);
    expect(events(colleagueHeard)).toEqual([
      { action: 'create', record: expect.objectContaining({ id: shared.id, shortcode: 'aviso' }) },
      { action: 'delete', id: shared.id },
    ]);
    expect(events(agentHeard)).toEqual([
      { action: 'create', record: expect.objectContaining({ id: shared.id }) },
      { action: 'create', record: expect.objectContaining({ id: mine.id, shortcode: 'nota' }) },
      { action: 'delete', id: shared.id },
    ]);
    expect(events(adminHeard).map((e) => e.action)).toEqual(['create', 'delete']);
  });
});

describe('a queue’s quick messages', () => {
  it('are read by the queue’s agents and the admins, managed by admins only, and heard by those who read them', async () => {
    const company = await makeCompany(t.db);
    const companyId = company.company.id;
    const boss = await login(t.app, company.admin.email);
    const [sales] = await t.db
      .insert(queues)
      .values({ companyId, name: 'Ventas', color: '#12ab34' })
      .returning();
    const seller = await makeUser(t.db, companyId, 'user');
    await t.db.insert(userQueues).values({ userId: seller.id, queueId: sales.id, companyId });
    const sellerSession = await login(t.app, seller.email);
    const other = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
    const [bossHeard, sellerHeard, otherHeard] = await Promise.all(
      [boss, sellerSession, other].map((session) => listenAs(t.app, session)),
    );

    const answer = await create(boss, {
      shortcode: 'envios',
      message: 'Enviamos en 48 h',
      queueId: sales.id,
    });
    expect(answer).toMatchObject({ geral: false, queueId: sales.id });
    expect(shortcodes((await call(sellerSession, 'GET', '/quick-messages/list')).json())).toContain(
      'envios',
    );
    expect((await call(sellerSession, 'GET', `/quick-messages/${answer.id}`)).statusCode).toBe(200);
    expect(shortcodes((await call(other, 'GET', '/quick-messages/list')).json())).not.toContain(
      'envios',
    );
    expect((await call(other, 'GET', `/quick-messages/${answer.id}`)).statusCode).toBe(404);
    expect((await call(outsider, 'GET', `/quick-messages/${answer.id}`)).statusCode).toBe(404);

    // Its agents use it; they do not change it, nor make queue answers of their own.
    const edit = await call(sellerSession, 'PUT', `/quick-messages/${answer.id}`, { message: 'x' });
    expect(edit.statusCode).toBe(403);
    const own = await call(sellerSession, 'POST', '/quick-messages', {
      shortcode: 'mia',
      queueId: sales.id,
    });
    expect(own.statusCode).toBe(403);
    // Another company's queue is not one of this company's.
    const [foreignQueue] = await t.db
      .insert(queues)
      .values({ companyId: (await makeCompany(t.db)).company.id, name: 'Ajena', color: '#000001' })
      .returning();
    const foreign = await call(boss, 'POST', '/quick-messages', {
      shortcode: 'ajena',
      queueId: foreignQueue.id,
    });
    expect(foreign.statusCode).toBe(404);
    // Company-wide wins: a company-wide answer belongs to no queue.
    expect(
      await create(boss, { shortcode: 'todos', geral: true, queueId: sales.id }),
    ).toMatchObject({ geral: true, queueId: null });

    const channel = `company-${companyId}-quickemessage`;
    const created = (heard: Heard[]) =>
      heard.filter((h) => h.event === channel && h.payload.action === 'create').length;
    await caughtUp(bossHeard, sellerHeard, otherHeard);
    expect(created(bossHeard)).toBe(2);
    expect(created(sellerHeard)).toBe(2);
    // The other agent heard only the company-wide one.
    expect(created(otherHeard)).toBe(1);

    // Made company-wide, it reaches everyone; the queue first hears it leave.
    const widened = await call(boss, 'PUT', `/quick-messages/${answer.id}`, { geral: true });
    expect(widened.json()).toMatchObject({ geral: true, queueId: null });
    expect((await call(other, 'GET', `/quick-messages/${answer.id}`)).statusCode).toBe(200);
  });
});

describe('quick message attachments', () => {
  it('attaches a file that is served through its link, tells the author, and removes it again', async () => {
    const heard = await listenAs(t.app, agent);
    const colleagueHeard = await listenAs(t.app, colleague);
    const record = await create(agent, { shortcode: 'promo', message: 'Vea la promoción' });

    const uploaded = await upload(agent, record.id, 'Promo Marzo.png');
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const withMedia = uploaded.json() as QuickMessageView;
    expect(withMedia).toMatchObject({
      id: record.id,
      mediaName: 'Promo Marzo.png',
      isMedia: true,
      mediaPath: expect.stringMatching(/^[a-f0-9]{32}\.png$/),
      mediaUrl: expect.any(String),
    });
    const served = await fetchLink(withMedia.mediaUrl!);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    // The composer's list hands out the same attachment.
    const listed = (await call(agent, 'GET', '/quick-messages/list')).json() as QuickMessageView[];
    expect(listed.find((r) => r.id === record.id)).toMatchObject({ isMedia: true });

    // Barrier: each socket's answer from the server comes after every event the requests emitted.
    await caughtUp(heard, colleagueHeard);
    const channel = `company-${agent.companyId}-quickemessage`;
    const updates = (list: Heard[]) =>
      list.filter((h) => h.event === channel && h.payload.action === 'update');
    expect(updates(heard).map((h) => h.payload.record)).toEqual([
      expect.objectContaining({ id: record.id, mediaName: 'Promo Marzo.png', isMedia: true }),
    ]);
    expect(updates(colleagueHeard)).toEqual([]);

    const removed = await removeMedia(agent, record.id);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({
      mediaName: null,
      mediaPath: null,
      mediaUrl: null,
      isMedia: false,
    });
    expect(existsSync(storedPath(withMedia))).toBe(false);
    expect((await fetchLink(withMedia.mediaUrl!)).statusCode).toBe(404);
  });

  it('replacing the file or deleting the answer removes the stored file', async () => {
    const record = await create(agent, { shortcode: 'folleto' });
    const first = (await upload(agent, record.id, 'uno.png')).json() as QuickMessageView;
    const second = (await upload(agent, record.id, 'dos.pdf')).json() as QuickMessageView;
    expect(second.mediaName).toBe('dos.pdf');
    expect(existsSync(storedPath(first))).toBe(false);
    expect(existsSync(storedPath(second))).toBe(true);

    expect((await call(agent, 'DELETE', `/quick-messages/${record.id}`)).statusCode).toBe(204);
    expect(existsSync(storedPath(second))).toBe(false);
  });

  it('follows the edit rules: personal ones are their author’s, company-wide ones the admins’', async () => {
    const mine = await create(agent, { shortcode: 'propio' });
    const shared = await create(admin, { shortcode: 'catalogo', geral: true });
    const foreign = await create(outsider, { shortcode: 'externo', geral: true });
    const files = storedFiles(agent.companyId).length;
    const foreignFiles = storedFiles(outsider.companyId).length;

    for (const session of [colleague, admin]) {
      expect((await upload(session, mine.id)).statusCode).toBe(404);
      expect((await removeMedia(session, mine.id)).statusCode).toBe(404);
    }
    for (const session of [agent, supervisor]) {
      const refused = await upload(session, shared.id);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('ERR_NO_PERMISSION');
      expect((await removeMedia(session, shared.id)).statusCode).toBe(403);
    }
    expect((await upload(admin, foreign.id)).statusCode).toBe(404);
    expect((await removeMedia(admin, foreign.id)).statusCode).toBe(404);
    expect(storedFiles(agent.companyId)).toHaveLength(files);
    expect(storedFiles(outsider.companyId)).toHaveLength(foreignFiles);
    expect((await call(outsider, 'GET', `/quick-messages/${foreign.id}`)).json().isMedia).toBe(
      false,
    );

    const attached = await upload(admin, shared.id, 'catalogo.pdf');
    expect(attached.statusCode).toBe(200);
    // Everyone in the company may use (and so download) a company-wide attachment.
    const seen = (await call(agent, 'GET', `/quick-messages/${shared.id}`)).json();
    expect(seen.mediaName).toBe('catalogo.pdf');
    expect((await fetchLink(seen.mediaUrl)).statusCode).toBe(200);
  });

  it('refuses other file types and oversize files, storing nothing', async () => {
    const record = await create(agent, { shortcode: 'rechazo' });
    const files = storedFiles(agent.companyId).length;

    const exe = await upload(agent, record.id, 'virus.exe', Buffer.from('MZ'));
    expect(exe.statusCode).toBe(415);
    expect(exe.json().error).toBe('ERR_UPLOAD_TYPE_NOT_ALLOWED');
    const big = await upload(agent, record.id, 'video.mp4', Buffer.alloc(16 * 1024 * 1024 + 1));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('ERR_UPLOAD_TOO_LARGE');
    const noFile = await call(agent, 'POST', `/quick-messages/${record.id}/media-upload`, {});
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error).toBe('ERR_UPLOAD_MISSING_FILE');

    expect(storedFiles(agent.companyId)).toHaveLength(files);
    expect((await call(agent, 'GET', `/quick-messages/${record.id}`)).json()).toMatchObject({
      mediaName: null,
      isMedia: false,
    });
  });
});
