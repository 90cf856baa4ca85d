import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { CampaignView } from '@atendi/shared';
import { normalizeNumber } from '../apps/api/src/channels/numbers';
import { eventually } from '../apps/api/test/eventually';
import {
  ADMIN_EMAIL,
  api,
  args,
  BENCH_WAIT,
  campaignsDatabaseUrl,
  cpuSeconds,
  login,
  machine,
  ms,
  postgresCpuSeconds,
  type RunningApi,
  saveResult,
  spread,
  startApi,
  summarize,
  withDatabase,
} from './lib';
import { prepareDatabase, seedBase } from './seed';
import { firstNames, lastNames } from './texts';

// Campaigns through the real dispatcher: `npx tsx bench/campaigns.ts [--runs 3] [--recipients 100000]
// [--messages 5000] [--warmup 500] [--no-trace]`.
//
// Each run: a fresh database (migrations, bootstrap, the bench company and its simulator connection),
// two imported contact lists inserted with generate_series, the API as its own process with
// SIMULATOR_ENABLED, campaign settings without pauses (messageInterval, longerIntervalAfter and
// greaterInterval 0, all in the SPEC's option lists). Then:
//
// 1. Planning: a campaign due now on the list of `recipients` numbers, through a second simulator
//    connection that is never paired, so the dispatcher plans every recipient and then cannot send
//    anything (the send fails with "session not running", the recipient goes back to pending and the
//    job waits for its retry); the campaign is cancelled as soon as its recipients exist.
// 2. Dispatching: the bench connection is paired (QR flow); a warm-up campaign on a list of `warmup`
//    numbers runs to FINALIZADA (not measured: JIT, pools, caches), then the measured one on the list
//    of `messages` numbers; every one of its numbers must be on the simulator's phone exactly once.
//
// Timings come from the rows the product writes (campaigns.started_at, campaign_shipping.delivered_at,
// simulator_messages.created_at) and, unless --no-trace, from bench-only triggers that note
// clock_timestamp() in an unlogged table when the dispatcher claims a recipient (pending → sending),
// when the simulator's phone stores a message, and around the planning INSERT … SELECT.

const options = args();
const runs = options.int('runs', 3);
const recipients = options.int('recipients', 100_000);
const total = options.int('messages', 5_000);
const warmup = options.int('warmup', 500);
const trace = !options.flag('no-trace');
const url = campaignsDatabaseUrl;

// Of the planning list: every 5th number is already a contact of the company (the plan links it),
// every 100th asked not to get campaigns (planned as opted_out).
const CONTACT_EVERY = 5;
const OPT_OUT_EVERY = 100;
// An import leaves isWhatsappValid null; the check job then sets it, in id order, through the
// default connection. The lists here were checked up to 80% (true), the rest is still unknown (null);
// the dispatcher plans both.
const CHECKED_SHARE = 0.8;

const sleep = (msDelay: number) => new Promise((r) => setTimeout(r, msDelay));

type Sql = pg.ClientBase;

const one = async <T extends pg.QueryResultRow>(sql: Sql, text: string, values?: unknown[]) =>
  (await sql.query<T>(text, values)).rows[0];

// Brazilian mobiles as the import stores them (normalizeNumber: 55, the area code, the ninth digit,
// then 8 digits): 55 {area} 9 {firstLocal + i}. The planning list starts at 90000001, the dispatch
// list at 80000001, so the two never share a number (nor an opt-out).
const AREAS = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '91'];

// A list as an .xlsx import leaves it (one row per number, normalised, named, no email), checked up
// to CHECKED_SHARE.
const importList = async (
  sql: Sql,
  companyId: number,
  name: string,
  count: number,
  firstLocal: number,
) => {
  const list = await one<{ id: number }>(
    sql,
    'INSERT INTO contact_lists (company_id, name) VALUES ($1, $2) RETURNING id',
    [companyId, name],
  );
  await sql.query(
    `INSERT INTO contact_list_items (company_id, contact_list_id, name, number, is_whatsapp_valid)
     SELECT $1, $2,
            f[1 + (i * 7) % array_length(f, 1)] || ' ' || l[1 + (i * 13 + i / 30) % array_length(l, 1)],
            '55' || (a)[1 + i % array_length(a, 1)] || '9' || ($3::int + i)::text,
            CASE WHEN i <= $4::int THEN true END
     FROM generate_series(1, $5::int) i, (SELECT $6::text[] AS f, $7::text[] AS l, $8::text[] AS a) v
     ORDER BY i`,
    [
      companyId,
      list.id,
      firstLocal,
      Math.round(count * CHECKED_SHARE),
      count,
      firstNames,
      lastNames,
      AREAS,
    ],
  );
  // What the import's judge does to every number: they must already be in that form.
  const { rows } = await sql.query<{ number: string }>(
    'SELECT number FROM contact_list_items WHERE contact_list_id = $1',
    [list.id],
  );
  const odd = rows.find((r) => normalizeNumber(r.number) !== r.number || r.number.length !== 13);
  if (odd || rows.length !== count)
    throw new Error(`list ${name}: ${rows.length} items, ${odd?.number ?? 'all'} normalised`);
  return list.id;
};

