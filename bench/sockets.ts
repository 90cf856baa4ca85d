import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { defaultSchedules, settingDefaults } from '@atendi/shared';
import { hashPassword } from '../apps/api/src/platform/passwords';
import { eventually } from '../apps/api/test/eventually';
import {
  PASSWORD,
  api,
  args,
  BENCH_WAIT,
  cpuSeconds,
  login,
  machine,
  ms,
  pool,
  requestsDatabaseUrl,
  saveResult,
  spread,
  startApi,
  summarize,
  withDatabase,
  type RunningApi,
} from './lib';
import { prepareDatabase } from './seed';

// Idle sockets and one broadcast on a single API node: `npx tsx bench/sockets.ts
// [--sockets 10000] [--broadcasts 20] [--runs 3]`.
//
// Each run: a fresh database with two companies, the API as its own process with SIMULATOR_ENABLED, every
// agent logged in once (one session per account: a second login would end the first, so a user's sockets
// share its token the way a user's tabs do), then N socket.io clients spread over child processes, each
// joining what the inbox joins. The API's resident memory is read with 0 and with N idle sockets. Then a
// contact writes on a pending ticket of queue 1 (POST /simulator/{id}/inbound): its ticket and message
// events go to the sockets of the agents of queue 1 and to nobody else, and every client stamps the
// receipt on the machine's clock.

const options = args();
// Child processes run this same file with --worker: they hold the client sockets.
const isWorker = options.flag('worker');
const total = options.int('sockets', 10_000);
const targetSockets = options.int('target', 1_000);
const foreignSockets = options.int('foreign', 500);
const agents = options.int('agents', 100);
const workerCount = Math.max(1, options.int('workers', 4));
const broadcasts = options.int('broadcasts', 20);
const warmup = options.int('warmup', 3);
const runs = options.int('runs', 3);
const idleSeconds = options.int('idle', 20);
const connectConcurrency = Math.max(1, options.int('connect-concurrency', 100));
const withRedis = options.flag('redis');

const socketsDatabaseUrl =
  process.env.BENCH_SOCKETS_DATABASE_URL ??
  withDatabase(requestsDatabaseUrl, 'atendi_bench_sockets');

// One clock for every process on the machine: receipts in the clients, the call's start here.
const clock = () => performance.timeOrigin + performance.now();
const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

// What a socket is in the broadcast: in its room (an agent of queue 1), in the same company but outside
// the room, or in the other company.
type Role = 'target' | 'bystander' | 'foreign';
type SocketPlan = { token: string; role: Role };

type ToWorker =
  | { type: 'connect'; url: string; plans: SocketPlan[]; concurrency: number }
  | { type: 'arm'; tag: string }
  | { type: 'tally' };

type RoleTally = {
  sockets: number;
  // Sockets that heard the tagged message (or ticket) event once, and the events heard beyond once.
  messageOnce: number;
  ticketOnce: number;
  duplicates: number;
  // Any other event since the broadcast was armed.
  otherEvents: number;
};
type Tally = {
  roles: Record<Role, RoleTally>;
  otherEventNames: Record<string, number>;
  disconnects: number;
};

type FromWorker =
  | { type: 'ready' }
  | {
      type: 'connected';
      connected: number;
      failures: string[];
      rssMiB: number;
    }
  | { type: 'armed' }
  | { type: 'received'; tag: string; message: number[]; ticket: number[] }
  | { type: 'tally'; tally: Tally };

// --- The client side (a child process) ---

// What the web app emits on the inbox (apps/web/src): the header's bell joins the notifications, the
// inbox page every status list and the notifications again; each join waits for its acknowledgement.
const INBOX_JOINS: [string, ...string[]][] = [
  ['joinNotification'],
  ['joinTickets', 'open'],
  ['joinTickets', 'pending'],
  ['joinTickets', 'closed'],
  ['joinNotification'],
];
const JOIN_TIMEOUT_MS = 120_000;

