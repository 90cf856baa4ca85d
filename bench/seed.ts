import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { defaultSchedules, settingDefaults } from '@atendi/shared';
import { bootstrap } from '../apps/api/src/db/bootstrap';
import { openPglite, openPostgres, type Db } from '../apps/api/src/db/client';
import { foldDashboardHours } from '../apps/api/src/modules/dashboard/ticket-tracking';
import { hashPassword } from '../apps/api/src/platform/passwords';
import {
  ADMIN_EMAIL,
  COMPANY_NAME,
  PASSWORD,
  SUPER_EMAIL,
  args,
  ensureDatabase,
  machine,
  openPgliteDir,
  pgliteOption,
  pgliteSql,
  prng,
  removePgliteDir,
  requestsDatabaseUrl,
  saveResult,
  type Sql,
} from './lib';
import {
  FACTURA_SPELLINGS,
  checkTexts,
  facturaFragments,
  firstNames,
  lastNames,
  portuguese,
  spanish,
} from './texts';

// BENCH.md's dataset, seeded in bulk on PostgreSQL: `npx tsx bench/seed.ts [--fresh]`; or into an
// embedded PGlite directory (the API's DATA_DIR) with `--pglite [dir]` (default /tmp/atendi-bench-pglite).
// The schema comes from the app's own migrations and first-start bootstrap (plans, platform company,
// super user); everything else is INSERT ... SELECT over generate_series.

export type Shape = { contacts: number; tickets: number; messages: number };

// BENCH.md says 20,000 contacts, but 30% of 100,000 tickets are open or pending and our schema allows one
// active ticket per contact and connection (tickets_one_active_per_contact_idx): 30,000 active tickets need
// 30,000 contacts. So the default is 30,000 (see README).
export const defaultShape: Shape = { contacts: 30_000, tickets: 100_000, messages: 1_000_000 };

export type BaseIds = {
  companyId: number;
  adminId: number;
  // agentIds[i] is agent{i+1}@bench.local.
  agentIds: number[];
  // queueIds[0] is queue 1 of the company.
  queueIds: number[];
  // agentsOfQueue[q] are the agents (not the admin) in queue q+1.
  agentsOfQueue: number[][];
  whatsappId: number;
};

// Agent i+1 is in the queues of pair i: every queue has three or four agents, and agent 2 is in
// queues 1 and 3 (request b).
const AGENT_QUEUES = [
  [1, 2],
  [1, 3],
  [1, 4],
  [1, 5],
  [2, 3],
  [2, 4],
  [2, 5],
  [3, 4],
  [3, 5],
];
const QUEUES = [
  ['Ventas', '#1e88e5'],
  ['Soporte', '#43a047'],
  ['Cobranzas', '#fb8c00'],
  ['Envíos', '#8e24aa'],
  ['Reclamos', '#e53935'],
];

const one = async <T extends pg.QueryResultRow>(sql: Sql, text: string, values?: unknown[]) =>
  (await sql.query<T>(text, values)).rows[0];

// Migrations and the first-start bootstrap, exactly as the app runs them (apps/api/src/main.ts).
export const prepareDatabase = async (url: string, fresh: boolean) => {
  await ensureDatabase(url, fresh);
  const database = await openPostgres(url, 2);
  try {
    await database.migrate();
    await bootstrap(database.db, { adminEmail: SUPER_EMAIL, adminPassword: PASSWORD });
  } finally {
    await database.close();
  }
};

// The same on a PGlite directory (the API's DATA_DIR; the database in its pgdata folder), opened in
// this process as the API opens it (apps/api/src/db/client.ts, pg_trgm loaded). The caller closes it.
export const preparePglite = async (dataDir: string, fresh: boolean) => {
  if (fresh) removePgliteDir(dataDir);
  const client = await openPgliteDir(dataDir);
  const database = await openPglite(client);
  try {
    await database.migrate();
    await bootstrap(database.db, { adminEmail: SUPER_EMAIL, adminPassword: PASSWORD });
  } catch (error) {
    await database.close();
    throw error;
  }
  return { sql: pgliteSql(client), db: database.db, close: () => database.close() };
};

