import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { eventually } from '../apps/api/test/eventually';
import {
  type AppMessageEvent,
  ADMIN_EMAIL,
  api,
  args,
  BENCH_WAIT,
  cpuSeconds,
  machineCpuSeconds,
  ownCpuSeconds,
  ingestDatabaseUrl,
  login,
  machine,
  ms,
  openPgliteDir,
  pgliteOption,
  pgliteSql,
  pool,
  postgresCpuSeconds,
  processMemoryMiB,
  type RunningApi,
  saveResult,
  spread,
  type Sql,
  startApi,
  summarize,
} from './lib';
import { prepareDatabase, preparePglite, seedBase } from './seed';
import { portuguese, spanish } from './texts';

// Inbound ingest through the simulator's real path: `npx tsx bench/ingest.ts [--messages 20000]
// [--contacts 500] [--concurrency 64] [--runs 3] [--queues 5]`.
//
// Each run: a fresh database (migrations, bootstrap, the bench company with its queues and a simulator
// connection), the API as its own process with SIMULATOR_ENABLED, the connection paired through the QR
// flow (POST /whatsappsession/{id}, then /simulator/{id}/scan as the phone). The admin's socket joins the
// notification and ticket lists as the web app does; every POST /simulator/{id}/inbound carries a tag
// in its body, and its latency is from the call's start to the admin's company-{id}-appMessage create
// event for it.
//
// `--pglite [dir]`: the same on the API's embedded database (default /tmp/atendi-bench-pglite-ingest,
// deleted and seeded again on every run — not the directory of `seed.ts --pglite`). The bench prepares
// the directory before starting the API and reads the stored rows after stopping it; commits per message
// and the database's own CPU are not measured there (the database runs inside the API process).

const options = args();
const total = options.int('messages', 20_000);
const contacts = options.int('contacts', 500);
const concurrency = options.int('concurrency', 64);
const runs = options.int('runs', 1);
const warmup = options.int('warmup', 500);
const queues = options.int('queues', 5);
const routeProbe = options.int('route-probe', 5_000);
const pglite = pgliteOption(options, path.join(tmpdir(), 'atendi-bench-pglite-ingest'));

const words = [...spanish, ...portuguese];
const bodyOf = (tag: string, n: number) => `${words[n % words.length]} #${tag}#`;
const numberOf = (contact: number, prefix = '5511955') =>
  `${prefix}${String(contact).padStart(6, '0')}`;

type Stored = { messages: number; tickets: number; contacts: number };
const storedRows = async (sql: Sql) =>
  (
    await sql.query<Stored>(
      `SELECT (SELECT count(*) FROM messages WHERE NOT from_me)::int AS messages,
              (SELECT count(*) FROM tickets)::int AS tickets, (SELECT count(*) FROM contacts)::int AS contacts`,
    )
  ).rows[0];

