import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { presenceSockets, users } from '../../db/schema';
import {
  inject,
  login,
  makeCompany,
  makeUser,
  sharedTestApp,
  type SharedTestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { caughtUp, closeSockets, listenAs, openSocket, type Heard } from '../../../test/sockets';
import { sweepPresence } from './presence';

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});
afterAll(() => closeSockets());

const presenceOf = async (userId: number) =>
  (await t.db.select({ presence: users.presence }).from(users).where(eq(users.id, userId)))[0]
    .presence;

// A company with an admin listening to its sockets and an agent who has not connected yet.
const team = async () => {
  const { company, admin } = await makeCompany(t.db);
  const adminSession = await login(t.app, admin.email);
  const agent = await makeUser(t.db, company.id, 'user');
  const agentSession = await login(t.app, agent.email);
  const heard = await listenAs(t.app, adminSession, undefined, { presence: true });
  return { companyId: company.id, admin: adminSession, agent, agentSession, heard };
};

// What the admin's screens heard of one user's presence, in order.
const presenceHeard = (heard: Heard[], companyId: number, userId: number) =>
  heard
    .filter((h) => h.event === `company-${companyId}-presence` && h.payload.userId === userId)
    .map((h) => h.payload.presence);

const sweep = (at: Date) =>
  sweepPresence(t.app.deps, at, {
    graceMs: t.config.presenceGraceSeconds * 1000,
    heartbeatMs: t.config.presenceHeartbeatSeconds * 1000,
  });
// Past the reconnect grace, but not so far that this node itself looks dead.
const afterGrace = () => new Date(Date.now() + (t.config.presenceGraceSeconds + 2) * 1000);

// Once the server has handled the socket's close (its row is gone).
const closed = async (socket: Socket, userId: number) => {
  const before = (
    await t.db.select().from(presenceSockets).where(eq(presenceSockets.userId, userId))
  ).length;
  socket.disconnect();
  await eventually(
    () => t.db.select().from(presenceSockets).where(eq(presenceSockets.userId, userId)),
    (rows) => rows.length === before - 1,
    'the close handled',
  );
};

const emitIdle = async (socket: Socket, userId: number, idle: boolean) => {
  socket.emit('presence', { idle });
  await eventually(
    () =>
      t.db
        .select({ idle: presenceSockets.idle })
        .from(presenceSockets)
        .where(eq(presenceSockets.socketId, socket.id!)),
    (rows) => rows[0]?.idle === idle,
    `socket of ${userId} idle=${idle}`,
  );
};