// Bench-only instrumentation (unlogged table, triggers): when things happened, by PostgreSQL's
// clock_timestamp(), to the microsecond. Nothing of the product reads it.
const installTrace = async (sql: Sql) => {
  await sql.query(`
    CREATE UNLOGGED TABLE bench_trace (
      kind text NOT NULL, id int, provider_id text, xid bigint,
      at timestamptz NOT NULL DEFAULT clock_timestamp());

    -- The dispatcher claims a recipient (pending → sending), inside its claim UPDATE.
    CREATE FUNCTION bench_trace_claim() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO bench_trace (kind, id) VALUES ('claim', NEW.id); RETURN NEW; END $$;
    CREATE TRIGGER bench_trace_claim BEFORE UPDATE ON campaign_shipping FOR EACH ROW
      WHEN (OLD.status = 'pending' AND NEW.status = 'sending') EXECUTE FUNCTION bench_trace_claim();

    -- The simulator's phone has the message (its row is inserted).
    CREATE FUNCTION bench_trace_phone() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO bench_trace (kind, provider_id) VALUES ('phone', NEW.provider_id); RETURN NULL; END $$;
    CREATE TRIGGER bench_trace_phone AFTER INSERT ON simulator_messages FOR EACH ROW
      WHEN (NEW.direction = 'out') EXECUTE FUNCTION bench_trace_phone();

    -- A campaign starts (EM_ANDAMENTO) or is claimed for planning (started_at set, the plan
    -- transaction's first statement); the planning INSERT … SELECT begins and ends (statement
    -- triggers: the end comes after its rows, indexes and foreign-key checks, before the commit).
    CREATE FUNCTION bench_trace_campaign() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status IS DISTINCT FROM NEW.status THEN
        INSERT INTO bench_trace (kind, id, xid) VALUES ('status:' || NEW.status, NEW.id, txid_current());
      END IF;
      IF OLD.started_at IS NULL AND NEW.started_at IS NOT NULL THEN
        INSERT INTO bench_trace (kind, id, xid) VALUES ('plan', NEW.id, txid_current());
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER bench_trace_campaign BEFORE UPDATE ON campaigns FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.started_at IS DISTINCT FROM NEW.started_at)
      EXECUTE FUNCTION bench_trace_campaign();
    CREATE FUNCTION bench_trace_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO bench_trace (kind, xid) VALUES (TG_ARGV[0], txid_current()); RETURN NULL; END $$;
    CREATE TRIGGER bench_trace_insert_start BEFORE INSERT ON campaign_shipping FOR EACH STATEMENT
      EXECUTE FUNCTION bench_trace_insert('insert-start');
    CREATE TRIGGER bench_trace_insert_end AFTER INSERT ON campaign_shipping FOR EACH STATEMENT
      EXECUTE FUNCTION bench_trace_insert('insert-end');`);
};

// Milliseconds since the epoch, with the microseconds PostgreSQL keeps.
const epochMs = (column: string) => `date_part('epoch', ${column}) * 1000`;

