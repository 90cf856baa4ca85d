import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually';
import {
  openConversations,
  openProcessDatabase,
  PROCESS_WAIT,
  startApiProcess,
} from './api-process';

// kill -9 in the middle of a burst of sends, on PostgreSQL with real processes: every message the
// API accepted reaches the phone, and none reaches it twice.

const PASSWORD = 'Secret123';
const EMAIL = 'crash@test.local';
const secrets = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
};

let database: Awaited<ReturnType<typeof openProcessDatabase>>;

// One API process on the test database, answering once it listens.
const startApi = async () => {
  const api = await startApiProcess({
    databaseUrl: database.url,
    dataDir: database.dataDir,
    email: EMAIL,
    password: PASSWORD,
    secrets,
  });
  database.children.push(api.child);
  return api;
};

beforeAll(async () => {
  database = await openProcessDatabase('atendi_crash');
});
afterAll(() => database?.close());

describe('kill -9 during a burst of sends', () => {
  it('loses nothing the API accepted and doubles nothing', { timeout: 180_000 }, async () => {
    const first = await startApi();
    const { connectionId, tickets } = await openConversations(
      first,
      database.db,
      EMAIL,
      Array.from({ length: 4 }, (_, i) => `54911888000${i}0`),
    );
    const { db } = database;

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
    const stored = await eventually(
      () =>
        db.query<{ body: string; provider_id: string | null }>(
          "select body, provider_id from messages where from_me and body <> 'hola'",
        ),
      (result) => result.rows.length > 0 && result.rows.every((r) => r.provider_id),
      'every stored message sent',
      PROCESS_WAIT,
    );
    const { rows: phone } = await db.query<{ body: string }>(
      "select body from simulator_messages where whatsapp_id = $1 and direction = 'out'",
      [connectionId],
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
