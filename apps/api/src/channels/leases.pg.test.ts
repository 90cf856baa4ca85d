import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import pg from 'pg';
import { databaseUrl } from '../../test/pg-url';
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
    expect(await neighbour.heldElsewhere(1)).toBe(true);
    expect(await neighbour.tryAcquire(1)).toBe(false);
    // Another database: nobody there runs it; no request may wait for an answer that cannot come.
    expect(await otherInstall.heldElsewhere(1)).toBe(false);
    expect(await otherInstall.tryAcquire(1)).toBe(true);
    expect(await owner.heldElsewhere(1)).toBe(false);
  });
});
