import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import pg from 'pg';
import { databaseUrl } from '../../test/pg-url';
import { NODE_LOCK_CLASS } from '../db/locks';
import { createPgLeases, type Leases } from './leases';

// Session leases are advisory locks, which belong to one database; PostgreSQL's lock list covers the
// whole server. Two installations on one server (or two test files) both have a connection 1.

const log = Fastify({ logger: false }).log;
const server = process.env.TEST_DATABASE_URL!;
const names = [0, 1].map(() => `atendi_l_${randomBytes(6).toString('hex')}`);
let admin: pg.Client;
const opened: Leases[] = [];

const open = async (database: string) => {
  const leases = await createPgLeases({
    connectionString: databaseUrl(server, database),
    log,
    requestTimeoutMs: 20_000,
  });
  opened.push(leases);
  return leases;
};

beforeAll(async () => {
  admin = new pg.Client({ connectionString: databaseUrl(server, 'postgres') });
  await admin.connect();
  for (const name of names) await admin.query(`CREATE DATABASE ${name}`);
});
afterAll(async () => {
  for (const leases of opened) await leases.close();
  for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe('session leases on a shared PostgreSQL server', () => {
  it('a session held in one database is not held elsewhere for another database', async () => {
    const [first, second] = names;
    const owner = await open(first);
    const neighbour = await open(first);
    const otherInstall = await open(second);

    expect(await owner.tryAcquire(1)).toBe(true);
    // The same database: another node sees the owner and routes to it.
    expect(await neighbour.ownerElsewhere(1)).toEqual(expect.any(Number));
    expect(await neighbour.unowned([1, 2])).toEqual([2]);
    expect(await neighbour.tryAcquire(1)).toBe(false);
    // Another database: nobody there runs it; no request may wait for an answer that cannot come.
    expect(await otherInstall.ownerElsewhere(1)).toBeNull();
    expect(await otherInstall.unowned([1, 2])).toEqual([1, 2]);
    expect(await otherInstall.tryAcquire(1)).toBe(true);
    expect(await owner.ownerElsewhere(1)).toBeNull();
    // Asked while its own take of the lock is in flight, a node is not "another owner".
    const [acquired, elsewhere] = await Promise.all([
      neighbour.tryAcquire(9),
      neighbour.ownerElsewhere(9),
    ]);
    expect(acquired).toBe(true);
    expect(elsewhere).toBeNull();
  });

  it('fails a request at once when the owner it waits on dies, and gives the dead node’s key up', async () => {
    const [first] = names;
    const owner = await open(first);
    const asker = await open(first);
    // The owner takes the request and never answers (it is about to die).
    let asked!: () => void;
    const reached = new Promise<void>((resolve) => (asked = resolve));
    owner.onRequest(() => {
      asked();
      return new Promise(() => undefined);
    });
    expect(await owner.tryAcquire(7)).toBe(true);
    const ownerPid = (await asker.ownerElsewhere(7))!;
    const nodeKey = owner.nodeKey();
    expect(nodeKey).toEqual(expect.any(Number));
    const { rows: before } = await admin.query(
      `select 1 from pg_locks where locktype = 'advisory' and classid = ${NODE_LOCK_CLASS} and objid::bigint = $1 and granted`,
      [nodeKey],
    );
    expect(before).toHaveLength(1);

    const request = asker.request({ whatsappId: 7, op: 'send', args: {} }, ownerPid);
    const outcome = request.then(
      () => 'answered',
      (error: { code?: string }) => error.code,
    );
    await reached;
    // kill -9 as PostgreSQL sees it: the owner's connection is gone, and its locks with it.
    const killedAt = Date.now();
    await admin.query('select pg_terminate_backend($1)', [ownerPid]);
    expect(await outcome).toBe('ERR_WAPP_SESSION_MOVING');
    // Within a few owner checks (every 200 ms), not the 20 s request timeout.
    expect(Date.now() - killedAt).toBeLessThan(5000);
    expect(await asker.ownerElsewhere(7)).toBeNull();
    expect(await asker.unowned([7])).toEqual([7]);
    const { rows: after } = await admin.query(
      `select 1 from pg_locks where locktype = 'advisory' and classid = ${NODE_LOCK_CLASS} and objid::bigint = $1 and granted`,
      [nodeKey],
    );
    expect(after).toEqual([]);
  });
});
