import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { eventually } from '../apps/api/test/eventually';
import {
  ADMIN_EMAIL,
  api,
  args,
  BENCH_WAIT,
  ingestDatabaseUrl,
  login,
  machine,
  ms,
  pool,
  type RunningApi,
  saveResult,
  spread,
  startApi,
  withDatabase,
} from './lib';
import { prepareDatabase, seedBase } from './seed';

// Two API nodes behind one address, the session's owner killed with -9 mid-burst:
// `npx tsx bench/failover.ts [--messages 6000] [--sends 800] [--concurrency 64] [--runs 3]`.
//
// Each run: a fresh database (the ingest bench's), node A started and the simulator paired on it (so
// it runs the session), node B started with the same secrets. A client that behaves like a load
// balancer spreads the calls over both nodes, skips a node that does not answer and asks again after
// a 503's Retry-After. Contacts write `--messages` inbound messages (each with its own provider id, so
// a retried one is the same message) at `--concurrency` in flight while an agent sends `--sends`
// messages to 16 open tickets (each with an Idempotency-Key) at 8 in flight. Once 40% of the inbound
// messages are in, node A is killed with SIGKILL. Recorded: throughput through both nodes before the
// kill and through B after it, how long until B held the session, the longest pause of accepted calls
// and of phone deliveries around the kill, refusals (4xx, goal 0), 503s, the time until every
// accepted send reached the phone, and the lost and doubled messages (goal 0).

const options = args();
const total = options.int('messages', 6000);
const sends = options.int('sends', 800);
const concurrency = options.int('concurrency', 64);
const runs = options.int('runs', 1);
const killAt = 0.4;
const conversations = 16;

