import { createHmac, randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { io } from 'socket.io-client';
import { startFakeGraph, type FakeGraph } from '../apps/api/test/fake-graph';
import { eventually } from '../apps/api/test/eventually';
import {
  type AppMessageEvent,
  ADMIN_EMAIL,
  api,
  args,
  cpuSeconds,
  login,
  machine,
  ms,
  openPgliteDir,
  pgliteOption,
  pgliteSql,
  postgresCpuSeconds,
  requestsDatabaseUrl,
  type RunningApi,
  saveResult,
  spread,
  type Sql,
  startApi,
  summarize,
  withDatabase,
} from './lib';
import { prepareDatabase, preparePglite, seedBase } from './seed';
import { portuguese, spanish } from './texts';

// Meta → Cloud API webhook, open loop: `npx tsx bench/webhooks.ts [--rate 1000] [--seconds 20]
// [--warmup-seconds 3] [--contacts 500] [--connections 128] [--numbers 1] [--runs 3]`.
//
// Each run: a fresh database (migrations, bootstrap, the bench company), the API as its own process,
// and a Cloud API connection created by the admin through POST /whatsapp (its Graph API base URL
// points at a local stand-in, which only answers the connection's credentials check). Then `rate`
// signed text-message webhooks per second, started on a fixed schedule whatever the answers (so
// queueing in the API shows up as answer time, not as a lower rate), each from one of M contacts with
// a unique wamid, to one of `numbers` Cloud API connections (webhook i to number i mod N). Answer time
// = request start → response fully read; reach = request start → the admin's socket hears the
// message (company-{id}-appMessage, as the inbox does). Then the bench waits until every message is in
// `messages` and no stored webhook is left, and reports the processing drain.
//
// `--pglite [dir]`: the same on the API's embedded database (default /tmp/atendi-bench-pglite-webhooks,
// deleted and prepared again on every run). Only the API may have the directory open while it runs, so
// the bench reads what the API exposes instead: a batch is processed once the admin's socket heard
// every message and GET /metrics (METRICS_TOKEN) shows no cloud.webhook job pending or running; the
// processing is timed by the socket's hearing (no trigger), and the stored rows and failed jobs are
// counted after the API stopped. The database's own CPU is not measured there (it runs in the API).

const options = args();
const rate = options.int('rate', 1_000);
const seconds = options.int('seconds', 20);
const warmupSeconds = options.int('warmup-seconds', 3);
const contacts = options.int('contacts', 500);
const connections = options.int('connections', 128);
const runs = options.int('runs', 3);
const numbers = options.int('numbers', 1);
const drainTimeoutMs = options.int('drain-timeout', 600) * 1000;
const pglite = pgliteOption(options, path.join(tmpdir(), 'atendi-bench-pglite-webhooks'));
// What times the processing (first → last message stored): on PostgreSQL the bench's trigger at each
// INSERT; on PGlite the admin's socket (each message's event follows its commit by a few ms).
const processingClock = pglite
  ? "admin's socket: when each message's create event was heard"
  : 'PostgreSQL clock_timestamp() at each INSERT (bench_stored trigger)';

const webhooksDatabaseUrl =
  process.env.BENCH_WEBHOOKS_DATABASE_URL ??
  withDatabase(requestsDatabaseUrl, 'atendi_bench_webhooks');

// The Cloud API numbers' phone number ids.
const phoneNumberId = (n: number) => String(106540352242922 + n);
const APP_SECRET = 'bench-app-secret';
const WEBHOOK_QUEUE = 'cloud.webhook';
const words = [...spanish, ...portuguese];

// The wall clock as milliseconds since the epoch, at performance.now()'s resolution: comparable
// with PostgreSQL's clock_timestamp() on the same machine.
const epochMs = (at = performance.now()) => performance.timeOrigin + at;

type Webhook = { body: Buffer; signature: string };

// One inbound text message as Meta posts it (one entry, one change, one message), signed with the
// app secret over the exact bytes sent.
const webhookFor = (wamid: string, contact: number, n: number): Webhook => {
  const number = n % numbers;
  const from = `5511955${String(contact).padStart(6, '0')}`;
  const payload = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: String(15550783881 + number),
                phone_number_id: phoneNumberId(number),
              },
              contacts: [{ profile: { name: `Cliente ${contact}` }, wa_id: from }],
              messages: [
                {
                  from,
                  id: wamid,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'text',
                  text: { body: `${words[n % words.length]} #${wamid}#` },
                },
              ],
            },
          },
        ],
      },
    ],
  };
  const body = Buffer.from(JSON.stringify(payload));
  const signature = `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
  return { body, signature };
};

// Built before the clock starts, so signing costs the generator nothing while it keeps the schedule.
const webhooks = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => webhookFor(`wamid.${prefix}${i}`, i % contacts, i));

type Sample = { scheduled: number; started: number; answered: number; status: number };

// Open loop: request i is due at t0 + i / rate; every millisecond the timer starts whatever is due,
// without waiting for earlier answers (the agent queues a request only when all its connections are
// busy, and that wait counts in the answer time).
const sendAtRate = (apiUrl: string, agent: Agent, batch: Webhook[]) =>
  new Promise<{ samples: Sample[]; t0: number }>((resolve) => {
    const { hostname, port } = new URL(apiUrl);
    const samples: Sample[] = [];
    let next = 0;
    let pending = batch.length;
    const send = (i: number, scheduled: number) => {
      const sample: Sample = { scheduled, started: performance.now(), answered: 0, status: 0 };
      samples[i] = sample;
      const done = (status: number) => {
        sample.answered = performance.now();
        sample.status = status;
        pending -= 1;
        if (!pending) resolve({ samples, t0 });
      };
      const req = request(
        {
          agent,
          hostname,
          port,
          method: 'POST',
          path: '/webhooks/whatsapp',
          headers: {
            'content-type': 'application/json',
            'content-length': batch[i].body.length,
            'x-hub-signature-256': batch[i].signature,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
          res.on('error', () => done(0));
        },
      );
      req.on('error', () => done(0));
      req.end(batch[i].body);
    };
    const t0 = performance.now();
    const tick = () => {
      const due = Math.min(batch.length, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
      for (; next < due; next += 1) send(next, t0 + (next * 1000) / rate);
      if (next < batch.length) setTimeout(tick, 1);
    };
    tick();
  });

// A row per stored message with PostgreSQL's clock at its INSERT, in the bench's own database (not
// the product): when the processing stored each message.
const traceStores = (sql: pg.Client) =>
  sql.query(`
    CREATE UNLOGGED TABLE bench_stored (provider_id text NOT NULL, at timestamptz NOT NULL);
    CREATE FUNCTION bench_stored() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO bench_stored VALUES (NEW.provider_id, clock_timestamp()); RETURN NEW; END $$;
    CREATE TRIGGER bench_stored AFTER INSERT ON messages FOR EACH ROW
      WHEN (NOT NEW.from_me) EXECUTE FUNCTION bench_stored();
  `);

const inboxState = async (sql: Sql, prefix: string) =>
  (
    await sql.query<{ stored: number; distinct: number; waiting: number; failed: number }>(
      `SELECT (SELECT count(*) FROM messages WHERE provider_id LIKE $1)::int AS stored,
              (SELECT count(DISTINCT provider_id) FROM messages WHERE provider_id LIKE $1)::int AS distinct,
              (SELECT count(*) FROM jobs WHERE queue = $2 AND status IN ('pending', 'running'))::int AS waiting,
              (SELECT count(*) FROM jobs WHERE queue = $2 AND status = 'failed')::int AS failed`,
      [`wamid.${prefix}%`, WEBHOOK_QUEUE],
    )
  ).rows[0];

// Every message of the batch stored and no stored webhook left to process.
const drained = async (sql: pg.Client, prefix: string, count: number) => {
  const state = await inboxState(sql, prefix);
  return state.stored >= count && state.waiting === 0;
};

// The cloud.webhook jobs pending or running, as GET /metrics shows them (read by the API from its
// jobs table at each scrape; a queue with none has no series).
const webhookJobsLeft = async (apiUrl: string, metricsToken: string) => {
  const res = await fetch(`${apiUrl}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET /metrics → ${res.status} ${text}`);
  let left = 0;
  for (const line of text.split('\n')) {
    const series = /^atendi_jobs_(?:pending|running)\{([^}]*)\} (\S+)$/.exec(line);
    if (series?.[1].split(',').includes(`queue="${WEBHOOK_QUEUE}"`)) left += Number(series[2]);
  }
  return left;
};

// The same on PGlite, from what the API exposes: every message of the batch heard by the admin's
// socket (so stored: the events follow the commit), then no cloud.webhook job left in the metrics.
const drainedAsHeard = async (
  heard: Map<string, number>,
  prefix: string,
  count: number,
  jobsLeft: () => Promise<number>,
) => {
  for (let i = 0; i < count; i += 1) if (!heard.has(`wamid.${prefix}${i}`)) return false;
  return (await jobsLeft()) === 0;
};

// The Cloud API connection as an admin creates it; its start checks the credentials on the stand-in.
const createConnection = async (apiUrl: string, token: string, graph: FakeGraph, n: number) => {
  graph.addPhoneNumber(phoneNumberId(n), `+1 555-078-${3881 + n}`, `Bench ${n + 1}`);
  const { id } = await api<{ id: number }>(apiUrl, token, 'POST', '/whatsapp', {
    name: `Bench Cloud ${n + 1}`,
    provider: 'cloud',
    cloudPhoneNumberId: phoneNumberId(n),
    cloudAccessToken: 'fake-graph-token',
    cloudAppSecret: APP_SECRET,
    cloudVerifyToken: `bench-verify-token-${n}`,
    cloudApiBaseUrl: graph.url,
  });
  await eventually(
    async () =>
      (await api<{ status: string }>(apiUrl, token, 'GET', `/whatsapp/${id}`)).status ===
      'CONNECTED',
    Boolean,
    'the connection to be CONNECTED',
    { timeoutMs: 30_000, everyMs: 100 },
  );
  return id;
};

// When the admin's socket heard each inbound message (by the wamid its text carries), as the inbox
// hears it.
const listen = async (apiUrl: string, token: string, companyId: number) => {
  const heard = new Map<string, number>();
  const socket = io(apiUrl, { transports: ['websocket'], query: { token } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  socket.on(`company-${companyId}-appMessage`, (payload: AppMessageEvent) => {
    if (payload.action !== 'create' || payload.message.fromMe) return;
    const wamid = /#(wamid\.[a-z]\d+)#$/.exec(payload.message.body)?.[1];
    if (wamid && !heard.has(wamid)) heard.set(wamid, performance.now());
  });
  // Answered once the rooms are joined: nothing the warm-up stores is missed (PGlite counts on it).
  const joined = socket.timeout(30_000);
  await joined.emitWithAck('joinNotification');
  for (const status of ['pending', 'open']) await joined.emitWithAck('joinTickets', status);
  return { heard, close: () => socket.disconnect() };
};

const cpuSplit = (sendingMs: number, drainMs: number, total: number, processedSending: number) => {
  const processingCpuMsPerMessage = drainMs / (total - processedSending);
  return {
    processingCpuMsPerMessage,
    routeCpuMsPerWebhook: (sendingMs - processedSending * processingCpuMsPerMessage) / total,
  };
};

// The run's fresh database. PostgreSQL: a connection the bench keeps, with the trigger that times the
// stores. PGlite: prepared in this process, which lets go of the directory before the API opens it.
// The bench company's plan holds every number of the run (the largest bootstrap plan allows 3).
const seedCompany = async (sql: Sql) => {
  const { companyId } = await seedBase(sql);
  await sql.query(
    `UPDATE plans SET connections = greatest(connections, $2)
      WHERE id = (SELECT plan_id FROM companies WHERE id = $1)`,
    [companyId, numbers + 1],
  );
};

const prepareRun = async (url: string) => {
  if (pglite) {
    const prepared = await preparePglite(pglite, true);
    try {
      await seedCompany(prepared.sql);
    } finally {
      await prepared.close();
    }
    return undefined;
  }
  await prepareDatabase(url, true);
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  await seedCompany(sql);
  await traceStores(sql);
  return sql;
};

// The stored rows and failed jobs on PGlite, read once the API has stopped (it held the directory).
const pgliteInboxState = async (dataDir: string, prefix: string) => {
  const client = await openPgliteDir(dataDir);
  try {
    return await inboxState(pgliteSql(client), prefix);
  } finally {
    await client.close();
  }
};

// First and last message of the batch heard by the admin's socket, on the epoch clock.
const heardSpan = (heard: Map<string, number>, prefix: string, count: number) => {
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < count; i += 1) {
    const at = heard.get(`wamid.${prefix}${i}`) ?? NaN;
    first = Math.min(first, at);
    last = Math.max(last, at);
  }
  return { first: epochMs(first), last: epochMs(last) };
};

const runOnce = async (run: number) => {
  const url = webhooksDatabaseUrl;
  const sql = await prepareRun(url);
  // GET /metrics answers only with it (PGlite: the job backlog is read there).
  const metricsToken = randomBytes(24).toString('hex');
  const graph = await startFakeGraph();
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  // The database's CPU: a PostgreSQL server's processes; PGlite runs inside the API process.
  const databaseCpu = () => (sql ? postgresCpuSeconds() : NaN);
  let server: RunningApi | undefined;
  let listener: Awaited<ReturnType<typeof listen>> | undefined;
  let measured;
  let state: Awaited<ReturnType<typeof inboxState>> | undefined;
  try {
    server = await startApi(
      pglite ? { pglite } : url,
      pglite ? { METRICS_TOKEN: metricsToken } : {},
    );
    const apiUrl = server.url;
    const { token, companyId } = await login(apiUrl, ADMIN_EMAIL);
    for (let n = 0; n < numbers; n += 1) await createConnection(apiUrl, token, graph, n);
    listener = await listen(apiUrl, token, companyId);
    const { heard } = listener;
    // Every message of a batch stored and no webhook job left: read in the database on PostgreSQL,
    // through the API on PGlite.
    const processed = (prefix: string, count: number) =>
      sql
        ? drained(sql, prefix, count)
        : drainedAsHeard(heard, prefix, count, () => webhookJobsLeft(apiUrl, metricsToken));

    // Warm-up (JIT, pools, connections), fully processed before the measured load starts.
    const warmup = webhooks('w', rate * warmupSeconds);
    const warm = await sendAtRate(apiUrl, agent, warmup);
    const warmErrors = warm.samples.filter((s) => s.status !== 200).length;
    if (warmErrors) throw new Error(`${warmErrors} warm-up webhooks were not answered 200`);
    await eventually(() => processed('w', warmup.length), Boolean, 'the warm-up to be processed', {
      timeoutMs: drainTimeoutMs,
      everyMs: 100,
    });

    const total = rate * seconds;
    const batch = webhooks('m', total);
    const cpuBefore = { api: cpuSeconds(server.pid), pg: databaseCpu() };
    const { samples, t0 } = await sendAtRate(apiUrl, agent, batch);
    const lastAnswer = Math.max(...samples.map((s) => s.answered));
    const cpuAfter = { api: cpuSeconds(server.pid), pg: databaseCpu() };
    const storedWhenLastAnswered = sql
      ? (await inboxState(sql, 'm')).stored
      : batch.filter((_, i) => (heard.get(`wamid.m${i}`) ?? Infinity) <= lastAnswer).length;
    await eventually(() => processed('m', total), Boolean, 'every message to be processed', {
      timeoutMs: drainTimeoutMs,
      everyMs: 100,
    });
    const cpuDrained = cpuSeconds(server.pid);
    if (sql) state = await inboxState(sql, 'm');
    const stores = sql
      ? (
          await sql.query<{ first: number; last: number }>(
            `SELECT extract(epoch FROM min(at))::float8 * 1000 AS first, extract(epoch FROM max(at))::float8 * 1000 AS last
             FROM bench_stored WHERE provider_id LIKE 'wamid.m%'`,
          )
        ).rows[0]
      : heardSpan(heard, 'm', total);
    // Every message heard by the admin's socket (the events follow the commit by a few ms).
    await eventually(
      () => batch.filter((_, i) => heard.has(`wamid.m${i}`)).length,
      (count) => count === total,
      'the admin to hear every message',
      { timeoutMs: 30_000, everyMs: 100 },
    );
    measured = {
      total,
      samples,
      t0,
      lastAnswer,
      cpuBefore,
      cpuAfter,
      cpuDrained,
      storedWhenLastAnswered,
      stores,
      reachMs: summarize(samples.map((s, i) => heard.get(`wamid.m${i}`)! - s.started)),
      graphRequests: graph.requests.length,
    };
  } finally {
    listener?.close();
    agent.destroy();
    await server?.stop();
    await graph.close();
    await sql?.end();
  }
  // PGlite: read now that the API has let go of the directory (PostgreSQL's was read after the drain).
  if (pglite) state = await pgliteInboxState(pglite, 'm');
  if (!state) throw new Error('the stored messages were not read');
  const { total, samples, t0, lastAnswer, cpuBefore, cpuAfter, cpuDrained, stores } = measured;
  const sendSeconds = (lastAnswer - t0) / 1000;
  const lastStarted = samples[samples.length - 1].started;
  const result = {
    run,
    webhooks: total,
    answered200: samples.filter((s) => s.status === 200).length,
    non200: samples.filter((s) => s.status !== 200).length,
    sendRate: (total - 1) / ((lastStarted - samples[0].started) / 1000),
    answerMs: summarize(samples.map((s) => s.answered - s.started)),
    reachMs: measured.reachMs,
    // The generator's own delay behind its schedule (this machine is shared): large values mean the
    // rate was not kept, whatever the API did.
    scheduleLagMs: summarize(samples.map((s) => s.started - s.scheduled)),
    apiCpuShare: (cpuAfter.api - cpuBefore.api) / sendSeconds,
    apiCpuMsPerWebhook: ((cpuAfter.api - cpuBefore.api) * 1000) / total,
    // The API's CPU split between the route and the processing: the drain is processing alone, and
    // what the messages processed during the sending cost at that rate is taken off the sending's.
    ...cpuSplit(
      (cpuAfter.api - cpuBefore.api) * 1000,
      (cpuDrained - cpuAfter.api) * 1000,
      total,
      measured.storedWhenLastAnswered,
    ),
    postgresCpuShare: (cpuAfter.pg - cpuBefore.pg) / sendSeconds,
    storedWhenLastAnswered: measured.storedWhenLastAnswered,
    stored: state.stored,
    storedTwice: state.stored - state.distinct,
    failedJobs: state.failed,
    drainAfterLastAnswerMs: stores.last - epochMs(lastAnswer),
    processingRate: (total - 1) / ((stores.last - stores.first) / 1000),
    // Calls the Graph API stand-in received: the connection's credentials check alone (text messages
    // need no download, and without queues nothing is sent).
    graphRequests: measured.graphRequests,
  };
  console.log(
    `  run ${run}: ${total} webhooks at ${result.sendRate.toFixed(0)}/s, answer p50 ${ms(result.answerMs.p50)} p95 ${ms(result.answerMs.p95)} p99 ${ms(result.answerMs.p99)} max ${ms(result.answerMs.max)} ms, ${result.non200} not 200; API ${(result.apiCpuShare * 100).toFixed(0)}% of a core${pglite ? ' (PGlite inside it)' : ''} (route ${ms(result.routeCpuMsPerWebhook, 2)} ms of CPU per webhook, processing ${ms(result.processingCpuMsPerMessage, 1)} ms per message), reach p50 ${ms(result.reachMs.p50, 0)} p99 ${ms(result.reachMs.p99, 0)} ms${pglite ? '' : `, postgres ${(result.postgresCpuShare * 100).toFixed(0)}%`}; ${result.storedWhenLastAnswered} processed at the last answer, all ${result.stored} ${(result.drainAfterLastAnswerMs / 1000).toFixed(1)} s later (${result.processingRate.toFixed(0)} msg/s), ${result.storedTwice} twice, ${result.failedJobs} failed`,
  );
  return result;
};

const main = async () => {
  console.log(
    `Cloud API webhooks${pglite ? ` on PGlite in ${pglite}` : ''}: ${rate}/s for ${seconds} s (warm-up ${warmupSeconds} s) from ${contacts} contacts over up to ${connections} connections, ${runs} run(s); processing timed by ${processingClock}`,
  );
  const env = await machine(
    pglite ? { pglite: true } : withDatabase(webhooksDatabaseUrl, 'postgres'),
  );
  const results = [];
  for (let run = 1; run <= runs; run += 1) results.push(await runOnce(run));
  const summary = {
    sendRate: spread(results.map((r) => r.sendRate)),
    p50: spread(results.map((r) => r.answerMs.p50)),
    p95: spread(results.map((r) => r.answerMs.p95)),
    p99: spread(results.map((r) => r.answerMs.p99)),
    max: spread(results.map((r) => r.answerMs.max)),
    routeCpuMsPerWebhook: spread(results.map((r) => r.routeCpuMsPerWebhook)),
    processingCpuMsPerMessage: spread(results.map((r) => r.processingCpuMsPerMessage)),
    non200: spread(results.map((r) => r.non200)),
    drainAfterLastAnswerMs: spread(results.map((r) => r.drainAfterLastAnswerMs)),
    processingRate: spread(results.map((r) => r.processingRate)),
    reachP50: spread(results.map((r) => r.reachMs.p50)),
    reachP99: spread(results.map((r) => r.reachMs.p99)),
  };
  const range = (s: { median: number; min: number; max: number }, digits = 1) =>
    `${ms(s.median, digits)} [${ms(s.min, digits)}–${ms(s.max, digits)}]`;
  console.log(
    `\nanswer p50 ${range(summary.p50)} ms, p99 ${range(summary.p99)} ms (target 20 / 50 ms at 1,000/s), sent ${range(summary.sendRate, 0)}/s, not 200 ${range(summary.non200, 0)}; drain ${range(summary.drainAfterLastAnswerMs, 0)} ms after the last answer, processing ${range(summary.processingRate, 0)} msg/s; webhook → agent p50 ${range(summary.reachP50, 0)} ms, p99 ${range(summary.reachP99, 0)} ms`,
  );
  const incomplete = results.filter((r) => r.stored !== r.webhooks || r.storedTwice || r.non200);
  if (incomplete.length) process.exitCode = 1;
  const variant = `${rate === 1_000 ? '' : `-r${rate}`}${seconds === 20 ? '' : `-s${seconds}`}${numbers === 1 ? '' : `-n${numbers}`}`;
  const file = await saveResult(`webhooks${pglite ? '-pglite' : ''}${variant}`, {
    machine: { ...env, loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))) },
    database: pglite ? 'pglite' : 'postgres',
    processingClock,
    settings: { rate, seconds, warmupSeconds, contacts, connections, numbers },
    summary,
    runs: results,
  });
  console.log(`Recorded in ${file}`);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
