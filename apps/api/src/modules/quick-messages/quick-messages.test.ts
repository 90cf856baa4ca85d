import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { QuickMessageView } from '@atendi/shared';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Method,
  type Session,
  type TestContext,
} from '../../../test/harness';

let t: TestContext;
let admin: Session;
let agent: Session;
let colleague: Session;
let supervisor: Session;
let outsider: Session;
let port = 0;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const company = await makeCompany(t.db);
  const companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  agent = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
  colleague = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
  supervisor = await login(t.app, (await makeUser(t.db, companyId, 'supervisor')).email);
  outsider = await login(t.app, (await makeCompany(t.db)).admin.email);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  sockets.forEach((s) => s.disconnect());
  await t.close();
});

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

const create = async (session: Session, body: Record<string, unknown>) => {
  const res = await call(session, 'POST', '/quick-messages', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as QuickMessageView;
};

const shortcodes = (records: QuickMessageView[]) => records.map((r) => r.shortcode);

type Heard = { event: string; payload: Record<string, unknown> };
const listen = async (session: Session) => {
  const socket = connect(`http://127.0.0.1:${port}`, {
    query: { token: session.token },
    transports: ['websocket'],
    forceNew: true,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  const heard: Heard[] = [];
  socket.onAny((event: string, payload: Heard['payload']) => heard.push({ event, payload }));
  return heard;
};
const settle = () => new Promise((r) => setTimeout(r, 150));

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

  it('emits company-{id}-quickemessage: company-wide to all, personal to its author only', async () => {
    const adminHeard = await listen(admin);
    const colleagueHeard = await listen(colleague);
    const agentHeard = await listen(agent);
    const channel = `company-${admin.companyId}-quickemessage`;

    const shared = await create(admin, { shortcode: 'aviso', message: 'Para todos', geral: true });
    const mine = await create(agent, { shortcode: 'nota', message: 'Para mí' });
    await call(admin, 'DELETE', `/quick-messages/${shared.id}`);
    await settle();

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
