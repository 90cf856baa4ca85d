import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { heldLocksSql, NODE_LOCK_CLASS, SESSION_LOCK_CLASS as LOCK_CLASS } from '../db/locks';

// Session ownership (one session runs in exactly one API process) and the request channel that lets
// any node ask the owner of a session to act on it.
//
// With PostgreSQL, ownership is a session-level advisory lock taken on a connection of its own:
// if the process dies, its connection closes and PostgreSQL releases the lock, so another node can
// take the session over. Requests travel by LISTEN/NOTIFY on the same connection. With the
// embedded database there is only ever one process, so ownership is a local set.

export type LeaseRequest = { whatsappId: number; op: string; args: unknown };
export type LeaseRequestHandler = (request: LeaseRequest) => Promise<unknown>;

// A failure to report back to the requesting node as it happened on the owner.
export class RemoteError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type Leases = {
  // This process's key while its database connection lives (null with the embedded database): the
  // jobs it claims carry it, so other nodes take them over at once when it dies (jobs/queue.ts).
  nodeKey(): number | null;
  tryAcquire(whatsappId: number): Promise<boolean>;
  release(whatsappId: number): Promise<void>;
  // The owner of the session when another node owns it (its lock connection's id), else null.
  ownerElsewhere(whatsappId: number): Promise<number | null>;
  // Of these sessions, the ones no node owns (a node died, or nobody started them).
  unowned(whatsappIds: number[]): Promise<number[]>;
  // Runs op on the node owning the session (owner: from ownerElsewhere); rejects with RemoteError
  // when none answers, and with ERR_WAPP_SESSION_MOVING as soon as that owner's lock is gone.
  request(request: LeaseRequest, owner: number): Promise<unknown>;
  // Installs what this node does when asked; it throws when the session is not here.
  onRequest(handler: LeaseRequestHandler): void;
  // Called when this node lost every lease at once (its database connection dropped).
  onLost(listener: () => void): void;
  close(): Promise<void>;
};

export const createLocalLeases = (): Leases => {
  const held = new Set<number>();
  return {
    nodeKey: () => null,
    tryAcquire: async (id) => {
      if (held.has(id)) return false;
      held.add(id);
      return true;
    },
    release: async (id) => void held.delete(id),
    ownerElsewhere: async () => null,
    unowned: async (ids) => ids.filter((id) => !held.has(id)),
    request: async () => {
      throw new RemoteError('ERR_WAPP_NOT_INITIALIZED', 'The session is not running');
    },
    onRequest: () => undefined,
    onLost: () => undefined,
    close: async () => held.clear(),
  };
};

// How often a node waiting on another's answer checks that the owner still holds the session.
const OWNER_CHECK_MS = 200;
const CHANNEL = 'atendi_channels';
// NOTIFY payloads must stay under 8000 bytes; larger arguments go through channel_requests.
const INLINE_LIMIT = 6000;
const REQUEST_TIMEOUT_MS = 15_000;

type Wire =
  | { kind: 'req'; id: string; from: string; whatsappId: number; op: string; args?: unknown }
  | {
      kind: 'res';
      id: string;
      to: string;
      ok: boolean;
      result?: unknown;
      code?: string;
      message?: string;
    };

