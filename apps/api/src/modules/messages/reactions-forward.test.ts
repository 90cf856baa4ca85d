import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import type { ChatMessageView, SimulatorOutboundView, WhatsappView } from '@atendi/shared';
import { contacts, messageReactions, messages, simulatorMessages, tickets } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { multipart } from '../../../test/multipart';
import { loadReactions, storeReaction } from '../tickets';

// Issue 39: reactions in and out, and forwarding, on the simulator's phone (the same channel events
// and session calls as Baileys and the Cloud API, whose wire formats their own tests cover).

let t: TestContext;
let company: Awaited<ReturnType<typeof makeCompany>>;
let admin: Session;
let connection: WhatsappView;
let port = 0;
const sockets: Socket[] = [];

let numbers = 0;
const newNumber = () => `54911777${String((numbers += 1)).padStart(5, '0')}`;

// A contact writes in; the admin holds the conversation.
const conversation = async (body = 'Hola') => {
  const number = newNumber();
  const res = await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, {
    from: number,
    name: `Cliente ${number.slice(-2)}`,
    body,
  });
  expect(res.statusCode).toBe(200);
  const [contact] = await t.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, company.company.id), eq(contacts.number, number)));
  const [ticket] = await t.db
    .update(tickets)
    .set({ status: 'open', userId: admin.userId })
    .where(eq(tickets.contactId, contact.id))
    .returning();
  return { contact, ticket, inboundId: res.json().id as string };
};

// An agent's message that reached the phone: its view and provider id.
const sentMessage = async (ticketId: number, body: string) => {
  const res = await inject(t.app, admin, 'POST', `/messages/${ticketId}`, { body });
  expect(res.statusCode).toBe(201);
  const [created] = res.json() as ChatMessageView[];
  const providerId = await eventually(
    async () =>
      (await t.db.select().from(messages).where(eq(messages.id, created.id)))[0].providerId,
    Boolean,
    'sent',
  );
  return { id: created.id, providerId: providerId! };
};

