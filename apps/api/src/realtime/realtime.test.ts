import type { AddressInfo, Socket as Connection } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { contacts, queues, tickets, userQueues } from '../db/schema';
import {
  SUPER_EMAIL,
  auth,
  createTestApp,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type Session,
  type TestContext,
} from '../../test/harness';

let t: TestContext;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

const open = (token?: string, target = url) => {
  const socket = io(target, {
    transports: ['websocket'],
    query: token ? { token } : {},
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return socket;
};

const connect = (session: Pick<Session, 'token'>, target = url) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = open(session.token, target);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });

const refused = (socket: Socket) =>
  new Promise<Error>((resolve, reject) => {
    socket.once('connect_error', resolve);
    socket.once('connect', () => reject(new Error('the socket connected')));
  });

const nextEvent = <T = Record<string, unknown>>(socket: Socket, event: string) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 3 s`)), 3000);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });

// Every event a socket receives, whatever its name, but colleagues' presence (heard as anyone of the
// company connects, including the listener itself: modules/presence has its own tests).
const recorder = (socket: Socket) => {
  const events: { event: string; payload: unknown }[] = [];
  socket.onAny((event: string, payload: unknown) => {
    if (!event.endsWith('-presence')) events.push({ event, payload });
  });
  return events;
};

// The barrier before asserting that a socket heard nothing (or was not dropped): a question the
// server answers on that socket. Socket.io keeps one connection's packets in order, so once the
// answer is back, everything sent to the socket before it (by the requests already awaited) has
// arrived, a server-side disconnect included.
const caughtUp = async (...list: Socket[]) => {
  for (const socket of list)
    expect(await socket.timeout(5000).emitWithAck('joinNotification')).toBe(true);
};

const sidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid;

const adminOfNewCompany = async () => {
  const made = await makeCompany(t.db);
  return { ...made, session: await login(t.app, made.admin.email) };
};

describe('socket handshake', () => {
  it('a socket without a token is refused with ERR_SESSION_EXPIRED', async () => {
    const error = await refused(open());
    expect(error.message).toBe('ERR_SESSION_EXPIRED');
  });

  it('a socket with a bad token is refused with ERR_INVALID_TOKEN', async () => {
    const error = await refused(open('abc.def.ghi'));
    expect(error.message).toBe('ERR_INVALID_TOKEN');
  });

  it('a socket with a valid token connects', async () => {
    const { session } = await adminOfNewCompany();
    const socket = await connect(session);
    expect(socket.connected).toBe(true);
  });
});

describe('user events', () => {
  it("a user update in company A reaches A's sockets and no socket of company B", async () => {
    const a = await adminOfNewCompany();
    const b = await adminOfNewCompany();
    const agent = await makeUser(t.db, a.company.id);
    const socketA = await connect(a.session);
    const socketB = await connect(b.session);
    const seenByB = recorder(socketB);

    const event = nextEvent(socketA, `company-${a.company.id}-user`);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/users/${agent.id}`,
      headers: auth(a.session),
      payload: { name: 'Live Rename' },
    });
    expect(res.statusCode).toBe(200);
    const payload = await event;
    expect(payload).toMatchObject({
      action: 'update',
      user: { id: agent.id, name: 'Live Rename', companyId: a.company.id },
    });
    expect(JSON.stringify(payload)).not.toMatch(/password/i);
    await caughtUp(socketB);
    expect(seenByB).toEqual([]);
  });

  it('creating and deleting a user emit create and delete to the company', async () => {
    const a = await adminOfNewCompany();
    const socket = await connect(a.session);
    const channel = `company-${a.company.id}-user`;

    const created = nextEvent(socket, channel);
    const res = await t.app.inject({
      method: 'POST',
      url: '/users',
      headers: auth(a.session),
      payload: { name: 'Live Agent', email: 'live.agent@realtime.test', password: 'secret1' },
    });
    expect(res.statusCode).toBe(201);
    expect(await created).toMatchObject({
      action: 'create',
      user: { id: res.json().id, name: 'Live Agent' },
    });

    const deleted = nextEvent(socket, channel);
    await t.app.inject({
      method: 'DELETE',
      url: `/users/${res.json().id}`,
      headers: auth(a.session),
    });
    expect(await deleted).toEqual({ action: 'delete', userId: res.json().id });
  });

  it('a refused update emits nothing', async () => {
    const a = await adminOfNewCompany();
    const socket = await connect(a.session);
    const seen = recorder(socket);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/users/${a.admin.id}`,
      headers: auth(a.session),
      payload: { super: true },
    });
    expect(res.statusCode).toBe(403);
    await caughtUp(socket);
    expect(seen).toEqual([]);
  });
});

describe('another login of the same account', () => {
  it("tells the first login's socket, with the new login's session id", async () => {
    const { admin, company, session: first } = await adminOfNewCompany();
    const socket = await connect(first);
    const event = nextEvent<{ action: string; user: { id: number }; sessionId: string }>(
      socket,
      `company-${company.id}-auth`,
    );
    const second = await login(t.app, admin.email);
    const payload = await event;
    expect(payload).toEqual({
      action: 'update',
      user: { id: admin.id },
      sessionId: expect.any(String),
    });
    expect(payload.sessionId).not.toBe(sidOf(first.token));
    expect(payload.sessionId).toBe(sidOf(second.token));
  });

  it("does not reach a colleague's socket", async () => {
    const { company, session } = await adminOfNewCompany();
    const agent = await makeUser(t.db, company.id);
    const socket = await connect(session);
    const seen = recorder(socket);
    await login(t.app, agent.email);
    await caughtUp(socket);
    expect(seen).toEqual([]);
  });
});

describe('ended sessions', () => {
  const dropped = (socket: Socket) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('still connected after 3 s')), 3000);
      socket.once('disconnect', (reason) => {
        clearTimeout(timer);
        resolve(reason);
      });
    });

  it('a socket is refused with ERR_SESSION_EXPIRED once its session logged out', async () => {
    const { session } = await adminOfNewCompany();
    await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: auth(session) });
    const error = await refused(open(session.token));
    expect(error.message).toBe('ERR_SESSION_EXPIRED');
  });

  it("a connected socket is dropped when its session ends, after hearing the new login's event", async () => {
    const { admin, company, session: first } = await adminOfNewCompany();
    const socket = await connect(first);
    const heard = recorder(socket);
    const gone = dropped(socket);
    await login(t.app, admin.email);
    expect(await gone).toBe('io server disconnect');
    expect(heard.map((h) => h.event)).toEqual([`company-${company.id}-auth`]);
  });

  it("a password set by an admin drops the user's sockets and leaves the admin's", async () => {
    const { company, session } = await adminOfNewCompany();
    const agent = await makeUser(t.db, company.id);
    const agentSocket = await connect(await login(t.app, agent.email));
    const adminSocket = await connect(session);
    const gone = dropped(agentSocket);
    await t.app.inject({
      method: 'PUT',
      url: `/users/${agent.id}`,
      headers: auth(session),
      payload: { password: 'Changed123' },
    });
    expect(await gone).toBe('io server disconnect');
    await caughtUp(adminSocket);
    expect(adminSocket.connected).toBe(true);
  });
});

describe('a change of rights', () => {
  const dropped = (socket: Socket) =>
    new Promise<number>((resolve, reject) => {
      const started = Date.now();
      const timer = setTimeout(() => reject(new Error('still connected after 3 s')), 3000);
      socket.once('disconnect', (reason) => {
        clearTimeout(timer);
        if (reason === 'io server disconnect') resolve(Date.now() - started);
        else reject(new Error(reason));
      });
    });
  const agentText = `Eres el asistente de la empresa. ${'Responde con amabilidad. '.repeat(3)}`;
  const addAgent = (session: Session, name: string) =>
    t.app.inject({
      method: 'POST',
      url: '/prompt',
      headers: auth(session),
      payload: {
        name,
        prompt: agentText,
        model: 'gpt-4o-mini',
        maxTokens: 100,
        temperature: 0.5,
        maxMessages: 5,
      },
    });
  // An event every user of the company hears, sent after the one under test: the barrier.
  const addTag = (session: Session, name: string) =>
    t.app.inject({ method: 'POST', url: '/tags', headers: auth(session), payload: { name } });

  it("a demoted admin's socket is dropped at once, and one opened with the old token has the new rights", async () => {
    const { company, session } = await adminOfNewCompany();
    const demoted = await makeUser(t.db, company.id, 'admin');
    const oldToken = await login(t.app, demoted.email);
    const before = await connect(oldToken);
    const agents = nextEvent(before, `company-${company.id}-prompt`);
    expect((await addAgent(session, 'Agente uno')).statusCode).toBe(201);
    await agents;

    const gone = dropped(before);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/users/${demoted.id}`,
      headers: auth(session),
      payload: { profile: 'user' },
    });
    expect(res.statusCode).toBe(200);
    expect(await gone).toBeLessThan(1000);

    // The token still says admin for its 15 minutes; the handshake reads the user instead.
    const after = await connect(oldToken);
    const heard = recorder(after);
    expect((await addAgent(session, 'Agente dos')).statusCode).toBe(201);
    const barrier = nextEvent(after, `company-${company.id}-tag`);
    expect((await addTag(session, 'Después')).statusCode).toBe(201);
    await barrier;
    expect(heard.map((h) => h.event)).toEqual([`company-${company.id}-tag`]);
  });

  it('a user taken out of a queue leaves the chats of that queue', async () => {
    const { company, admin, session } = await adminOfNewCompany();
    const [sales, support] = await t.db
      .insert(queues)
      .values([
        { companyId: company.id, name: 'Ventas', color: '#00aa00' },
        { companyId: company.id, name: 'Soporte', color: '#0000aa' },
      ])
      .returning();
    const agent = await makeUser(t.db, company.id, 'user');
    await t.db
      .insert(userQueues)
      .values({ userId: agent.id, queueId: sales.id, companyId: company.id });
    const connection = await makeWhatsapp(t.db, company.id);
    const [contact] = await t.db
      .insert(contacts)
      .values({ companyId: company.id, name: 'Ana', number: '5491155550301' })
      .returning();
    const [ticket] = await t.db
      .insert(tickets)
      .values({
        companyId: company.id,
        contactId: contact.id,
        whatsappId: connection.id,
        queueId: sales.id,
        status: 'open',
        userId: admin.id,
      })
      .returning();
    const agentSession = await login(t.app, agent.email);
    const before = await connect(agentSession);
    expect(await before.timeout(5000).emitWithAck('joinChatBox', ticket.id)).toBe(true);

    const gone = dropped(before);
    await t.app.inject({
      method: 'PUT',
      url: `/users/${agent.id}`,
      headers: auth(session),
      payload: { queueIds: [support.id] },
    });
    await gone;

    // Reconnected as the page would, asking for the chat again: refused, so its messages stay away.
    const after = await connect(agentSession);
    const heard = recorder(after);
    after.emit('joinChatBox', ticket.id);
    await caughtUp(after);
    const note = await t.app.inject({
      method: 'POST',
      url: `/messages/${ticket.id}`,
      headers: auth(session),
      payload: { body: 'Solo para Ventas' },
    });
    expect(note.statusCode).toBe(201);
    const barrier = nextEvent(after, `company-${company.id}-tag`);
    await addTag(session, 'Barrera');
    await barrier;
    expect(heard.map((h) => h.event)).toEqual([`company-${company.id}-tag`]);
  });

  it('a deleted company’s sockets are dropped', async () => {
    const { session } = await adminOfNewCompany();
    const socket = await connect(session);
    const gone = dropped(socket);
    const root = await login(t.app, SUPER_EMAIL);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/companies/${session.companyId}`,
      headers: auth(root),
    });
    expect(res.statusCode).toBe(204);
    await gone;
  });
});

describe('room requests', () => {
  it('joinTickets and joinChatBox with invalid values do not break the socket', async () => {
    const { company, admin, session } = await adminOfNewCompany();
    const socket = await connect(session);
    socket.emit('joinTickets', 'not-a-status');
    socket.emit('joinTickets', { status: 'open' });
    socket.emit('joinTickets', null);
    socket.emit('joinTickets');
    socket.emit('leaveTickets', 42);
    socket.emit('joinChatBox', 'abc');
    socket.emit('joinChatBox', -1);
    socket.emit('joinNotification');
    // Answered after all of those were handled.
    await caughtUp(socket);
    expect(socket.connected).toBe(true);

    const event = nextEvent(socket, `company-${company.id}-user`);
    await t.app.inject({
      method: 'PUT',
      url: `/users/${admin.id}`,
      headers: auth(session),
      payload: { name: 'Still Listening' },
    });
    expect(await event).toMatchObject({ action: 'update', user: { name: 'Still Listening' } });
  });
});

describe('administration events', () => {
  it('a queue created in company A reaches A as company-{A}-queue and nothing reaches B', async () => {
    const a = await adminOfNewCompany();
    const b = await adminOfNewCompany();
    const socketA = await connect(a.session);
    const socketB = await connect(b.session);
    const heardByB = recorder(socketB);
    const event = nextEvent<{ action: string; queue: { name: string } }>(
      socketA,
      `company-${a.company.id}-queue`,
    );
    await t.app.inject({
      method: 'POST',
      url: '/queue',
      headers: auth(a.session),
      payload: { name: 'Ventas', color: '#0a0b0c' },
    });
    expect(await event).toMatchObject({ action: 'create', queue: { name: 'Ventas' } });
    await caughtUp(socketB);
    expect(heardByB).toEqual([]);
  });

  it('an announcement reaches every company, each on its own channel', async () => {
    const a = await adminOfNewCompany();
    const b = await adminOfNewCompany();
    const root = await login(t.app, SUPER_EMAIL);
    const [socketA, socketB] = [await connect(a.session), await connect(b.session)];
    const heardByA = nextEvent<{ action: string; record: { title: string } }>(
      socketA,
      `company-${a.company.id}-announcement`,
    );
    const heardByB = nextEvent<{ action: string; record: { title: string } }>(
      socketB,
      `company-${b.company.id}-announcement`,
    );
    await t.app.inject({
      method: 'POST',
      url: '/announcements',
      headers: auth(root),
      payload: { title: 'Mantenimiento', text: 'El sábado' },
    });
    expect(await heardByA).toMatchObject({ action: 'create', record: { title: 'Mantenimiento' } });
    expect(await heardByB).toMatchObject({ action: 'create', record: { title: 'Mantenimiento' } });
  });

  it('plan and help changes reach every company', async () => {
    const a = await adminOfNewCompany();
    const root = await login(t.app, SUPER_EMAIL);
    const socket = await connect(a.session);
    const plan = nextEvent<{ action: string; plan: { name: string } }>(
      socket,
      `company-${a.company.id}-plan`,
    );
    await t.app.inject({
      method: 'POST',
      url: '/plans',
      headers: auth(root),
      payload: { name: 'Enterprise' },
    });
    expect(await plan).toMatchObject({ action: 'create', plan: { name: 'Enterprise' } });
    const help = nextEvent<{ action: string; help: { title: string } }>(
      socket,
      `company-${a.company.id}-help`,
    );
    await t.app.inject({
      method: 'POST',
      url: '/helps',
      headers: auth(root),
      payload: { title: 'Primeros pasos' },
    });
    expect(await help).toMatchObject({ action: 'create', help: { title: 'Primeros pasos' } });
  });
});

describe('a burst of events', () => {
  it('reaches a socket whole and in order, in two writes to the network instead of one each', async () => {
    const { company, session } = await adminOfNewCompany();
    // The server's side of the next WebSocket connection: its TCP socket.
    const upgraded = new Promise<Connection>((resolve) =>
      t.app.server.once('upgrade', (_request, tcp: Connection) => resolve(tcp)),
    );
    const socket = await connect(session);
    const tcp = await upgraded;
    await caughtUp(socket);
    const heard = recorder(socket);
    // A write to the network is one _write or _writev of the stream.
    const write = vi.spyOn(tcp, '_write');
    const writev = vi.spyOn(tcp, '_writev');
    const names = Array.from({ length: 30 }, (_, i) => `Etiqueta ${i + 1}`);
    for (const name of names)
      t.app.deps.realtime.toUser(company.id, session.userId).emit('tag', {
        action: 'update',
        tag: { name },
      });
    await caughtUp(socket);
    expect(
      heard.filter((e) => e.event === `company-${company.id}-tag`).map((e) => e.payload),
    ).toEqual(names.map((name) => ({ action: 'update', tag: { name } })));
    // The burst (and the answer of caughtUp): the first packet goes at once, the others together.
    expect(write.mock.calls.length + writev.mock.calls.length).toBeLessThanOrEqual(3);
  });
});
