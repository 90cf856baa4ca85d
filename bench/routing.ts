import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import type { TicketEvent } from '@atendi/shared';
import { eventually } from '../apps/api/test/eventually';
import { hashPassword } from '../apps/api/src/platform/passwords';
import {
  ADMIN_EMAIL,
  api,
  args,
  BENCH_WAIT,
  login,
  machine,
  ms,
  PASSWORD,
  pool,
  type RunningApi,
  requestsDatabaseUrl,
  saveResult,
  spread,
  startApi,
  summarize,
  withDatabase,
} from './lib';
import { prepareDatabase, seedBase } from './seed';

// Automatic assignment under a burst (issue 36): `npx tsx bench/routing.ts [--messages 2000]
// [--agents 20] [--limit 100] [--concurrency 64] [--runs 3] [--sla]`.
// `--sla`: the queue has an SLA policy too (first answer 30 min, next 15, resolution 4 h, around the
// clock), so every conversation starts its clocks on the way in.
//
// Each run: a fresh database with the bench company; one queue routed round robin, the only queue of
// the simulator connection; `--agents` agents of that queue, each with a limit of `--limit` open
// conversations, online (a socket each, as an open tab). The API runs as its own process. `--messages`
// new contacts write at once (`--concurrency` in flight), each a new conversation that the queue takes
// and routing gives to an agent. Measured: from the inbound call's start to the ticket `update` that
// says `routedTo` (heard by the admin's socket on the open list), and every agent's open conversations
// sampled from the database all along (never above the limit).

const options = args();
const total = options.int('messages', 2_000);
const agents = options.int('agents', 20);
const limit = options.int('limit', 100);
const concurrency = options.int('concurrency', 64);
const runs = options.int('runs', 1);
const withSla = options.flag('sla');
const databaseUrl =
  process.env.BENCH_ROUTING_DATABASE_URL ??
  withDatabase(requestsDatabaseUrl, 'atendi_bench_routing');

const numberOf = (i: number) => `5511977${String(i).padStart(6, '0')}`;

