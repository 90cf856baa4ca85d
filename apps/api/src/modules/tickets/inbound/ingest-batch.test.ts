import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  contacts,
  messages,
  queues,
  settings,
  tickets,
  userRatings,
  whatsappQueues,
  whatsapps,
} from '../../../db/schema';
import {
  sharedTestApp,
  makeCompany,
  makeUser,
  type SharedTestContext,
} from '../../../../test/harness';
import type { InboundMessage } from '../../../channels/driver';
import type { DomainEvent, DomainEventType, EventOf } from '../../../events/domain-events';
import type { MessageInput } from './ingest';
import { ingestBatch, storeMessages } from './ingest-batch';

// The set-based store of inbound messages (ingest-batch.ts), called as the tickets engine's queue calls
// it: every guarantee of the one-message ingest, over a batch.

let t: SharedTestContext;
let companyId: number;
let whatsappId: number;
let sequence = 0;

const message = (from: string, body: string, extra: Partial<InboundMessage> = {}): MessageInput => {
  sequence += 1;
  return {
    connection: { id: whatsappId, companyId, provider: 'simulator' },
    event: {
      type: 'message',
      message: {
        providerId: `BATCH-${sequence}`,
        from,
        body,
        mediaType: 'chat',
        isGroup: false,
        fromMe: false,
        timestamp: new Date(),
        ...extra,
      },
    },
  };
};

const contactOf = async (number: string) =>
  (
    await t.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
  )[0];
const ticketsOf = (contactId: number) =>
  t.db.select().from(tickets).where(eq(tickets.contactId, contactId)).orderBy(asc(tickets.id));
const messagesOf = (ticketId: number) =>
  t.db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(asc(messages.id));

// The events of a type this file's company raises from now on.
const hear = <T extends DomainEventType>(type: T) => {
  const heard: EventOf<T>[] = [];
  t.app.deps.events.on(type, (event) => {
    if ((event as DomainEvent).companyId === companyId) heard.push(event);
  });
  return heard;
};

beforeAll(async () => {
  t = await sharedTestApp();
  const made = await makeCompany(t.db);
  companyId = made.company.id;
  whatsappId = (
    await t.db
      .insert(whatsapps)
      .values({ companyId, name: 'Batch', provider: 'simulator', status: 'CONNECTED' })
      .returning()
  )[0].id;
});