export const findBase = async (sql: Sql): Promise<BaseIds | undefined> => {
  const company = await one<{ id: number }>(sql, 'SELECT id FROM companies WHERE name = $1', [
    COMPANY_NAME,
  ]);
  if (!company) return undefined;
  const users = (
    await sql.query<{ id: number; email: string }>(
      'SELECT id, email FROM users WHERE company_id = $1',
      [company.id],
    )
  ).rows;
  const queueIds = (
    await sql.query<{ id: number }>('SELECT id FROM queues WHERE company_id = $1 ORDER BY id', [
      company.id,
    ])
  ).rows.map((r) => r.id);
  const agentIds = AGENT_QUEUES.map(
    (_, i) => users.find((u) => u.email === `agent${i + 1}@bench.local`)!.id,
  );
  const whatsapp = await one<{ id: number }>(
    sql,
    'SELECT id FROM whatsapps WHERE company_id = $1 ORDER BY id LIMIT 1',
    [company.id],
  );
  return {
    companyId: company.id,
    adminId: users.find((u) => u.email === ADMIN_EMAIL)!.id,
    agentIds,
    queueIds,
    agentsOfQueue: queueIds.map((_, q) =>
      agentIds.filter((_, i) => AGENT_QUEUES[i].includes(q + 1)),
    ),
    whatsappId: whatsapp!.id,
  };
};

// The company, its 10 users (password hashed once, by the app's helper), 5 queues and the simulator
// connection linked to all of them (DISCONNECTED: nothing pairs it unless the ingest bench does).
export const seedBase = async (sql: Sql): Promise<BaseIds> => {
  const passwordHash = await hashPassword(PASSWORD);
  const company = await one<{ id: number }>(
    sql,
    `INSERT INTO companies (name, email, plan_id, status, schedules)
     SELECT $1, 'bench@bench.local', id, 'active', $2::jsonb FROM plans ORDER BY value DESC, id LIMIT 1
     RETURNING id`,
    [COMPANY_NAME, JSON.stringify(defaultSchedules())],
  );
  const companyId = company.id;
  await sql.query(
    `INSERT INTO settings (company_id, key, value) SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS s(k, v)`,
    [companyId, Object.keys(settingDefaults), Object.values(settingDefaults)],
  );
  const admin = await one<{ id: number }>(
    sql,
    `INSERT INTO users (company_id, name, email, password_hash, profile, all_ticket)
     VALUES ($1, 'Admin Bench', $2, $3, 'admin', 'enabled') RETURNING id`,
    [companyId, ADMIN_EMAIL, passwordHash],
  );
  const agentIds = (
    await sql.query<{ id: number }>(
      `INSERT INTO users (company_id, name, email, password_hash, profile)
       SELECT $1, 'Agente ' || i, 'agent' || i || '@bench.local', $2, 'user' FROM generate_series(1, $3::int) i
       ORDER BY i RETURNING id`,
      [companyId, passwordHash, AGENT_QUEUES.length],
    )
  ).rows
    .map((r) => r.id)
    .sort((a, b) => a - b);
  const queueIds = (
    await sql.query<{ id: number }>(
      `INSERT INTO queues (company_id, name, color, order_queue)
       SELECT $1, n, c, o FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS q(n, c, o) ORDER BY o
       RETURNING id`,
      [companyId, QUEUES.map((q) => q[0]), QUEUES.map((q) => q[1])],
    )
  ).rows
    .map((r) => r.id)
    .sort((a, b) => a - b);
  const memberships: [number, number][] = [
    ...queueIds.map((q): [number, number] => [admin.id, q]),
    ...AGENT_QUEUES.flatMap((pair, i) =>
      pair.map((q): [number, number] => [agentIds[i], queueIds[q - 1]]),
    ),
  ];
  await sql.query(
    `INSERT INTO user_queues (user_id, queue_id, company_id) SELECT u, q, $3 FROM unnest($1::int[], $2::int[]) AS m(u, q)`,
    [memberships.map((m) => m[0]), memberships.map((m) => m[1]), companyId],
  );
  const whatsapp = await one<{ id: number }>(
    sql,
    `INSERT INTO whatsapps (company_id, name, provider, status, is_default, greeting_message)
     VALUES ($1, 'Bench', 'simulator', 'DISCONNECTED', true, '¡Hola! Elegí una opción:') RETURNING id`,
    [companyId],
  );
  await sql.query(
    `INSERT INTO whatsapp_queues (whatsapp_id, queue_id, company_id) SELECT $1, q, $2 FROM unnest($3::int[]) q`,
    [whatsapp.id, companyId, queueIds],
  );
  return (await findBase(sql))!;
};

