import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { contacts, jobs, messages } from '../db/schema';
import { createTestApp, inject, login, makeCompany, type TestContext } from '../../test/harness';
import { eventually } from '../../test/eventually';
import { inbound, pairedSimulator, ticketOf } from '../../test/inbox';
import { createJobs, JobPayloadError, type Jobs } from '../jobs/queue';
import { handleChannelEvent } from '../modules/tickets/inbound/tickets.engine';
import { createDomainEvents, type DomainEvent, type EventOf } from './domain-events';

// The dispatcher on its own job facility (one API node), so the app's listeners stay out of it.

let t: TestContext;
let companyId: number;
const nodes: Jobs[] = [];

const node = () => {
  const jobsOfNode = createJobs({ db: t.db, log: t.app.log });
  nodes.push(jobsOfNode);
  return { jobs: jobsOfNode, events: createDomainEvents({ jobs: jobsOfNode, log: t.app.log }) };
};
const changed = (ticketId: number): DomainEvent => ({
  type: 'ticket.changed',
  companyId,
  ticketId,
  byUserId: null,
  before: null,
  after: {
    status: 'pending',
    userId: null,
    queueId: null,
    whatsappId: 1,
    promptId: null,
    integrationId: null,
    chatbot: false,
  },
});
// What the durable listeners below read of a ticket.changed event.
const snapshot = z.object({
  status: z.enum(['open', 'pending', 'closed']),
  userId: z.number().nullable(),
  queueId: z.number().nullable(),
  whatsappId: z.number(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  chatbot: z.boolean(),
});
const ticketChangedEvent = z.object({
  type: z.literal('ticket.changed'),
  companyId: z.number(),
  ticketId: z.number(),
  byUserId: z.number().nullable(),
  before: snapshot.nullable(),
  after: snapshot,
});
const jobsOf = (queue: string) =>
  t.db.select().from(jobs).where(eq(jobs.queue, queue)).orderBy(asc(jobs.id));

beforeAll(async () => {
  t = await createTestApp();
  companyId = (await makeCompany(t.db)).company.id;
});
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});
afterAll(() => t.close());

