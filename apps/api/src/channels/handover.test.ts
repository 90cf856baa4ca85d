import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { WhatsappSessionEvent } from '@atendi/shared';
import { messages, whatsapps } from '../db/schema';
import { createTestApp, inject, login, makeCompany, type TestContext } from '../../test/harness';
import { eventually } from '../../test/eventually';
import { orphanedConnection } from '../../test/inbox';
import { caughtUp, closeSockets, listenAs } from '../../test/sockets';

// A session that should run and that no node runs (its node died; here: a paired connection nobody
// has started) is taken over by the first node asked to use it. Until it is connected again, a call
// that cannot wait (SESSION_HANDOVER_WAIT=0 here) is told 503 ERR_WAPP_SESSION_MOVING with a
// Retry-After, never a 4xx that reads like the caller's fault, and the company's screens see the
// connection move (OPENING, then CONNECTED).

let t: TestContext;

beforeAll(async () => {
  t = await createTestApp({ SESSION_HANDOVER_WAIT: '0', SESSION_CLAIM_INTERVAL: '0' });
});
afterAll(async () => {
  closeSockets();
  await t.close();
});

// A connection left behind by a dead node, which this one does not run either.
const orphan = async (context: TestContext, companyId: number, number: string) => {
  const row = await orphanedConnection(context.db, companyId, number);
  expect(context.app.deps.channels.isRunningHere(row.id)).toBe(false);
  return row;
};

describe('a session between nodes', () => {
  it('answers 503 with Retry-After while it moves, is taken over here, then works', async () => {
    const company = await makeCompany(t.db);
    const admin = await login(t.app, company.admin.email);
    const row = await orphan(t, company.company.id, '5500000000999');
    const heard = await listenAs<WhatsappSessionEvent>(t.app, admin);

    const inbound = { from: '5491133334444', body: 'hola', id: 'HANDOVER1' };
    const moving = await inject(t.app, admin, 'POST', `/simulator/${row.id}/inbound`, inbound);
    expect(moving.statusCode).toBe(503);
    expect(moving.headers['retry-after']).toBe('2');
    expect(moving.json()).toMatchObject({ error: 'ERR_WAPP_SESSION_MOVING' });
    // Nothing was stored.
    expect(await t.db.select().from(messages).where(eq(messages.providerId, 'HANDOVER1'))).toEqual(
      [],
    );

    // The same message asked again goes through the session this node took over.
    const accepted = await eventually(
      () => inject(t.app, admin, 'POST', `/simulator/${row.id}/inbound`, inbound),
      (res) => res.statusCode !== 503,
      'the session to be taken over',
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(t.app.deps.channels.isRunningHere(row.id)).toBe(true);
    const stored = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.providerId, 'HANDOVER1'), eq(messages.whatsappId, row.id)));
    expect(stored).toHaveLength(1);

    await caughtUp(heard);
    const statuses = heard
      .filter((h) => h.event === `company-${company.company.id}-whatsappSession`)
      .map((h) => h.payload.session.status);
    expect(statuses).toEqual(['OPENING', 'CONNECTED']);
  });

  it('still refuses with 400 a connection that is not meant to run', async () => {
    const company = await makeCompany(t.db);
    const admin = await login(t.app, company.admin.email);
    const [row] = await t.db
      .insert(whatsapps)
      .values({ companyId: company.company.id, name: 'Apagada', provider: 'simulator' })
      .returning();
    const res = await inject(t.app, admin, 'POST', `/simulator/${row.id}/inbound`, {
      from: '5491133334444',
      body: 'hola',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(t.app.deps.channels.isRunningHere(row.id)).toBe(false);
  });

  it('with the default wait, a burst of calls on it is answered once it is taken over, none 503', async () => {
    const waiting = await createTestApp({ SESSION_CLAIM_INTERVAL: '0' });
    try {
      const company = await makeCompany(waiting.db);
      const admin = await login(waiting.app, company.admin.email);
      const row = await orphan(waiting, company.company.id, '5500000000998');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          inject(waiting.app, admin, 'POST', `/simulator/${row.id}/inbound`, {
            from: '5491133335555',
            body: `hola ${i}`,
            id: `BURST${i}`,
          }),
        ),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(answers.map(() => 200));
      const stored = await waiting.db
        .select()
        .from(messages)
        .where(eq(messages.whatsappId, row.id));
      expect(stored).toHaveLength(20);
    } finally {
      await waiting.close();
    }
  });
});