// The trace's planning marks of a campaign, in epoch milliseconds.
const planMarks = async (sql: Sql, campaignId: number) => {
  if (!trace) return undefined;
  const marks = await one<{
    started: number;
    plan: number;
    insertStart: number;
    insertEnd: number;
  }>(
    sql,
    `SELECT (SELECT ${epochMs('min(at)')} FROM bench_trace WHERE kind = 'status:EM_ANDAMENTO' AND id = p.id) AS started,
            ${epochMs('p.at')} AS plan,
            (SELECT ${epochMs('min(at)')} FROM bench_trace WHERE kind = 'insert-start' AND xid = p.xid) AS "insertStart",
            (SELECT ${epochMs('max(at)')} FROM bench_trace WHERE kind = 'insert-end' AND xid = p.xid) AS "insertEnd"
     FROM bench_trace p WHERE p.kind = 'plan' AND p.id = $1`,
    [campaignId],
  );
  if (!marks || marks.insertEnd === null) throw new Error('no planning marks in bench_trace');
  return marks;
};

const campaignBody = (name: string, whatsappId: number, contactListId: number) => ({
  name,
  // Three variants, each recipient gets one at random; variables filled per recipient.
  message1:
    'Hola {{firstName}}, esta semana {{promo}} en toda la tienda. Responde BAJA para no recibir más.',
  message2: '¡{{name}}! Llegó la temporada: {{promo}} solo hasta el domingo.',
  message3: '{{greeting}} {{firstName}}, te esperamos con {{promo}} en nuestra tienda.',
  whatsappId,
  contactListId,
  tagListId: 'Ninguna',
  // Due now: saving it starts it (the route's startDue), as a person pressing "save" would.
  scheduledAt: new Date(Date.now() - 1000).toISOString(),
});

const planning = async (
  sql: Sql,
  apiUrl: string,
  token: string,
  ids: { whatsappId: number; listId: number },
  expected: { recipients: number; optedOut: number; contacts: number },
) => {
  const createdAt = Date.now();
  const campaign = await api<CampaignView>(
    apiUrl,
    token,
    'POST',
    '/campaigns',
    campaignBody('Planificación', ids.whatsappId, ids.listId),
  );
  // The plan's transaction sets started_at and inserts every recipient: once started_at is visible,
  // all of them are (one commit). Polled every 10 ms by primary key.
  let visibleAt = NaN;
  await eventually(
    async () => {
      const row = await one<{ planned: boolean }>(
        sql,
        'SELECT started_at IS NOT NULL AS planned FROM campaigns WHERE id = $1',
        [campaign.id],
      );
      if (row.planned) visibleAt = Date.now();
      return row.planned;
    },
    Boolean,
    'the recipients to be planned',
    { timeoutMs: 600_000, everyMs: 10 },
  );
  // Nothing can be sent through the unpaired connection; cancelling ends the campaign's job at its
  // next attempt.
  const cancelled = await api<CampaignView>(
    apiUrl,
    token,
    'POST',
    `/campaigns/${campaign.id}/cancel`,
  );
  const counts = await one<{
    rows: number;
    pending: number;
    optedOut: number;
    linked: number;
    variants: number;
    startedAt: number;
  }>(
    sql,
    `SELECT count(*)::int AS rows, count(*) FILTER (WHERE s.status = 'pending')::int AS pending,
            count(*) FILTER (WHERE s.status = 'opted_out')::int AS "optedOut",
            count(s.contact_id)::int AS linked, count(s.variant)::int AS variants,
            (SELECT ${epochMs('started_at')} FROM campaigns WHERE id = $1) AS "startedAt"
     FROM campaign_shipping s WHERE s.campaign_id = $1`,
    [campaign.id],
  );
  const sent = await one<{ n: number }>(
    sql,
    "SELECT count(*)::int AS n FROM simulator_messages WHERE whatsapp_id = $1 AND direction = 'out'",
    [ids.whatsappId],
  );
  const marks = await planMarks(sql, campaign.id);
  const checks = {
    everyRecipientPlanned: counts.rows === expected.recipients,
    optedOutPlannedAsSuch: counts.optedOut === expected.optedOut,
    contactsLinked: counts.linked === expected.contacts,
    everyRowHasAVariant: counts.variants === expected.recipients,
    nothingSent: sent.n === 0,
    cancelled: cancelled.status === 'CANCELADA',
  };
  return {
    campaignId: campaign.id,
    planned: counts.rows,
    optedOut: counts.optedOut,
    linkedToContacts: counts.linked,
    // POST /campaigns sent (due now) → the bench sees the recipients committed (10 ms polling).
    dueToPlannedMs: visibleAt - createdAt,
    // campaigns.started_at (set by the API at the start of the plan transaction) → the same.
    planToVisibleMs: visibleAt - counts.startedAt,
    ...(marks
      ? {
          // PostgreSQL's clock: the campaign turns EM_ANDAMENTO → the plan transaction claims it.
          startToPlanMs: marks.plan - marks.started,
          // The INSERT … SELECT alone: its BEFORE → AFTER statement triggers.
          insertStatementMs: marks.insertEnd - marks.insertStart,
          // The plan transaction up to the end of its INSERT (the claim UPDATE, a round trip, the INSERT).
          planTransactionMs: marks.insertEnd - marks.plan,
        }
      : {}),
    checks,
  };
};