type Heard = { event: string; payload: { action: string; message?: ChatMessageView } };
const listen = async (ticketId: number) => {
  const socket = connect(`http://127.0.0.1:${port}`, {
    query: { token: admin.token },
    transports: ['websocket'],
    forceNew: true,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  const heard: Heard[] = [];
  socket.onAny((event: string, payload: Heard['payload']) => heard.push({ event, payload }));
  expect(await socket.timeout(5000).emitWithAck('joinChatBox', String(ticketId))).toBe(true);
  return heard;
};
// The reactions the last live update of a message showed.
const liveReactions = (heard: Heard[], messageId: number) =>
  heard
    .filter(
      (h) =>
        h.event.endsWith('-appMessage') &&
        h.payload.action === 'update' &&
        h.payload.message?.id === messageId,
    )
    .at(-1)?.payload.message?.reactions;

const react = (messageId: number, emoji: string, session = admin) =>
  inject(t.app, session, 'PUT', `/messages/${messageId}/reaction`, { emoji });
const contactReacts = (from: string, id: string, emoji: string) =>
  inject(t.app, admin, 'POST', `/simulator/${connection.id}/reaction`, { from, id, emoji });
const phoneRow = async (providerId: string) =>
  (
    await t.db.select().from(simulatorMessages).where(eq(simulatorMessages.providerId, providerId))
  )[0];
const forward = (messageIds: number[], contactId: number, session = admin) =>
  inject(t.app, session, 'POST', '/messages/forward', { messageIds, contactId });

beforeAll(async () => {
  t = await createTestApp();
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
  const created = (
    await inject(t.app, admin, 'POST', '/whatsapp', {
      name: `Demo ${randomBytes(3).toString('hex')}`,
      provider: 'simulator',
    })
  ).json() as WhatsappView;
  await eventually(
    async () =>
      (await inject(t.app, admin, 'POST', `/simulator/${created.id}/scan`)).statusCode === 200,
    Boolean,
    'scan',
  );
  connection = created;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  sockets.forEach((s) => s.disconnect());
  await t.close();
});

describe('a contact reacts', () => {
  it('shows on the message live; a new reaction replaces it and an empty one takes it back', async () => {
    const { contact, ticket } = await conversation();
    const mine = await sentMessage(ticket.id, '¿Le sirvió la información?');
    const heard = await listen(ticket.id);

    expect((await contactReacts(contact.number, mine.providerId, '👍')).statusCode).toBe(204);
    await eventually(
      async () => liveReactions(heard, mine.id),
      (r) => r?.length === 1,
      'live',
    );
    expect(liveReactions(heard, mine.id)).toEqual([
      { emoji: '👍', fromMe: false, name: contact.name, at: expect.any(String) },
    ]);

    expect((await contactReacts(contact.number, mine.providerId, '❤️')).statusCode).toBe(204);
    await eventually(
      async () => liveReactions(heard, mine.id),
      (r) => r?.[0]?.emoji === '❤️',
      'replaced',
    );
    expect(liveReactions(heard, mine.id)).toHaveLength(1);

    // The chat, loaded afresh, shows the same.
    const page = (await inject(t.app, admin, 'GET', `/messages/${ticket.id}`)).json() as {
      messages: ChatMessageView[];
    };
    expect(page.messages.find((m) => m.id === mine.id)?.reactions.map((r) => r.emoji)).toEqual([
      '❤️',
    ]);

    expect((await contactReacts(contact.number, mine.providerId, '')).statusCode).toBe(204);
    await eventually(
      async () => liveReactions(heard, mine.id),
      (r) => r?.length === 0,
      'removed',
    );
  });

  it('a late report older than the reaction shown changes nothing', async () => {
    const { contact, ticket } = await conversation();
    const mine = await sentMessage(ticket.id, 'Listo');
    expect((await contactReacts(contact.number, mine.providerId, '😂')).statusCode).toBe(204);
    const late = await storeReaction(t.db, {
      companyId: company.company.id,
      messageId: mine.id,
      fromMe: false,
      sender: contact.number,
      emoji: '😢',
      reactedAt: new Date(Date.now() - 60_000),
    });
    expect(late).toBe(false);
    expect((await loadReactions(t.db, [mine.id])).get(mine.id)?.map((r) => r.emoji)).toEqual([
      '😂',
    ]);
  });

  it('refuses what is not one emoji, and a message of another chat', async () => {
    const { contact, ticket } = await conversation();
    const mine = await sentMessage(ticket.id, 'Hola');
    for (const emoji of ['ok', '👍👍', 'a👍', ' '])
      expect((await contactReacts(contact.number, mine.providerId, emoji)).statusCode).toBe(400);
    const other = await conversation();
    // The phone has no such message in that chat.
    expect((await contactReacts(other.contact.number, mine.providerId, '👍')).json().error).toBe(
      'ERR_FETCH_WAPP_MSG',
    );
    expect(await loadReactions(t.db, [mine.id])).toEqual(new Map());
  });
});

describe('PUT /messages/:id/reaction', () => {
  it('reacts on WhatsApp, shows who chose it, and takes it back', async () => {
    const { ticket, inboundId } = await conversation('Gracias por todo');
    const [theirs] = await t.db.select().from(messages).where(eq(messages.providerId, inboundId));
    const heard = await listen(ticket.id);

    const res = await react(theirs.id, '🙏');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as ChatMessageView).reactions).toEqual([
      { emoji: '🙏', fromMe: true, name: company.admin.name, at: expect.any(String) },
    ]);
    expect((await phoneRow(inboundId)).platformReaction).toBe('🙏');
    await eventually(
      async () => liveReactions(heard, theirs.id),
      (r) => r?.length === 1,
      'live',
    );

    // A skin tone, a flag and a keycap are one emoji each.
    for (const emoji of ['👍🏽', '🇲🇽', '1️⃣'])
      expect((await react(theirs.id, emoji)).statusCode).toBe(200);
    expect((await phoneRow(inboundId)).platformReaction).toBe('1️⃣');

    const removed = await react(theirs.id, '');
    expect((removed.json() as ChatMessageView).reactions).toEqual([]);
    expect((await phoneRow(inboundId)).platformReaction).toBe('');
  });

  it('the company has one reaction however many people choose one at once', async () => {
    const { ticket } = await conversation();
    const mine = await sentMessage(ticket.id, 'Pedido enviado');
    const emojis = ['👍', '❤️', '😂', '😮', '🙏'];
    const answers = await Promise.all(emojis.map((emoji) => react(mine.id, emoji)));
    expect(answers.map((a) => a.statusCode)).toEqual(emojis.map(() => 200));
    const rows = await t.db
      .select()
      .from(messageReactions)
      .where(eq(messageReactions.messageId, mine.id));
    expect(rows).toHaveLength(1);
    expect(emojis).toContain(rows[0].emoji);
  });

  it('refuses bad emojis, unsent and deleted messages; another company sees nothing', async () => {
    const { ticket } = await conversation();
    const mine = await sentMessage(ticket.id, 'Hola');
    for (const emoji of ['ok', '👍👍', 'x'.repeat(40)]) {
      const bad = await react(mine.id, emoji);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe('ERR_VALIDATION');
    }
    const other = await makeCompany(t.db);
    expect((await react(mine.id, '👍', await login(t.app, other.admin.email))).statusCode).toBe(
      404,
    );
    await t.db.update(messages).set({ isDeleted: true }).where(eq(messages.id, mine.id));
    expect((await react(mine.id, '👍')).json().error).toBe('ERR_VALIDATION');
    const [unsent] = await t.db
      .insert(messages)
      .values({
        companyId: company.company.id,
        ticketId: ticket.id,
        whatsappId: connection.id,
        body: 'borrador',
        fromMe: true,
      })
      .returning();
    expect((await react(unsent.id, '👍')).json().error).toBe('ERR_VALIDATION');
    expect(await loadReactions(t.db, [mine.id, unsent.id])).toEqual(new Map());
  });
});