// Per-ticket message counts: 70% of the messages spread over every ticket (3-11 each, mean 7), 30% on
// 5% "long" tickets (those total 39-95). Sums are exact.
const messageCounts = (shape: Shape) => {
  const rand = prng(20_240_611);
  const longCount = Math.round(shape.tickets * 0.05);
  const regularMean = (shape.messages * 0.7) / shape.tickets;
  const longMean = (shape.messages * 0.3) / longCount + regularMean;
  const order = Array.from({ length: shape.tickets }, (_, i) => i);
  for (let i = 0; i < longCount; i += 1) {
    const j = i + Math.floor(rand() * (shape.tickets - i));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const isLong = new Uint8Array(shape.tickets);
  for (let i = 0; i < longCount; i += 1) isLong[order[i]] = 1;
  const counts = new Int32Array(shape.tickets);
  const fill = (long: number, mean: number, halfWidth: number) => {
    const lo = Math.max(1, Math.round(mean - halfWidth));
    const hi = Math.round(mean + halfWidth);
    const members: number[] = [];
    let sum = 0;
    for (let i = 0; i < shape.tickets; i += 1) {
      if (isLong[i] !== long) continue;
      counts[i] = lo + Math.floor(rand() * (hi - lo + 1));
      sum += counts[i];
      members.push(i);
    }
    const target = Math.round(mean * members.length);
    while (sum !== target) {
      const i = members[Math.floor(rand() * members.length)];
      if (sum < target && counts[i] < hi) {
        counts[i] += 1;
        sum += 1;
      } else if (sum > target && counts[i] > lo) {
        counts[i] -= 1;
        sum -= 1;
      }
    }
  };
  fill(0, regularMean, 4);
  fill(1, longMean, 28);
  // The long tickets take whatever rounding left over, so the total is exact.
  const total = counts.reduce((a, b) => a + b, 0);
  counts[order[0]] += shape.messages - total;
  return Array.from(counts);
};

const time = async <T>(steps: Record<string, number>, name: string, work: () => Promise<T>) => {
  const start = performance.now();
  process.stdout.write(`  ${name}… `);
  const result = await work();
  steps[name] = Math.round(performance.now() - start) / 1000;
  process.stdout.write(`${steps[name].toFixed(1)} s\n`);
  return result;
};

export const seedBulk = async (sql: Sql, base: BaseIds, shape: Shape) => {
  checkTexts();
  const activeTickets = shape.tickets * 0.3;
  if (shape.tickets % 10) throw new Error('--tickets must be a multiple of 10');
  if (shape.contacts < activeTickets)
    throw new Error(
      `${activeTickets} open/pending tickets need as many contacts (one active ticket per contact and connection)`,
    );
  const steps: Record<string, number> = {};
  const { companyId, whatsappId } = base;
  const now = new Date();
  const ids = async (table: string) =>
    (await one<{ base: number }>(sql, `SELECT coalesce(max(id), 0) AS base FROM ${table}`)).base;
  const contactBase = await ids('contacts');
  const ticketBase = await ids('tickets');
  const messageBase = await ids('messages');

  // Bulk-load settings for this transaction only: every row is consistent by construction, so the FK
  // triggers are skipped (checked once at the end instead), and index builds get more memory.
  await sql.query(`SET LOCAL session_replication_role = replica`);
  await sql.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  await sql.query('SELECT setseed(0.4242)');

  await time(steps, `contacts (${shape.contacts.toLocaleString('en')})`, () =>
    sql.query(
      `INSERT INTO contacts (id, company_id, name, number, whatsapp_id, created_at, updated_at)
       SELECT $1::int + i, $2, f[1 + (i * 7) % array_length(f, 1)] || ' ' || l[1 + (i * 13 + i / 30) % array_length(l, 1)],
              CASE WHEN i % 2 = 0 THEN '55' || (11900000000 + i)::text ELSE '549' || (1150000000 + i)::text END,
              $3, at, at
       FROM (SELECT i, $4::timestamptz - random() * interval '365 days' AS at FROM generate_series(1, $5::int) i) s,
            (SELECT $6::text[] AS f, $7::text[] AS l) names`,
      [contactBase, companyId, whatsappId, now, shape.contacts, firstNames, lastNames],
    ),
  );

  // Status by i % 10 (exact 70/20/10); queue, assignee, unread counts and dates drawn per row.
  // Open and pending ticket k (0-based) belongs to contact k+1: one active ticket per contact.
  const agentsFlat = base.agentsOfQueue.flatMap((agents) => [
    ...agents,
    ...Array(4 - agents.length).fill(agents[0]),
  ]);
  await time(steps, `tickets (${shape.tickets.toLocaleString('en')})`, () =>
    sql.query(
      `INSERT INTO tickets (id, company_id, status, queue_id, user_id, contact_id, whatsapp_id, unread_messages, created_at, updated_at)
       SELECT $1::int + i, $2, status, ($3::int[])[q + 1],
              CASE WHEN status = 'pending' THEN NULL
                   ELSE ($4::int[])[q * 4 + 1 + floor(ru * ($5::int[])[q + 1])::int] END,
              CASE WHEN status = 'closed' THEN $6::int + 1 + floor(rc * $7::int)::int
                   ELSE $6::int + 1 + (i / 10) * 3 + (i % 10 - 7) END,
              $8,
              CASE status WHEN 'closed' THEN 0
                          WHEN 'pending' THEN 1 + floor(r1 * 5)::int
                          ELSE CASE WHEN r1 < 0.4 THEN 1 + floor(r2 * 4)::int ELSE 0 END END,
              upd - (interval '5 minutes' + rs * interval '2 days'), upd
       FROM (SELECT i,
                    CASE WHEN i % 10 < 7 THEN 'closed' WHEN i % 10 < 9 THEN 'open' ELSE 'pending' END AS status,
                    floor(random() * 5)::int AS q, random() AS ru, random() AS rc, random() AS r1,
                    random() AS r2, random() AS rs,
                    $9::timestamptz - random() * interval '90 days' AS upd
             FROM generate_series(1, $10::int) i) s`,
      [
        ticketBase,
        companyId,
        base.queueIds,
        agentsFlat,
        base.agentsOfQueue.map((a) => a.length),
        contactBase,
        shape.contacts,
        whatsappId,
        now,
        shape.tickets,
      ],
    ),
  );

  // Indexes other than primary keys are dropped during the load and rebuilt after (same definitions,
  // read from the catalog), which is how a bulk load is done.
  const messageIndexes = (
    await sql.query<{ name: string; def: string }>(
      `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       WHERE x.indrelid = 'messages'::regclass
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
    )
  ).rows;
  for (const index of messageIndexes) await sql.query(`DROP INDEX "${index.name}"`);

  const counts = messageCounts(shape);
  const firsts: number[] = [];
  let offset = 0;
  for (const n of counts) {
    firsts.push(offset);
    offset += n;
  }
  const allFragments = [...spanish, ...portuguese];
  const chunk = 20_000;
  await time(steps, `messages (${shape.messages.toLocaleString('en')})`, async () => {
    for (let from = 0; from < shape.tickets; from += chunk) {
      const to = Math.min(shape.tickets, from + chunk);
      // Message k of n in a ticket: k = 1 and the last unread_messages ones are the contact's (unread);
      // the others are the agent's or the contact's at random. The newest is at the ticket's updatedAt.
      await sql.query(
        `INSERT INTO messages (id, company_id, provider_id, ticket_id, contact_id, whatsapp_id, body, from_me,
                               media_type, media_url, media_name, quoted_msg_id, read, ack, remote_jid,
                               created_at, updated_at)
         SELECT id, $2, 'BENCH' || id, ticket_id, CASE WHEN from_me THEN NULL ELSE contact_id END, $3,
                CASE WHEN rf < 0.015
                     THEN array_to_string(parts[1:np - 1] || replace(ff[1 + floor(rf2 * array_length(ff, 1))::int], '{F}', fs[1 + floor(rf3 * array_length(fs, 1))::int]), ' ')
                     ELSE array_to_string(parts[1:np], ' ') END,
                from_me,
                CASE WHEN ri < 0.03 THEN 'image' ELSE 'chat' END,
                CASE WHEN ri < 0.03 THEN 'bench/' || id || '.jpg' END,
                CASE WHEN ri < 0.03 THEN 'IMG_' || id || '.jpg' END,
                CASE WHEN k > 1 AND rq < 0.0222 THEN id - 1 - floor(rq2 * least(k - 1, 5))::int END,
                NOT unread, CASE WHEN from_me THEN 3 + floor(ra * 2)::int ELSE 0 END,
                number, at, at
         FROM (
           SELECT $1::int + x.first + k AS id, t.id AS ticket_id, t.contact_id, c.number, k,
                  k > x.n - t.unread_messages AS unread,
                  k > 1 AND k <= x.n - t.unread_messages AND random() < 0.5 AS from_me,
                  t.created_at + (t.updated_at - t.created_at) * (k::float8 / x.n) AS at,
                  1 + floor(random() * 4)::int AS np,
                  ARRAY[fr[lang * half + 1 + floor(random() * half)::int], fr[lang * half + 1 + floor(random() * half)::int],
                        fr[lang * half + 1 + floor(random() * half)::int], fr[lang * half + 1 + floor(random() * half)::int]] AS parts,
                  random() AS rf, random() AS rf2, random() AS rf3, random() AS ri, random() AS rq,
                  random() AS rq2, random() AS ra, ff, fs
           FROM unnest($4::int[], $5::int[], $6::int[]) AS x(ticket, n, first)
           JOIN tickets t ON t.id = $7::int + x.ticket
           JOIN contacts c ON c.id = t.contact_id
           CROSS JOIN LATERAL (SELECT CASE WHEN t.id % 3 = 0 THEN 1 ELSE 0 END AS lang) l
           CROSS JOIN (SELECT $8::text[] AS fr, $9::int AS half, $10::text[] AS ff, $11::text[] AS fs) w
           CROSS JOIN LATERAL generate_series(1, x.n) AS k
         ) m`,
        [
          messageBase,
          companyId,
          whatsappId,
          Array.from({ length: to - from }, (_, i) => from + i + 1),
          counts.slice(from, to),
          firsts.slice(from, to),
          ticketBase,
          allFragments,
          spanish.length,
          facturaFragments,
          FACTURA_SPELLINGS,
        ],
      );
      process.stdout.write(`${Math.round((to / shape.tickets) * 100)}% `);
    }
  });

  await time(steps, 'tickets.lastMessage', () =>
    sql.query(
      // A short ticket holds fewer unread messages than drawn: the counter says what its rows say.
      `UPDATE tickets t SET last_message = m.body, unread_messages = least(t.unread_messages, x.n)
       FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS x(last, n, i) JOIN messages m ON m.id = $3::int + x.last
       WHERE t.id = $4::int + x.i::int`,
      [counts.map((n, i) => firsts[i] + n), counts, messageBase, ticketBase],
    ),
  );
  // The dashboard's conversation history, one conversation per ticket: started when the ticket was
  // created; open and closed ones accepted within 30 minutes and first answered within 10 more (never
  // past their last activity); closed ones resolved at their last activity. A third of the resolved
  // ones were rated 1-3 by the contact.
  await time(steps, 'ticket_tracking', () =>
    sql.query(
      `INSERT INTO ticket_tracking (company_id, ticket_id, whatsapp_id, queue_id, user_id, started_at,
                                    accepted_at, first_reply_at, finished_at)
       SELECT company_id, id, whatsapp_id, queue_id, user_id, created_at, accepted,
              CASE WHEN accepted IS NOT NULL
                   THEN accepted + least(random() * interval '10 minutes', (updated_at - accepted) * 0.5) END,
              CASE WHEN status = 'closed' THEN updated_at END
       FROM (SELECT t.*, CASE WHEN status <> 'pending'
                              THEN created_at + least(random() * interval '30 minutes', (updated_at - created_at) * 0.3)
                         END AS accepted
             FROM tickets t WHERE company_id = $1 AND id > $2) s`,
      [companyId, ticketBase],
    ),
  );
  // The dashboard's hourly sums of that history (migration 0026's trigger, skipped by the replica
  // role above), written by the product's own function as the migration does for existing rows.
  await time(steps, 'dashboard_hours', () =>
    sql.query(
      `SELECT dashboard_hours_add(t, 1) FROM ticket_tracking t WHERE t.company_id = $1 AND t.ticket_id > $2`,
      [companyId, ticketBase],
    ),
  );
  await time(steps, 'user_ratings', () =>
    sql.query(
      `INSERT INTO user_ratings (company_id, ticket_id, user_id, rate, created_at, updated_at)
       SELECT company_id, id, user_id, 1 + floor(random() * 3)::int, updated_at, updated_at
       FROM tickets WHERE company_id = $1 AND id > $2 AND status = 'closed' AND random() < 0.33`,
      [companyId, ticketBase],
    ),
  );
  await sql.query(
    `SELECT setval(pg_get_serial_sequence('contacts', 'id'), (SELECT max(id) FROM contacts))`,
  );
  await sql.query(
    `SELECT setval(pg_get_serial_sequence('tickets', 'id'), (SELECT max(id) FROM tickets))`,
  );
  await sql.query(
    `SELECT setval(pg_get_serial_sequence('messages', 'id'), (SELECT max(id) FROM messages))`,
  );

  await time(steps, `message indexes (${messageIndexes.length})`, async () => {
    for (const index of messageIndexes) await sql.query(index.def);
  });
  return steps;
};

// What BENCH.md promises about the data, checked on the database itself.
export const verify = async (sql: Sql, base: BaseIds, shape: Shape) => {
  const c = base.companyId;
  const checks: { check: string; value: string; ok: boolean }[] = [];
  const expect = (check: string, value: number | string, ok: boolean) =>
    checks.push({ check, value: String(value), ok });
  const q = async (text: string) => (await sql.query(text, [c])).rows[0] as Record<string, number>;

  const status = await q(
    `SELECT count(*) FILTER (WHERE status = 'closed')::int AS closed, count(*) FILTER (WHERE status = 'open')::int AS open,
            count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*)::int AS total,
            min(queue_id)::int AS qmin, count(DISTINCT queue_id)::int AS queues,
            (max(n)::float / min(n))::float AS qratio
     FROM tickets t JOIN (SELECT queue_id AS qid, count(*) AS n FROM tickets WHERE company_id = $1 GROUP BY queue_id) g ON g.qid = t.queue_id
     WHERE company_id = $1`,
  );
  expect('tickets', status.total, status.total === shape.tickets);
  expect(
    'closed / open / pending',
    `${status.closed} / ${status.open} / ${status.pending}`,
    status.closed === shape.tickets * 0.7 &&
      status.open === shape.tickets * 0.2 &&
      status.pending === shape.tickets * 0.1,
  );
  expect(
    'queues used (largest/smallest)',
    `${status.queues} (${status.qratio.toFixed(3)})`,
    status.queues === 5 && status.qratio < 1.1,
  );
  const assigned = await q(
    `SELECT count(*) FILTER (WHERE status = 'pending' AND user_id IS NOT NULL)::int AS pending_assigned,
            count(*) FILTER (WHERE status <> 'pending' AND NOT EXISTS (
              SELECT 1 FROM user_queues uq JOIN users u ON u.id = uq.user_id
              WHERE uq.user_id = t.user_id AND uq.queue_id = t.queue_id AND u.profile = 'user'))::int AS wrong_agent,
            count(*) FILTER (WHERE status = 'closed' AND unread_messages <> 0)::int AS closed_unread,
            count(*) FILTER (WHERE status = 'pending' AND unread_messages NOT BETWEEN 1 AND 5)::int AS pending_unread,
            (avg((unread_messages > 0)::int) FILTER (WHERE status = 'open'))::float AS open_unread_share,
            count(*) FILTER (WHERE status = 'open' AND unread_messages > 4)::int AS open_unread_high,
            (extract(epoch FROM max(updated_at) - min(updated_at)) / 86400)::float AS days
     FROM tickets t WHERE company_id = $1`,
  );
  expect('pending assigned', assigned.pending_assigned, assigned.pending_assigned === 0);
  expect(
    'open/closed not assigned to an agent of their queue',
    assigned.wrong_agent,
    assigned.wrong_agent === 0,
  );
  expect(
    'unread: closed ≠ 0 / pending ∉ 1-5 / open > 4',
    `${assigned.closed_unread} / ${assigned.pending_unread} / ${assigned.open_unread_high}`,
    assigned.closed_unread + assigned.pending_unread + assigned.open_unread_high === 0,
  );
  expect(
    'open with unread',
    `${(assigned.open_unread_share * 100).toFixed(1)}%`,
    Math.abs(assigned.open_unread_share - 0.4) < 0.02,
  );
  expect(
    'updatedAt span (days)',
    assigned.days.toFixed(1),
    assigned.days > 89 && assigned.days <= 90,
  );

  const msgs = await q(
    `SELECT count(*)::int AS total,
            (avg((body ILIKE '%factura%')::int))::float AS factura,
            (avg((media_type = 'image')::int))::float AS images,
            (avg((quoted_msg_id IS NOT NULL)::int))::float AS quotes,
            min(length(body))::int AS minlen, max(length(body))::int AS maxlen
     FROM messages WHERE company_id = $1`,
  );
  expect('messages', msgs.total, msgs.total === shape.messages);
  expect(
    'bodies with "factura" (any case)',
    `${(msgs.factura * 100).toFixed(2)}%`,
    Math.abs(msgs.factura - 0.015) < 0.002,
  );
  expect('images', `${(msgs.images * 100).toFixed(2)}%`, Math.abs(msgs.images - 0.03) < 0.003);
  expect(
    'quoting an earlier message',
    `${(msgs.quotes * 100).toFixed(2)}%`,
    Math.abs(msgs.quotes - 0.02) < 0.003,
  );
  expect('body length', `${msgs.minlen}-${msgs.maxlen}`, msgs.minlen >= 25 && msgs.maxlen <= 200);
  const spellings = await q(
    `SELECT count(DISTINCT substring(body FROM '(?i)factura'))::int AS n FROM messages WHERE company_id = $1 AND body ILIKE '%factura%'`,
  );
  expect('spellings of "factura"', spellings.n, spellings.n >= 4);

  const perTicket = await q(
    `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY n)::int AS p50, max(n)::int AS max, min(n)::int AS min,
            count(*) FILTER (WHERE n > 30)::int AS long
     FROM (SELECT count(*) AS n FROM messages WHERE company_id = $1 GROUP BY ticket_id) s`,
  );
  expect(
    'messages per ticket p50 / max (min)',
    `${perTicket.p50} / ${perTicket.max} (${perTicket.min})`,
    perTicket.p50 === 7 && perTicket.max <= 100,
  );
  expect(
    'long tickets (> 30 messages)',
    perTicket.long,
    Math.abs(perTicket.long - shape.tickets * 0.05) <= shape.tickets * 0.001,
  );

  const consistency = await q(
    `SELECT (SELECT count(*) FROM tickets t WHERE t.company_id = $1 AND t.last_message IS DISTINCT FROM (
               SELECT body FROM messages m WHERE m.ticket_id = t.id ORDER BY created_at DESC, id DESC LIMIT 1))::int AS last_wrong,
            (SELECT count(*) FROM messages m JOIN messages q ON q.id = m.quoted_msg_id
             WHERE m.company_id = $1 AND (q.ticket_id <> m.ticket_id OR q.created_at > m.created_at))::int AS bad_quotes,
            (SELECT count(*) FROM tickets t WHERE t.company_id = $1 AND t.unread_messages <> (
               SELECT count(*) FROM messages m WHERE m.ticket_id = t.id AND NOT m.read))::int AS unread_wrong,
            (SELECT count(*) FROM messages m LEFT JOIN tickets t ON t.id = m.ticket_id WHERE t.id IS NULL)::int AS orphans,
            (SELECT count(*) FROM tickets t LEFT JOIN contacts c ON c.id = t.contact_id WHERE c.id IS NULL)::int AS orphan_tickets`,
  );
  expect('lastMessage ≠ newest body', consistency.last_wrong, consistency.last_wrong === 0);
  expect(
    'quotes of another ticket or a later message',
    consistency.bad_quotes,
    consistency.bad_quotes === 0,
  );
  expect('unreadMessages ≠ unread rows', consistency.unread_wrong, consistency.unread_wrong === 0);
  const history = await q(
    `SELECT count(*)::int AS rows,
            count(*) FILTER (WHERE finished_at IS NOT NULL)::int AS finished,
            count(*) FILTER (WHERE accepted_at < started_at OR first_reply_at < accepted_at
                               OR finished_at < first_reply_at)::int AS out_of_order
     FROM ticket_tracking WHERE company_id = $1`,
  );
  expect(
    'conversation history rows (resolved) / out of order',
    `${history.rows} (${history.finished}) / ${history.out_of_order}`,
    history.rows === shape.tickets &&
      history.finished === shape.tickets * 0.7 &&
      history.out_of_order === 0,
  );
  expect(
    'rows without their ticket / contact',
    `${consistency.orphans} / ${consistency.orphan_tickets}`,
    consistency.orphans + consistency.orphan_tickets === 0,
  );
  return checks;
};

const main = async () => {
  const options = args();
  const fresh = options.flag('fresh');
  const shape: Shape = {
    contacts: options.int('contacts', defaultShape.contacts),
    tickets: options.int('tickets', defaultShape.tickets),
    messages: options.int('messages', defaultShape.messages),
  };
  const pglite = pgliteOption(options);
  const url = requestsDatabaseUrl;
  console.log(`Seeding ${pglite ? `PGlite in ${pglite}` : url}${fresh ? ' (fresh)' : ''}`);
  const env = await machine(pglite ? { pglite: true } : url);
  const started = performance.now();
  let sql: Sql;
  let db: Db;
  let close: () => Promise<void>;
  if (pglite) {
    ({ sql, db, close } = await preparePglite(pglite, fresh));
  } else {
    await prepareDatabase(url, fresh);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const database = await openPostgres(url, 1);
    sql = client;
    db = database.db;
    close = async () => {
      await client.end();
      await database.close();
    };
  }
  const migrated = performance.now();
  try {
    const existing = await findBase(sql);
    if (existing) {
      console.log('Already seeded (company "Bench" exists). Use --fresh to start over.');
      return;
    }
    await sql.query('BEGIN');
    const base = await seedBase(sql);
    const steps = await seedBulk(sql, base, shape);
    await time(steps, 'COMMIT', () => sql.query('COMMIT'));
    // Folded as the API's recurring dashboard-fold job would have by now (past hours into one row
    // each, days older than three into one): request f reads what a running product reads.
    await time(steps, 'dashboard fold', async () => {
      while ((await foldDashboardHours(db, new Date())) > 0);
    });
    await time(steps, 'VACUUM ANALYZE', () => sql.query('VACUUM ANALYZE'));
    const seconds = (performance.now() - migrated) / 1000;
    console.log(
      `Seeded in ${seconds.toFixed(1)} s (migrations and bootstrap before: ${((migrated - started) / 1000).toFixed(1)} s)`,
    );
    const checks = await verify(sql, base, shape);
    for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.check}: ${c.value}`);
    const size = await sql.query<{ bytes: string }>(
      'SELECT pg_database_size(current_database())::text AS bytes',
    );
    const isDefault = (Object.keys(shape) as (keyof Shape)[]).every(
      (k) => shape[k] === defaultShape[k],
    );
    const file = await saveResult(
      `seed${pglite ? '-pglite' : ''}${!pglite || isDefault ? '' : `-t${shape.tickets}`}`,
      {
        machine: { ...env, loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))) },
        database: pglite ? 'pglite' : 'postgres',
        shape,
        seedingSeconds: Number(seconds.toFixed(1)),
        migrateSeconds: Number(((migrated - started) / 1000).toFixed(1)),
        databaseMiB: Math.round(Number(size.rows[0].bytes) / 2 ** 20),
        // The seeding process's peak memory (PGlite runs inside it).
        ...(pglite ? { processPeakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) } : {}),
        steps,
        checks,
      },
    );
    console.log(`Recorded in ${file}`);
    if (checks.some((c) => !c.ok)) process.exitCode = 1;
  } finally {
    await close();
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
