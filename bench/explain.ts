import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyBaseLogger } from 'fastify';
import { ticketListQuery } from '@atendi/shared';
import type { Db } from '../apps/api/src/db/client';
import * as schema from '../apps/api/src/db/schema';
import { listMessages } from '../apps/api/src/modules/messages/messages.service';
import { listTickets } from '../apps/api/src/modules/tickets/core/tickets.service';
import type { AuthContext } from '../apps/api/src/platform/context';
import { requestsDatabaseUrl } from './lib';
import { findBase } from './seed';

// EXPLAIN (ANALYZE, BUFFERS) of every SQL statement the API runs for one of BENCH.md's requests, taken
// by calling the same service function the route calls, with a query logger:
// `npx tsx bench/explain.ts c` (or a, b, d, e [ticketId]). Each EXPLAIN runs in a
// transaction that is rolled back, and request e's mark-as-read is undone.

const which = process.argv[2] ?? 'c';
const main = async () => {
  const pool = new pg.Pool({ connectionString: requestsDatabaseUrl, max: 2 });
  const sql = await pool.connect();
  const base = await findBase(sql);
  if (!base) throw new Error('run bench/seed.ts first');
  const captured: { query: string; params: unknown[] }[] = [];
  const db = drizzle({
    client: pool,
    schema,
    casing: 'snake_case',
    logger: { logQuery: (query, params) => captured.push({ query, params }) },
  }) as unknown as Db;
  const ctx = (userId: number): AuthContext => ({
    userId,
    companyId: base.companyId,
    profile: userId === base.adminId ? 'admin' : 'user',
    isSuper: false,
    sessionId: 'explain',
  });
  const queries: Record<string, () => Promise<unknown>> = {
    a: () =>
      listTickets(
        db,
        ctx(base.adminId),
        ticketListQuery.parse({ status: 'open', showAll: 'true' }),
      ),
    b: () =>
      listTickets(
        db,
        ctx(base.agentIds[1]),
        ticketListQuery.parse({
          status: 'pending',
          queueIds: JSON.stringify([base.queueIds[0], base.queueIds[2]]),
        }),
      ),
    c: () =>
      listTickets(
        db,
        ctx(base.adminId),
        ticketListQuery.parse({ searchParam: 'factura', showAll: 'true' }),
      ),
    d: () =>
      listTickets(
        db,
        ctx(base.adminId),
        ticketListQuery.parse({ status: 'closed', showAll: 'true', pageNumber: '50' }),
      ),
    e: async () => {
      const ticketId =
        Number(process.argv[3]) ||
        (
          await sql.query<{ id: number }>(
            `SELECT id FROM tickets WHERE company_id = $1 AND unread_messages > 0 ORDER BY random() LIMIT 1`,
            [base.companyId],
          )
        ).rows[0].id;
      // Opening the ticket marks it read: put the unread state back afterwards.
      const { rows } = await sql.query<{ id: number; unread: number }>(
        `SELECT m.id, t.unread_messages AS unread FROM tickets t
         LEFT JOIN messages m ON m.ticket_id = t.id AND NOT m.read WHERE t.id = $1`,
        [ticketId],
      );
      restore = async () => {
        await sql.query('UPDATE messages SET read = false WHERE id = ANY($1::int[])', [
          rows.flatMap((r) => (r.id ? [r.id] : [])),
        ]);
        await sql.query('UPDATE tickets SET unread_messages = $2 WHERE id = $1', [
          ticketId,
          rows[0]?.unread ?? 0,
        ]);
      };
      const quiet = { debug: () => undefined } as unknown as FastifyBaseLogger;
      const deps = {
        db,
        realtime: { toRooms: () => ({ emit: () => undefined }) },
        uploads: { urlFor: () => null },
        channels: { markRead: async () => undefined },
      } as unknown as Parameters<typeof listMessages>[0];
      return listMessages(deps, ctx(base.adminId), ticketId, 1, quiet);
    },
  };
  let restore = async () => undefined as void;
  if (!queries[which]) throw new Error('request: one of a, b, c, d, e');
  await queries[which]();
  await restore();
  for (const { query, params } of captured) {
    if (/^(begin|commit|rollback|savepoint|release)/i.test(query.trim())) continue;
    console.log(`\n-- ${query}\n-- params: ${JSON.stringify(params)}`);
    await sql.query('BEGIN');
    const { rows } = await sql.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${query}`,
      params,
    );
    await sql.query('ROLLBACK');
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  sql.release();
  await pool.end();
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
