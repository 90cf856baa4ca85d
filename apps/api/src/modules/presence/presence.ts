import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Presence } from '@atendi/shared';
import { queryRows } from '../../db/client';
import { arrayParam } from '../../db/rows';
import type { EventOf } from '../../events/domain-events';
import type { AppDeps } from '../../deps';
import type { SocketIdentity } from '../../realtime/realtime';

// Presence (issue 36): an agent is online while a socket of theirs is open and in use, away when all
// their sockets report inactivity or by their choice, offline by choice or once their last socket has
// been closed for the reconnect grace.
//
// The truth is in the database, so every node agrees: `presence_sockets` holds every open socket of
// every node, `presence_nodes` each node's heartbeat (a node that stops beating is forgotten with its
// sockets by the sweep), and `users.presence` what settlePresence last made of them. Every change of
// a socket is followed by a settle of its user, which locks the user's row before reading the sockets:
// the last settle sees every change committed before it, whichever node made it. A change of presence
// raises `user.presence` in the settling transaction (the screens hear it, routing may act on it).

export const PRESENCE_SWEEP_JOB = 'presence-sweep';

type PresenceDeps = Pick<AppDeps, 'db' | 'events'>;

type Settled = {
  userId: number;
  companyId: number;
  before: Presence;
  after: Presence;
  availability: Presence;
};

// Recomputes the presence of the users `which` selects (a condition on `u`, users), each under its
// row lock; raises user.presence for each one that changed.
const settle = async (deps: PresenceDeps, which: SQL, now: Date, graceMs: number) =>
  deps.events.transaction(deps.db, async (tx, raise) => {
    const locked = await queryRows<{ id: number }>(
      tx,
      sql`select u.id from users u where ${which} order by u.id for update`,
    );
    if (!locked.length) return [];
    const ids = sql`${arrayParam(locked.map((row) => row.id))}::int[]`;
    const graceStart = new Date(now.getTime() - graceMs).toISOString();
    const changed = await queryRows<Settled>(
      tx,
      sql`with next as (
            select u.id, u.presence as before, u.availability,
                   case
                     when u.availability = 'offline' then 'offline'
                     when exists (select 1 from presence_sockets s where s.user_id = u.id and not s.idle)
                       then u.availability
                     when exists (select 1 from presence_sockets s where s.user_id = u.id) then 'away'
                     when u.presence <> 'offline' and u.last_seen_at > ${graceStart}::timestamptz
                       then u.presence
                     else 'offline'
                   end as after
              from users u
             where u.id = any(${ids})
          )
          update users u set presence = next.after
            from next
           where u.id = next.id and u.presence <> next.after
          returning u.id as "userId", u.company_id as "companyId", next.before, next.after,
                    next.availability`,
    );
    for (const row of changed) raise({ type: 'user.presence', ...row });
    return changed;
  });

const settleUsersNow = (deps: PresenceDeps, userIds: number[], graceMs: number) =>
  settle(deps, sql`u.id = any(${arrayParam(userIds)}::int[])`, new Date(), graceMs);

// The user's own choice (PUT /presence): answers their presence as settled.
export const choosePresence = async (
  deps: PresenceDeps & Pick<AppDeps, 'config'>,
  user: { userId: number; companyId: number },
  availability: Presence,
) => {
  await deps.db.execute(
    sql`update users set availability = ${availability}
         where id = ${user.userId} and company_id = ${user.companyId}`,
  );
  await settleUsersNow(deps, [user.userId], deps.config.presenceGraceSeconds * 1000);
  const [row] = await queryRows<{ presence: Presence; availability: Presence }>(
    deps.db,
    sql`select presence, availability from users where id = ${user.userId}`,
  );
  return { userId: user.userId, ...row };
};

