import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import type { WhatsappView } from '@atendi/shared';
import { contacts, messages, queues, settings, tickets, userQueues } from '../../../db/schema';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type SharedTestContext,
} from '../../../../test/harness';
import { eventually } from '../../../../test/eventually';
import { caughtUp, closeSockets, listenAs } from '../../../../test/sockets';
import type { EventOf } from '../../../events/domain-events';
import { handleChannelEvent } from './tickets.engine';

let t: SharedTestContext;
let company: Awaited<ReturnType<typeof makeCompany>>;
let admin: Session;
let connection: WhatsappView;

// A connected simulator connection of a new company.
const pairedConnection = async () => {
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
  const created = (
    await inject(t.app, admin, 'POST', '/whatsapp', { name: 'Demo', provider: 'simulator' })
  ).json() as WhatsappView;
  await eventually(
    async () =>
      (await inject(t.app, admin, 'POST', `/simulator/${created.id}/scan`)).statusCode === 200,
    Boolean,
    'scan',
  );
  return created;
};

const inbound = (body: Record<string, unknown>) =>
  inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, body);

const ticketsOf = (contactId: number) =>
  t.db.select().from(tickets).where(eq(tickets.contactId, contactId));
const contactByNumber = async (number: string) =>
  (
    await t.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, company.company.id), eq(contacts.number, number)))
  )[0];
const messageCount = async (ticketId: number) =>
  (await t.db.select({ n: count() }).from(messages).where(eq(messages.ticketId, ticketId)))[0].n;

beforeAll(async () => {
  t = await sharedTestApp();
  connection = await pairedConnection();
});