const runOnce = async (run: number) => {
  const url = ingestDatabaseUrl;
  let sql: Sql;
  let close: () => Promise<void>;
  if (pglite) {
    ({ sql, close } = await preparePglite(pglite, true));
  } else {
    await prepareDatabase(url, true);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    sql = client;
    close = () => client.end();
  }
  let open = true;
  const base = await seedBase(sql);
  if (queues < 5) {
    await sql.query(
      'DELETE FROM whatsapp_queues WHERE whatsapp_id = $1 AND queue_id <> ALL($2::int[])',
      [base.whatsappId, base.queueIds.slice(0, queues)],
    );
  }
  if (pglite) {
    // The API opens the directory next: this process lets go of it first.
    await close();
    open = false;
  }
  let server: RunningApi | undefined;
  let socket: Socket | undefined;
  let result;
  try {
    server = await startApi(pglite ? { pglite } : url, { SIMULATOR_ENABLED: 'true' });
    const { token, companyId } = await login(server.url, ADMIN_EMAIL);
    const wid = base.whatsappId;
    const apiUrl = server.url;
    // Pair the virtual phone as a person would: start the session, then scan its QR code.
    await api(apiUrl, token, 'POST', `/whatsappsession/${wid}`);
    await eventually(
      () =>
        api(apiUrl, token, 'POST', `/simulator/${wid}/scan`).then(
          () => true,
          () => false,
        ),
      Boolean,
      'the QR code',
      BENCH_WAIT,
    );

    const seen = new Map<string, number>();
    socket = io(apiUrl, { transports: ['websocket'], query: { token } });
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', resolve);
      socket!.once('connect_error', reject);
    });
    socket.on(`company-${companyId}-appMessage`, (payload: AppMessageEvent) => {
      if (payload.action !== 'create' || payload.message.fromMe) return;
      const tag = /#([a-z]\d+)#$/.exec(payload.message.body)?.[1];
      if (tag && !seen.has(tag)) seen.set(tag, performance.now());
    });
    // What the web app's lists and notification listener join for an admin.
    socket.emit('joinNotification');
    for (const status of ['pending', 'open']) socket.emit('joinTickets', status);
    const inbound = (from: string, body: string) =>
      fetch(`${apiUrl}/simulator/${wid}/inbound`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from, name: `Cliente ${from.slice(-4)}`, body }),
      }).then(async (res) => {
        const text = await res.text();
        if (!res.ok) throw new Error(`inbound → ${res.status} ${text}`);
      });
    // The rooms are joined once an event comes through: a message is written again each 200 ms
    // until one is heard.
    await eventually(
      async () => {
        if (!seen.has('p0')) await inbound(numberOf(0, '5511944'), bodyOf('p0', 0));
        return seen.has('p0');
      },
      Boolean,
      'the first event',
      { ...BENCH_WAIT, everyMs: 200 },
    );

    // Warm-up on other contacts (JIT, pools, caches), not counted.
    await pool(warmup, concurrency, (i) =>
      inbound(numberOf(i % contacts, '5511933'), bodyOf(`w${i}`, i)),
    );
    await eventually(
      () => [...seen.keys()].filter((k) => k[0] === 'w').length === warmup,
      Boolean,
      'the warm-up events',
      BENCH_WAIT,
    );

    // The route alone (auth, connection lookup, session routing, no storage): its ceiling.
    let routeRate = NaN;
    if (routeProbe) {
      const t0 = performance.now();
      await pool(routeProbe, concurrency, () =>
        fetch(`${apiUrl}/simulator/${wid}/typing`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ from: numberOf(1), typing: true }),
        }).then(async (res) => {
          await res.arrayBuffer();
          if (res.status !== 204) throw new Error(`typing → ${res.status}`);
        }),
      );
      routeRate = routeProbe / ((performance.now() - t0) / 1000);
    }

    // Commits and the server's CPU: PostgreSQL only (PGlite is inside the API process).
    const stat = async () =>
      pglite
        ? NaN
        : Number(
            (
              await sql.query<{ xact: string }>(
                'SELECT xact_commit::text AS xact FROM pg_stat_database WHERE datname = current_database()',
              )
            ).rows[0].xact,
          );
    const dbCpu = () => (pglite ? NaN : postgresCpuSeconds());
    const xactBefore = await stat();
    const cpuBefore = {
      api: cpuSeconds(server.pid),
      pg: dbCpu(),
      client: ownCpuSeconds(),
      machine: machineCpuSeconds(),
    };
    const started = new Float64Array(total);
    const answered = new Float64Array(total);
    const t0 = performance.now();
    await pool(total, concurrency, async (i) => {
      started[i] = performance.now();
      await inbound(numberOf(i % contacts), bodyOf(`m${i}`, i));
      answered[i] = performance.now();
    });
    const sent = performance.now();
    await eventually(
      () => [...Array(total).keys()].every((i) => seen.has(`m${i}`)),
      Boolean,
      'every message event',
      BENCH_WAIT,
    ).catch(() => undefined);
    const cpuAfter = {
      api: cpuSeconds(server.pid),
      pg: dbCpu(),
      client: ownCpuSeconds(),
      machine: machineCpuSeconds(),
    };
    const xactAfter = await stat();
    const memory = processMemoryMiB(server.pid);
    const latencies: number[] = [];
    const http: number[] = [];
    let lastEvent = 0;
    for (let i = 0; i < total; i += 1) {
      http.push(answered[i] - started[i]);
      const at = seen.get(`m${i}`);
      if (at === undefined) continue;
      latencies.push(at - started[i]);
      lastEvent = Math.max(lastEvent, at);
    }
    const wall = (lastEvent - t0) / 1000;
    result = {
      run,
      messages: total,
      received: latencies.length,
      throughput: latencies.length / wall,
      sendSeconds: (sent - t0) / 1000,
      latency: summarize(latencies),
      httpLatency: summarize(http),
      routeOnlyRate: routeRate,
      apiCpuShare: (cpuAfter.api - cpuBefore.api) / wall,
      postgresCpuShare: (cpuAfter.pg - cpuBefore.pg) / wall,
      // The bench's client (HTTP calls, socket events), and the machine's idle and disk-wait time, in
      // cores: whether the two cores were the limit.
      clientCpuShare: (cpuAfter.client - cpuBefore.client) / wall,
      machineIdleCores: (cpuAfter.machine.idle - cpuBefore.machine.idle) / wall,
      machineIowaitCores: (cpuAfter.machine.iowait - cpuBefore.machine.iowait) / wall,
      // CPU per message: what the load on the machine changes least (the shares follow the rate).
      apiCpuMsPerMessage: ((cpuAfter.api - cpuBefore.api) * 1000) / total,
      postgresCpuMsPerMessage: ((cpuAfter.pg - cpuBefore.pg) * 1000) / total,
      transactionsPerMessage: (xactAfter - xactBefore) / total,
      apiMemoryMiB: memory,
      stored: pglite ? undefined : await storedRows(sql),
    };
    console.log(
      `  run ${run}: ${result.received}/${total} events, ${result.throughput.toFixed(0)} msg/s, latency p50 ${ms(result.latency.p50)} p99 ${ms(result.latency.p99)} ms (HTTP p50 ${ms(result.httpLatency.p50)}), route alone ${routeRate.toFixed(0)} req/s, API process ${(result.apiCpuShare * 100).toFixed(0)}% of a core (${result.apiCpuMsPerMessage.toFixed(2)} ms/msg)${pglite ? ' (PGlite inside it)' : `, postgres ${(result.postgresCpuShare * 100).toFixed(0)}% (${result.postgresCpuMsPerMessage.toFixed(2)} ms/msg), ${result.transactionsPerMessage.toFixed(1)} commits/msg`}, bench client ${(result.clientCpuShare * 100).toFixed(0)}%, machine idle ${result.machineIdleCores.toFixed(2)} + disk wait ${result.machineIowaitCores.toFixed(2)} cores, API memory ${memory.rss} MiB (peak ${memory.peak})`,
    );
  } finally {
    socket?.disconnect();
    await server?.stop();
    if (open) await close();
  }
  if (pglite) {
    const client = await openPgliteDir(pglite);
    try {
      result.stored = await storedRows(pgliteSql(client));
    } finally {
      await client.close();
    }
  }
  console.log(
    `    stored: ${result.stored?.messages} inbound messages, ${result.stored?.tickets} tickets, ${result.stored?.contacts} contacts`,
  );
  return result;
};