const pair = async (apiUrl: string, token: string, whatsappId: number) => {
  await api(apiUrl, token, 'POST', `/whatsappsession/${whatsappId}`);
  await eventually(
    () =>
      api(apiUrl, token, 'POST', `/simulator/${whatsappId}/scan`).then(
        () => true,
        () => false,
      ),
    Boolean,
    'the QR code',
    BENCH_WAIT,
  );
};

// Saves a campaign due now on the list and waits (polling its row) until it is FINALIZADA.
const sendCampaign = async (
  sql: Sql,
  apiUrl: string,
  token: string,
  name: string,
  ids: { whatsappId: number; listId: number },
  count: number,
) => {
  const campaign = await api<CampaignView>(
    apiUrl,
    token,
    'POST',
    '/campaigns',
    campaignBody(name, ids.whatsappId, ids.listId),
  );
  await eventually(
    async () =>
      (
        await one<{ status: string }>(sql, 'SELECT status FROM campaigns WHERE id = $1', [
          campaign.id,
        ])
      ).status === 'FINALIZADA',
    Boolean,
    `campaign ${name} to finish`,
    { timeoutMs: 120_000 + count * 50, everyMs: 100 },
  );
  return campaign.id;
};

const commits = async (sql: Sql) =>
  Number(
    (
      await one<{ xact: string }>(
        sql,
        'SELECT xact_commit::text AS xact FROM pg_stat_database WHERE datname = current_database()',
      )
    ).xact,
  );

type DeliveryRow = {
  id: number;
  number: string;
  status: string;
  message: string;
  delivered: number | null;
  phone: number | null;
  phoneBody: string | null;
  claimed: number | null;
  claims: number;
  traced: number | null;
};