const runOnce = async (run: number) => {
  await prepareDatabase(databaseUrl, true);
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  let server: RunningApi | undefined;
  const sockets: Socket[] = [];
  try {
    const base = await seedBase(sql);
    const queueId = base.queueIds[0];
    await sql.query(`UPDATE queues SET routing = 'round_robin' WHERE id = $1`, [queueId]);
    if (withSla)
      await sql.query(
        `UPDATE queues SET schedules = '[]', sla_first_response_minutes = 30,
                sla_next_response_minutes = 15, sla_resolution_minutes = 240 WHERE id = $1`,
        [queueId],
      );
    await sql.query('DELETE FROM whatsapp_queues WHERE whatsapp_id = $1 AND queue_id <> $2', [
      base.whatsappId,
      queueId,
    ]);
    const hash = await hashPassword(PASSWORD);
    const agentIds = (
      await sql.query<{ id: number }>(
        `INSERT INTO users (company_id, name, email, password_hash, profile, max_tickets)
         SELECT $1, 'Ruteo ' || i, 'routing' || i || '@bench.local', $2, 'user', $3
           FROM generate_series(1, $4::int) i RETURNING id`,
        [base.companyId, hash, limit, agents],
      )
    ).rows.map((r) => r.id);
    // The queue's agents are these alone (the seed's admin, online here with the bench's socket, and
    // its agents leave it).
    await sql.query('DELETE FROM user_queues WHERE queue_id = $1', [queueId]);
    await sql.query(
      `INSERT INTO user_queues (user_id, queue_id, company_id) SELECT u, $2, $3 FROM unnest($1::int[]) u`,
      [agentIds, queueId, base.companyId],
    );

    server = await startApi(databaseUrl, { SIMULATOR_ENABLED: 'true' });
    const apiUrl = server.url;
    const { token, companyId } = await login(apiUrl, ADMIN_EMAIL);
    const wid = base.whatsappId;
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
    const connect = (key: string) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = io(apiUrl, { transports: ['websocket'], query: { token: key } });
        sockets.push(socket);
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    // Every agent online: a tab open each.
    for (let i = 1; i <= agents; i += 1)
      await connect((await login(apiUrl, `routing${i}@bench.local`)).token);
    await eventually(
      async () =>
        (
          await sql.query(`SELECT 1 FROM users WHERE presence = 'online' AND id = ANY($1)`, [
            agentIds,
          ])
        ).rowCount === agents,
      Boolean,
      'the agents online',
      BENCH_WAIT,
    );
    const routedAt = new Map<string, number>();
    const admin = await connect(token);
    admin.on(`company-${companyId}-ticket`, (event: TicketEvent) => {
      if (event.action !== 'update' || !event.routedTo) return;
      const number = event.ticket.contact?.number;
      if (number && !routedAt.has(number)) routedAt.set(number, performance.now());
    });
    await admin.timeout(5000).emitWithAck('joinTickets', 'open');

    let sampling = true;
    let most = 0;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM tickets WHERE status = 'open' AND user_id = ANY($1) GROUP BY user_id`,
          [agentIds],
        );
        for (const row of rows) most = Math.max(most, row.n);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const started = new Float64Array(total);
    const answered = new Float64Array(total);
    const t0 = performance.now();
    await pool(total, concurrency, async (i) => {
      started[i] = performance.now();
      const res = await fetch(`${apiUrl}/simulator/${wid}/inbound`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: numberOf(i), name: `Cliente ${i}`, body: `Hola ${i}` }),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`inbound → ${res.status}`);
      answered[i] = performance.now();
    });
    const sent = performance.now();
    const expected = Math.min(total, agents * limit);
    await eventually(() => routedAt.size >= expected, Boolean, 'every assignment heard', {
      ...BENCH_WAIT,
      timeoutMs: 120_000,
    }).catch(() => undefined);
    sampling = false;
    await sampler;
    const latencies: number[] = [];
    // From the inbound call's answer (the message stored, the queue bot's turn taken) to the
    // assignment: routing's own share.
    const afterStored: number[] = [];
    let last = 0;
    for (let i = 0; i < total; i += 1) {
      const at = routedAt.get(numberOf(i));
      if (at === undefined) continue;
      latencies.push(at - started[i]);
      afterStored.push(at - answered[i]);
      last = Math.max(last, at);
    }
    const { rows: open } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM tickets WHERE status = 'open' AND user_id = ANY($1) GROUP BY user_id`,
      [agentIds],
    );
    // With a policy: the conversations whose SLA clocks run (every one, or the recorders missed some).
    const { rows: clocked } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM tickets WHERE sla_started_at IS NOT NULL AND sla_first_due_at IS NOT NULL`,
    );
    const result = {
      run,
      messages: total,
      slaClocks: clocked[0].n,
      assigned: latencies.length,
      expected,
      sendSeconds: (sent - t0) / 1000,
      assignmentsPerSecond: latencies.length / ((last - t0) / 1000),
      latency: summarize(latencies),
      afterStored: summarize(afterStored),
      inboundPerSecond: total / ((sent - t0) / 1000),
      mostOpenSeen: most,
      mostOpenAtEnd: Math.max(0, ...open.map((r) => r.n)),
      capacityBreached: most > limit,
    };
    console.log(
      `  run ${run}: ${result.assigned}/${expected} assigned, arrival → assignment p50 ${ms(result.latency.p50)} p99 ${ms(result.latency.p99)} ms (after the inbound call's answer: p50 ${ms(result.afterStored.p50)} p99 ${ms(result.afterStored.p99)} ms), ${result.inboundPerSecond.toFixed(0)} new conversations/s in, ${result.assignmentsPerSecond.toFixed(0)} assignments/s, most open per agent ${most} (limit ${limit})`,
    );
    return result;
  } finally {
    for (const socket of sockets) socket.disconnect();
    await server?.stop();
    await sql.end();
  }
};

const main = async () => {
  console.log(
    `Routing: ${total} new conversations, ${agents} online agents with a limit of ${limit}, ${concurrency} in flight, ${runs} run(s)${withSla ? ', with an SLA policy' : ''}`,
  );
  const env = await machine(withDatabase(databaseUrl, 'postgres'));
  const results = [];
  for (let run = 1; run <= runs; run += 1) results.push(await runOnce(run));
  const summary = {
    p50: spread(results.map((r) => r.latency.p50)),
    p99: spread(results.map((r) => r.latency.p99)),
    afterStoredP50: spread(results.map((r) => r.afterStored.p50)),
    afterStoredP99: spread(results.map((r) => r.afterStored.p99)),
    assignmentsPerSecond: spread(results.map((r) => r.assignmentsPerSecond)),
    capacityBreached: results.some((r) => r.capacityBreached),
  };
  console.log(
    `\narrival → assignment p50 ${ms(summary.p50.median)} ms, p99 ${ms(summary.p99.median)} ms [${ms(summary.p99.min)}–${ms(summary.p99.max)}] (after the answer: p50 ${ms(summary.afterStoredP50.median)}, p99 ${ms(summary.afterStoredP99.median)} ms), ${summary.assignmentsPerSecond.median.toFixed(0)} assignments/s, capacity ${summary.capacityBreached ? 'BREACHED' : 'never breached'}`,
  );
  const file = await saveResult('routing', {
    machine: { ...env, loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))) },
    database: 'postgres',
    settings: { total, agents, limit, concurrency, sla: withSla },
    summary,
    runs: results,
  });
  console.log(`Recorded in ${file}`);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
