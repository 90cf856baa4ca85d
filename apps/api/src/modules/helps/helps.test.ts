import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { helps } from '../../db/schema';
import {
  SUPER_EMAIL,
  createTestApp,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
  inject,
  type Method,
} from '../../../test/harness';

let t: TestContext;
let root: Session;
beforeAll(async () => {
  t = await createTestApp();
  root = await login(t.app, SUPER_EMAIL);
});
afterAll(() => t.close());

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

const helpRow = async (id: number) => (await t.db.select().from(helps).where(eq(helps.id, id)))[0];

const agentSession = async () => {
  const { company } = await makeCompany(t.db);
  return login(t.app, (await makeUser(t.db, company.id, 'user')).email);
};

describe('reading helps', () => {
  it('any logged user lists the help videos, sorted by title, and reads one', async () => {
    const b = await call(root, 'POST', '/helps', { title: 'B: Tickets', video: 'vid-b' });
    await call(root, 'POST', '/helps', {
      title: 'A: Connections',
      video: 'vid-a',
      description: 'Scan the QR code',
    });
    const session = await agentSession();
    for (const url of ['/helps', '/helps/list']) {
      const res = await call(session, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().map((h: { title: string }) => h.title)).toEqual([
        'A: Connections',
        'B: Tickets',
      ]);
    }
    const one = await call(session, 'GET', `/helps/${b.json().id}`);
    expect(one.json()).toMatchObject({ title: 'B: Tickets', video: 'vid-b', description: '' });
  });

  it('GET /helps filters by title or description', async () => {
    const session = await agentSession();
    const res = await call(session, 'GET', '/helps?searchParam=qr%20code');
    expect(res.json().map((h: { title: string }) => h.title)).toEqual(['A: Connections']);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/helps' })).statusCode).toBe(401);
  });

  it('an unknown id answers 404 ERR_NO_HELP_FOUND', async () => {
    const res = await call(await agentSession(), 'GET', '/helps/99999');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_HELP_FOUND');
  });
});

describe('managing helps (super users)', () => {
  it('creates, updates and deletes a help', async () => {
    const created = await call(root, 'POST', '/helps', {
      title: 'Campaigns',
      video: 'abc123',
      description: 'Bulk messages',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect(await helpRow(id)).toMatchObject({ title: 'Campaigns', video: 'abc123' });

    const updated = await call(root, 'PUT', `/helps/${id}`, { video: 'xyz789' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ title: 'Campaigns', video: 'xyz789' });

    expect((await call(root, 'DELETE', `/helps/${id}`)).statusCode).toBe(204);
    expect(await helpRow(id)).toBeUndefined();
  });

  it('an update changes only the fields it names', async () => {
    const created = await call(root, 'POST', '/helps', {
      title: 'Queues',
      video: 'q-video',
      description: 'Departments and chatbot options',
    });
    const res = await call(root, 'PUT', `/helps/${created.json().id}`, { title: 'Queues (new)' });
    expect(res.json()).toMatchObject({
      title: 'Queues (new)',
      video: 'q-video',
      description: 'Departments and chatbot options',
    });
  });

  it('PUT and DELETE of an unknown id answer 404 ERR_NO_HELP_FOUND', async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await call(
        root,
        method,
        '/helps/99999',
        method === 'PUT' ? { title: 'x' } : undefined,
      );
      expect(res.statusCode, method).toBe(404);
      expect(res.json().error).toBe('ERR_NO_HELP_FOUND');
    }
  });

  it('rejects a help without a title', async () => {
    const res = await call(root, 'POST', '/helps', { video: 'abc' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { title: expect.any(Array) },
    });
  });

  it('company staff cannot create, change or delete helps (403 ERR_SUPER_ONLY)', async () => {
    const existing = await call(root, 'POST', '/helps', { title: 'Protected' });
    const id = existing.json().id;
    const { admin } = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    for (const [method, url, payload] of [
      ['POST', '/helps', { title: 'Spam' }],
      ['PUT', `/helps/${id}`, { title: 'Defaced' }],
      ['DELETE', `/helps/${id}`, undefined],
    ] as const) {
      const res = await call(session, method, url, payload);
      expect(res.statusCode, method).toBe(403);
      expect(res.json().error).toBe('ERR_SUPER_ONLY');
    }
    expect(await helpRow(id)).toMatchObject({ title: 'Protected' });
    expect(await t.db.select().from(helps).where(eq(helps.title, 'Spam'))).toEqual([]);
  });
});