const dispatching = async (
  sql: Sql,
  server: RunningApi,
  token: string,
  ids: { whatsappId: number; listId: number },
) => {
  const apiUrl = server.url;
  const xactBefore = await commits(sql);
  const cpuBefore = { api: cpuSeconds(server.pid), pg: postgresCpuSeconds() };
  const t0 = performance.now();
  const campaignId = await sendCampaign(sql, apiUrl, token, 'Envío', ids, total);
  const wall = (performance.now() - t0) / 1000;
  const cpuAfter = { api: cpuSeconds(server.pid), pg: postgresCpuSeconds() };
  // A backend reports its counts to pg_stat_database at most once a second.
  await sleep(1500);
  const xactAfter = await commits(sql);

  // The product's own view of it.
  const view = await api<CampaignView>(apiUrl, token, 'GET', `/campaigns/${campaignId}`);

  // Every recipient: its row, what the phone has for it (by provider id) and, traced, when it was
  // claimed and stored on the phone.
  const { rows } = await sql.query<DeliveryRow>(
    `SELECT s.id, s.number, s.status, s.message,
            ${epochMs('s.delivered_at')} AS delivered,
            ${epochMs('m.created_at')} AS phone, m.body AS "phoneBody",
            ${trace ? epochMs('c.at') : 'NULL::float8'} AS claimed,
            ${trace ? 'coalesce(c.n, 0)' : '0'}::int AS claims,
            ${trace ? epochMs('p.at') : 'NULL::float8'} AS traced
     FROM campaign_shipping s
     LEFT JOIN simulator_messages m ON m.whatsapp_id = $2 AND m.provider_id = s.provider_id
     ${
       trace
         ? `LEFT JOIN (SELECT id, max(at) AS at, count(*) AS n FROM bench_trace WHERE kind = 'claim' GROUP BY id) c ON c.id = s.id
            LEFT JOIN (SELECT provider_id, min(at) AS at FROM bench_trace WHERE kind = 'phone' GROUP BY provider_id) p
              ON p.provider_id = s.provider_id`
         : ''
     }
     WHERE s.campaign_id = $1 ORDER BY s.id`,
    [campaignId, ids.whatsappId],
  );
  // What the phone has: for the list's numbers, and in all (the warm-up campaign's besides).
  const phone = await one<{
    everything: number;
    messages: number;
    numbers: number;
    messagesRows: number;
  }>(
    sql,
    `SELECT (SELECT count(*) FROM simulator_messages
             WHERE whatsapp_id = $1 AND direction = 'out')::int AS everything,
            (SELECT count(*) FROM messages)::int AS "messagesRows",
            count(m.id)::int AS messages, count(DISTINCT m."to")::int AS numbers
     FROM contact_list_items i
     LEFT JOIN simulator_messages m
       ON m.whatsapp_id = $1 AND m.direction = 'out' AND m."to" = i.number
     WHERE i.contact_list_id = $2`,
    [ids.whatsappId, ids.listId],
  );
  const checks = {
    finished: view.status === 'FINALIZADA' && view.completedAt !== null,
    reportDelivered:
      view.report.recipients === total &&
      view.report.sent === total &&
      view.report.pending === 0 &&
      view.report.failed === 0,
    // The list's `total` numbers got `total` messages between them, every number at least one:
    // each exactly one.
    exactlyNSends: phone.messages === total,
    eachNumberOnce: phone.numbers === total && phone.messages === total,
    nothingElseSent: phone.everything === total + warmup,
    everyRowDelivered: rows.length === total && rows.every((r) => r.status === 'delivered'),
    phoneHasTheRecordedText: rows.every((r) => r.phoneBody !== null && r.phoneBody === r.message),
    ...(trace ? { claimedOnce: rows.every((r) => r.claims === 1) } : {}),
  };

  const delivered = rows.map((r) => r.delivered!).filter(Number.isFinite);
  const phoneTimes = rows.map((r) => r.phone!).filter(Number.isFinite);
  const firstPhone = phoneTimes.reduce((a, b) => Math.min(a, b), Infinity);
  const lastDelivered = delivered.reduce((a, b) => Math.max(a, b), -Infinity);
  const sortedDelivered = [...delivered].sort((a, b) => a - b);
  const gaps = sortedDelivered.slice(1).map((at, i) => at - sortedDelivered[i]);
  // msg/s within each tenth of the campaign, in sending order: does it slow down as it goes?
  const tenth = Math.floor(sortedDelivered.length / 10);
  const throughputByTenth = tenth
    ? Array.from({ length: 10 }, (_, k) => {
        const from = sortedDelivered[k * tenth];
        const to = sortedDelivered[(k + 1) * tenth - 1];
        return Math.round((tenth - 1) / ((to - from) / 1000));
      })
    : [];
  const times = await one<{ started: number; completed: number }>(
    sql,
    `SELECT ${epochMs('started_at')} AS started, ${epochMs('completed_at')} AS completed
     FROM campaigns WHERE id = $1`,
    [campaignId],
  );
  const traced = trace
    ? (() => {
        const ok = rows.filter((r) => r.claimed !== null && r.traced !== null);
        const claims = ok.map((r) => r.claimed!).sort((a, b) => a - b);
        return {
          // Claimed (the claim UPDATE runs) → the phone's row inserted: the send path alone.
          claimToPhone: summarize(ok.map((r) => r.traced! - r.claimed!)),
          // Claimed → deliveredAt (the API's clock right after the send answered, before recording it).
          claimToDelivered: summarize(ok.map((r) => r.delivered! - r.claimed!)),
          // Between one claim and the next: the whole per-recipient cycle.
          claimInterval: summarize(claims.slice(1).map((at, i) => at - claims[i])),
          // First claim → last deliveredAt.
          throughputFromFirstClaim: delivered.length / ((lastDelivered - claims[0]) / 1000),
        };
      })()
    : undefined;
  return {
    campaignId,
    sent: phone.messages,
    // A campaign send is not a chat message: the dispatcher hands it to the channel directly, no
    // `messages` row, no outbox job (the simulator echoes nothing back).
    messagesRows: phone.messagesRows,
    // first simulator_messages.created_at → last campaign_shipping.delivered_at.
    throughput: delivered.length / ((lastDelivered - firstPhone) / 1000),
    // campaigns.started_at (plan start) → completed_at (FINALIZADA): planning the recipients included.
    campaignSeconds: (times.completed - times.started) / 1000,
    campaignThroughput: total / ((times.completed - times.started) / 1000),
    // POST /campaigns → the bench sees FINALIZADA (100 ms polling).
    wallSeconds: wall,
    // Between consecutive deliveredAt (ms resolution).
    deliveryGap: summarize(gaps),
    throughputByTenth,
    ...traced,
    apiCpuShare: (cpuAfter.api - cpuBefore.api) / wall,
    postgresCpuShare: (cpuAfter.pg - cpuBefore.pg) / wall,
    transactionsPerMessage: (xactAfter - xactBefore) / total,
    checks,
  };
};