const emptyRoleTally = (): RoleTally => ({
  sockets: 0,
  messageOnce: 0,
  ticketOnce: 0,
  duplicates: 0,
  otherEvents: 0,
});

// The kind of a broadcast's event and the text its tag is in (the message's body, the ticket's preview).
const taggedText = (event: string, payload: unknown) => {
  const body = payload as { message?: { body?: string }; ticket?: { lastMessage?: string } };
  if (event.endsWith('-appMessage')) return { kind: 'message' as const, text: body.message?.body };
  if (event.endsWith('-ticket')) return { kind: 'ticket' as const, text: body.ticket?.lastMessage };
  return undefined;
};

const runWorker = () => {
  const sockets: Socket[] = [];
  let plans: SocketPlan[] = [];
  let tag = '';
  let messageAt = new Float64Array(0);
  let ticketAt = new Float64Array(0);
  let messageCount = new Uint16Array(0);
  let ticketCount = new Uint16Array(0);
  let otherCount = new Uint32Array(0);
  let otherNames = new Map<string, number>();
  let targetsWaiting = 0;
  let disconnects = 0;
  const send = (message: FromWorker) => process.send!(message);

  const targetsOf = () => plans.flatMap((plan, i) => (plan.role === 'target' ? [i] : []));

  const reportIfComplete = () => {
    if (targetsWaiting !== 0) return;
    const targets = targetsOf();
    send({
      type: 'received',
      tag,
      message: targets.map((i) => messageAt[i]),
      ticket: targets.map((i) => ticketAt[i]),
    });
  };

  // Stamps first, then looks: the figure is when the event reached this client.
  const record = (i: number, event: string, payload: unknown) => {
    const at = clock();
    if (!tag) return;
    const tagged = taggedText(event, payload);
    if (!tagged || !tagged.text?.includes(`#${tag}#`)) {
      otherCount[i] += 1;
      otherNames.set(event, (otherNames.get(event) ?? 0) + 1);
      return;
    }
    const [times, counts, other] =
      tagged.kind === 'message'
        ? [messageAt, messageCount, ticketCount]
        : [ticketAt, ticketCount, messageCount];
    counts[i] += 1;
    if (counts[i] > 1) return;
    times[i] = at;
    if (plans[i].role === 'target' && other[i] > 0) {
      targetsWaiting -= 1;
      reportIfComplete();
    }
  };

  const open = (url: string, plan: SocketPlan, i: number) =>
    new Promise<void>((resolve, reject) => {
      // As apps/web/src/api/socket.ts connects, without reconnecting: a dropped socket is counted.
      const socket = io(url, {
        transports: ['websocket'],
        query: { token: plan.token },
        forceNew: true,
        reconnection: false,
      });
      sockets[i] = socket;
      socket.onAny((event: string, payload: unknown) => record(i, event, payload));
      socket.on('disconnect', () => (disconnects += 1));
      socket.once('connect_error', reject);
      socket.once('connect', () => {
        Promise.all(
          INBOX_JOINS.map((join) => socket.timeout(JOIN_TIMEOUT_MS).emitWithAck(...join)),
        ).then(() => resolve(), reject);
      });
    });

  const connectAll = async (url: string, list: SocketPlan[], concurrency: number) => {
    plans = list;
    const failures: string[] = [];
    await pool(list.length, concurrency, (i) =>
      open(url, list[i], i).catch((error: Error) => {
        failures.push(error.message);
      }),
    );
    send({
      type: 'connected',
      connected: sockets.filter((s) => s.connected).length,
      failures: failures.slice(0, 5),
      rssMiB: process.memoryUsage().rss / 2 ** 20,
    });
  };

  const arm = (next: string) => {
    const n = plans.length;
    messageAt = new Float64Array(n);
    ticketAt = new Float64Array(n);
    messageCount = new Uint16Array(n);
    ticketCount = new Uint16Array(n);
    otherCount = new Uint32Array(n);
    otherNames = new Map();
    targetsWaiting = targetsOf().length;
    tag = next;
    send({ type: 'armed' });
    // A process without targets has nothing to wait for.
    reportIfComplete();
  };

  const tally = (): Tally => {
    const roles = {
      target: emptyRoleTally(),
      bystander: emptyRoleTally(),
      foreign: emptyRoleTally(),
    };
    plans.forEach((plan, i) => {
      const role = roles[plan.role];
      role.sockets += 1;
      if (messageCount[i] === 1) role.messageOnce += 1;
      if (ticketCount[i] === 1) role.ticketOnce += 1;
      role.duplicates += Math.max(0, messageCount[i] - 1) + Math.max(0, ticketCount[i] - 1);
      role.otherEvents += otherCount[i];
    });
    return { roles, otherEventNames: Object.fromEntries(otherNames), disconnects };
  };

  process.on('message', (message: ToWorker) => {
    if (message.type === 'connect')
      void connectAll(message.url, message.plans, message.concurrency);
    else if (message.type === 'arm') arm(message.tag);
    else send({ type: 'tally', tally: tally() });
  });
  // The orchestrator is done (or gone): the sockets go with the process.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
};

