// The namespaces of the advisory locks several API nodes coordinate with (first key of the two-key
// form; PostgreSQL only).

// A WhatsApp session's owner; second key: the connection id (channels/leases.ts).
export const SESSION_LOCK_CLASS = 41_207;
// Migrations being applied (second key 0): nodes starting together take turns (db/client.ts).
export const MIGRATION_LOCK_CLASS = 41_209;
// A company's automatic assignment pass (modules/routing); second key: the company id.
export const ROUTING_LOCK_CLASS = 41_210;
// A live node; second key: its node key. Rows a node claims carry the key (jobs/queue.ts).
export const NODE_LOCK_CLASS = 41_208;

// The granted advisory locks of this database in one namespace (pg_locks lists the whole server's):
// key (the second key) and pid (the holding connection's backend).
export const heldLocksSql = (lockClass: number) =>
  `select objid::bigint as key, pid from pg_locks
    where locktype = 'advisory' and classid = ${lockClass} and objsubid = 2 and granted
      and database = (select oid from pg_database where datname = current_database())`;