const runOnce = async (run: number) => {
  await prepareDatabase(url, true);
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  let server: RunningApi | undefined;
  try {
    const base = await seedBase(sql);
    const { companyId } = base;
    // The planning campaign's connection: a simulator nobody pairs, so it can never send.
    const unpaired = await one<{ id: number }>(
      sql,
      `INSERT INTO whatsapps (company_id, name, provider, status, is_default)
       VALUES ($1, 'Bench sin vincular', 'simulator', 'DISCONNECTED', false) RETURNING id`,
      [companyId],
    );
    const t0 = performance.now();
    const planningList = await importList(sql, companyId, 'Importada', recipients, 90_000_000);
    await sql.query(
      `INSERT INTO contacts (company_id, name, number, whatsapp_id)
       SELECT company_id, name, number, $2 FROM contact_list_items
       WHERE contact_list_id = $1 AND id % $3::int = 0`,
      [planningList, base.whatsappId, CONTACT_EVERY],
    );
    await sql.query(
      `INSERT INTO campaign_opt_outs (company_id, number, keyword)
       SELECT company_id, number, 'BAJA' FROM contact_list_items
       WHERE contact_list_id = $1 AND id % $2::int = 7`,
      [planningList, OPT_OUT_EVERY],
    );
    const dispatchList = await importList(sql, companyId, 'Clientes', total, 80_000_000);
    const warmupList = warmup
      ? await importList(sql, companyId, 'Calentamiento', warmup, 70_000_000)
      : undefined;
    const expected = await one<{ contacts: number; optedOut: number }>(
      sql,
      `SELECT (SELECT count(*) FROM contacts WHERE company_id = $1)::int AS contacts,
              (SELECT count(*) FROM campaign_opt_outs WHERE company_id = $1)::int AS "optedOut"`,
      [companyId],
    );
    // As autovacuum would have by the time a campaign is sent.
    await sql.query('ANALYZE contact_list_items, contacts, campaign_opt_outs');
    if (trace) await installTrace(sql);
    const loadSeconds = (performance.now() - t0) / 1000;

    server = await startApi(url, { SIMULATOR_ENABLED: 'true' });
    const { token } = await login(server.url, ADMIN_EMAIL);
    await api(server.url, token, 'POST', '/campaign-settings', {
      settings: {
        messageInterval: 0,
        longerIntervalAfter: 0,
        greaterInterval: 0,
        variables: [{ key: 'promo', value: '2x1' }],
      },
    });

    const plan = await planning(
      sql,
      server.url,
      token,
      { whatsappId: unpaired.id, listId: planningList },
      { recipients, ...expected },
    );
    console.log(
      `  run ${run}: planned ${plan.planned.toLocaleString('en')} (${plan.optedOut} opted out, ${plan.linkedToContacts} contacts): due → planned ${ms(plan.dueToPlannedMs, 0)} ms, plan start → visible ${ms(plan.planToVisibleMs, 0)} ms${plan.insertStatementMs === undefined ? '' : `, INSERT … SELECT ${ms(plan.insertStatementMs, 0)} ms`}`,
    );

    await pair(server.url, token, base.whatsappId);
    if (warmupList)
      await sendCampaign(
        sql,
        server.url,
        token,
        'Calentamiento',
        { whatsappId: base.whatsappId, listId: warmupList },
        warmup,
      );
    const send = await dispatching(sql, server, token, {
      whatsappId: base.whatsappId,
      listId: dispatchList,
    });
    console.log(
      `  run ${run}: ${send.sent}/${total} sent, ${send.throughput.toFixed(0)} msg/s (campaign start → FINALIZADA ${send.campaignSeconds.toFixed(1)} s)${send.claimToPhone ? `, claim → phone p50 ${ms(send.claimToPhone.p50, 2)} p99 ${ms(send.claimToPhone.p99, 2)} max ${ms(send.claimToPhone.max, 1)} ms, per recipient p50 ${ms(send.claimInterval!.p50, 2)} ms` : ''}, API ${(send.apiCpuShare * 100).toFixed(0)}% of a core, postgres ${(send.postgresCpuShare * 100).toFixed(0)}%, ${send.transactionsPerMessage.toFixed(1)} commits/msg`,
    );
    const failed = Object.entries({ ...plan.checks, ...send.checks })
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    if (failed.length) console.log(`  run ${run}: CHECKS FAILED: ${failed.join(', ')}`);
    return { run, loadSeconds, planning: plan, dispatching: send, failed };
  } finally {
    await server?.stop();
    await sql.end();
  }
};