export const createPgLeases = async (options: {
  connectionString: string;
  log: FastifyBaseLogger;
  requestTimeoutMs?: number;
}): Promise<Leases> => {
  const { log } = options;
  const node = randomBytes(6).toString('hex');
  let nodeKey: number | null = null;
  let handler: LeaseRequestHandler = async () => {
    throw new RemoteError('ERR_WAPP_NOT_INITIALIZED', 'The session is not running');
  };
  const lostListeners: (() => void)[] = [];
  type Waiter = {
    whatsappId: number;
    owner: number;
    resolve: (v: unknown) => void;
    reject: (e: Error) => void;
  };
  const pending = new Map<string, Waiter>();
  let ownerCheck: NodeJS.Timeout | undefined;
  const held = new Set<number>();
  let closed = false;
  let client: pg.Client;

  const notify = async (message: Wire) => {
    let text = JSON.stringify(message);
    if (Buffer.byteLength(text) > INLINE_LIMIT) {
      const ref = `${message.kind}-${message.id}`;
      await client.query('insert into channel_requests (id, payload) values ($1, $2)', [ref, text]);
      text = JSON.stringify({ ref });
    }
    await client.query('select pg_notify($1, $2)', [CHANNEL, text]);
  };

  const read = async (payload: string): Promise<Wire | undefined> => {
    const parsed = JSON.parse(payload) as Wire | { ref: string };
    if (!('ref' in parsed)) return parsed;
    // Only the addressed node deletes a stored reply; a stored request is read by all and expires.
    const { rows } = await client.query<{ payload: string }>(
      "select payload #>> '{}' as payload from channel_requests where id = $1",
      [parsed.ref],
    );
    return rows[0] ? (JSON.parse(rows[0].payload) as Wire) : undefined;
  };

  const onNotification = async (payload: string) => {
    const message = await read(payload);
    if (!message) return;
    if (message.kind === 'res') {
      if (message.to !== node) return;
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (!waiter) return;
      if (message.ok) waiter.resolve(message.result);
      else
        waiter.reject(
          new RemoteError(message.code ?? 'ERR_INTERNAL_SERVER_ERROR', message.message ?? ''),
        );
      return;
    }
    if (message.from === node || !held.has(message.whatsappId)) return;
    let reply: Wire;
    try {
      const result = await handler({
        whatsappId: message.whatsappId,
        op: message.op,
        args: message.args,
      });
      reply = { kind: 'res', id: message.id, to: message.from, ok: true, result };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      reply = {
        kind: 'res',
        id: message.id,
        to: message.from,
        ok: false,
        code: typeof code === 'string' ? code : 'ERR_INTERNAL_SERVER_ERROR',
        message: error instanceof Error ? error.message : String(error),
      };
    }
    await notify(reply);
  };

  // The holders of these sessions' locks: each one's backend pid, and whether it is this node's own
  // lock connection (a lock it took while the query waited its turn is not another node's).
  const holders = async (ids: number[]) => {
    const { rows } = await client.query<{ key: string; pid: number; mine: boolean }>(
      `select key, pid, pid = pg_backend_pid() as mine from (${heldLocksSql(LOCK_CLASS)}) held
        where key = any($1::bigint[])`,
      [ids],
    );
    return new Map(rows.map((row) => [Number(row.key), { pid: row.pid, mine: row.mine }]));
  };

  // A request whose owner's lock is gone (its process died, its connection dropped) or changed hands
  // will never be answered: it fails at once, as moving, so the caller asks the next owner.
  const checkOwners = async () => {
    const waiting = [...pending.entries()];
    if (!waiting.length || closed) return;
    const owners = await holders([...new Set(waiting.map(([, w]) => w.whatsappId))]);
    for (const [id, waiter] of waiting)
      if (owners.get(waiter.whatsappId)?.pid !== waiter.owner && pending.get(id) === waiter) {
        pending.delete(id);
        waiter.reject(
          new RemoteError('ERR_WAPP_SESSION_MOVING', 'The node running the session went away'),
        );
      }
  };
  const watchOwners = () => {
    if (ownerCheck || closed) return;
    ownerCheck = setInterval(() => {
      if (!pending.size) {
        clearInterval(ownerCheck);
        ownerCheck = undefined;
        return;
      }
      checkOwners().catch((err: unknown) => log.warn({ err }, 'session owner check failed'));
    }, OWNER_CHECK_MS);
    ownerCheck.unref();
  };

  // The node's own lock; a key taken by another process (one chance in two billion) is drawn again.
  const lockNode = async () => {
    for (;;) {
      const key = nodeKey ?? 1 + (randomBytes(4).readUInt32BE() % 2_147_483_646);
      const { rows } = await client.query<{ ok: boolean }>(
        'select pg_try_advisory_lock($1, $2) as ok',
        [NODE_LOCK_CLASS, key],
      );
      if (rows[0]?.ok) {
        nodeKey = key;
        return;
      }
      nodeKey = null;
    }
  };

  const connect = async () => {
    client = new pg.Client({ connectionString: options.connectionString });
    client.on('error', (err) => {
      if (closed) return;
      // Every lock went with the connection: the sessions here must stop before another node starts them.
      log.error({ err }, 'session lease connection lost; stopping local sessions');
      held.clear();
      // Other nodes may take this node's jobs now; those it still runs finish (at least once).
      nodeKey = null;
      // Answers to this node's requests came by this connection: they cannot arrive any more.
      for (const waiter of pending.values())
        waiter.reject(
          new RemoteError('ERR_WAPP_SESSION_MOVING', 'Lost the channel to other nodes'),
        );
      pending.clear();
      for (const listener of lostListeners) listener();
      setTimeout(
        () => void connect().catch((e: unknown) => log.error({ err: e }, 'lease reconnect failed')),
        2000,
      ).unref();
    });
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      onNotification(msg.payload).catch((err: unknown) =>
        log.warn({ err }, 'channel request failed'),
      );
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    await lockNode();
  };
  await connect();

  return {
    nodeKey: () => nodeKey,
    async tryAcquire(id) {
      if (held.has(id)) return false;
      const { rows } = await client.query<{ ok: boolean }>(
        'select pg_try_advisory_lock($1, $2) as ok',
        [LOCK_CLASS, id],
      );
      if (rows[0]?.ok) held.add(id);
      return Boolean(rows[0]?.ok);
    },
    async release(id) {
      if (!held.delete(id)) return;
      await client
        .query('select pg_advisory_unlock($1, $2)', [LOCK_CLASS, id])
        .catch(() => undefined);
    },
    async ownerElsewhere(id) {
      if (held.has(id)) return null;
      const holder = (await holders([id])).get(id);
      return holder && !holder.mine ? holder.pid : null;
    },
    async unowned(ids) {
      if (!ids.length) return [];
      const owned = await holders(ids);
      return ids.filter((id) => !owned.has(id) && !held.has(id));
    },
    request({ whatsappId, op, args }, owner) {
      const id = randomBytes(8).toString('hex');
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          // Our side's trouble, not the caller's: a 503 to try again.
          reject(
            new RemoteError(
              'ERR_WAPP_SESSION_MOVING',
              'The node running the session did not answer',
            ),
          );
        }, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
        pending.set(id, {
          whatsappId,
          owner,
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        watchOwners();
        notify({ kind: 'req', id, from: node, whatsappId, op, args }).catch((err: unknown) => {
          pending.get(id)?.reject(err instanceof Error ? err : new Error(String(err)));
          pending.delete(id);
        });
      });
    },
    onRequest(next) {
      handler = next;
    },
    onLost(listener) {
      lostListeners.push(listener);
    },
    async close() {
      closed = true;
      clearInterval(ownerCheck);
      for (const waiter of pending.values())
        waiter.reject(new RemoteError('ERR_WAPP_SESSION_MOVING', 'This node is shutting down'));
      pending.clear();
      held.clear();
      // Stored large requests older than a minute have been answered or abandoned.
      await client
        .query("delete from channel_requests where created_at < now() - interval '1 minute'")
        .catch(() => undefined);
      // Closing the connection releases every advisory lock it held.
      await client.end().catch(() => undefined);
    },
  };
};
