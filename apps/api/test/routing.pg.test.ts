import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { openProcessDatabase, PROCESS_WAIT, startApiProcess, type ApiProcess } from './api-process';
import { eventually } from './eventually';

// Automatic assignment across two API processes on one PostgreSQL (issue 36's rule): 200
// conversations arrive at once through both nodes, three online agents (their sockets on both nodes)
// may hold five each. Nobody ever holds more than five, the rest wait, no conversation is given
// twice, and an agent who resolves one gets the oldest waiting one.

const PASSWORD = 'Secret123';
const EMAIL = 'routing@test.local';
const LIMIT = 5;
const BURST = 200;
const secrets = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
};

let database: Awaited<ReturnType<typeof openProcessDatabase>>;
const sockets: Socket[] = [];

const startApi = async (token?: string) => {
  const api = await startApiProcess({
    token,
    databaseUrl: database.url,
    dataDir: database.dataDir,
    email: EMAIL,
    password: PASSWORD,
    secrets,
    env: process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {},
  });
  database.children.push(api.child);
  return api;
};

beforeAll(async () => {
  database = await openProcessDatabase('atendi_routing');
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await database?.close();
});

const json = async <T>(response: Promise<Response>) => {
  const res = await response;
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

const signIn = async (node: ApiProcess, email: string) =>
  (
    await json<{ token: string }>(
      fetch(`${node.base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      }),
    )
  ).token;

const connectTo = (node: ApiProcess, token: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = io(node.base, {
      transports: ['websocket'],
      query: { token },
      reconnection: false,
    });
    sockets.push(socket);
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', reject);
  });

// Open conversations per agent, as the database holds them now.
const openPerAgent = async () =>
  (
    await database.db.query<{ user_id: number; n: number }>(
      `select user_id, count(*)::int as n from tickets where status = 'open' group by user_id`,
    )
  ).rows;

describe('automatic assignment on two nodes', () => {
  it('never gives an agent more than their limit, nor a conversation twice, under a burst through both nodes', async () => {
    const a = await startApi();
    const b = await startApi(a.token);
    const queue = await json<{ id: number }>(
      a.call('POST', '/queue', { name: 'Soporte', color: '#0a7d5e', routing: 'round_robin' }),
    );
    await json(a.call('PUT', '/settings/sendGreetingAccepted', { value: 'enabled' }));
    const agents: { id: number; email: string }[] = [];
    for (const n of [1, 2, 3]) {
      const email = `agente${n}@routing.local`;
      const made = await json<{ id: number }>(
        a.call('POST', '/users', {
          name: `Agente ${n}`,
          email,
          password: PASSWORD,
          queueIds: [queue.id],
          maxTickets: LIMIT,
        }),
      );
      agents.push({ id: made.id, email });
    }
    const connection = await json<{ id: number }>(
      a.call('POST', '/whatsapp', { name: 'Ráfaga', provider: 'simulator', queueIds: [queue.id] }),
    );
    await eventually(
      async () => (await a.call('POST', `/simulator/${connection.id}/scan`)).status,
      (status) => status === 200,
      'the simulator to pair',
      PROCESS_WAIT,
    );
    // Agents online: two on node A, one on node B.
    for (const [i, agent] of agents.entries())
      await connectTo(i < 2 ? a : b, await signIn(i < 2 ? a : b, agent.email));
    await eventually(
      () =>
        database.db.query(`select id from users where presence = 'online' and id = any($1)`, [
          agents.map((x) => x.id),
        ]),
      (result) => result.rows.length === 3,
      'the agents online',
      PROCESS_WAIT,
    );

    // Watch every agent's load while the burst goes through.
    let watching = true;
    let most = 0;
    const watcher = (async () => {
      while (watching) {
        for (const row of await openPerAgent()) most = Math.max(most, row.n);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const sent = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        (i % 2 ? a : b).call('POST', `/simulator/${connection.id}/inbound`, {
          from: `5491140${String(i).padStart(5, '0')}`,
          body: `Hola ${i}`,
        }),
      ),
    );
    expect(sent.filter((res) => !res.ok).map((res) => res.status)).toEqual([]);
    await eventually(
      () => database.db.query(`select id from tickets where queue_id = $1`, [queue.id]),
      (result) => result.rows.length === BURST,
      'every conversation in the queue',
      PROCESS_WAIT,
    );
    await eventually(
      openPerAgent,
      (rows) => rows.length === 3 && rows.every((row) => row.n === LIMIT),
      'every agent at the limit',
      PROCESS_WAIT,
    );
    // Nothing more is handed out once everyone is full: the routing jobs have all run.
    await eventually(
      () =>
        database.db.query(
          `select id from jobs where queue = 'routing.assign' and status in ('pending', 'running')`,
        ),
      (result) => result.rows.length === 0,
      'the routing passes done',
      PROCESS_WAIT,
    );
    watching = false;
    await watcher;
    expect(most).toBe(LIMIT);
    const { rows: counts } = await database.db.query<{ status: string; n: number }>(
      `select status, count(*)::int as n from tickets group by status order by status`,
    );
    expect(counts).toEqual([
      { status: 'open', n: 3 * LIMIT },
      { status: 'pending', n: BURST - 3 * LIMIT },
    ]);
    // Each assignment greeted its contact once: no conversation was given twice.
    const { rows: greetings } = await database.db.query<{ ticket_id: number; n: number }>(
      `select m.ticket_id, count(*)::int as n from messages m
        where m.from_me and m.body like '%Agente%' group by m.ticket_id`,
    );
    expect(greetings).toHaveLength(3 * LIMIT);
    expect(greetings.every((row) => row.n === 1)).toBe(true);

    // An agent resolves one, through node B: the oldest waiting conversation is theirs.
    const { rows: oldest } = await database.db.query<{ id: number }>(
      `select id from tickets where status = 'pending' order by created_at, id limit 1`,
    );
    const resolver = agents[0];
    const token = await signIn(b, resolver.email);
    const { rows: mine } = await database.db.query<{ id: number }>(
      `select id from tickets where user_id = $1 and status = 'open' limit 1`,
      [resolver.id],
    );
    const resolved = await fetch(`${b.base}/tickets/${mine[0].id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'closed' }),
    });
    expect(resolved.status).toBe(200);
    const next = await eventually(
      () => database.db.query(`select status, user_id from tickets where id = $1`, [oldest[0].id]),
      (result) => result.rows[0].status === 'open',
      'the oldest waiting one assigned',
      PROCESS_WAIT,
    );
    expect(next.rows[0]).toEqual({ status: 'open', user_id: resolver.id });
    expect(Math.max(...(await openPerAgent()).map((row) => row.n))).toBe(LIMIT);
  }, 240_000);
});