describe('POST /messages/forward', () => {
  const png = Buffer.from('89504e470d0a1a0a0000', 'hex');

  it('forwards a text and a photo, in order and marked forwarded, into a new conversation', async () => {
    const { ticket } = await conversation();
    const form = multipart({ body: 'La foto del producto' }, [
      { name: 'foto.png', type: 'image/png', data: png },
    ]);
    const photo = await t.app.inject({
      method: 'POST',
      url: `/messages/${ticket.id}`,
      headers: { authorization: `Bearer ${admin.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(photo.statusCode, photo.body).toBe(201);
    const [photoMessage] = photo.json() as ChatMessageView[];
    const text = await sentMessage(ticket.id, 'Precio: 100');

    const target = (
      await inject(t.app, admin, 'POST', '/contacts', { name: 'Ana', number: newNumber() })
    ).json() as { id: number; number: string };
    const res = await forward([text.id, photoMessage.id], target.id);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as {
      ticket: { id: number; status: string; userId: number };
      messages: ChatMessageView[];
    };
    expect(body.ticket).toMatchObject({ status: 'open', userId: admin.userId });
    // In the order they were written, whatever order they were picked in.
    expect(body.messages.map((m) => [m.body, m.mediaType, m.isForwarded])).toEqual([
      ['La foto del producto', 'image', true],
      ['Precio: 100', 'chat', true],
    ]);
    // The file is a copy: the original's link and the forward's are two files.
    expect(new URL(body.messages[0].mediaUrl!).pathname).not.toBe(
      new URL(photoMessage.mediaUrl!).pathname,
    );

    const onPhone = await eventually(
      async () =>
        (
          (
            await inject(t.app, admin, 'GET', `/simulator/${connection.id}/outbound`)
          ).json() as SimulatorOutboundView[]
        ).filter((m) => m.to === target.number),
      (sent) => sent.length === 2,
      'forwards on the phone',
    );
    expect(onPhone.map((m) => [m.body, m.mediaType, m.forwarded])).toEqual([
      ['La foto del producto', 'image', true],
      ['Precio: 100', 'chat', true],
    ]);

    // The contact's open conversation takes the next forward.
    const again = await forward([text.id], target.id);
    expect(again.statusCode).toBe(201);
    expect(again.json().ticket.id).toBe(body.ticket.id);
  });

  it('two forwards at once to a contact without a conversation open one and both arrive', async () => {
    const { ticket } = await conversation();
    const first = await sentMessage(ticket.id, 'uno');
    const second = await sentMessage(ticket.id, 'dos');
    const target = (
      await inject(t.app, admin, 'POST', '/contacts', { name: 'Beto', number: newNumber() })
    ).json() as { id: number };
    const answers = await Promise.all([
      forward([first.id], target.id),
      forward([second.id], target.id),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
    expect(new Set(answers.map((a) => a.json().ticket.id)).size).toBe(1);
    const [{ n }] = await t.db
      .select({ n: count() })
      .from(messages)
      .where(
        and(eq(messages.ticketId, answers[0].json().ticket.id), eq(messages.isForwarded, true)),
      );
    expect(n).toBe(2);
  });

  it('refuses deleted or unknown messages and other companies’ contacts, writing nothing', async () => {
    const { ticket } = await conversation();
    const mine = await sentMessage(ticket.id, 'Hola');
    const target = (
      await inject(t.app, admin, 'POST', '/contacts', { name: 'Caro', number: newNumber() })
    ).json() as { id: number };
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const foreignContact = (
      await inject(t.app, otherAdmin, 'POST', '/contacts', { name: 'Otro', number: newNumber() })
    ).json() as { id: number };

    expect((await forward([], target.id)).statusCode).toBe(400);
    expect((await forward([mine.id, 999_999], target.id)).statusCode).toBe(404);
    expect((await forward([mine.id], foreignContact.id)).json().error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await forward([mine.id], foreignContact.id, otherAdmin)).statusCode).toBe(404);
    await t.db.update(messages).set({ isDeleted: true }).where(eq(messages.id, mine.id));
    expect((await forward([mine.id], target.id)).json().error).toBe('ERR_VALIDATION');
    const [{ n }] = await t.db
      .select({ n: count() })
      .from(tickets)
      .where(eq(tickets.contactId, target.id));
    expect(n).toBe(0);
  });
});

describe('POST /messages/:ticketId/typing', () => {
  const shownTyping = async (number: string) =>
    (
      (await t.app.deps.channels.extra(connection.id, 'presence', { to: number })) as {
        typing: boolean;
      }
    ).typing;
  const typing = (ticketId: number, value: boolean, session = admin) =>
    inject(t.app, session, 'POST', `/messages/${ticketId}/typing`, { typing: value });

  it('shows the contact "typing…" while the agent writes, unless the company turned it off', async () => {
    const { contact, ticket } = await conversation();
    expect((await typing(ticket.id, true)).statusCode).toBe(204);
    expect(await shownTyping(contact.number)).toBe(true);
    expect((await typing(ticket.id, false)).statusCode).toBe(204);
    expect(await shownTyping(contact.number)).toBe(false);

    const off = await inject(t.app, admin, 'PUT', '/settings/typingToContact', {
      value: 'disabled',
    });
    expect(off.statusCode, off.body).toBe(200);
    await typing(ticket.id, true);
    expect(await shownTyping(contact.number)).toBe(false);
    await inject(t.app, admin, 'PUT', '/settings/typingToContact', { value: 'enabled' });

    // Only the open conversation's agent writes; another company's conversation is not found.
    const waiting = await conversation();
    await t.db
      .update(tickets)
      .set({ status: 'pending', userId: null })
      .where(eq(tickets.id, waiting.ticket.id));
    expect((await typing(waiting.ticket.id, true)).statusCode).toBe(204);
    expect(await shownTyping(waiting.contact.number)).toBe(false);
    const other = await makeCompany(t.db);
    expect((await typing(ticket.id, true, await login(t.app, other.admin.email))).statusCode).toBe(
      404,
    );
    expect(
      (await inject(t.app, admin, 'POST', `/messages/${ticket.id}/typing`, {})).statusCode,
    ).toBe(400);
  });
});