describe('ingest', () => {
  it('keeps a WhatsApp message with NUL bytes (text, name, raw payload), without them', async () => {
    const from = '5491155550777';
    // Straight to the session, as a driver reports it: no HTTP edge in between.
    await t.app.deps.channels.extra(connection.id, 'inbound', {
      from,
      name: 'Nu\u0000ria',
      body: 'hola\u0000 mundo',
    });
    await eventually(async () => Boolean(await contactByNumber(from)), Boolean, 'contact');
    const contact = await contactByNumber(from);
    expect(contact.name).toBe('Nuria');
    const [ticket] = await ticketsOf(contact.id);
    await eventually(async () => (await messageCount(ticket.id)) === 1, Boolean, 'message');
    const [message] = await t.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(message.body).toBe('hola mundo');
    expect(ticket.lastMessage).toBe('hola mundo');
  });

  it('turns a first message into a contact, a waiting ticket and a stored message', async () => {
    const res = await inbound({
      from: '5491155550001',
      name: 'Lucía',
      body: 'Hola, ¿tienen stock?',
    });
    expect(res.statusCode).toBe(200);
    const contact = await contactByNumber('5491155550001');
    expect(contact).toMatchObject({ name: 'Lucía', isGroup: false });
    const [ticket] = await ticketsOf(contact.id);
    expect(ticket).toMatchObject({
      status: 'pending',
      whatsappId: connection.id,
      unreadMessages: 1,
      lastMessage: 'Hola, ¿tienen stock?',
      userId: null,
    });
    const [message] = await t.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(message).toMatchObject({
      providerId: res.json().id,
      body: 'Hola, ¿tienen stock?',
      fromMe: false,
      contactId: contact.id,
      mediaType: 'chat',
    });
  });

  it('tells contact.changed when a message creates its contact or really changes it, not on every message', async () => {
    const heard: EventOf<'contact.changed'>[] = [];
    t.app.deps.events.on('contact.changed', (event) => {
      if (event.companyId === company.company.id) heard.push(event);
    });
    const told = async (number: string) => {
      const contact = await contactByNumber(number);
      return heard.filter((e) => e.contactId === contact.id).map((e) => e.created);
    };
    // A new number: created, once; its next message changes nothing (updatedAt aside).
    await inbound({ from: '5491155550090', name: 'Nuevo', body: 'hola' });
    await inbound({ from: '5491155550090', name: 'Nuevo', body: 'sigo' });
    expect(await told('5491155550090')).toEqual([true]);
    // Named after its number until WhatsApp gives it a name: renamed once, kept after.
    await inbound({ from: '5491155550091', body: 'sin nombre' });
    await inbound({ from: '5491155550091', name: 'Con Nombre', body: 'ya con nombre' });
    await inbound({ from: '5491155550091', name: 'Otro Nombre', body: 'otro' });
    expect((await contactByNumber('5491155550091')).name).toBe('Con Nombre');
    expect(await told('5491155550091')).toEqual([true, false]);

    // Known only by its LID, then a message reveals its number: the contact takes it.
    const lid = '99887766554433@lid';
    const fromLid = (from: string, providerId: string) =>
      handleChannelEvent(t.app.deps, {
        connection: { id: connection.id, companyId: company.company.id, provider: 'simulator' },
        event: {
          type: 'message',
          message: {
            providerId,
            from,
            lid,
            body: 'desde LID',
            mediaType: 'chat',
            isGroup: false,
            fromMe: false,
            timestamp: new Date(),
          },
        },
      });
    await fromLid(lid, 'LID-1');
    const hidden = await contactByNumber(lid);
    await fromLid('5491155550092', 'LID-2');
    expect((await contactByNumber('5491155550092')).id).toBe(hidden.id);
    expect(heard.filter((e) => e.contactId === hidden.id).map((e) => e.created)).toEqual([
      true,
      false,
    ]);
  });

  it('stores a redelivered message once and does not count it twice', async () => {
    const first = await inbound({ from: '5491155550002', body: 'uno', id: 'WA-REDELIVERED' });
    expect(first.statusCode).toBe(200);
    await inbound({ from: '5491155550002', body: 'uno', id: 'WA-REDELIVERED' });
    await inbound({ from: '5491155550002', body: 'dos' });
    const contact = await contactByNumber('5491155550002');
    const [ticket] = await ticketsOf(contact.id);
    expect(await messageCount(ticket.id)).toBe(2);
    expect(ticket).toMatchObject({ unreadMessages: 2, lastMessage: 'dos' });
  });

  // 200 transactions contending on one embedded, single-threaded database take 15-30 s on a busy
  // 2-core machine: a correctness test, given room so load alone cannot fail it.
  it(
    '200 concurrent first messages from one new number: 1 contact, 1 ticket, 200 messages',
    { timeout: 90_000 },
    async () => {
      const number = '5491155550003';
      const created: boolean[] = [];
      t.app.deps.events.on('contact.changed', (event) => {
        if (event.companyId === company.company.id) created.push(event.created);
      });
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          t.app.deps.channels.extra(connection.id, 'inbound', {
            from: number,
            name: 'Masivo',
            body: `m${i}`,
          }),
        ),
      );
      expect(results).toHaveLength(200);
      const all = await t.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, company.company.id), eq(contacts.number, number)));
      expect(all).toHaveLength(1);
      // Told once, by the store that inserted it; the others changed nothing.
      expect(created).toEqual([true]);
      const ticketRows = await ticketsOf(all[0].id);
      expect(ticketRows).toHaveLength(1);
      expect(await messageCount(ticketRows[0].id)).toBe(200);
      expect(ticketRows[0].unreadMessages).toBe(200);
    },
  );

  it('keeps quoted replies and media', async () => {
    const original = await inbound({ from: '5491155550004', body: 'precio?', id: 'Q-ORIGINAL' });
    expect(original.statusCode).toBe(200);
    await inbound({
      from: '5491155550004',
      mediaType: 'image',
      fileName: 'foto.png',
      mediaBase64: Buffer.from('png').toString('base64'),
      quotedId: 'Q-ORIGINAL',
    });
    const contact = await contactByNumber('5491155550004');
    const [ticket] = await ticketsOf(contact.id);
    const rows = await t.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    const image = rows.find((m) => m.mediaType === 'image')!;
    const quoted = rows.find((m) => m.providerId === 'Q-ORIGINAL')!;
    expect(image.quotedMsgId).toBe(quoted.id);
    expect(image.mediaName).toBe('foto.png');
    expect(await t.app.deps.uploads.exists(company.company.id, image.mediaUrl!)).toBe(true);
    expect(ticket.lastMessage).toBe('[image]');
  });

  it('ignores group messages while CheckMsgIsGroup is enabled, and stores them once it is not', async () => {
    await inbound({ from: '120363000000001', body: 'en el grupo', isGroup: true });
    expect(await contactByNumber('120363000000001@g.us')).toBeUndefined();
    await t.db
      .update(settings)
      .set({ value: 'disabled' })
      .where(and(eq(settings.companyId, company.company.id), eq(settings.key, 'CheckMsgIsGroup')));
    await inbound({ from: '120363000000001', body: 'en el grupo', isGroup: true });
    const group = await contactByNumber('120363000000001@g.us');
    expect(group.isGroup).toBe(true);
    const [ticket] = await ticketsOf(group.id);
    expect(ticket.isGroup).toBe(true);
  });

  it('stores messages sent from the phone itself without counting them unread', async () => {
    await inbound({ from: '5491155550005', body: 'hola' });
    await handleChannelEvent(t.app.deps, {
      connection: { id: connection.id, companyId: company.company.id, provider: 'simulator' },
      event: {
        type: 'message',
        message: {
          providerId: 'FROM-PHONE-1',
          from: '5491155550005',
          body: 'Te respondo desde el celular',
          mediaType: 'chat',
          isGroup: false,
          fromMe: true,
          timestamp: new Date(),
        },
      },
    });
    const contact = await contactByNumber('5491155550005');
    const [ticket] = await ticketsOf(contact.id);
    expect(ticket).toMatchObject({
      unreadMessages: 1,
      lastMessage: 'Te respondo desde el celular',
      // The notifications preview what the contact wrote, not the phone's answer.
      lastContactMessage: 'hola',
    });
    const [mine] = await t.db
      .select()
      .from(messages)
      .where(eq(messages.providerId, 'FROM-PHONE-1'));
    expect(mine).toMatchObject({ fromMe: true, read: true, contactId: null });
  });

  it('moves acks of sent messages forward only', async () => {
    await inbound({ from: '5491155550006', body: 'hola' });
    const contact = await contactByNumber('5491155550006');
    const [ticket] = await ticketsOf(contact.id);
    const sent = await t.app.deps.channels.send(connection.id, {
      to: contact.number,
      body: 'Buenas',
    });
    await t.db.insert(messages).values({
      companyId: company.company.id,
      providerId: sent.providerId,
      ticketId: ticket.id,
      whatsappId: connection.id,
      body: 'Buenas',
      fromMe: true,
      ack: 2,
    });
    const ack = (value: number) =>
      inject(t.app, admin, 'POST', `/simulator/${connection.id}/ack`, {
        id: sent.providerId,
        ack: value,
      });
    await ack(4);
    await ack(3);
    const [row] = await t.db
      .select()
      .from(messages)
      .where(eq(messages.providerId, sent.providerId));
    expect(row.ack).toBe(4);
  });
});