// One per API process: its heartbeat, its sockets' rows, and the settles that follow them.
export const createPresence = (
  deps: PresenceDeps,
  options: { graceMs: number; heartbeatMs: number; log: FastifyBaseLogger },
) => {
  const nodeId = randomUUID();
  // This node's open sockets, to write them again if the node was taken for dead (a long pause).
  const local = new Map<string, { identity: SocketIdentity; idle: boolean }>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;

  const settleUsers = (userIds: number[]) => settleUsersNow(deps, userIds, options.graceMs);

  const insertSockets = async (
    entries: [string, { identity: SocketIdentity; idle: boolean }][],
  ) => {
    if (!entries.length) return;
    await deps.db.execute(
      sql`insert into presence_sockets (socket_id, node_id, user_id, company_id, idle)
          values ${sql.join(
            entries.map(
              ([socketId, { identity, idle }]) =>
                sql`(${socketId}, ${nodeId}, ${identity.userId}, ${identity.companyId}, ${idle})`,
            ),
            sql`, `,
          )}
          on conflict (socket_id) do nothing`,
    );
  };

  const beat = async () => {
    const rows = await queryRows<{ id: string }>(
      deps.db,
      sql`insert into presence_nodes (id, seen_at) values (${nodeId}, now())
          on conflict (id) do update set seen_at = now()
          returning id, (xmax = 0) as inserted`,
    );
    // Taken for dead meanwhile (the sweep removed it and its sockets): its sockets come back.
    if ((rows[0] as { inserted?: boolean } | undefined)?.inserted && local.size) {
      await insertSockets([...local]);
      await settleUsers([...new Set([...local.values()].map((s) => s.identity.userId))]);
    }
  };

  // A failure is logged: presence is shown, never worth a crash; the next change settles again.
  const guarded = (what: string, work: () => Promise<unknown>): Promise<void> =>
    work().then(
      () => undefined,
      (err: unknown) => options.log.warn({ err }, `presence: ${what} failed`),
    );

  return {
    nodeId,
    async start() {
      running = true;
      await beat();
      timer = setInterval(() => void guarded('heartbeat', beat), options.heartbeatMs);
      timer.unref();
    },
    // A node that stops: its sockets go (the others will see the users reconnect elsewhere within the
    // grace, or go offline after it).
    async stop() {
      running = false;
      clearInterval(timer);
      await guarded('stop', async () => {
        await deps.db.execute(
          sql`update users set last_seen_at = ${new Date().toISOString()}::timestamptz
               where id in (select user_id from presence_sockets where node_id = ${nodeId})`,
        );
        await deps.db.execute(sql`delete from presence_nodes where id = ${nodeId}`);
      });
    },
    connected(identity: SocketIdentity, socketId: string) {
      local.set(socketId, { identity, idle: false });
      if (!running) return Promise.resolve();
      return guarded('connect', async () => {
        await insertSockets([[socketId, { identity, idle: false }]]);
        await settleUsers([identity.userId]);
      });
    },
    disconnected(identity: SocketIdentity, socketId: string) {
      local.delete(socketId);
      if (!running) return Promise.resolve();
      return guarded('disconnect', async () => {
        await deps.db.execute(
          sql`with gone as (delete from presence_sockets where socket_id = ${socketId} returning user_id)
              update users set last_seen_at = ${new Date().toISOString()}::timestamptz
               where id in (select user_id from gone)`,
        );
        await settleUsers([identity.userId]);
      });
    },
    idle(identity: SocketIdentity, socketId: string, idle: boolean) {
      const entry = local.get(socketId);
      if (!entry || entry.idle === idle) return Promise.resolve();
      entry.idle = idle;
      return guarded('idle', async () => {
        await deps.db.execute(
          sql`update presence_sockets set idle = ${idle} where socket_id = ${socketId}`,
        );
        await settleUsers([identity.userId]);
      });
    },
  };
};

// The recurring sweep: nodes that stopped beating are forgotten with their sockets (their users'
// grace starts now), and users whose last socket closed more than the grace ago go offline.
export const sweepPresence = async (
  deps: PresenceDeps,
  now: Date,
  options: { graceMs: number; heartbeatMs: number },
) => {
  const deadBefore = new Date(now.getTime() - 3 * options.heartbeatMs).toISOString();
  await deps.db.transaction(async (tx) => {
    await tx.execute(
      sql`update users set last_seen_at = ${now.toISOString()}::timestamptz
           where id in (select s.user_id from presence_sockets s
                          join presence_nodes n on n.id = s.node_id
                         where n.seen_at < ${deadBefore}::timestamptz)`,
    );
    await tx.execute(sql`delete from presence_nodes where seen_at < ${deadBefore}::timestamptz`);
  });
  const graceStart = new Date(now.getTime() - options.graceMs).toISOString();
  await settle(
    deps,
    sql`u.presence <> 'offline'
        and not exists (select 1 from presence_sockets s where s.user_id = u.id)
        and (u.last_seen_at is null or u.last_seen_at <= ${graceStart}::timestamptz)`,
    now,
    options.graceMs,
  );
};

// The screens hear a presence as it changes: every user of the company (who reads GET /users/list).
export const emitPresence =
  (deps: Pick<AppDeps, 'realtime'>) => (event: EventOf<'user.presence'>) =>
    deps.realtime.toCompany(event.companyId).emit('presence', {
      action: 'update',
      userId: event.userId,
      presence: event.after,
      availability: event.availability,
    });
