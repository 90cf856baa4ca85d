import { and, eq, inArray } from 'drizzle-orm';
import type {
  SettingKey,
  SimulatorInbound,
  SimulatorOutboundView,
  WhatsappView,
} from '@atendi/shared';
import type { App } from '../src/app';
import type { Db } from '../src/db/client';
import {
  contacts,
  jobs,
  messages,
  settings,
  ticketNotes,
  tickets,
  whatsappAuthKeys,
  whatsapps,
} from '../src/db/schema';
import { eventually } from './eventually';
import { inject, type Session } from './harness';

// Helpers for tests that talk to a simulator connection the way a phone would.

// A simulator connection of the admin's company, created with the fields given and paired.
export const pairedSimulator = async (app: App, admin: Session, fields: object) => {
  const created = await inject(app, admin, 'POST', '/whatsapp', {
    name: `Sim ${Math.random().toString(36).slice(2, 8)}`,
    provider: 'simulator',
    ...fields,
  });
  if (created.statusCode !== 200 && created.statusCode !== 201)
    throw new Error(`connection: ${created.statusCode} ${created.body}`);
  const connection = created.json() as WhatsappView;
  await eventually(
    async () => (await inject(app, admin, 'POST', `/simulator/${connection.id}/scan`)).statusCode,
    (status) => status === 200,
    'scan',
  );
  return connection;
};

// What the simulated phones received on a connection, oldest first.
export const outbound = async (app: App, admin: Session, connectionId: number) =>
  (
    await inject(app, admin, 'GET', `/simulator/${connectionId}/outbound`)
  ).json() as SimulatorOutboundView[];

// What one simulated phone received from a connection, oldest first.
export const receivedBy = async (app: App, admin: Session, connectionId: number, to: string) =>
  (await outbound(app, admin, connectionId)).filter((m) => m.to === to);

// The texts that phone holds once it holds at least `count` of them.
export const untilReceived = (
  app: App,
  admin: Session,
  connectionId: number,
  to: string,
  count: number,
  what: string,
) =>
  eventually(
    async () => (await receivedBy(app, admin, connectionId, to)).map((m) => m.body),
    (texts) => texts.length >= count,
    what,
  );

// The notes on a ticket (a bot's hand-over or failure is told there).
export const noteTexts = async (db: Db, ticketId: number) =>
  (await db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticketId))).map(
    (n) => n.note,
  );

export const inbound = (
  app: App,
  admin: Session,
  connectionId: number,
  message: Pick<SimulatorInbound, 'from' | 'body'> & Partial<SimulatorInbound>,
) => inject(app, admin, 'POST', `/simulator/${connectionId}/inbound`, message);

// The contact's newest ticket.
export const ticketOf = async (db: Db, companyId: number, number: string) => {
  const [contact] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)));
  if (!contact) return undefined;
  const rows = await db.select().from(tickets).where(eq(tickets.contactId, contact.id));
  return rows.sort((a, b) => b.id - a.id)[0];
};

// Once nothing queued for the ticket (its sends, a flow's turns) waits or runs: whatever its stored
// messages set off has happened, so a check that nothing more arrives can follow at once.
export const ticketSettled = (db: Db, ticketId: number) =>
  eventually(
    () =>
      db
        .select({ id: jobs.id, queue: jobs.queue, status: jobs.status })
        .from(jobs)
        .where(
          and(eq(jobs.key, `ticket:${ticketId}`), inArray(jobs.status, ['pending', 'running'])),
        ),
    (left) => left.length === 0,
    `ticket ${ticketId}'s jobs to run`,
  );

// The stored messages of a ticket, oldest first.
export const messageTexts = async (db: Db, ticketId: number) =>
  (
    await db
      .select({ body: messages.body })
      .from(messages)
      .where(eq(messages.ticketId, ticketId))
      .orderBy(messages.id)
  ).map((m) => m.body);

export const setSetting = (db: Db, companyId: number, key: SettingKey, value: string) =>
  db
    .update(settings)
    .set({ value })
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key)));

// A paired simulator connection left CONNECTED by a node that is gone: nothing runs it.
export const orphanedConnection = async (db: Db, companyId: number, number: string) => {
  const [row] = await db
    .insert(whatsapps)
    .values({ companyId, name: 'Huérfana', provider: 'simulator', status: 'CONNECTED', number })
    .returning();
  await db.insert(whatsappAuthKeys).values({
    whatsappId: row!.id,
    companyId,
    type: 'creds',
    keyId: '',
    value: { paired: true, number },
  });
  return row!;
};
