import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { WhatsappView } from '@atendi/shared';
import pg from 'pg';
import { whatsapps } from '../db/schema';
import type { App } from '../app';
import type { ChannelEventInput } from './manager';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../test/harness';
import { eventually } from '../../test/eventually';
import { orphanedConnection } from '../../test/inbox';

// Several API nodes on one PostgreSQL: each session runs on exactly one of them, the others route to it,
// and when its node goes away another one takes the session over.

let t: TestContext;
let nodeB: App;
let admin: Session;
let company: Awaited<ReturnType<typeof makeCompany>>;

beforeAll(async () => {
  t = await createTestApp({ SESSION_CLAIM_INTERVAL: '1' });
  nodeB = await t.spawnNode();
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
});
afterAll(() => t.close());

const statusOf = async (id: number) =>
  (await t.db.select().from(whatsapps).where(eq(whatsapps.id, id)))[0].status;

// Two nodes agreeing over PostgreSQL may take a while.
const SLOW = { timeoutMs: 15_000 };
const statusBecomes = (id: number, status: string) =>
  eventually(
    () => statusOf(id),
    (now) => now === status,
    status,
    SLOW,
  );

describe('session ownership across nodes', () => {
  it('runs a session on one node, routes the other node’s requests to it, and fails over', async () => {
    const nodeA = t.app;
    const created = await inject(nodeA, admin, 'POST', '/whatsapp', {
      name: 'Compartida',
      provider: 'simulator',
    });
    const view = created.json() as WhatsappView;
    await statusBecomes(view.id, 'qrcode');
    expect(nodeA.deps.channels.isRunningHere(view.id)).toBe(true);
    expect(nodeB.deps.channels.isRunningHere(view.id)).toBe(false);

    // The phone scans through node B's API: node A's session completes the pairing.
    const scan = await inject(nodeB, admin, 'POST', `/simulator/${view.id}/scan`);
    expect(scan.statusCode, scan.body).toBe(200);
    await statusBecomes(view.id, 'CONNECTED');

    // A send asked on node B leaves through node A's session, large payloads included.
    const long = 'x'.repeat(20_000);
    const sent = await nodeB.deps.channels.send(view.id, { to: '5491122223333', body: long });
    const outbound = (await inject(nodeB, admin, 'GET', `/simulator/${view.id}/outbound`)).json();
    expect(outbound).toEqual([expect.objectContaining({ id: sent.providerId, body: long })]);

    // An inbound message posted to node B is reported by node A, the session's owner.
    const seenA: ChannelEventInput[] = [];
    const seenB: ChannelEventInput[] = [];
    nodeA.deps.channels.onEvent(async (e) => void seenA.push(e));
    nodeB.deps.channels.onEvent(async (e) => void seenB.push(e));
    const inbound = await inject(nodeB, admin, 'POST', `/simulator/${view.id}/inbound`, {
      from: '5491122223333',
      body: 'hola',
    });
    expect(inbound.statusCode, inbound.body).toBe(200);
    expect(seenA.map((e) => e.event.type)).toEqual(['message']);
    expect(seenB).toEqual([]);

    // Node A goes away. A send asked on node B right after waits while node B takes the session
    // over (it resumes paired, no new QR) and goes out through it: no refusal in the gap.
    await nodeA.close();
    const again = await nodeB.deps.channels.send(view.id, { to: '5491122223333', body: 'sigo' });
    expect(again.providerId).toMatch(/^SIMOUT/);
    expect(nodeB.deps.channels.isRunningHere(view.id)).toBe(true);
    await statusBecomes(view.id, 'CONNECTED');
  });

  it('a call that arrives while a taken-over session is still starting waits for it', async () => {
    const row = await orphanedConnection(t.db, company.company.id, '5500000000997');
    const session = await login(nodeB, company.admin.email);
    const inbound = (n: number) =>
      inject(nodeB, session, 'POST', `/simulator/${row.id}/inbound`, {
        from: '5491133336666',
        body: `hola ${n}`,
        id: `STARTING${n}`,
      });
    // The takeover's first write waits behind this lock: the session is running here but OPENING.
    const blocker = new pg.Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select id from whatsapps where id = $1 for no key update', [row.id]);
    // Counts the calls that reached the channels (they then wait for the session in there).
    const arrived = vi.spyOn(nodeB.deps.channels, 'extra');
    try {
      const first = inbound(0);
      await eventually(
        () => nodeB.deps.channels.isRunningHere(row.id),
        Boolean,
        'the takeover to start',
        SLOW,
      );
      const later = [1, 2, 3, 4].map(inbound);
      await eventually(
        () => arrived.mock.calls.length,
        (calls) => calls === 5,
        'every call to reach the starting session',
      );
      await blocker.query('commit');
      const answers = await Promise.all([first, ...later]);
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200]);
    } finally {
      arrived.mockRestore();
      await blocker.end();
    }
    await statusBecomes(row.id, 'CONNECTED');
  });
});