// --- The orchestrating side ---

type Message<T extends FromWorker['type']> = Extract<FromWorker, { type: T }>;

// One child process of client sockets, running this file with --worker.
const spawnWorker = () => fork(fileURLToPath(import.meta.url), ['--worker'], { stdio: 'inherit' });

// The process's next message of this type (and matching), listened for from now on.
const nextMessage = <T extends FromWorker['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
  matches: (message: Message<T>) => boolean = () => true,
) =>
  new Promise<Message<T>>((resolve, reject) => {
    const listener = (message: FromWorker) => {
      if (message.type !== type || !matches(message as Message<T>)) return;
      clearTimeout(timer);
      child.off('message', listener);
      resolve(message as Message<T>);
    };
    const timer = setTimeout(() => {
      child.off('message', listener);
      reject(new Error(`no ${type} from a client process within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', listener);
  });

// Sends a command to every process and waits for each one's answer of that type.
const ask = <T extends FromWorker['type']>(
  workers: ChildProcess[],
  command: (w: number) => ToWorker,
  type: T,
  timeoutMs: number,
) =>
  Promise.all(
    workers.map((child, w) => {
      const answer = nextMessage(child, type, timeoutMs);
      child.send(command(w));
      return answer;
    }),
  );

// The API process's resident memory now and at its peak (Linux /proc), in MiB.
const memoryOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rssMiB: field('VmRSS') / 1024, hwmMiB: field('VmHWM') / 1024 };
};

// The soft limit on open files: the API holds one descriptor per socket.
const openFileLimit = () => {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? NaN);
};

// Name and colour are each unique within a company.
const QUEUES = [
  ['Ventas', '#1e88e5'],
  ['Soporte', '#43a047'],
  ['Cobranzas', '#fb8c00'],
  ['Envíos', '#8e24aa'],
  ['Reclamos', '#e53935'],
];
// The agents outside queue 1 are each in two of queues 2–5.
const OTHER_QUEUE_PAIRS = [
  [2, 3],
  [2, 4],
  [2, 5],
  [3, 4],
  [3, 5],
  [4, 5],
];
// A tenth of company A's agents are in queue 1 (the broadcast's room), and only there.
const TARGET_AGENT_SHARE = 0.1;
const FOREIGN_AGENTS = 10;

type Sql = pg.ClientBase;
type SeededCompany = {
  companyId: number;
  adminEmail: string;
  // agentEmails[i] is agent i+1; in company A the first tenth are queue 1's.
  agentEmails: string[];
  queueIds: number[];
};

// A company with its settings, admin, agents and queues; queuesOf(i) are agent i+1's queue numbers.
const seedCompany = async (
  sql: Sql,
  input: {
    slug: string;
    agents: number;
    queues: number;
    queuesOf: (agent: number) => number[];
    passwordHash: string;
  },
): Promise<SeededCompany> => {
  const { slug } = input;
  const company = await sql.query<{ id: number }>(
    `INSERT INTO companies (name, email, plan_id, status, schedules)
     SELECT $1, $2, id, 'active', $3::jsonb FROM plans ORDER BY value DESC, id LIMIT 1 RETURNING id`,
    [`Sockets ${slug}`, `${slug}@bench.local`, JSON.stringify(defaultSchedules())],
  );
  const companyId = company.rows[0].id;
  await sql.query(
    `INSERT INTO settings (company_id, key, value) SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS s(k, v)`,
    [companyId, Object.keys(settingDefaults), Object.values(settingDefaults)],
  );
  const adminEmail = `admin@${slug}.bench.local`;
  await sql.query(
    `INSERT INTO users (company_id, name, email, password_hash, profile, all_ticket)
     VALUES ($1, 'Admin', $2, $3, 'admin', 'enabled')`,
    [companyId, adminEmail, input.passwordHash],
  );
  const agentEmails = Array.from(
    { length: input.agents },
    (_, i) => `agent${i + 1}@${slug}.bench.local`,
  );
  const agentIds = (
    await sql.query<{ id: number }>(
      `INSERT INTO users (company_id, name, email, password_hash, profile)
       SELECT $1, 'Agente ' || n, e, $2, 'user' FROM unnest($3::text[]) WITH ORDINALITY AS a(e, n)
       ORDER BY n RETURNING id`,
      [companyId, input.passwordHash, agentEmails],
    )
  ).rows
    .map((r) => r.id)
    .sort((a, b) => a - b);
  const queueIds = (
    await sql.query<{ id: number }>(
      `INSERT INTO queues (company_id, name, color, order_queue)
       SELECT $1, n, c, o FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS q(n, c, o) ORDER BY o
       RETURNING id`,
      [
        companyId,
        QUEUES.slice(0, input.queues).map((q) => q[0]),
        QUEUES.slice(0, input.queues).map((q) => q[1]),
      ],
    )
  ).rows
    .map((r) => r.id)
    .sort((a, b) => a - b);
  const memberships = agentIds.flatMap((userId, i) =>
    input.queuesOf(i).map((q) => [userId, queueIds[q - 1]]),
  );
  await sql.query(
    `INSERT INTO user_queues (user_id, queue_id, company_id) SELECT u, q, $3 FROM unnest($1::int[], $2::int[]) AS m(u, q)`,
    [memberships.map((m) => m[0]), memberships.map((m) => m[1]), companyId],
  );
  return { companyId, adminEmail, agentEmails, queueIds };
};

// Company A (the broadcast's) with its simulator connection linked to queue 1 alone, and company B.
const seedCompanies = async (sql: Sql) => {
  const passwordHash = await hashPassword(PASSWORD);
  const targetAgents = Math.max(1, Math.round(agents * TARGET_AGENT_SHARE));
  const a = await seedCompany(sql, {
    slug: 'a',
    agents,
    queues: 5,
    queuesOf: (i) => (i < targetAgents ? [1] : OTHER_QUEUE_PAIRS[i % OTHER_QUEUE_PAIRS.length]),
    passwordHash,
  });
  const b = await seedCompany(sql, {
    slug: 'b',
    agents: FOREIGN_AGENTS,
    queues: 1,
    queuesOf: () => [1],
    passwordHash,
  });
  const whatsapp = await sql.query<{ id: number }>(
    `INSERT INTO whatsapps (company_id, name, provider, status, is_default)
     VALUES ($1, 'Sockets', 'simulator', 'DISCONNECTED', true) RETURNING id`,
    [a.companyId],
  );
  const whatsappId = whatsapp.rows[0].id;
  await sql.query(
    'INSERT INTO whatsapp_queues (whatsapp_id, queue_id, company_id) VALUES ($1, $2, $3)',
    [whatsappId, a.queueIds[0], a.companyId],
  );
  return { a, b, whatsappId, targetAgents };
};

// The sockets of each role, spread evenly over the users of that role.
const planSockets = (
  tokens: { target: string[]; bystander: string[]; foreign: string[] },
  counts: Record<Role, number>,
): SocketPlan[] =>
  (['target', 'bystander', 'foreign'] as const).flatMap((role) =>
    Array.from({ length: counts[role] }, (_, i) => ({
      role,
      token: tokens[role][i % tokens[role].length],
    })),
  );

const loginAll = async (url: string, emails: string[]) => {
  const tokens: string[] = new Array(emails.length);
  // A few at a time: each login verifies an argon2 hash.
  await pool(emails.length, 4, async (i) => {
    tokens[i] = (await login(url, emails[i])).token;
  });
  return tokens;
};

const CONTACT = '5511977000001';
const FIRST_MESSAGE = 'Hola, ¿me ayudan con el pedido?';
// Each broadcast's body adds its tag (#tag#), which the clients look for.
const NEXT_MESSAGE = 'Bom dia, preciso de ajuda com a fatura';

const inbound = async (url: string, token: string, whatsappId: number, body: string) => {
  const res = await fetch(`${url}/simulator/${whatsappId}/inbound`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ from: CONTACT, name: 'Cliente Sockets', body }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`inbound → ${res.status} ${text}`);
};

// Pairs the virtual phone as a person would, then the contact's first message: the bot puts the
// ticket in queue 1 (the connection's only queue) before any socket is open.
const prepareConversation = async (
  server: RunningApi,
  sql: Sql,
  token: string,
  whatsappId: number,
  queueId: number,
) => {
  await api(server.url, token, 'POST', `/whatsappsession/${whatsappId}`);
  await eventually(
    () =>
      api(server.url, token, 'POST', `/simulator/${whatsappId}/scan`).then(
        () => true,
        () => false,
      ),
    Boolean,
    'the QR code',
    BENCH_WAIT,
  );
  await inbound(server.url, token, whatsappId, FIRST_MESSAGE);
  const { rows } = await sql.query<{ id: number; status: string; queue_id: number | null }>(
    'SELECT id, status, queue_id FROM tickets WHERE whatsapp_id = $1',
    [whatsappId],
  );
  if (rows.length !== 1 || rows[0].status !== 'pending' || rows[0].queue_id !== queueId)
    throw new Error(`the contact's ticket is not pending in queue 1: ${JSON.stringify(rows)}`);
  return rows[0].id;
};

const CONNECT_TIMEOUT_MS = 30 * 60_000;

const connectClients = async (workers: ChildProcess[], url: string, plans: SocketPlan[]) => {
  // Round robin, so every process holds its share of each role.
  const shares = workers.map((_, w) => plans.filter((_, i) => i % workers.length === w));
  const started = clock();
  const replies = await ask(
    workers,
    (w) => ({
      type: 'connect',
      url,
      plans: shares[w],
      concurrency: Math.ceil(connectConcurrency / workers.length),
    }),
    'connected',
    CONNECT_TIMEOUT_MS,
  );
  const seconds = (clock() - started) / 1000;
  const connected = replies.reduce((sum, r) => sum + r.connected, 0);
  const failures = replies.flatMap((r) => r.failures);
  if (connected !== plans.length)
    throw new Error(`${connected}/${plans.length} sockets connected: ${failures.join('; ')}`);
  return {
    seconds,
    perSecond: plans.length / seconds,
    clientRssMiB: replies.map((r) => Math.round(r.rssMiB)),
  };
};

const sumTallies = (tallies: Tally[]): Tally => {
  const roles = {
    target: emptyRoleTally(),
    bystander: emptyRoleTally(),
    foreign: emptyRoleTally(),
  };
  const otherEventNames: Record<string, number> = {};
  let disconnects = 0;
  for (const tally of tallies) {
    for (const role of ['target', 'bystander', 'foreign'] as const)
      for (const key of Object.keys(roles[role]) as (keyof RoleTally)[])
        roles[role][key] += tally.roles[role][key];
    for (const [name, count] of Object.entries(tally.otherEventNames))
      otherEventNames[name] = (otherEventNames[name] ?? 0) + count;
    disconnects += tally.disconnects;
  }
  return { roles, otherEventNames, disconnects };
};

// Exactly the target sockets heard the message and the ticket event once each, and nothing else was
// heard by anyone.
const isExact = (tally: Tally) => {
  const { target, bystander, foreign } = tally.roles;
  return (
    target.messageOnce === target.sockets &&
    target.ticketOnce === target.sockets &&
    [target, bystander, foreign].every((r) => r.duplicates === 0 && r.otherEvents === 0) &&
    [bystander, foreign].every((r) => r.messageOnce === 0 && r.ticketOnce === 0) &&
    tally.disconnects === 0
  );
};

const ANSWER_TIMEOUT_MS = 10_000;
const RECEIPT_TIMEOUT_MS = 10_000;
// After the last target heard it, how long a stray or repeated event still has to show up.
const SETTLE_MS = 250;

const broadcastOnce = async (
  workers: ChildProcess[],
  send: (body: string) => Promise<void>,
  tag: string,
) => {
  // Listened for before arming: a process without targets reports at once.
  const received = Promise.all(
    workers.map((child) =>
      nextMessage(child, 'received', RECEIPT_TIMEOUT_MS, (m) => m.tag === tag),
    ),
  ).catch(() => []);
  await ask(workers, () => ({ type: 'arm', tag }), 'armed', ANSWER_TIMEOUT_MS);
  const started = clock();
  await send(`${NEXT_MESSAGE} #${tag}#`);
  const answered = clock();
  const receipts = await received;
  await sleep(SETTLE_MS);
  const replies = await ask(workers, () => ({ type: 'tally' }), 'tally', ANSWER_TIMEOUT_MS);
  const tally = sumTallies(replies.map((r) => r.tally));
  const times = (kind: 'message' | 'ticket') =>
    receipts.flatMap((r) => r[kind]).map((at) => at - started);
  const message = times('message');
  const ticket = times('ticket');
  return {
    tag,
    httpMs: answered - started,
    message: { first: Math.min(...message), last: Math.max(...message) },
    ticket: { first: Math.min(...ticket), last: Math.max(...ticket) },
    exact: isExact(tally),
    tally,
  };
};

// The timed broadcasts, with the CPU each one cost the API (less what its idle sockets cost in the
// meantime: the pings) and the client processes; CPU time does not count waiting for a core.
const timeBroadcasts = async (
  workers: ChildProcess[],
  apiPid: number,
  send: (body: string) => Promise<void>,
  run: number,
  idleCpuShare: number,
) => {
  const clientsCpu = () => workers.reduce((sum, child) => sum + cpuSeconds(child.pid!), 0);
  const started = clock();
  const before = { api: cpuSeconds(apiPid), clients: clientsCpu() };
  const results = [];
  for (let i = 0; i < broadcasts; i += 1)
    results.push(await broadcastOnce(workers, send, `r${run}b${i}`));
  const seconds = (clock() - started) / 1000;
  const api = cpuSeconds(apiPid) - before.api - idleCpuShare * seconds;
  return {
    results,
    apiCpuMs: (api * 1000) / broadcasts,
    clientsCpuMs: ((clientsCpu() - before.clients) * 1000) / broadcasts,
  };
};

const runOnce = async (run: number) => {
  const url = socketsDatabaseUrl;
  await prepareDatabase(url, true);
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  let server: RunningApi | undefined;
  const workers: ChildProcess[] = [];
  try {
    const seeded = await seedCompanies(sql);
    server = await startApi(url, {
      SIMULATOR_ENABLED: 'true',
      ...(withRedis ? { REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379' } : {}),
    });
    const admin = await login(server.url, seeded.a.adminEmail);
    const ticketId = await prepareConversation(
      server,
      sql,
      admin.token,
      seeded.whatsappId,
      seeded.a.queueIds[0],
    );
    const tokensA = await loginAll(server.url, seeded.a.agentEmails);
    const tokensB = await loginAll(server.url, seeded.b.agentEmails);
    const counts = {
      target: targetSockets,
      bystander: total - targetSockets - foreignSockets,
      foreign: foreignSockets,
    };
    const plans = planSockets(
      {
        target: tokensA.slice(0, seeded.targetAgents),
        bystander: tokensA.slice(seeded.targetAgents),
        foreign: tokensB,
      },
      counts,
    );

    for (let w = 0; w < workerCount; w += 1) workers.push(spawnWorker());
    await Promise.all(workers.map((child) => nextMessage(child, 'ready', ANSWER_TIMEOUT_MS)));
    const empty = memoryOf(server.pid);
    const connect = await connectClients(workers, server.url, plans);
    // The connections' last writes (every agent online) come first; then a full ping round (18 s)
    // idle.
    const agents = new Set(plans.map((plan) => plan.token)).size;
    await eventually(
      async () =>
        (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE online'))
          .rows[0]!.n,
      (online) => online >= agents,
      'every connected agent online',
      { timeoutMs: 60_000, everyMs: 100 },
    );
    const cpuBefore = cpuSeconds(server.pid);
    await sleep(idleSeconds * 1000);
    const idleCpuShare = (cpuSeconds(server.pid) - cpuBefore) / idleSeconds;
    const loaded = memoryOf(server.pid);
    const perSocketKiB = ((loaded.rssMiB - empty.rssMiB) * 1024) / total;
    console.log(
      `  run ${run}: ${total} sockets connected and joined in ${connect.seconds.toFixed(1)} s (${connect.perSecond.toFixed(0)}/s); API RSS ${empty.rssMiB.toFixed(0)} MiB with none, ${loaded.rssMiB.toFixed(0)} MiB with ${total} (peak ${loaded.hwmMiB.toFixed(0)}), ${perSocketKiB.toFixed(1)} KiB per socket; idle CPU ${(idleCpuShare * 100).toFixed(1)}% of a core`,
    );

    const send = (body: string) => inbound(server!.url, admin.token, seeded.whatsappId, body);
    for (let i = 0; i < warmup; i += 1) await broadcastOnce(workers, send, `r${run}w${i}`);
    const timed = await timeBroadcasts(workers, server.pid, send, run, idleCpuShare);
    const results = timed.results;
    const after = memoryOf(server.pid);
    const { rows } = await sql.query<{ status: string; queue_id: number }>(
      'SELECT status, queue_id FROM tickets WHERE id = $1',
      [ticketId],
    );
    const stillInQueue = rows[0]?.status === 'pending' && rows[0].queue_id === seeded.a.queueIds[0];
    const result = {
      run,
      sockets: counts,
      connect,
      memory: { empty, loaded, afterBroadcasts: after, perSocketKiB },
      idleCpuShare,
      broadcast: {
        messageFirst: summarize(results.map((r) => r.message.first)),
        messageLast: summarize(results.map((r) => r.message.last)),
        messageSpread: summarize(results.map((r) => r.message.last - r.message.first)),
        ticketFirst: summarize(results.map((r) => r.ticket.first)),
        ticketLast: summarize(results.map((r) => r.ticket.last)),
        http: summarize(results.map((r) => r.httpMs)),
        apiCpuMs: timed.apiCpuMs,
        clientsCpuMs: timed.clientsCpuMs,
      },
      exact: results.every((r) => r.exact) && stillInQueue,
      broadcasts: results,
    };
    const b = result.broadcast;
    console.log(
      `  run ${run}: ${results.length} broadcasts to ${targetSockets}, message event first p50 ${ms(b.messageFirst.p50)} ms, last p50 ${ms(b.messageLast.p50)} p95 ${ms(b.messageLast.p95)} max ${ms(b.messageLast.max)} ms (HTTP p50 ${ms(b.http.p50)}), CPU per broadcast: API ${ms(b.apiCpuMs)} ms, clients ${ms(b.clientsCpuMs)} ms; ${result.exact ? 'exactly the intended sockets' : 'NOT exactly the intended sockets'}`,
    );
    if (!result.exact)
      for (const r of results.filter((x) => !x.exact))
        console.log(`    ${r.tag}: ${JSON.stringify(r.tally)}`);
    return result;
  } finally {
    // The API first: its shutdown drops every socket at once, and the clients do not reconnect.
    await server?.stop();
    for (const child of workers) if (child.connected) child.disconnect();
    await sql.end();
  }
};

const main = async () => {
  if (targetSockets + foreignSockets > total)
    throw new Error('--target plus --foreign must not exceed --sockets');
  // A tenth of the agents hold the broadcast's sockets, the others the bystanders'.
  if (agents < 2) throw new Error('--agents must be at least 2');
  const limit = openFileLimit();
  // The API holds every socket; the clients hold them too, split over the processes.
  if (limit < total + 1_000)
    throw new Error(`${limit} open files allowed: raise it (ulimit -n ${total + 1_000}) first`);
  console.log(
    `Sockets: ${total} (${targetSockets} in the broadcast's room, ${foreignSockets} of another company) over ${workerCount} client processes, ${broadcasts} broadcasts after ${warmup} warm-ups, ${runs} run(s)${withRedis ? ', Redis adapter' : ''}`,
  );
  const env = await machine(withDatabase(socketsDatabaseUrl, 'postgres'));
  const results = [];
  for (let run = 1; run <= runs; run += 1) results.push(await runOnce(run));
  const summary = {
    rssMiB: spread(results.map((r) => r.memory.loaded.rssMiB)),
    hwmMiB: spread(results.map((r) => r.memory.loaded.hwmMiB)),
    emptyRssMiB: spread(results.map((r) => r.memory.empty.rssMiB)),
    perSocketKiB: spread(results.map((r) => r.memory.perSocketKiB)),
    connectPerSecond: spread(results.map((r) => r.connect.perSecond)),
    messageFirstP50: spread(results.map((r) => r.broadcast.messageFirst.p50)),
    messageLastP50: spread(results.map((r) => r.broadcast.messageLast.p50)),
    messageLastP95: spread(results.map((r) => r.broadcast.messageLast.p95)),
    messageLastMax: spread(results.map((r) => r.broadcast.messageLast.max)),
    messageSpreadP50: spread(results.map((r) => r.broadcast.messageSpread.p50)),
    ticketLastP50: spread(results.map((r) => r.broadcast.ticketLast.p50)),
    apiCpuMs: spread(results.map((r) => r.broadcast.apiCpuMs)),
    clientsCpuMs: spread(results.map((r) => r.broadcast.clientsCpuMs)),
    idleCpuShare: spread(results.map((r) => r.idleCpuShare)),
    exact: results.every((r) => r.exact),
  };
  console.log(
    `\nAPI RSS with ${total} sockets ${summary.rssMiB.median.toFixed(0)} MiB [${summary.rssMiB.min.toFixed(0)}–${summary.rssMiB.max.toFixed(0)}] (target < 1024), ${summary.perSocketKiB.median.toFixed(1)} KiB per socket; broadcast to ${targetSockets}: last received p50 ${ms(summary.messageLastP50.median)} ms, p95 ${ms(summary.messageLastP95.median)} ms [${ms(summary.messageLastP95.min)}–${ms(summary.messageLastP95.max)}] (target ≤ 100)`,
  );
  const variant = `${total === 10_000 ? '' : `-n${total}`}${withRedis ? '-redis' : ''}`;
  const file = await saveResult(`sockets${variant}`, {
    machine: { ...env, loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))) },
    settings: {
      total,
      targetSockets,
      foreignSockets,
      agents,
      workers: workerCount,
      broadcasts,
      warmup,
      idleSeconds,
      connectConcurrency,
      redis: withRedis,
    },
    summary,
    runs: results,
  });
  console.log(`Recorded in ${file}`);
  if (!summary.exact) process.exitCode = 1;
};

if (isWorker) runWorker();
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