const main = async () => {
  console.log(
    `Ingest${pglite ? ` on PGlite in ${pglite}` : ''}: ${total} messages from ${contacts} contacts, ${concurrency} in flight, ${queues} queues on the connection, ${runs} run(s)`,
  );
  const env = await machine(
    pglite ? { pglite: true } : ingestDatabaseUrl.replace(/\/[^/]*$/, '/postgres'),
  );
  const results = [];
  for (let run = 1; run <= runs; run += 1) results.push(await runOnce(run));
  const summary = {
    throughput: spread(results.map((r) => r.throughput)),
    p50: spread(results.map((r) => r.latency.p50)),
    p99: spread(results.map((r) => r.latency.p99)),
    routeOnlyRate: spread(results.map((r) => r.routeOnlyRate)),
  };
  console.log(
    `\nthroughput ${summary.throughput.median.toFixed(0)} msg/s [${summary.throughput.min.toFixed(0)}–${summary.throughput.max.toFixed(0)}], p50 ${ms(summary.p50.median)} ms, p99 ${ms(summary.p99.median)} ms [${ms(summary.p99.min)}–${ms(summary.p99.max)}] (target ≥ 3000 msg/s, p99 < 100 ms)`,
  );
  const variant = `${queues === 5 ? '' : `-queues${queues}`}${concurrency === 64 ? '' : `-c${concurrency}`}`;
  const file = await saveResult(`ingest${pglite ? '-pglite' : ''}${variant}`, {
    machine: { ...env, loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))) },
    database: pglite ? 'pglite' : 'postgres',
    settings: { total, contacts, concurrency, warmup, queues },
    summary,
    runs: results,
  });
  console.log(`Recorded in ${file}`);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