describe('live updates reach only those who may see the ticket', () => {
  const listen = (session: Session, list: string) =>
    listenAs<{ ticket?: { id: number } }>(t.app, session, async (socket) => {
      // The server acknowledges each join once its rooms are joined.
      expect(await socket.timeout(5000).emitWithAck('joinTickets', list)).toBe(true);
      expect(await socket.timeout(5000).emitWithAck('joinNotification')).toBe(true);
    });

  afterAll(() => closeSockets());

  it('a queue’s ticket goes to admins and that queue’s agents, not to other agents or companies', async () => {
    const companyId = company.company.id;
    const [sales, support] = await t.db
      .insert(queues)
      .values([
        { companyId, name: 'Ventas', color: '#00aa00' },
        { companyId, name: 'Soporte', color: '#0000aa' },
      ])
      .returning();
    const seller = await makeUser(t.db, companyId, 'user');
    const supporter = await makeUser(t.db, companyId, 'user');
    await t.db.insert(userQueues).values([
      { userId: seller.id, queueId: sales.id, companyId },
      { userId: supporter.id, queueId: support.id, companyId },
    ]);
    const other = await makeCompany(t.db);

    await inbound({ from: '5491155550007', body: 'primero' });
    const contact = await contactByNumber('5491155550007');
    const [ticket] = await ticketsOf(contact.id);
    await t.db.update(tickets).set({ queueId: sales.id }).where(eq(tickets.id, ticket.id));

    const adminHeard = await listen(admin, 'pending');
    const sellerHeard = await listen(await login(t.app, seller.email), 'pending');
    const supporterHeard = await listen(await login(t.app, supporter.email), 'pending');
    const otherHeard = await listen(await login(t.app, other.admin.email), 'pending');

    // The simulator's inbound request returns once the message is stored and announced.
    await inbound({ from: '5491155550007', body: 'segundo' });
    await caughtUp(adminHeard, sellerHeard, supporterHeard, otherHeard);

    const names = (heard: typeof adminHeard) => heard.map((h) => h.event).sort();
    expect(names(adminHeard)).toEqual([
      `company-${companyId}-appMessage`,
      `company-${companyId}-ticket`,
    ]);
    expect(names(sellerHeard)).toEqual([
      `company-${companyId}-appMessage`,
      `company-${companyId}-ticket`,
    ]);
    expect(adminHeard.find((h) => h.event.endsWith('-ticket'))?.payload.ticket?.id).toBe(ticket.id);
    expect(supporterHeard).toEqual([]);
    expect(otherHeard).toEqual([]);
  });
});