describe('domain events', () => {
  it('tells in-process listeners after the commit, in order, and nobody when it rolls back', async () => {
    const { events } = node();
    const heard: string[] = [];
    events.on('ticket.changed', async (event) => {
      heard.push(`first ${event.ticketId}`);
      throw new Error('a broken listener');
    });
    events.on('ticket.changed', (event) => {
      heard.push(`second ${event.ticketId}`);
    });
    events.on('message.created', () => {
      heard.push('message');
    });

    const result = await events.transaction(t.db, async (_tx, raise) => {
      raise(changed(1));
      // Not yet: the change is not committed.
      expect(heard).toEqual([]);
      return 'done';
    });
    expect(result).toBe('done');
    // A failing listener is logged; the next still hears, and the caller's change stands.
    expect(heard).toEqual(['first 1', 'second 1']);

    await expect(
      events.transaction(t.db, async (_tx, raise) => {
        raise(changed(2));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(heard).toEqual(['first 1', 'second 1']);
  });

  it('publishes what a recorder raises with the change: its own recorders run, listeners hear it after the commit', async () => {
    const { events } = node();
    const log: string[] = [];
    const breach = (ticketId: number): DomainEvent => ({
      type: 'ticket.sla',
      companyId,
      ticketId,
      state: 'breached',
      kind: 'firstResponse',
      dueAt: new Date(0).toISOString(),
      queueId: null,
      userId: null,
    });
    events.recordAll('ticket.changed', async (_tx, changes, raise) => {
      for (const change of changes) raise(breach(change.ticketId));
    });
    events.record('ticket.sla', async (_tx, event) => {
      log.push(`recorded ${event.ticketId}`);
    });
    events.on('ticket.sla', (event) => {
      log.push(`heard ${event.ticketId}`);
    });
    await events.transaction(t.db, async (_tx, raise) => {
      raise(changed(1));
      raise(changed(2));
    });
    expect(log).toEqual(['recorded 1', 'recorded 2', 'heard 1', 'heard 2']);

    await expect(
      events.transaction(t.db, async (_tx, raise) => {
        raise(changed(3));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(log).toHaveLength(4);
  });

  it('a lane answers at the commit and tells listeners of its transactions one after another, in order', async () => {
    const { events } = node();
    const lane = events.lane();
    const heard: string[] = [];
    // The first transaction's listener is still busy when the second commits.
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    events.afterCommit(async ([event]) => {
      const id = (event as EventOf<'ticket.changed'>).ticketId;
      heard.push(`start ${id}`);
      if (id === 11) await busy;
      heard.push(`end ${id}`);
    });
    expect(
      await lane.transaction(t.db, async (_tx, raise) => {
        raise(changed(11));
      }),
    ).toBeUndefined();
    expect(
      await lane.transaction(t.db, async (_tx, raise) => {
        raise(changed(12));
      }),
    ).toBeUndefined();
    // Both committed, and their callers went on; the second waits for the first's dispatch.
    expect(heard).toEqual(['start 11']);
    const idle = lane.idle();
    release();
    await idle;
    expect(heard).toEqual(['start 11', 'end 11', 'start 12', 'end 12']);
    // A rolled-back transaction tells nobody and does not stop the lane.
    await expect(
      lane.transaction(t.db, async (_tx, raise) => {
        raise(changed(13));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await lane.transaction(t.db, async (_tx, raise) => {
      raise(changed(14));
    });
    await lane.idle();
    expect(heard.slice(4)).toEqual(['start 14', 'end 14']);
  });

  it('gives a durable listener a job written with the commit, so it hears even if the node dies', async () => {
    const name = `test-${Date.now()}`;
    const writer = node();
    writer.events.onDurable(name, 'ticket.changed', ticketChangedEvent, async () => {
      throw new Error('this node dies before it runs');
    });
    await writer.events.transaction(t.db, async (_tx, raise) => raise(changed(7)));
    await expect(
      writer.events.transaction(t.db, async (_tx, raise) => {
        raise(changed(8));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow();
    // Only the committed event is queued.
    expect((await jobsOf(`event.${name}`)).map((j) => j.payload)).toEqual([changed(7)]);

    // Another node, running the same listener, takes the job: first attempt fails, the retry works.
    const reader = node();
    const heard: EventOf<'ticket.changed'>[] = [];
    let attempts = 0;
    reader.events.onDurable(
      name,
      'ticket.changed',
      ticketChangedEvent,
      async (event) => {
        attempts += 1;
        if (attempts === 1) throw new Error('integration down');
        heard.push(event);
      },
      { retryDelayMs: () => 0 },
    );
    await reader.jobs.process(`event.${name}`);
    await reader.jobs.process(`event.${name}`);
    expect(heard).toEqual([changed(7)]);
    expect((await jobsOf(`event.${name}`)).map((j) => [j.status, j.attempts])).toEqual([
      ['done', 2],
    ]);
  });
});

describe('a durable listener’s schema', () => {
  it('refuses an event it cannot read with the change that raised it', async () => {
    const { events } = node();
    const name = `test-${Date.now()}-schema`;
    // A listener that (wrongly) expects every change to have a `before`.
    events.onDurable(
      name,
      'ticket.changed',
      ticketChangedEvent.extend({ before: snapshot }),
      async () => {},
    );
    let ran = false;
    await expect(
      events.transaction(t.db, async (_tx, raise) => {
        raise(changed(9));
        ran = true;
      }),
    ).rejects.toThrow(JobPayloadError);
    expect(ran).toBe(true);
    expect(await jobsOf(`event.${name}`)).toEqual([]);
  });
});

describe('the events the product raises', () => {
  it('tells listeners of tickets created, taken, resolved and deleted, and of every stored message', async () => {
    const made = await makeCompany(t.db);
    const admin = await login(t.app, made.admin.email);
    const heard: DomainEvent[] = [];
    const durable: DomainEvent[] = [];
    for (const type of ['ticket.changed', 'ticket.deleted', 'message.created'] as const)
      t.app.deps.events.on(type, (event) => {
        if (event.companyId === made.company.id) heard.push(event);
      });
    t.app.deps.events.onDurable(
      'test-ticket-history',
      'ticket.changed',
      ticketChangedEvent,
      async (event) => {
        if (event.companyId === made.company.id) durable.push(event);
      },
    );
    const connection = await pairedSimulator(t.app, admin, {});
    const number = '5491176543210';

    await inbound(t.app, admin, connection.id, { from: number, body: 'Hola' });
    const ticket = (await ticketOf(t.db, made.company.id, number))!;
    const accepted = await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const sent = await inject(t.app, admin, 'POST', `/messages/${ticket.id}`, { body: 'Te ayudo' });
    expect(sent.statusCode, sent.body).toBe(201);
    const resolved = await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, {
      status: 'closed',
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect((await inject(t.app, admin, 'DELETE', `/tickets/${ticket.id}`)).statusCode).toBe(204);

    const summary = (event: DomainEvent) =>
      event.type === 'ticket.changed'
        ? `ticket ${event.before?.status ?? 'new'} -> ${event.after.status} by ${event.byUserId ?? 'platform'}`
        : event.type === 'ticket.deleted'
          ? `ticket deleted (was ${event.before.status})`
          : event.type === 'message.created'
            ? `message ${event.fromMe ? 'out' : 'in'}`
            : event.type;
    expect(heard.map(summary)).toEqual([
      'ticket new -> pending by platform',
      'message in',
      `ticket pending -> open by ${made.admin.id}`,
      'message out',
      `ticket open -> closed by ${made.admin.id}`,
      'ticket deleted (was closed)',
    ]);
    expect(heard.every((e) => 'ticketId' in e && e.ticketId === ticket.id)).toBe(true);
    // The durable listener hears the same ticket changes, through the job queue.
    await eventually(
      () => Promise.resolve(durable.length),
      (n) => n === 3,
      'durable listener',
    );
    expect(durable.map(summary)).toEqual(
      heard.filter((e) => e.type === 'ticket.changed').map(summary),
    );
  });

  it('tells listeners why a message changed: sent, delivered, edited, revoked, failed, retried, deleted', async () => {
    const made = await makeCompany(t.db);
    const admin = await login(t.app, made.admin.email);
    const heard: EventOf<'message.updated'>[] = [];
    t.app.deps.events.on('message.updated', (event) => {
      if (event.companyId === made.company.id) heard.push(event);
    });
    const reasonsOf = (messageId: number) =>
      heard.filter((event) => event.messageId === messageId).map((event) => event.reason);
    const connection = await pairedSimulator(t.app, admin, {});
    const number = '5491176540001';
    await inbound(t.app, admin, connection.id, { from: number, body: 'Hola' });
    const ticket = (await ticketOf(t.db, made.company.id, number))!;
    const [hola] = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, false)));
    expect(
      (await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open' })).statusCode,
    ).toBe(200);

    // Handed to WhatsApp by the outbox, then read on the phone.
    const [sent] = (
      await inject(t.app, admin, 'POST', `/messages/${ticket.id}`, { body: 'Te ayudo' })
    ).json() as { id: number }[];
    await eventually(
      () => reasonsOf(sent.id),
      (reasons) => reasons.length === 1,
      'sent',
    );
    const [row] = await t.db.select().from(messages).where(eq(messages.id, sent.id));
    const acked = await inject(t.app, admin, 'POST', `/simulator/${connection.id}/ack`, {
      id: row.providerId,
      ack: 3,
    });
    expect(acked.statusCode).toBe(204);
    expect(reasonsOf(sent.id)).toEqual(['sent', 'ack']);

    // The contact edits, then revokes, what they wrote.
    const from = { id: connection.id, companyId: made.company.id, provider: 'simulator' as const };
    await handleChannelEvent(t.app.deps, {
      connection: from,
      event: { type: 'edit', providerId: hola.providerId!, body: 'Hola!' },
    });
    await handleChannelEvent(t.app.deps, {
      connection: from,
      event: { type: 'revoke', providerId: hola.providerId! },
    });
    expect(reasonsOf(hola.id)).toEqual(['edit', 'revoke']);

    // A number without WhatsApp: the send fails at once, fails again when retried, then is deleted.
    await t.db
      .update(contacts)
      .set({ number: '80076540001' })
      .where(eq(contacts.id, ticket.contactId));
    const [lost] = (
      await inject(t.app, admin, 'POST', `/messages/${ticket.id}`, { body: 'nadie' })
    ).json() as { id: number }[];
    await eventually(
      () => reasonsOf(lost.id),
      (reasons) => reasons.length === 1,
      'failed',
    );
    expect((await inject(t.app, admin, 'POST', `/messages/${lost.id}/retry`)).statusCode).toBe(200);
    await eventually(
      () => reasonsOf(lost.id),
      (reasons) => reasons.length === 3,
      'failed again',
    );
    expect((await inject(t.app, admin, 'DELETE', `/messages/${lost.id}`)).statusCode).toBe(200);
    expect(reasonsOf(lost.id)).toEqual(['failed', 'retried', 'failed', 'deleted']);
    expect(heard.every((event) => event.ticketId === ticket.id)).toBe(true);
  });
});