describe('batched ingest', () => {
  it('stores a batch as one message after another: one contact and ticket per number, counts, order, names', async () => {
    const batch = [
      message('5491160000001', 'hola', { contactName: '' }),
      message('5491160000002', 'buenas', { contactName: 'Bruno' }),
      message('5491160000001', 'soy Ana', { contactName: 'Ana' }),
      message('5491160000001', 'te escribo desde el celular', { fromMe: true }),
      message('5491160000002', 'sigo acá', { contactName: 'Otro nombre' }),
    ];
    const results = await ingestBatch(t.app.deps, batch);

    const ana = await contactOf('5491160000001');
    const bruno = await contactOf('5491160000002');
    // Named after its number first, then by the first message that gives a name; a name stays.
    expect(ana.name).toBe('Ana');
    expect(bruno.name).toBe('Bruno');
    const [anaTicket] = await ticketsOf(ana.id);
    const [brunoTicket] = await ticketsOf(bruno.id);
    expect(await ticketsOf(ana.id)).toHaveLength(1);
    expect(anaTicket).toMatchObject({
      status: 'pending',
      // The phone's own message is stored but is nobody's unread.
      unreadMessages: 2,
      lastMessage: 'te escribo desde el celular',
      // What the contact last wrote, for the notifications' preview.
      lastContactMessage: 'soy Ana',
    });
    expect(brunoTicket).toMatchObject({ unreadMessages: 2, lastMessage: 'sigo acá' });
    expect((await messagesOf(anaTicket.id)).map((m) => [m.body, m.fromMe, m.contactId])).toEqual([
      ['hola', false, ana.id],
      ['soy Ana', false, ana.id],
      ['te escribo desde el celular', true, null],
    ]);
    // Each caller learns its own message, the ticket as the batch left it, and whether it opened it.
    expect(results.map((r) => [r?.message.body, r?.ticket.id, r?.ticketCreated])).toEqual([
      ['hola', anaTicket.id, true],
      ['buenas', brunoTicket.id, true],
      ['soy Ana', anaTicket.id, false],
      ['te escribo desde el celular', anaTicket.id, false],
      ['sigo acá', brunoTicket.id, false],
    ]);
    expect(results[4]!.ticket.unreadMessages).toBe(2);
  });

  it('tells contact.changed for each contact a batch created or renamed, not for every message', async () => {
    const heard = hear('contact.changed');
    const told = async (number: string) => {
      const contact = await contactOf(number);
      return heard.filter((e) => e.contactId === contact.id).map((e) => e.created);
    };
    // New, and named by a later message of the same batch: one creation.
    await ingestBatch(t.app.deps, [
      message('5491160000061', 'hola', { contactName: '' }),
      message('5491160000062', 'buenas', { contactName: 'Bruno' }),
      message('5491160000061', 'soy Ana', { contactName: 'Ana' }),
    ]);
    // Known: nothing changes (a name stays), a new one named after its number is created.
    await ingestBatch(t.app.deps, [
      message('5491160000061', 'otra vez', { contactName: 'Otro nombre' }),
      message('5491160000062', 'sigo'),
      message('5491160000063', 'sin nombre', { contactName: '' }),
    ]);
    // Named after its number until a message gives it a name.
    await ingestBatch(t.app.deps, [
      message('5491160000063', 'ahora sí', { contactName: 'Carla' }),
      message('5491160000062', 'y yo'),
    ]);
    expect(await told('5491160000061')).toEqual([true]);
    expect(await told('5491160000062')).toEqual([true]);
    expect(await told('5491160000063')).toEqual([true, false]);
    expect((await contactOf('5491160000063')).name).toBe('Carla');
  });

  it('stores a redelivered message once, whether it comes in the same batch or again later', async () => {
    const first = message('5491160000011', 'primero');
    const copy = { ...first, event: { ...first.event, message: { ...first.event.message } } };
    const results = await ingestBatch(t.app.deps, [first, copy, message('5491160000011', 'otro')]);
    expect(results[0]?.message.body).toBe('primero');
    expect(results[1]).toBeNull();
    const contact = await contactOf('5491160000011');
    const [ticket] = await ticketsOf(contact.id);
    expect(ticket.unreadMessages).toBe(2);

    const again = await ingestBatch(t.app.deps, [copy, message('5491160000012', 'nuevo')]);
    expect(again[0]).toBeNull();
    expect(again[1]?.message.body).toBe('nuevo');
    expect((await ticketsOf(contact.id))[0]).toMatchObject({
      unreadMessages: 2,
      lastMessage: 'otro',
    });
    expect(await messagesOf(ticket.id)).toHaveLength(2);
  });

  it('links a quoted message, even one stored by the same batch', async () => {
    const earlier = message('5491160000021', 'una pregunta');
    await ingestBatch(t.app.deps, [earlier]);
    const question = message('5491160000021', 'otra pregunta');
    const batch = [
      question,
      message('5491160000021', 'sobre la primera', { quotedId: earlier.event.message.providerId }),
      message('5491160000021', 'sobre la segunda', { quotedId: question.event.message.providerId }),
      message('5491160000021', 'sobre nada', { quotedId: 'UNKNOWN' }),
    ];
    const results = await ingestBatch(t.app.deps, batch);
    const [, aboutFirst, aboutSecond, aboutNothing] = results.map((r) => r!.message);
    const stored = await t.db
      .select()
      .from(messages)
      .where(
        inArray(
          messages.providerId,
          [earlier, question].map((m) => m.event.message.providerId),
        ),
      )
      .orderBy(asc(messages.id));
    expect(aboutFirst.quotedMsgId).toBe(stored[0].id);
    expect(aboutSecond.quotedMsgId).toBe(stored[1].id);
    expect(aboutNothing.quotedMsgId).toBeNull();
    const [row] = await t.db.select().from(messages).where(eq(messages.id, aboutSecond.id));
    expect(row.quotedMsgId).toBe(stored[1].id);
  });

  it('takes a contact’s first message of the batch as its rating; the next opens a new conversation', async () => {
    await ingestBatch(t.app.deps, [message('5491160000031', 'hola')]);
    const contact = await contactOf('5491160000031');
    const [resolved] = await ticketsOf(contact.id);
    await t.db
      .update(tickets)
      .set({ status: 'closed', ratingAt: new Date() })
      .where(eq(tickets.id, resolved.id));

    const results = await ingestBatch(t.app.deps, [
      message('5491160000031', '3'),
      message('5491160000031', '2'),
    ]);
    expect(results[0]).toMatchObject({ rating: 3, ticket: { id: resolved.id } });
    expect(results[1]?.rating).toBeUndefined();
    const [rating] = await t.db
      .select()
      .from(userRatings)
      .where(eq(userRatings.ticketId, resolved.id));
    expect(rating.rate).toBe(3);
    const [closed, fresh] = await ticketsOf(contact.id);
    expect(closed).toMatchObject({ status: 'closed', ratingAt: null, unreadMessages: 1 });
    expect(fresh).toMatchObject({ status: 'pending', unreadMessages: 1, lastMessage: '2' });
    expect((await messagesOf(closed.id)).map((m) => m.body)).toEqual(['hola', '3']);
  });

  it('tells a rating answer as ticket.rated, with the agent who held the ticket, in a batch and alone', async () => {
    const rated = hear('ticket.rated');
    const agent = await makeUser(t.db, companyId, 'user');
    const resolvedFor = async (number: string) => {
      await ingestBatch(t.app.deps, [message(number, 'hola')]);
      const [ticket] = await ticketsOf((await contactOf(number)).id);
      await t.db
        .update(tickets)
        .set({ status: 'closed', userId: agent.id, ratingAt: new Date() })
        .where(eq(tickets.id, ticket.id));
      return ticket.id;
    };
    const inBatch = await resolvedFor('5491160000071');
    const alone = await resolvedFor('5491160000072');
    await ingestBatch(t.app.deps, [message('5491160000071', '2'), message('5491160000073', '1')]);
    await storeMessages(t.app.deps, [message('5491160000072', '3')], () => undefined);
    expect(rated).toEqual([
      { type: 'ticket.rated', companyId, ticketId: inBatch, userId: agent.id, rate: 2 },
      { type: 'ticket.rated', companyId, ticketId: alone, userId: agent.id, rate: 3 },
    ]);
  });

  it('stores a group’s message on the group’s ticket, from the person who wrote it', async () => {
    const inGroup = () =>
      message('120363000000041@g.us', 'hola grupo', {
        isGroup: true,
        participant: '5491160000041',
        contactName: 'Gabi',
      });
    // The company ignores group messages (CheckMsgIsGroup, enabled by default): nothing is stored.
    expect(await ingestBatch(t.app.deps, [inGroup()])).toEqual([null]);
    expect(await contactOf('120363000000041@g.us')).toBeUndefined();
    await t.db
      .update(settings)
      .set({ value: 'disabled' })
      .where(and(eq(settings.companyId, companyId), eq(settings.key, 'CheckMsgIsGroup')));
    const [result] = await ingestBatch(t.app.deps, [inGroup()]);
    const group = await contactOf('120363000000041@g.us');
    const person = await contactOf('5491160000041');
    expect(group).toMatchObject({ isGroup: true });
    expect(person).toMatchObject({ isGroup: false, name: 'Gabi' });
    expect(result?.ticket).toMatchObject({ contactId: group.id, isGroup: true });
    expect(result?.message).toMatchObject({
      contactId: person.id,
      participant: '5491160000041',
    });
  });

  it('stores each message on its own when the batch fails: one bad message fails only itself', async () => {
    const failures: unknown[] = [];
    const outcomes = await storeMessages(
      t.app.deps,
      [
        message('5491160000051', 'bien'),
        // PostgreSQL refuses a NUL in text (the channel layer strips them; this one got through).
        message('5491160000052', 'mal\u0000'),
        message('5491160000053', 'también bien'),
      ],
      (error) => failures.push(error),
    );
    expect(failures).toHaveLength(1);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(await contactOf('5491160000051')).toBeDefined();
    expect(await contactOf('5491160000053')).toBeDefined();
    const [bad] = await t.db
      .select()
      .from(messages)
      .where(eq(messages.body, 'mal\u0000'.replace('\u0000', '')));
    expect(bad).toBeUndefined();
  });

  it('parallel batches sharing new numbers and redelivered messages end with one of each', async () => {
    const numbers = Array.from({ length: 8 }, (_, i) => `54911600001${String(i).padStart(2, '0')}`);
    const batches = Array.from({ length: 6 }, (_, b) =>
      numbers.map((number, i) => message(number, `mensaje ${b}-${i}`)),
    );
    // Every other batch also carries the first batch's messages again, as a redelivery would.
    const sent = batches.map((batch, b) => (b % 2 ? [...batches[0], ...batch] : batch));
    const changes = hear('contact.changed');
    const outcomes = await Promise.all(
      sent.map((batch) => storeMessages(t.app.deps, batch, () => undefined)),
    );
    expect(outcomes.flat().every((o) => o.ok)).toBe(true);
    for (const number of numbers) {
      const contact = await contactOf(number);
      const mine = await ticketsOf(contact.id);
      expect(mine).toHaveLength(1);
      const stored = await messagesOf(mine[0].id);
      expect(stored).toHaveLength(6);
      expect(new Set(stored.map((m) => m.providerId)).size).toBe(6);
      expect(mine[0].unreadMessages).toBe(6);
    }
    // Each message was given to exactly one caller as stored; the copies answered null.
    const storedResults = outcomes.flat().filter((o) => o.ok && o.value);
    expect(storedResults).toHaveLength(6 * numbers.length);
    // Each contact was told created once, by the batch that inserted it, and never changed.
    const ids = await Promise.all(numbers.map(async (number) => (await contactOf(number)).id));
    expect(changes.map((e) => [e.contactId, e.created]).sort()).toEqual(
      ids.map((id) => [id, true]).sort(),
    );
  });

  // A waiting conversation's message is held for the queue bot's turn only when the bot can route it:
  // on a connection without queues it reaches the screens with its store (awaitsBot false), in a
  // batch and alone alike; once the connection has a queue, the next new conversation waits.
  it('holds a message for the bot only where the connection has queues to route it to', async () => {
    // Another company's connection has a queue: not this one's.
    const other = await makeCompany(t.db);
    const [elsewhere] = await t.db
      .insert(whatsapps)
      .values({ companyId: other.company.id, name: 'Otra', provider: 'simulator' })
      .returning();
    const [theirs] = await t.db
      .insert(queues)
      .values({ companyId: other.company.id, name: 'Suya', color: '#000004' })
      .returning();
    await t.db
      .insert(whatsappQueues)
      .values({ companyId: other.company.id, whatsappId: elsewhere.id, queueId: theirs.id });
    const batch = [message('5491160000401', 'hola'), message('5491160000402', 'buenas')];
    const stored = await ingestBatch(t.app.deps, batch);
    expect(stored.map((r) => r?.awaitsBot)).toEqual([false, false]);
    const [alone] = await storeMessages(t.app.deps, [message('5491160000403', 'hola')], () => {});
    expect(alone).toMatchObject({ ok: true, value: { awaitsBot: false } });

    const [queue] = await t.db
      .insert(queues)
      .values({ companyId, name: 'Ventas', color: '#000003' })
      .returning();
    await t.db.insert(whatsappQueues).values({ companyId, whatsappId, queueId: queue.id });
    try {
      const routed = await ingestBatch(t.app.deps, [
        message('5491160000404', 'hola'),
        message('5491160000405', 'buenas'),
      ]);
      expect(routed.map((r) => r?.awaitsBot)).toEqual([true, true]);
      expect(routed[0]!.ticket).not.toHaveProperty('routable');
      const [one] = await storeMessages(t.app.deps, [message('5491160000406', 'hola')], () => {});
      expect(one).toMatchObject({ ok: true, value: { awaitsBot: true } });
      expect(one.ok && one.value!.ticket).not.toHaveProperty('routable');
    } finally {
      await t.db.delete(whatsappQueues).where(eq(whatsappQueues.queueId, queue.id));
    }
  });
});