const main = async () => {
  console.log(
    `Campaigns: planning ${recipients.toLocaleString('en')} recipients, dispatching ${total.toLocaleString('en')} messages (interval 0), ${runs} run(s)${trace ? '' : ', no trace'}`,
  );
  const env = await machine(withDatabase(url, 'postgres'));
  const server = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await server.connect();
  // Dead rows and index entries pile up without it (every claim and delivery is a non-HOT update).
  const autovacuum = (await one<{ autovacuum: string }>(server, 'SHOW autovacuum')).autovacuum;
  await server.end();
  const results = [];
  for (let run = 1; run <= runs; run += 1) results.push(await runOnce(run));
  const pick = (values: (number | undefined)[]) =>
    values.every((v) => v !== undefined) ? spread(values as number[]) : undefined;
  const summary = {
    dueToPlannedMs: spread(results.map((r) => r.planning.dueToPlannedMs)),
    planToVisibleMs: spread(results.map((r) => r.planning.planToVisibleMs)),
    insertStatementMs: pick(results.map((r) => r.planning.insertStatementMs)),
    throughput: spread(results.map((r) => r.dispatching.throughput)),
    campaignThroughput: spread(results.map((r) => r.dispatching.campaignThroughput)),
    claimToPhoneP50: pick(results.map((r) => r.dispatching.claimToPhone?.p50)),
    claimToPhoneP95: pick(results.map((r) => r.dispatching.claimToPhone?.p95)),
    claimToPhoneP99: pick(results.map((r) => r.dispatching.claimToPhone?.p99)),
    claimToPhoneMax: pick(results.map((r) => r.dispatching.claimToPhone?.max)),
    claimIntervalP50: pick(results.map((r) => r.dispatching.claimInterval?.p50)),
  };
  const range = (s: { min: number; median: number; max: number } | undefined, digits = 0) =>
    s ? `${ms(s.median, digits)} [${ms(s.min, digits)}–${ms(s.max, digits)}]` : '—';
  console.log(
    `\nplanning ${recipients.toLocaleString('en')}: due → planned ${range(summary.dueToPlannedMs)} ms${trace ? `, INSERT … SELECT ${range(summary.insertStatementMs)} ms` : ''}` +
      `\ndispatching ${total.toLocaleString('en')}: ${range(summary.throughput)} msg/s${trace ? `, claim → phone p50 ${range(summary.claimToPhoneP50, 2)} ms, p99 ${range(summary.claimToPhoneP99, 2)} ms` : ''}`,
  );
  const variant = `${recipients === 100_000 ? '' : `-r${recipients}`}${total === 5_000 ? '' : `-m${total}`}${trace ? '' : '-notrace'}`;
  const file = await saveResult(`campaigns${variant}`, {
    machine: {
      ...env,
      autovacuum,
      loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))),
    },
    settings: {
      recipients,
      messages: total,
      warmup,
      trace,
      contactEvery: CONTACT_EVERY,
      optOutEvery: OPT_OUT_EVERY,
      checkedShare: CHECKED_SHARE,
      campaignSettings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 },
    },
    summary,
    runs: results,
  });
  console.log(`Recorded in ${file}`);
  const failed = results.filter((r) => r.failed.length);
  if (failed.length) {
    console.error(`Checks failed in run(s) ${failed.map((r) => r.run).join(', ')}`);
    process.exit(1);
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
