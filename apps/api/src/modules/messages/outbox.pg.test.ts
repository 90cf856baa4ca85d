import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { SimulatorOutboundView, WhatsappView } from '@atendi/shared';
import type { App } from '../../app';
import { contacts, messages, tickets } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';

// Two API nodes on one PostgreSQL share the outbox: every message leaves once, and a conversation's
// messages leave in the order they were written, whichever node took them.

let t: TestContext;
let nodeB: App;
let admin: Session;
let company: Awaited<ReturnType<typeof makeCompany>>;

// Two nodes agreeing over PostgreSQL may take a while.
const SLOW = { timeoutMs: 15_000 };

beforeAll(async () => {
  t = await createTestApp({ OUTBOX_RETRY_BASE_MS: '20' });
  nodeB = await t.spawnNode();
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
});
afterAll(() => t.close());

describe('the outbox across nodes', () => {
  it('sends each message once and keeps each conversation in order', async () => {
    const connection = (
      await inject(t.app, admin, 'POST', '/whatsapp', { name: 'Compartida', provider: 'simulator' })
    ).json() as WhatsappView;
    await eventually(
      async () =>
        (await inject(t.app, admin, 'POST', `/simulator/${connection.id}/scan`)).statusCode,
      (status) => status === 200,
      'scan',
      SLOW,
    );
    const numbers = Array.from({ length: 4 }, (_, i) => `5491177700${i}0`);
    const ticketIds: number[] = [];
    for (const number of numbers) {
      await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, {
        from: number,
        body: 'hola',
      });
      const [contact] = await t.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, company.company.id), eq(contacts.number, number)));
      const [ticket] = await t.db
        .update(tickets)
        .set({ status: 'open', userId: admin.userId })
        .where(eq(tickets.contactId, contact.id))
        .returning();
      ticketIds.push(ticket.id);
    }

    const bodiesOf = (ticketId: number) => Array.from({ length: 5 }, (_, n) => `${ticketId}-${n}`);
    // Sends alternate between the nodes, so both outboxes are kicked and compete for the rows;
    // conversations in parallel, each one's messages one after another.
    await Promise.all(
      ticketIds.map(async (ticketId, conversation) => {
        for (const [n, body] of bodiesOf(ticketId).entries()) {
          const node = (conversation * 5 + n) % 2 ? nodeB : t.app;
          const res = await inject(node, admin, 'POST', `/messages/${ticketId}`, { body });
          expect(res.statusCode).toBe(201);
        }
      }),
    );
    await eventually(
      () =>
        t.db
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.fromMe, true), isNull(messages.providerId))),
      (unsent) => unsent.length === 0,
      'every message sent',
      SLOW,
    );
    const sent = (
      await inject(t.app, admin, 'GET', `/simulator/${connection.id}/outbound`)
    ).json() as SimulatorOutboundView[];
    expect(sent.map((m) => m.body).sort()).toEqual(ticketIds.flatMap(bodiesOf).sort());
    for (const ticketId of ticketIds) {
      const stored = await t.db
        .select({ body: messages.body })
        .from(messages)
        .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)))
        .orderBy(messages.id);
      const order = stored.map((m) => m.body);
      expect(sent.filter((m) => order.includes(m.body)).map((m) => m.body)).toEqual(order);
    }
  });
});
