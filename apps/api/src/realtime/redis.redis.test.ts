import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { eq } from 'drizzle-orm';
import type { App } from '../app';
import { users } from '../db/schema';
import { PASSWORD, auth, createTestApp, makeCompany, type TestContext } from '../../test/harness';
import { eventually } from '../../test/inbox';

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
let urlB: string;
let redis: Redis;
const sockets: Socket[] = [];

beforeAll(async () => {
  redis = new Redis(process.env.TEST_REDIS_URL!);
  t = await createTestApp(secrets);
  nodeA = t.app;
  nodeB = await t.spawnNode();
  await nodeB.listen({ port: 0, host: '127.0.0.1' });
  urlB = `http://127.0.0.1:${(nodeB.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  // The nodes handle those disconnects (an online check across nodes) before they stop: the last
  // step of each is marking its user offline.
  await eventually(
    () => t.db.select({ id: users.id }).from(users).where(eq(users.online, true)),
    (online) => online.length === 0,
    'the disconnects handled',
  );
  await t.close();
  await redis.quit();
});

const connectToB = (token: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = io(urlB, {
      transports: ['websocket'],
      query: { token },
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });

describe('several API nodes over Redis', () => {
  it("delivers a company's event emitted on one node to its sockets on the other, and to no other company", async () => {
    const { company, admin } = await makeCompany(t.db);
    const other = await makeCompany(t.db);
    const mine = await connectToB(await loginFrom(nodeA, admin.email));
    const theirs = await connectToB(await loginFrom(nodeA, other.admin.email));
    const heard: { action: string }[] = [];
    mine.on(`company-${company.id}-user`, (payload: { action: string }) => heard.push(payload));
    const leaked: unknown[] = [];
    theirs.onAny((event, payload) => leaked.push({ event, payload }));
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
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(2);
    expect(codes.filter((c) => c === 429)).toHaveLength(38);
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
});