const SESSION_LOCK_CLASS = 41_207;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const runOnce = async (run: number) => {
  const url = ingestDatabaseUrl;
  await prepareDatabase(url, true);
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  const base = await seedBase(sql);
  // No queue bot: the only sends are the agent's.
  await sql.query('DELETE FROM whatsapp_queues WHERE whatsapp_id = $1', [base.whatsappId]);
  const secrets = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
    SIMULATOR_ENABLED: 'true',
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
  };
  let owner: RunningApi | undefined;
  let other: RunningApi | undefined;
  try {
    owner = await startApi(url, secrets);
    const { token } = await login(owner.url, ADMIN_EMAIL);
    const wid = base.whatsappId;
    await api(owner.url, token, 'POST', `/whatsappsession/${wid}`);
    await eventually(
      () =>
        api(owner!.url, token, 'POST', `/simulator/${wid}/scan`).then(
          () => true,
          () => false,
        ),
      Boolean,
      'the QR code',
      BENCH_WAIT,
    );
    other = await startApi(url, secrets);
    const ownerPid = async () =>
      (
        await sql.query<{ pid: number }>(
          `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid::bigint = $2 AND granted`,
          [SESSION_LOCK_CLASS, wid],
        )
      ).rows[0]?.pid ?? null;
    const pidBefore = await ownerPid();

    // The balancer: round robin, a node that does not answer is marked down, 503 waits Retry-After.
    const nodes = [owner.url, other.url];
    const down = new Set<string>();
    let turn = 0;
    const counts = { refused: 0, moving: 0, retriedAfterDrop: 0 };
    const refusals: string[] = [];
    const movingSamples: string[] = [];
    let killedAt = 0;
    const call = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const live = nodes.filter((node) => !down.has(node));
        const node = live[(turn += 1) % live.length]!;
        const res = await fetch(`${node}${route}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            ...headers,
          },
          body: JSON.stringify(body),
        }).catch(() => null);
        if (!res) {
          down.add(node);
          counts.retriedAfterDrop += 1;
          continue;
        }
        const text = await res.text();
        if (res.status === 503) {
          counts.moving += 1;
          if (movingSamples.length < 5)
            movingSamples.push(
              `${killedAt ? `${(performance.now() - killedAt).toFixed(0)} ms after the kill` : 'before the kill'}: ${route} → ${text}`,
            );
          await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
          continue;
        }
        if (res.status >= 400) {
          counts.refused += 1;
          if (refusals.length < 5) refusals.push(`${route} → ${res.status} ${text}`);
        }
        return { status: res.status, at: performance.now() };
      }
      throw new Error(`no node answered ${route}`);
    };

    // The agent's conversations: contacts that wrote first, taken by the admin.
    for (let c = 0; c < conversations; c += 1)
      await call(`/simulator/${wid}/inbound`, {
        from: `55119660${String(c).padStart(5, '0')}`,
        body: 'hola',
        id: `FOPEN${c}`,
      });
    await eventually(
      async () => {
        const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM tickets');
        return rows[0]!.n >= conversations;
      },
      Boolean,
      'the conversations',
      BENCH_WAIT,
    );
    const { rows: tickets } = await sql.query<{ id: number }>(
      'UPDATE tickets SET status = $1, user_id = $2 RETURNING id',
      ['open', base.adminId],
    );

    const accepted: number[] = [];
    const acceptedIn: string[] = [];
    const acceptedOut: string[] = [];
    let takenOverAt = 0;
    // From the kill on: when the other node holds the session (left 0 if it does not in 2 minutes).
    let watch: Promise<unknown> = Promise.resolve();
    const t0 = performance.now();
    const kill = () => {
      if (killedAt) return;
      killedAt = performance.now();
      process.kill(owner!.pid, 'SIGKILL');
      watch = eventually(
        ownerPid,
        (pid) => pid !== null && pid !== pidBefore,
        'the other node to take the session over',
        { timeoutMs: 120_000, everyMs: 10 },
      ).then(
        () => (takenOverAt = performance.now()),
        () => undefined,
      );
    };
    const inbound = pool(total, concurrency, async (i) => {
      const id = `FIN${i}`;
      const { status, at } = await call(`/simulator/${wid}/inbound`, {
        from: `5511955${String(i % 500).padStart(6, '0')}`,
        body: `mensaje ${i}`,
        id,
      });
      if (status === 200) {
        acceptedIn.push(id);
        accepted.push(at);
      }
      if (acceptedIn.length >= total * killAt) kill();
    });
    const outbound = pool(sends, 8, async (i) => {
      const ticketId = tickets[i % tickets.length]!.id;
      const body = `envío ${i}`;
      const { status, at } = await call(
        `/messages/${ticketId}`,
        { body },
        { 'idempotency-key': `bench-${i}` },
      );
      if (status === 200 || status === 201) {
        acceptedOut.push(body);
        accepted.push(at);
      }
    });
    await Promise.all([inbound, outbound]);
    const sentAt = performance.now();
    await watch;
    // The backlog: every accepted send on the phone.
    const wallStart = Date.now() - (performance.now() - t0);
    const toWall = (at: number) => wallStart + (at - t0);
    await eventually(
      async () => {
        const { rows } = await sql.query<{ n: number }>(
          `SELECT count(DISTINCT body)::int AS n FROM simulator_messages WHERE whatsapp_id = $1 AND body LIKE 'envío %'`,
          [wid],
        );
        return rows[0]!.n >= acceptedOut.length;
      },
      Boolean,
      'every accepted send on the phone',
      { timeoutMs: 300_000, everyMs: 100 },
    );
    const drainedAt = performance.now();

    const { rows: inRows } = await sql.query<{ provider_id: string; n: number }>(
      `SELECT provider_id, count(*)::int AS n FROM messages WHERE provider_id LIKE 'FIN%' GROUP BY provider_id`,
    );
    const { rows: phone } = await sql.query<{ body: string; n: number; first: Date }>(
      `SELECT body, count(*)::int AS n, min(created_at) AS first FROM simulator_messages
        WHERE whatsapp_id = $1 AND body LIKE 'envío %' GROUP BY body`,
      [wid],
    );
    const { rows: outRows } = await sql.query<{ body: string; n: number }>(
      `SELECT body, count(*)::int AS n FROM messages WHERE from_me AND body LIKE 'envío %' GROUP BY body`,
    );
    const storedIn = new Set(inRows.map((r) => r.provider_id));
    const onPhone = new Set(phone.map((r) => r.body));
    const storedOut = new Set(outRows.map((r) => r.body));
    // Longest pause between accepted calls, and between phone deliveries, around the kill.
    const longestGap = (times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b);
      let gap = 0;
      for (let i = 1; i < sorted.length; i += 1) gap = Math.max(gap, sorted[i]! - sorted[i - 1]!);
      return gap;
    };
    const deliveries = phone.map((r) => r.first.getTime());
    const afterKill = accepted.filter((at) => at > killedAt);
    const beforeKill = accepted.filter((at) => at <= killedAt);
    const firstDeliveryAfterKill = Math.min(...deliveries.filter((at) => at > toWall(killedAt)));
    const result = {
      run,
      inbound: total,
      sends,
      throughputBeforeKill: beforeKill.length / ((killedAt - t0) / 1000),
      throughputAfterKill: afterKill.length / ((sentAt - killedAt) / 1000),
      takeoverMs: takenOverAt ? takenOverAt - killedAt : NaN,
      longestAcceptGapMs: longestGap(accepted),
      longestDeliveryGapMs: longestGap(deliveries),
      firstDeliveryAfterKillMs: firstDeliveryAfterKill - toWall(killedAt),
      drainedAfterKillMs: drainedAt - killedAt,
      // The burst goes on after the kill: what was still queued when the last call was answered.
      drainedAfterBurstMs: drainedAt - sentAt,
      refused: counts.refused,
      refusals,
      answered503: counts.moving,
      movingSamples,
      retriedAfterDrop: counts.retriedAfterDrop,
      lostInbound: acceptedIn.filter((id) => !storedIn.has(id)).length,
      doubledInbound: inRows.filter((r) => r.n > 1).length,
      lostSends: acceptedOut.filter((body) => !onPhone.has(body) || !storedOut.has(body)).length,
      doubledSends: phone.filter((r) => r.n > 1).length + outRows.filter((r) => r.n > 1).length,
    };
    console.log(
      `  run ${run}: before the kill ${result.throughputBeforeKill.toFixed(0)} calls/s through both, after it ${result.throughputAfterKill.toFixed(0)} through B; taken over ${ms(result.takeoverMs, 0)} ms after the kill, phone received again after ${ms(result.firstDeliveryAfterKillMs, 0)} ms; longest pause: calls ${ms(result.longestAcceptGapMs, 0)} ms, deliveries ${ms(result.longestDeliveryGapMs, 0)} ms; backlog drained ${ms(result.drainedAfterKillMs, 0)} ms after the kill (${ms(result.drainedAfterBurstMs, 0)} ms after the last call); refused ${result.refused}, 503 ${result.answered503}, retried after a dropped connection ${result.retriedAfterDrop}; lost ${result.lostInbound}+${result.lostSends}, doubled ${result.doubledInbound}+${result.doubledSends}`,
    );
    for (const refusal of refusals) console.log(`    refused: ${refusal}`);
    for (const sample of movingSamples) console.log(`    503: ${sample}`);
    return result;
  } finally {
    await other?.stop();
    // Killed: nothing to stop; its data directory goes.
    await owner?.stop().catch(() => undefined);
    await sql.end();
  }
};

const main = async () => {
  console.log(
    `Failover: two nodes, ${total} inbound messages at ${concurrency} in flight and ${sends} sends at 8, the session's owner killed at ${killAt * 100}% of the inbound, ${runs} run(s)`,
  );
  const env = await machine(withDatabase(ingestDatabaseUrl, 'postgres'));
  const results = [];
  for (let run = 1; run <= runs; run += 1) results.push(await runOnce(run));
  const summary = {
    throughputBeforeKill: spread(results.map((r) => r.throughputBeforeKill)),
    throughputAfterKill: spread(results.map((r) => r.throughputAfterKill)),
    takeoverMs: spread(results.map((r) => r.takeoverMs)),
    firstDeliveryAfterKillMs: spread(results.map((r) => r.firstDeliveryAfterKillMs)),
    longestDeliveryGapMs: spread(results.map((r) => r.longestDeliveryGapMs)),
    drainedAfterKillMs: spread(results.map((r) => r.drainedAfterKillMs)),
    drainedAfterBurstMs: spread(results.map((r) => r.drainedAfterBurstMs)),
    refused: results.reduce((sum, r) => sum + r.refused, 0),
    lost: results.reduce((sum, r) => sum + r.lostInbound + r.lostSends, 0),
    doubled: results.reduce((sum, r) => sum + r.doubledInbound + r.doubledSends, 0),
  };
  console.log(
    `\ntakeover ${ms(summary.takeoverMs.median, 0)} ms [${ms(summary.takeoverMs.min, 0)}–${ms(summary.takeoverMs.max, 0)}], phone again after ${ms(summary.firstDeliveryAfterKillMs.median, 0)} ms, refused ${summary.refused}, lost ${summary.lost}, doubled ${summary.doubled} (goal: 0, 0, 0; delivery within 5 s of the takeover)`,
  );
  const file = await saveResult('failover', {
    machine: { ...env, loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))) },
    settings: { total, sends, concurrency, killAt, conversations },
    summary,
    runs: results,
  });
  console.log(`Recorded in ${file}`);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
