import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import type { App } from '../app';
import { contacts, presenceSockets, queues, tickets, userQueues } from '../db/schema';
import {
  PASSWORD,
  auth,
  createTestApp,
  inject,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type TestContext,
} from '../../test/harness';
import { eventually } from '../../test/eventually';

// Two API nodes with the same database, secrets and Redis, as behind a load balancer: what one node
// emits reaches sockets connected to the other, login attempts are counted once for both, and a
// session ended on one node drops its sockets on the other.
const secrets = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
  REDIS_URL: process.env.TEST_REDIS_URL!,
  LOGIN_RATE_LIMIT: '2',
};

// Redis outlives a test run: a fresh client address per run keeps earlier runs' counters out.
const clientIp = `2001:db8::${randomBytes(4).toString('hex')}`;
const loginFrom = async (node: App, email: string) => {
  const res = await node.inject({
    method: 'POST',
    url: '/auth/login',
    remoteAddress: clientIp,
    payload: { email, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
};

let t: TestContext;
let nodeA: App;
let nodeB: App;
let urlA: string;
let urlB: string;
let redis: Redis;
const sockets: Socket[] = [];

beforeAll(async () => {
  redis = new Redis(process.env.TEST_REDIS_URL!);
  t = await createTestApp(secrets);
  nodeA = t.app;
  nodeB = await t.spawnNode();
  await nodeA.listen({ port: 0, host: '127.0.0.1' });
  await nodeB.listen({ port: 0, host: '127.0.0.1' });
  urlA = `http://127.0.0.1:${(nodeA.server.address() as AddressInfo).port}`;
  urlB = `http://127.0.0.1:${(nodeB.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  // The nodes handle those disconnects (presence forgets each socket) before they stop.
  await eventually(
    () => t.db.select({ socketId: presenceSockets.socketId }).from(presenceSockets),
    (open) => open.length === 0,
    'the disconnects handled',
  );
  await t.close();
  await redis.quit();
});

const connectTo = (url: string, token: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = io(url, {
      transports: ['websocket'],
      query: { token },
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
const connectToB = (token: string) => connectTo(urlB, token);

// Every event a socket hears.
const recorder = (socket: Socket) => {
  const heard: { event: string; payload: Record<string, unknown> }[] = [];
  socket.onAny((event: string, payload: Record<string, unknown>) => heard.push({ event, payload }));
  return heard;
};

describe('several API nodes over Redis', () => {
  it("delivers a company's event emitted on one node to its sockets on the other, and to no other company", async () => {
    const { company, admin } = await makeCompany(t.db);
    const other = await makeCompany(t.db);
    const mine = await connectToB(await loginFrom(nodeA, admin.email));
    const theirs = await connectToB(await loginFrom(nodeA, other.admin.email));
    const heard: { action: string }[] = [];
    mine.on(`company-${company.id}-user`, (payload: { action: string }) => heard.push(payload));
    const leaked: unknown[] = [];
    // (Their own company's presence, heard as they connected, is not a leak.)
    theirs.onAny((event: string, payload) => {
      if (!event.endsWith('-presence')) leaked.push({ event, payload });
    });
    // Node B subscribes to Redis asynchronously: node A repeats a probe until B passes one on.
    await eventually(
      () => {
        if (!heard.length)
          nodeA.deps.realtime.toCompany(company.id).emit('user', { action: 'probe' });
        return heard.length;
      },
      (count) => count > 0,
      'node B subscribed',
    );

    nodeA.deps.realtime
      .toCompany(company.id)
      .emit('user', { action: 'update', user: { id: admin.id } });
    const update = await eventually(
      () => heard.find((payload) => payload.action === 'update'),
      Boolean,
      'the update on node B',
    );
    expect(update).toEqual({ action: 'update', user: { id: admin.id } });
    // The barrier: an event for the other company, sent after. Node A publishes in order and node B
    // passes Redis messages on in order, so had the update reached them, it would be heard first.
    nodeA.deps.realtime.toCompany(other.company.id).emit('user', { action: 'barrier' });
    await eventually(
      () => leaked.length,
      (count) => count > 0,
      'the barrier on node B',
    );
    expect(leaked).toEqual([
      { event: `company-${other.company.id}-user`, payload: { action: 'barrier' } },
    ]);
  });

  it('counts failed logins on either node against the same limit', async () => {
    const email = `shared-${randomBytes(4).toString('hex')}@test.local`;
    const attempt = (node: App) =>
      node.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: clientIp,
        payload: { email, password: 'wrong' },
      });
    expect((await attempt(nodeA)).statusCode).toBe(401);
    expect((await attempt(nodeB)).statusCode).toBe(401);
    const third = await attempt(nodeA);
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts parallel failures on both nodes atomically, and each counter expires', async () => {
    const email = `parallel-${randomBytes(4).toString('hex')}@test.local`;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? nodeA : nodeB).inject({
          method: 'POST',
          url: '/auth/login',
          remoteAddress: `2001:db8::${randomBytes(4).toString('hex')}`,
          payload: { email, password: 'wrong' },
        }),
      ),
    );
    // From 40 addresses: the email's own limit (LOGIN_RATE_LIMIT × 10) holds across both nodes.
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(20);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    // Counter and expiry are set in one step: no crash leaves a counter that never expires.
    const ttl = await redis.pttl(`rl:login-email:${email}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(15 * 60 * 1000);
  });

  it('gives an expiry to a counter an older version left without one', async () => {
    const email = `stuck-${randomBytes(4).toString('hex')}@test.local`;
    await redis.set(`rl:login-email:${email}`, '1');
    expect(await redis.pttl(`rl:login-email:${email}`)).toBe(-1);
    const res = await nodeA.inject({
      method: 'POST',
      url: '/auth/login',
      remoteAddress: clientIp,
      payload: { email, password: 'wrong' },
    });
    expect(res.statusCode).toBe(401);
    expect(await redis.pttl(`rl:login-email:${email}`)).toBeGreaterThan(0);
  });

  it('drops a socket on one node when its session ends on the other', async () => {
    const { admin } = await makeCompany(t.db);
    const token = await loginFrom(nodeA, admin.email);
    const socket = await connectToB(token);
    const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const out = await nodeA.inject({
      method: 'DELETE',
      url: '/auth/logout',
      headers: auth({ token }),
    });
    expect(out.statusCode).toBe(204);
    expect(await gone).toBe('io server disconnect');
    const me = await nodeB.inject({ method: 'GET', url: '/auth/me', headers: auth({ token }) });
    expect(me.statusCode).toBe(401);
  });

  it("refuses a user's sessions an admin ends on one node, on HTTP and the socket of the other, within a second", async () => {
    const { admin, company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id, 'user');
    const adminToken = await loginFrom(nodeA, admin.email);
    const token = await loginFrom(nodeB, agent.email);
    const socket = await connectToB(token);
    const gone = new Promise<number>((resolve) =>
      socket.once('disconnect', () => resolve(performance.now())),
    );
    const start = performance.now();
    const ended = await nodeA.inject({
      method: 'DELETE',
      url: `/users/${agent.id}/sessions`,
      headers: auth({ token: adminToken }),
    });
    expect(ended.statusCode).toBe(204);
    expect((await gone) - start).toBeLessThan(1000);
    const me = await nodeB.inject({ method: 'GET', url: '/auth/me', headers: auth({ token }) });
    expect(me.statusCode).toBe(401);
    expect(me.json().error).toBe('ERR_SESSION_EXPIRED');
  });

  it("a demoted admin's sockets on both nodes lose the admin's rooms within a second, and reconnect with the new rights", async () => {
    const { company, admin } = await makeCompany(t.db);
    const c = company.id;
    const demoted = await makeUser(t.db, c, 'admin');
    const [sales, support] = await t.db
      .insert(queues)
      .values([
        { companyId: c, name: 'Ventas', color: '#00aa00' },
        { companyId: c, name: 'Soporte', color: '#0000aa' },
      ])
      .returning();
    const [contact] = await t.db
      .insert(contacts)
      .values({ companyId: c, name: 'Ana', number: '5491155550401' })
      .returning();
    const connection = await makeWhatsapp(t.db, c);
    // A conversation of Soporte that the acting admin holds: the demoted user (Ventas) may not see it.
    const [ticket] = await t.db
      .insert(tickets)
      .values({
        companyId: c,
        contactId: contact.id,
        whatsappId: connection.id,
        queueId: support.id,
        status: 'open',
        userId: admin.id,
      })
      .returning();
    const acting = { token: await loginFrom(nodeA, admin.email) };
    const oldToken = await loginFrom(nodeA, demoted.email);
    const watching = await connectToB(acting.token);
    expect(await watching.timeout(5000).emitWithAck('joinChatBox', ticket.id)).toBe(true);
    const observer = recorder(watching);
    const sockets = [await connectTo(urlA, oldToken), await connectToB(oldToken)];
    const heard = sockets.map(recorder);
    for (const socket of sockets)
      expect(await socket.timeout(5000).emitWithAck('joinChatBox', ticket.id)).toBe(true);
    const heardOn = (list: typeof observer, channel: string) =>
      list.filter((h) => h.event === `company-${c}-${channel}`);

    // Before: both hear an admin-only event and the chat (node B once it follows Redis).
    await eventually(
      () => {
        if (heard.some((list) => !heardOn(list, 'prompt').length))
          nodeA.deps.realtime.toCompany(c).emit('prompt', { action: 'probe' });
        return heard.every((list) => heardOn(list, 'prompt').length);
      },
      Boolean,
      'both sockets hear admin events',
    );
    const say = (body: string) =>
      inject(nodeA, acting, 'POST', `/messages/${ticket.id}`, { body }).then((res) =>
        expect(res.statusCode).toBe(201),
      );
    await say('Antes');
    await eventually(
      () => heard.every((list) => heardOn(list, 'appMessage').length),
      Boolean,
      'both sockets in the chat',
    );

    // Demoted on node A: both sockets are dropped, the one on node B through Redis.
    const started = Date.now();
    const gone = sockets.map(
      (socket) =>
        new Promise<number>((resolve) => {
          // -1: not dropped by the server within 3 s.
          const timer = setTimeout(() => resolve(-1), 3000);
          socket.once('disconnect', (reason) => {
            clearTimeout(timer);
            resolve(reason === 'io server disconnect' ? Date.now() - started : -1);
          });
        }),
    );
    const demote = await inject(nodeA, acting, 'PUT', `/users/${demoted.id}`, {
      profile: 'user',
      queueIds: [sales.id],
    });
    expect(demote.statusCode).toBe(200);
    for (const took of await Promise.all(gone)) {
      expect(took).toBeGreaterThanOrEqual(0);
      expect(took).toBeLessThan(1000);
    }

    // Reconnected with the old token (still valid, still saying admin), asking for the chat again.
    const again = [await connectTo(urlA, oldToken), await connectToB(oldToken)];
    const after = again.map(recorder);
    for (const socket of again) socket.emit('joinChatBox', ticket.id);
    const agent = await inject(nodeA, acting, 'POST', '/prompt', {
      name: 'Agente nodos',
      prompt: `Eres el asistente. ${'Responde con amabilidad y brevedad. '.repeat(3)}`,
      model: 'gpt-4o-mini',
      maxTokens: 100,
      temperature: 0.5,
      maxMessages: 5,
    });
    expect(agent.statusCode).toBe(201);
    await say('Después');
    // The barrier, sent last from node A: every user of the company hears it, in order.
    expect((await inject(nodeA, acting, 'POST', '/tags', { name: 'Barrera' })).statusCode).toBe(
      201,
    );
    await eventually(
      () => [...after, observer].every((list) => heardOn(list, 'tag').length),
      Boolean,
      'the barrier on both nodes',
    );
    // The admin still hears what the demoted user no longer does (the absence is not vacuous).
    expect(heardOn(observer, 'prompt').some((h) => h.payload.action === 'create')).toBe(true);
    expect(heardOn(observer, 'appMessage').length).toBeGreaterThanOrEqual(2);
    for (const list of after) expect(list.map((h) => h.event)).toEqual([`company-${c}-tag`]);
  });

  it('a transfer on one node takes the chat away from a socket on the other that may no longer see it', async () => {
    const { company, admin } = await makeCompany(t.db);
    const c = company.id;
    const [sales, support] = await t.db
      .insert(queues)
      .values([
        { companyId: c, name: 'Ventas', color: '#00aa00' },
        { companyId: c, name: 'Soporte', color: '#0000aa' },
      ])
      .returning();
    const agent = await makeUser(t.db, c, 'user');
    await t.db.insert(userQueues).values({ userId: agent.id, queueId: sales.id, companyId: c });
    const [contact] = await t.db
      .insert(contacts)
      .values({ companyId: c, name: 'Ana', number: '5491155550402' })
      .returning();
    const connection = await makeWhatsapp(t.db, c);
    const [ticket] = await t.db
      .insert(tickets)
      .values({ companyId: c, contactId: contact.id, whatsappId: connection.id, queueId: sales.id })
      .returning();
    const acting = { token: await loginFrom(nodeA, admin.email) };
    const inChat = async (token: string) => {
      const socket = await connectToB(token);
      expect(await socket.timeout(5000).emitWithAck('joinChatBox', ticket.id)).toBe(true);
      return recorder(socket);
    };
    const agentHeard = await inChat(await loginFrom(nodeA, agent.email));
    const adminHeard = await inChat(acting.token);
    const on = (list: typeof agentHeard, channel: string) =>
      list.filter((h) => h.event === `company-${c}-${channel}`);
    // Node B follows Redis: a probe to the chat until the agent's socket hears one.
    await eventually(
      () => {
        if (!on(agentHeard, 'appMessage').length)
          nodeA.deps.realtime
            .toRoom(c, `ticket-${ticket.id}`)
            .emit('appMessage', { action: 'probe' });
        return on(agentHeard, 'appMessage').length;
      },
      Boolean,
      'node B subscribed',
    );

    const moved = await inject(nodeA, acting, 'PUT', `/tickets/${ticket.id}`, {
      status: 'open',
      userId: admin.id,
      queueId: support.id,
    });
    expect(moved.statusCode).toBe(200);
    const since = { agent: agentHeard.length, admin: adminHeard.length };
    const said = await inject(nodeA, acting, 'POST', `/messages/${ticket.id}`, { body: 'Soporte' });
    expect(said.statusCode).toBe(201);
    expect((await inject(nodeA, acting, 'POST', '/tags', { name: 'Barrera' })).statusCode).toBe(
      201,
    );
    await eventually(
      () => on(agentHeard, 'tag').length && on(adminHeard, 'tag').length,
      Boolean,
      'the barrier on node B',
    );
    expect(on(adminHeard.slice(since.admin), 'appMessage')).toHaveLength(1);
    expect(on(agentHeard.slice(since.agent), 'appMessage')).toEqual([]);
  });
});
