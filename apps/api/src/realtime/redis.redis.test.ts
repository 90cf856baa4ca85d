import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { PASSWORD, createTestApp, makeCompany, type TestContext } from '../../test/harness';

// Two API nodes with the same secrets and Redis, as behind a load balancer: what one node emits
// reaches sockets connected to the other, and login attempts are counted once for both.
const secrets = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
  REDIS_URL: process.env.TEST_REDIS_URL!,
  LOGIN_RATE_LIMIT: '2',
};

// Redis outlives a test run: a fresh client address per run keeps earlier runs' counters out.
const clientIp = `2001:db8::${randomBytes(4).toString('hex')}`;
const loginFrom = async (node: TestContext, email: string) => {
  const res = await node.app.inject({
    method: 'POST',
    url: '/auth/login',
    remoteAddress: clientIp,
    payload: { email, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
};

let nodeA: TestContext;
let nodeB: TestContext;
let urlB: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  nodeA = await createTestApp(secrets);
  nodeB = await createTestApp(secrets);
  await nodeB.app.listen({ port: 0, host: '127.0.0.1' });
  urlB = `http://127.0.0.1:${(nodeB.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  // The nodes handle those disconnects (an online check across nodes) before they stop.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await nodeA.close();
  await nodeB.close();
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
    const { company, admin } = await makeCompany(nodeA.db);
    const other = await makeCompany(nodeA.db);
    const mine = await connectToB(await loginFrom(nodeA, admin.email));
    const theirs = await connectToB(await loginFrom(nodeA, other.admin.email));
    const leaked: unknown[] = [];
    theirs.onAny((event, payload) => leaked.push({ event, payload }));
    // The adapter subscribes asynchronously; give the room join a moment to reach Redis.
    await new Promise((r) => setTimeout(r, 300));

    const received = new Promise((resolve) => mine.once(`company-${company.id}-user`, resolve));
    nodeA.app.deps.realtime
      .toCompany(company.id)
      .emit('user', { action: 'update', user: { id: admin.id } });
    expect(await received).toEqual({ action: 'update', user: { id: admin.id } });
    await new Promise((r) => setTimeout(r, 300));
    expect(leaked).toEqual([]);
  });

  it('counts failed logins on either node against the same limit', async () => {
    const email = `shared-${randomBytes(4).toString('hex')}@test.local`;
    const attempt = (node: TestContext) =>
      node.app.inject({
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
});