describe('presence', () => {
  it('a socket makes its user online to the whole company, and after the last one closes they go offline once the grace is over', async () => {
    const { companyId, agent, agentSession, heard } = await team();
    const stranger = await makeCompany(t.db);
    const strangerHeard = await listenAs(
      t.app,
      await login(t.app, stranger.admin.email),
      undefined,
      { presence: true },
    );
    expect(await presenceOf(agent.id)).toBe('offline');

    const first = await openSocket(t.app, agentSession);
    const second = await openSocket(t.app, agentSession);
    await eventually(
      async () => presenceHeard(heard, companyId, agent.id),
      (seen) => seen.length > 0,
      'the admin hears the agent online',
    );
    expect(presenceHeard(heard, companyId, agent.id)).toEqual(['online']);
    await caughtUp(strangerHeard);
    // Another company hears nothing of this one's people.
    expect(strangerHeard.filter((h) => h.event === `company-${companyId}-presence`)).toEqual([]);
    expect(
      strangerHeard.filter((h) => h.event.endsWith('-presence') && h.payload.userId === agent.id),
    ).toEqual([]);

    // One tab of two closed: still online.
    await closed(first, agent.id);
    expect(await presenceOf(agent.id)).toBe('online');
    // The last one closed: still online within the grace (a reload), offline after it.
    await closed(second, agent.id);
    await sweep(new Date());
    expect(await presenceOf(agent.id)).toBe('online');
    await sweep(afterGrace());
    expect(await presenceOf(agent.id)).toBe('offline');
    await eventually(
      async () => presenceHeard(heard, companyId, agent.id),
      (seen) => seen.length === 2,
      'the admin hears the agent offline',
    );
    expect(presenceHeard(heard, companyId, agent.id)).toEqual(['online', 'offline']);
  });

  it('an agent who reconnects within the grace never goes offline', async () => {
    const { companyId, agent, agentSession, heard } = await team();
    const tab = await openSocket(t.app, agentSession);
    await eventually(
      () => presenceOf(agent.id),
      (p) => p === 'online',
      'online',
    );
    await closed(tab, agent.id);
    await openSocket(t.app, agentSession);
    await sweep(afterGrace());
    expect(await presenceOf(agent.id)).toBe('online');
    await caughtUp(heard);
    expect(presenceHeard(heard, companyId, agent.id)).toEqual(['online']);
  });

  it('is away while every tab reports inactivity, and online again at the first activity', async () => {
    const { agent, agentSession } = await team();
    const one = await openSocket(t.app, agentSession);
    const two = await openSocket(t.app, agentSession);
    const becomes = (presence: string) =>
      eventually(
        () => presenceOf(agent.id),
        (p) => p === presence,
        presence,
      );
    await becomes('online');
    // One tab of two idle: still online (whatever its settle has done by now).
    await emitIdle(one, agent.id, true);
    expect(await presenceOf(agent.id)).toBe('online');
    await emitIdle(two, agent.id, true);
    await becomes('away');
    await emitIdle(one, agent.id, false);
    await becomes('online');
    expect(await presenceOf(agent.id)).toBe('online');
  });

  it('follows the agent’s own choice whatever their tabs do, and refuses anything but the three', async () => {
    const { companyId, agent, agentSession, heard } = await team();
    await openSocket(t.app, agentSession);
    await eventually(
      () => presenceOf(agent.id),
      (p) => p === 'online',
      'online',
    );

    const away = await inject(t.app, agentSession, 'PUT', '/presence', { availability: 'away' });
    expect(away.statusCode).toBe(200);
    expect(away.json()).toEqual({ userId: agent.id, presence: 'away', availability: 'away' });
    const off = await inject(t.app, agentSession, 'PUT', '/presence', { availability: 'offline' });
    expect(off.json()).toMatchObject({ presence: 'offline' });
    const listed = await inject(t.app, agentSession, 'GET', '/users/list');
    expect(listed.json()).toContainEqual(
      expect.objectContaining({ id: agent.id, presence: 'offline', online: false }),
    );
    const back = await inject(t.app, agentSession, 'PUT', '/presence', { availability: 'online' });
    expect(back.json()).toMatchObject({ presence: 'online', availability: 'online' });
    await eventually(
      async () => presenceHeard(heard, companyId, agent.id),
      (seen) => seen.length === 4,
      'every change heard',
    );
    expect(presenceHeard(heard, companyId, agent.id)).toEqual([
      'online',
      'away',
      'offline',
      'online',
    ]);

    for (const availability of ['busy', '', null, 3]) {
      const bad = await inject(t.app, agentSession, 'PUT', '/presence', { availability });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    expect(await presenceOf(agent.id)).toBe('online');
  });

  it('forgets the sockets of a node that stopped beating, and its users go offline after the grace', async () => {
    const { agent } = await team();
    // A node that died five minutes ago with a socket of the agent's.
    const dead = `dead-${agent.id}`;
    await t.db.execute(
      sql`insert into presence_nodes (id, seen_at) values (${dead}, now() - interval '5 minutes')`,
    );
    await t.db.insert(presenceSockets).values({
      socketId: `s-${dead}`,
      nodeId: dead,
      userId: agent.id,
      companyId: agent.companyId,
    });
    await t.db.update(users).set({ presence: 'online' }).where(eq(users.id, agent.id));

    await sweep(new Date());
    expect(
      await t.db.select().from(presenceSockets).where(eq(presenceSockets.nodeId, dead)),
    ).toEqual([]);
    // They may be reconnecting to another node: the grace counts from now.
    expect(await presenceOf(agent.id)).toBe('online');
    await sweep(afterGrace());
    expect(await presenceOf(agent.id)).toBe('offline');
  });
});
