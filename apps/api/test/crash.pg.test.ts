import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApiProcess, until } from './api-process';
import { databaseUrl } from './pg-url';

// kill -9 in the middle of a burst of sends, on PostgreSQL with real processes: every message the
// API accepted reaches the phone, and none reaches it twice.

const PASSWORD = 'Secret123';
const EMAIL = 'crash@test.local';
const secrets = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
};

let name: string;
let admin: pg.Client;
let db: pg.Client;
let url: string;
const dataDir = mkdtempSync(path.join(tmpdir(), 'atendi-crash-'));
const children: ChildProcess[] = [];

// One API process on the test database, answering once it listens.
const startApi = async () => {
  const api = await startApiProcess({
    databaseUrl: url,
    dataDir,
    email: EMAIL,
    password: PASSWORD,
    secrets,
  });
  children.push(api.child);
  return api;
};

beforeAll(async () => {
  const base = process.env.TEST_DATABASE_URL!;
  name = `atendi_crash_${randomBytes(6).toString('hex')}`;
  admin = new pg.Client({ connectionString: databaseUrl(base, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  url = databaseUrl(base, name);
  db = new pg.Client({ connectionString: url });
  await db.connect();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await db?.end();
  await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin?.end();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 during a burst of sends', () => {
  it('loses nothing the API accepted and doubles nothing', { timeout: 180_000 }, async () => {
    const first = await startApi();
    const connection = (await (
      await first.call('POST', '/whatsapp', { name: 'Ráfaga', provider: 'simulator' })
    ).json()) as { id: number };
    await until(
      async () => (await first.call('POST', `/simulator/${connection.id}/scan`)).status,
      (status) => status === 200,
      'the simulator to pair',
    );
    const numbers = Array.from({ length: 4 }, (_, i) => `54911888000${i}0`);
    for (const from of numbers)
      await first.call('POST', `/simulator/${connection.id}/inbound`, { from, body: 'hola' });
    const { rows: tickets } = await until(
      () => db.query<{ id: number }>('select id from tickets order by id'),
      (result) => result.rows.length === numbers.length,
      'the tickets',
    );
    // Taken by the admin, so they can be written to.
    await db.query(
      "update tickets set status = 'open', user_id = (select id from users where email = $1)",
      [EMAIL],
    );

    // Four conversations written to side by side; the process is killed once 60 sends are in.
    const accepted: string[] = [];
    let killed = false;
    const writer = async (ticketId: number) => {
      for (let i = 0; i < 200 && !killed; i += 1) {
        const body = `${ticketId}-${i}`;
        const res = await first.call('POST', `/messages/${ticketId}`, { body }).catch(() => null);
        if (res?.status === 201) accepted.push(body);
        if (accepted.length >= 60 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(tickets.map((ticket) => writer(ticket.id)));
    expect(killed).toBe(true);

    // The next process finishes what the dead one left: every stored send goes out.
    await startApi();
    const stored = await until(
      () =>
        db.query<{ body: string; provider_id: string | null }>(
          "select body, provider_id from messages where from_me and body <> 'hola'",
        ),
      (result) => result.rows.length > 0 && result.rows.every((r) => r.provider_id),
      'every stored message sent',
    );
    const { rows: phone } = await db.query<{ body: string }>(
      'select body from simulator_messages where whatsapp_id = $1',
      [connection.id],
    );
    const storedBodies = stored.rows.map((r) => r.body).sort();
    // Nothing accepted was lost (a send cut off by the kill may have been stored without an answer).
    expect(storedBodies).toEqual(expect.arrayContaining(accepted));
    // Each stored message reached the phone exactly once.
    expect(phone.map((m) => m.body).sort()).toEqual(storedBodies);
    const { rows: jobs } = await db.query<{ status: string }>(
      "select status from jobs where queue = 'message.send' and status <> 'done'",
    );
    expect(jobs).toEqual([]);
  });
});
