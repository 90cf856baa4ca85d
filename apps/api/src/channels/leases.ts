import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

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
  tryAcquire(whatsappId: number): Promise<boolean>;
  release(whatsappId: number): Promise<void>;
  // Whether another node currently owns the session.
  heldElsewhere(whatsappId: number): Promise<boolean>;
  // Runs op on the node owning the session; rejects with RemoteError when none answers.
  request(request: LeaseRequest): Promise<unknown>;
  // Installs what this node does when asked; it throws when the session is not here.
  onRequest(handler: LeaseRequestHandler): void;
  // Called when this node lost every lease at once (its database connection dropped).
  onLost(listener: () => void): void;
  close(): Promise<void>;
};

export const createLocalLeases = (): Leases => {
  const held = new Set<number>();
  return {
    tryAcquire: async (id) => {
      if (held.has(id)) return false;
      held.add(id);
      return true;
    },
    release: async (id) => void held.delete(id),
    heldElsewhere: async () => false,
    request: async () => {
      throw new RemoteError('ERR_WAPP_NOT_INITIALIZED', 'The session is not running');
    },
    onRequest: () => undefined,
    onLost: () => undefined,
    close: async () => held.clear(),
  };
};

// Namespace of our advisory locks (first key of the two-key form); the second key is the connection id.
const LOCK_CLASS = 41_207;
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
  let handler: LeaseRequestHandler = async () => {
    throw new RemoteError('ERR_WAPP_NOT_INITIALIZED', 'The session is not running');
  };
  const lostListeners: (() => void)[] = [];
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
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

  const connect = async () => {
    client = new pg.Client({ connectionString: options.connectionString });
    client.on('error', (err) => {
      if (closed) return;
      // Every lock went with the connection: the sessions here must stop before another node starts them.
      log.error({ err }, 'session lease connection lost; stopping local sessions');
      held.clear();
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
  };
  await connect();

  return {
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
    async heldElsewhere(id) {
      if (held.has(id)) return false;
      const { rows } = await client.query<{ n: number }>(
        // pg_locks lists the whole server's locks; advisory locks belong to one database.
        `select count(*)::int as n from pg_locks
          where locktype = 'advisory' and classid = $1 and objid::bigint = $2 and objsubid = 2 and granted
            and database = (select oid from pg_database where datname = current_database())`,
        [LOCK_CLASS, id],
      );
      return (rows[0]?.n ?? 0) > 0;
    },
    request({ whatsappId, op, args }) {
      const id = randomBytes(8).toString('hex');
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(
            new RemoteError(
              'ERR_WAPP_NOT_INITIALIZED',
              'The node running the session did not answer',
            ),
          );
        }, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
        pending.set(id, {
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
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
      for (const waiter of pending.values())
        waiter.reject(new RemoteError('ERR_WAPP_NOT_INITIALIZED', 'Shutting down'));
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
