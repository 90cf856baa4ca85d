import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import type { SimulatorOutboundView, WhatsappView } from '@atendi/shared';
import {
  contacts,
  jobs,
  messageSendKeys,
  messages,
  queues,
  simulatorMessages,
  tickets,
} from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { ticketSettled } from '../../../test/inbox';
import { multipart } from '../../../test/multipart';
import { pruneIdempotencyKeys } from './send-keys';
import { OUTBOX_MAX_ATTEMPTS } from './outbox';
import { OUTBOX_QUEUE } from './sends';

let t: TestContext;
let company: Awaited<ReturnType<typeof makeCompany>>;
let admin: Session;
let connection: WhatsappView;
let port = 0;
const sockets: Socket[] = [];

// A new simulator connection of the test company, scanned and connected.
const pairedConnection = async () => {
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
  return created;
};

// "Try again" restarts the unlinked session, which then waits for a new scan.
const reconnect = async (whatsappId: number) => {
  expect((await inject(t.app, admin, 'POST', `/whatsappsession/${whatsappId}`)).statusCode).toBe(
    200,
  );
  await eventually(
    async () =>
      (await inject(t.app, admin, 'POST', `/simulator/${whatsappId}/scan`)).statusCode === 200,
    Boolean,
    'scan after reconnect',
  );
};

const unlink = async (whatsappId: number) =>
  expect(
    (await inject(t.app, admin, 'POST', `/simulator/${whatsappId}/disconnect`)).statusCode,
  ).toBe(204);

let numbers = 0;
const newNumber = () => `54911666${String((numbers += 1)).padStart(5, '0')}`;

// A contact writes in; the ticket is then taken by the admin (open) unless told otherwise.
const conversation = async (
  options: { whatsappId?: number; status?: 'open' | 'pending' | 'closed'; body?: string } = {},
) => {
  const whatsappId = options.whatsappId ?? connection.id;
  const number = newNumber();
  const res = await inject(t.app, admin, 'POST', `/simulator/${whatsappId}/inbound`, {
    from: number,
    name: 'Cliente',
    body: options.body ?? 'Hola',
  });
  expect(res.statusCode).toBe(200);
  const [contact] = await t.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, company.company.id), eq(contacts.number, number)));
  const [ticket] = await t.db
    .update(tickets)
    .set({
      status: options.status ?? 'open',
      userId: options.status === 'pending' ? null : admin.userId,
    })
    .where(and(eq(tickets.contactId, contact.id), eq(tickets.whatsappId, whatsappId)))
    .returning();
  return { contact, ticket, inboundId: res.json().id as string };
};

const send = (ticketId: number, payload: object, session: Session = admin) =>
  inject(t.app, session, 'POST', `/messages/${ticketId}`, payload);

const outbound = async (whatsappId: number) =>
  (
    await inject(t.app, admin, 'GET', `/simulator/${whatsappId}/outbound`)
  ).json() as SimulatorOutboundView[];

const messageRow = async (id: number) =>
  (await t.db.select().from(messages).where(eq(messages.id, id)))[0];
// The send's job in the one background queue.
const outboxRow = async (messageId: number) =>
  (
    await t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.queue, OUTBOX_QUEUE), eq(jobs.ref, `message:${messageId}`)))
  )[0];
const messageCount = async (ticketId: number) =>
  (await t.db.select({ n: count() }).from(messages).where(eq(messages.ticketId, ticketId)))[0].n;

type Heard = { event: string; payload: Record<string, unknown> & { action: string } };
// A socket of the session that listens to one ticket's chat (and, optionally, a ticket list).
const listen = async (session: Session, ticketId: number, list?: string) => {
  const socket = connect(`http://127.0.0.1:${port}`, {
    query: { token: session.token },
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
  // Acknowledged once the rooms are joined.
  expect(await socket.timeout(5000).emitWithAck('joinChatBox', String(ticketId))).toBe(true);
  if (list) expect(await socket.timeout(5000).emitWithAck('joinTickets', list)).toBe(true);
  return heard;
};

const sendForm = (ticketId: number, form: ReturnType<typeof multipart>) =>
  t.app.inject({
    method: 'POST',
    url: `/messages/${ticketId}`,
    headers: { authorization: `Bearer ${admin.token}`, ...form.headers },
    payload: form.payload,
  });

const storedFiles = () => {
  try {
    return readdirSync(path.join(t.config.dataDir, 'uploads', String(company.company.id)));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  // Retries after 20 ms, 60 ms, 180 ms … so a session coming back is noticed quickly.
  t = await createTestApp({ OUTBOX_RETRY_BASE_MS: '20' });
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
  connection = await pairedConnection();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  sockets.forEach((s) => s.disconnect());
  await t.close();
});

describe('GET /messages/:ticketId', () => {
  it('pages newest first, each page oldest to newest, with hasMore and count', async () => {
    const { ticket } = await conversation();
    const base = Date.now() - 3600_000;
    await t.db.insert(messages).values(
      Array.from({ length: 44 }, (_, i) => ({
        companyId: company.company.id,
        ticketId: ticket.id,
        whatsappId: connection.id,
        body: `m${i + 1}`,
        fromMe: i % 2 === 0,
        read: true,
        createdAt: new Date(base + (i + 1) * 1000),
      })),
    );
    const page = async (n: number) => {
      const res = await inject(t.app, admin, 'GET', `/messages/${ticket.id}?pageNumber=${n}`);
      expect(res.statusCode).toBe(200);
      return res.json() as {
        messages: { body: string }[];
        hasMore: boolean;
        count: number;
        ticket: { id: number };
      };
    };
    const first = await page(1);
    expect(first.count).toBe(45);
    expect(first.hasMore).toBe(true);
    expect(first.ticket.id).toBe(ticket.id);
    // The inbound greeting was written last (now), so it closes the newest page.
    expect(first.messages.map((m) => m.body)).toEqual([
      ...Array.from({ length: 19 }, (_, i) => `m${i + 26}`),
      'Hola',
    ]);
    const second = await page(2);
    expect(second.messages.map((m) => m.body)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i + 6}`),
    );
    expect(second.hasMore).toBe(true);
    const third = await page(3);
    expect(third.messages.map((m) => m.body)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(third.hasMore).toBe(false);
  });

  it('opening the first page reads the conversation and drops the unread badge live', async () => {
    const { ticket, contact } = await conversation({ status: 'pending' });
    await inject(t.app, admin, 'POST', `/simulator/${connection.id}/inbound`, {
      from: contact.number,
      body: '¿Hay alguien?',
    });
    const [before] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(before.unreadMessages).toBe(2);
    // A peek (markRead=false) shows the messages and leaves the badge alone.
    const peek = await inject(t.app, admin, 'GET', `/messages/${ticket.id}?markRead=false`);
    expect(peek.json().ticket.unreadMessages).toBe(2);
    expect(peek.json().messages.some((m: { read: boolean }) => !m.read)).toBe(true);
    const heard = await listen(admin, ticket.id, 'pending');
    const res = await inject(t.app, admin, 'GET', `/messages/${ticket.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().ticket.unreadMessages).toBe(0);
    expect(res.json().messages.every((m: { read: boolean }) => m.read)).toBe(true);
    const [stored] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(stored.unreadMessages).toBe(0);
    // The answer shows the ticket as reading left it (screens keep the newest version they saw).
    expect(res.json().ticket.version).toBe(stored.version);
    expect(stored.version).toBeGreaterThan(before.version);
    // Reading is not activity: the ticket keeps its place in the list.
    expect(stored.updatedAt.getTime()).toBe(before.updatedAt.getTime());
    const unread = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.read, false)));
    expect(unread).toEqual([]);
    await eventually(
      async () =>
        heard.some(
          (h) =>
            h.event === `company-${company.company.id}-ticket` &&
            (h.payload.ticket as { unreadMessages: number }).unreadMessages === 0,
        ),
      Boolean,
      'ticket update',
    );
  });

  it('answers 404 for another company’s ticket and 403 to an agent outside its queue', async () => {
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const { ticket } = await conversation();
    const foreign = await inject(t.app, otherAdmin, 'GET', `/messages/${ticket.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NO_TICKET_FOUND');
    expect((await send(ticket.id, { body: 'hola' }, otherAdmin)).json().error).toBe(
      'ERR_NO_TICKET_FOUND',
    );
    expect((await inject(t.app, admin, 'GET', `/messages/99999999`)).json().error).toBe(
      'ERR_NO_TICKET_FOUND',
    );

    const [sales] = await t.db
      .insert(queues)
      .values({ companyId: company.company.id, name: 'Ventas', color: '#00aa00' })
      .returning();
    await t.db.update(tickets).set({ queueId: sales.id }).where(eq(tickets.id, ticket.id));
    const agent = await login(t.app, (await makeUser(t.db, company.company.id, 'user')).email);
    const denied = await inject(t.app, agent, 'GET', `/messages/${ticket.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe('ERR_NO_PERMISSION');
    const refused = await send(ticket.id, { body: 'hola' }, agent);
    expect(refused.statusCode).toBe(403);
    expect(await messageCount(ticket.id)).toBe(1);
  });
});

describe('POST /messages/:ticketId', () => {
  it('sends text: stored at once, then delivered with a provider id, announced create then update', async () => {
    const { ticket, contact } = await conversation();
    const heard = await listen(admin, ticket.id);
    const res = await send(ticket.id, { body: 'Hola, ¿en qué te ayudo?', read: 1, fromMe: true });
    expect(res.statusCode).toBe(201);
    const [created] = res.json();
    expect(created).toMatchObject({
      ticketId: ticket.id,
      body: 'Hola, ¿en qué te ayudo?',
      fromMe: true,
      read: true,
      mediaType: 'chat',
      error: null,
    });
    await eventually(
      async () => Boolean((await messageRow(created.id)).providerId),
      Boolean,
      'provider id',
    );
    const row = await messageRow(created.id);
    const sent = await outbound(connection.id);
    // The chat shows what the phone shows: received, not the pending clock.
    expect(sent.find((m) => m.id === row.providerId)?.ack).toBe(2);
    expect(row.ack).toBe(2);
    await eventually(
      async () => (await outboxRow(created.id)).status === 'done',
      Boolean,
      'job done',
    );
    expect(sent.find((m) => m.id === row.providerId)).toMatchObject({
      to: contact.number,
      body: 'Hola, ¿en qué te ayudo?',
      mediaType: 'chat',
    });
    const [stored] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(stored.lastMessage).toBe('Hola, ¿en qué te ayudo?');

    await eventually(
      async () => heard.filter((h) => h.event.endsWith('-appMessage')).length >= 2,
      Boolean,
      'create and update events',
    );
    const events = heard
      .filter((h) => h.event === `company-${company.company.id}-appMessage`)
      .map((h) => ({
        action: h.payload.action,
        message: h.payload.message as { id: number; ack: number },
      }))
      .filter((e) => e.message.id === created.id);
    expect(events[0]).toMatchObject({ action: 'create', message: { ack: 0 } });
    expect(events[events.length - 1].action).toBe('update');
    expect(events[events.length - 1].message.ack).toBeGreaterThanOrEqual(1);
  });

  it('keeps the order of quick successive sends', async () => {
    const { ticket, contact } = await conversation();
    for (const body of ['uno', 'dos', 'tres'])
      expect((await send(ticket.id, { body })).statusCode).toBe(201);
    await eventually(
      async () =>
        (await outbound(connection.id)).filter((m) => m.to === contact.number).length === 3,
      Boolean,
      'three sends',
    );
    expect(
      (await outbound(connection.id)).filter((m) => m.to === contact.number).map((m) => m.body),
    ).toEqual(['uno', 'dos', 'tres']);
  });

  it('a send retried with its Idempotency-Key is stored and sent once, even when the calls race', async () => {
    const { ticket, contact } = await conversation();
    const sendOnce = (body: string, key: string) =>
      t.app.inject({
        method: 'POST',
        url: `/messages/${ticket.id}`,
        headers: { authorization: `Bearer ${admin.token}`, 'idempotency-key': key },
        payload: { body },
      });
    // The client never saw an answer and tries again, several times, all at once.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => sendOnce('¿Seguís ahí?', 'k-1')),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 201]);
    const ids = answers.map((a) => (a.json() as { id: number }[]).map((m) => m.id));
    expect(new Set(ids.map((i) => i.join()))).toEqual(new Set([ids[0].join()]));
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    // Later, again: the same answer, nothing new.
    const later = await sendOnce('¿Seguís ahí?', 'k-1');
    expect(later.statusCode).toBe(200);
    expect((later.json() as { id: number }[]).map((m) => m.id)).toEqual(ids[0]);
    // A new key is a new message; a used key with another text is refused and stores nothing.
    expect((await sendOnce('Otro mensaje', 'k-2')).statusCode).toBe(201);
    const reused = await sendOnce('No es el mismo', 'k-1');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error).toBe('ERR_IDEMPOTENCY_KEY_REUSED');
    const bad = await sendOnce('Hola', ' ');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');

    await eventually(
      async () =>
        (await outbound(connection.id)).filter((m) => m.to === contact.number).length === 2,
      Boolean,
      'two sends',
    );
    const stored = await t.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(stored.map((m) => m.body).sort()).toEqual(['Otro mensaje', '¿Seguís ahí?']);
    // Nothing more reaches the phone afterwards: no send of the ticket is left to run.
    await ticketSettled(t.db, ticket.id);
    expect(
      (await outbound(connection.id)).filter((m) => m.to === contact.number).map((m) => m.body),
    ).toEqual(['¿Seguís ahí?', 'Otro mensaje']);
  });

  it('a retried send with files answers the first call’s messages and keeps none of the retry’s files', async () => {
    const { ticket } = await conversation();
    const form = () =>
      multipart({ body: 'El contrato' }, [
        { name: 'contrato.pdf', type: 'application/pdf', data: randomBytes(64) },
      ]);
    const post = () => {
      const built = form();
      return t.app.inject({
        method: 'POST',
        url: `/messages/${ticket.id}`,
        headers: {
          authorization: `Bearer ${admin.token}`,
          'idempotency-key': 'files-1',
          ...built.headers,
        },
        payload: built.payload,
      });
    };
    const first = await post();
    expect(first.statusCode, first.body).toBe(201);
    const files = storedFiles().length;
    const retry = await post();
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().map((m: { id: number }) => m.id)).toEqual(
      first.json().map((m: { id: number }) => m.id),
    );
    expect(storedFiles()).toHaveLength(files);
  });

  it('forgets a send’s key after a day: the same key then sends again', async () => {
    const { ticket } = await conversation();
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: `/messages/${ticket.id}`,
        headers: { authorization: `Bearer ${admin.token}`, 'idempotency-key': 'day-old' },
        payload: { body: 'Buen día' },
      });
    expect((await post()).statusCode).toBe(201);
    await pruneIdempotencyKeys(t.db, new Date(Date.now() + 23 * 3600 * 1000));
    expect((await post()).statusCode).toBe(200);
    await pruneIdempotencyKeys(t.db, new Date(Date.now() + 25 * 3600 * 1000));
    expect(
      await t.db.select().from(messageSendKeys).where(eq(messageSendKeys.key, 'day-old')),
    ).toEqual([]);
    expect((await post()).statusCode).toBe(201);
    expect(await messageCount(ticket.id)).toBe(3);
  });

  it('a quoted reply carries the quoted message’s provider id to WhatsApp', async () => {
    const { ticket, contact, inboundId } = await conversation({ body: '¿Precio?' });
    const [quoted] = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.providerId, inboundId)));
    // SPEC's web client sends the quoted message itself; its id is what counts.
    const res = await send(ticket.id, { body: '$100', quotedMsg: { id: quoted.id, body: '…' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()[0]).toMatchObject({
      quotedMsgId: quoted.id,
      quotedMsg: { id: quoted.id, body: '¿Precio?' },
    });
    await eventually(
      async () => (await outbound(connection.id)).some((m) => m.to === contact.number),
      Boolean,
      'quoted send',
    );
    expect((await outbound(connection.id)).find((m) => m.to === contact.number)).toMatchObject({
      body: '$100',
      quotedId: inboundId,
    });

    // A message of another conversation cannot be quoted.
    const elsewhere = await conversation();
    const refused = await send(elsewhere.ticket.id, { body: 'x', quotedMsg: quoted.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('ERR_VALIDATION');
  });

  it('multipart with two files: one message per file, caption on the first, signed links', async () => {
    const { ticket, contact } = await conversation();
    const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
    const res = await sendForm(
      ticket.id,
      multipart({ body: 'Mira esto', fromMe: 'true' }, [
        { name: 'foto.png', type: 'image/png', data: png },
        { name: 'lista.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 demo') },
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as {
      id: number;
      body: string;
      mediaType: string;
      mediaName: string;
      mediaUrl: string;
    }[];
    expect(created.map((m) => [m.body, m.mediaType, m.mediaName])).toEqual([
      ['Mira esto', 'image', 'foto.png'],
      ['', 'application', 'lista.pdf'],
    ]);
    for (const message of created) {
      expect(message.mediaUrl).toMatch(/\/uploads\/\d+\/[a-f0-9]{32}\.\w+\?expires=\d+&sig=/);
      const file = await t.app.inject({
        method: 'GET',
        url: new URL(message.mediaUrl).pathname + new URL(message.mediaUrl).search,
      });
      expect(file.statusCode).toBe(200);
    }
    await eventually(
      async () =>
        (await outbound(connection.id)).filter((m) => m.to === contact.number).length === 2,
      Boolean,
      'two media sends',
    );
    expect(
      (await outbound(connection.id))
        .filter((m) => m.to === contact.number)
        .map((m) => ({ body: m.body, mediaType: m.mediaType, fileName: m.fileName })),
    ).toEqual([
      { body: 'Mira esto', mediaType: 'image', fileName: 'foto.png' },
      { body: '', mediaType: 'application', fileName: 'lista.pdf' },
    ]);
    const [stored] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(stored.lastMessage).toBe('[application]');
  });

  it('takes audio by its type, also when the browser only says octet-stream', async () => {
    const { ticket } = await conversation();
    const res = await sendForm(
      ticket.id,
      multipart({}, [
        { name: 'nota.ogg', type: 'application/octet-stream', data: Buffer.from('OggS demo') },
        { name: 'voz.mp3', type: 'audio/mpeg', data: Buffer.from('ID3 demo') },
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().map((m: { mediaType: string }) => m.mediaType)).toEqual(['audio', 'audio']);
  });

  it('refuses an empty message and stores nothing', async () => {
    const { ticket } = await conversation();
    const files = storedFiles().length;
    for (const payload of [{ body: '   \n ' }, { body: '' }, {}]) {
      const res = await send(ticket.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    const blank = await sendForm(ticket.id, multipart({ body: '  ' }, []));
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('ERR_VALIDATION');
    const tooLong = await send(ticket.id, { body: 'x'.repeat(65537) });
    expect(tooLong.statusCode).toBe(400);
    expect(await messageCount(ticket.id)).toBe(1);
    expect(storedFiles().length).toBe(files);
  });

  it('a refused file leaves no message and no file behind', async () => {
    const { ticket } = await conversation();
    const files = storedFiles().length;
    const good = { name: 'ok.png', type: 'image/png', data: Buffer.from('png') };
    const exe = await sendForm(
      ticket.id,
      multipart({ body: 'hola' }, [
        good,
        { name: 'virus.exe', type: 'application/x-msdownload', data: Buffer.from('MZ') },
      ]),
    );
    expect(exe.statusCode).toBe(415);
    expect(exe.json().error).toBe('ERR_UPLOAD_TYPE_NOT_ALLOWED');
    const big = await sendForm(
      ticket.id,
      multipart({}, [
        good,
        { name: 'big.mp4', type: 'video/mp4', data: Buffer.alloc(16 * 1024 * 1024 + 1) },
      ]),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('ERR_UPLOAD_TOO_LARGE');
    const many = await sendForm(
      ticket.id,
      multipart(
        {},
        Array.from({ length: 11 }, () => good),
      ),
    );
    expect(many.statusCode).toBe(400);
    expect(many.json().error).toBe('ERR_VALIDATION');
    const badQuote = await sendForm(ticket.id, multipart({ quotedMsg: 'abc' }, [good]));
    expect(badQuote.statusCode).toBe(400);
    const foreignQuote = await sendForm(ticket.id, multipart({ quotedMsg: '99999999' }, [good]));
    expect(foreignQuote.statusCode).toBe(400);
    // A body cut off after the first file (a dropped upload) is bad input, not a server error.
    const whole = multipart({}, [good, good]);
    const cut = await sendForm(ticket.id, { ...whole, payload: whole.payload.subarray(0, -40) });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().error).toBe('ERR_VALIDATION');
    expect(await messageCount(ticket.id)).toBe(1);
    expect(storedFiles().length).toBe(files);
    expect(
      await t.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.queue, OUTBOX_QUEUE), eq(jobs.key, `ticket:${ticket.id}`))),
    ).toEqual([]);
  });

  it('refuses pending and closed tickets', async () => {
    const pending = await conversation({ status: 'pending' });
    const waiting = await send(pending.ticket.id, { body: 'hola' });
    expect(waiting.statusCode).toBe(400);
    expect(waiting.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      message: 'Accept the ticket first',
    });
    const closed = await conversation({ status: 'closed' });
    const done = await send(closed.ticket.id, { body: 'hola' });
    expect(done.statusCode).toBe(400);
    expect(done.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      message: 'Reopen the ticket first',
    });
    expect(await messageCount(pending.ticket.id)).toBe(1);
    expect(await messageCount(closed.ticket.id)).toBe(1);
  });

  it('moves the stored ack as the phone reports delivery and reading', async () => {
    const { ticket } = await conversation();
    const [created] = (await send(ticket.id, { body: 'ack me' })).json();
    await eventually(
      async () => Boolean((await messageRow(created.id)).providerId),
      Boolean,
      'provider id',
    );
    const { providerId } = await messageRow(created.id);
    for (const ack of [3, 4]) {
      const res = await inject(t.app, admin, 'POST', `/simulator/${connection.id}/ack`, {
        id: providerId,
        ack,
      });
      expect(res.statusCode).toBe(204);
    }
    expect((await messageRow(created.id)).ack).toBe(4);
    const page = (await inject(t.app, admin, 'GET', `/messages/${ticket.id}`)).json();
    expect(page.messages.find((m: { id: number }) => m.id === created.id).ack).toBe(4);
  });

  it('applies a burst of delivery and read reports at once, each message ending at its highest', async () => {
    const { ticket } = await conversation();
    const created = await Promise.all(
      ['uno', 'dos', 'tres'].map(async (body) => (await send(ticket.id, { body })).json()[0]),
    );
    const sent = await eventually(
      () => Promise.all(created.map((m: { id: number }) => messageRow(m.id))),
      (rows) => rows.every((row) => row.providerId),
      'provider ids',
    );
    const heard = await listen(admin, ticket.id);
    // Reading reported before delivery for the first, in the same burst as the others'.
    const reports = [
      [sent[0], 4],
      [sent[0], 3],
      [sent[1], 3],
      [sent[2], 4],
      [sent[2], 3],
      [sent[1], 3],
    ] as const;
    const answers = await Promise.all(
      reports.map(([row, ack]) =>
        inject(t.app, admin, 'POST', `/simulator/${connection.id}/ack`, {
          id: row.providerId,
          ack,
        }),
      ),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(reports.map(() => 204));
    const rows = await Promise.all(sent.map((row) => messageRow(row.id)));
    expect(rows.map((row) => row.ack)).toEqual([4, 3, 4]);
    // The chat heard each message's final state.
    await eventually(
      () => heard.filter((h) => h.payload.action === 'update'),
      (updates) =>
        [4, 3, 4].every((ack, i) =>
          updates.some(
            (u) =>
              (u.payload.message as { id: number; ack: number }).id === sent[i].id &&
              (u.payload.message as { ack: number }).ack === ack,
          ),
        ),
      'the updates',
    );
  });

  it('a number without a WhatsApp account fails at once, without retries, and nothing reaches a phone', async () => {
    const { ticket, contact } = await conversation();
    // The simulated network has no account for numbers starting 800 (international freephone).
    await t.db.update(contacts).set({ number: '80011000009' }).where(eq(contacts.id, contact.id));
    const [created] = (await send(ticket.id, { body: 'nadie' })).json();
    await eventually(
      async () => (await outboxRow(created.id)).status === 'failed',
      Boolean,
      'given up',
    );
    expect(await outboxRow(created.id)).toMatchObject({
      attempts: 1,
      lastError: expect.stringContaining('ERR_WAPP_INVALID_CONTACT'),
    });
    expect((await outbound(connection.id)).some((m) => m.body === 'nadie')).toBe(false);
    const page = (await inject(t.app, admin, 'GET', `/messages/${ticket.id}`)).json();
    expect(page.messages.at(-1)).toMatchObject({ id: created.id, error: 'ERR_SENDING_WAPP_MSG' });
  });

  it('sends many conversations’ messages together: one that cannot go fails alone, the rest arrive once', async () => {
    const chats = await Promise.all(Array.from({ length: 6 }, () => conversation()));
    await t.db
      .update(contacts)
      .set({ number: '80011000019' })
      .where(eq(contacts.id, chats[2].contact.id));
    // Stored side by side, so the outbox takes them in one batch.
    const sent = await Promise.all(
      chats.map(async ({ ticket }, i) => (await send(ticket.id, { body: `lote ${i}` })).json()[0]),
    );
    const rows = await eventually(
      () => Promise.all(sent.map((m: { id: number }) => outboxRow(m.id))),
      (jobs) => jobs.every((job) => job.status === 'done' || job.status === 'failed'),
      'every send settled',
    );
    expect(rows.map((job) => job.status)).toEqual([
      'done',
      'done',
      'failed',
      'done',
      'done',
      'done',
    ]);
    const phone = (await outbound(connection.id)).map((m) => m.body);
    for (const i of [0, 1, 3, 4, 5])
      expect(phone.filter((body) => body === `lote ${i}`)).toHaveLength(1);
    expect(phone).not.toContain('lote 2');
    for (const [i, message] of sent.entries())
      expect((await messageRow(message.id)).providerId === null).toBe(i === 2);
  });
});

describe('the outbox while the session is down', () => {
  let down: WhatsappView;
  beforeAll(async () => {
    down = await pairedConnection();
  });

  it('accepts the send, keeps it pending with the reason, and delivers it once the session is back', async () => {
    const { ticket, contact } = await conversation({ whatsappId: down.id });
    await unlink(down.id);
    const res = await send(ticket.id, { body: 'Llegará cuando vuelvas' });
    expect(res.statusCode).toBe(201);
    const [created] = res.json();
    await eventually(
      async () => Boolean((await outboxRow(created.id)).lastError),
      Boolean,
      'first failure',
    );
    const waiting = await outboxRow(created.id);
    expect(waiting.status).toMatch(/pending|running/);
    expect(waiting.lastError).toContain('ERR_WAPP_NOT_INITIALIZED');
    expect((await messageRow(created.id)).providerId).toBeNull();
    const page = (await inject(t.app, admin, 'GET', `/messages/${ticket.id}`)).json();
    expect(page.messages.at(-1)).toMatchObject({ id: created.id, ack: 0, error: null });

    await reconnect(down.id);
    await eventually(
      async () => Boolean((await messageRow(created.id)).providerId),
      Boolean,
      'delivered',
    );
    await eventually(
      async () => (await outboxRow(created.id)).status === 'done',
      Boolean,
      'job done',
    );
    expect((await outbound(down.id)).find((m) => m.to === contact.number)?.body).toBe(
      'Llegará cuando vuelvas',
    );
  });

  it(`gives up after ${OUTBOX_MAX_ATTEMPTS} attempts, shows ERR_SENDING_WAPP_MSG, and a retry sends it`, async () => {
    const { ticket, contact } = await conversation({ whatsappId: down.id });
    const heard = await listen(admin, ticket.id);
    await unlink(down.id);
    const [created] = (await send(ticket.id, { body: 'Reintento' })).json();
    await eventually(
      async () => Boolean((await outboxRow(created.id)).lastError),
      Boolean,
      'first failure',
    );
    // Skip the long waits: the next attempt is the last one.
    await t.db
      .update(jobs)
      .set({ attempts: OUTBOX_MAX_ATTEMPTS - 1 })
      .where(and(eq(jobs.queue, OUTBOX_QUEUE), eq(jobs.ref, `message:${created.id}`)));
    // The last attempt waits for its turn in the queue: on a busy CI machine that took over 10 s once.
    await eventually(
      async () => (await outboxRow(created.id)).status === 'failed',
      Boolean,
      'given up',
      { timeoutMs: 30_000 },
    );
    const page = (await inject(t.app, admin, 'GET', `/messages/${ticket.id}`)).json();
    expect(page.messages.at(-1)).toMatchObject({ id: created.id, error: 'ERR_SENDING_WAPP_MSG' });
    await eventually(
      async () =>
        heard.some(
          (h) =>
            h.event.endsWith('-appMessage') &&
            (h.payload.message as { id: number; error: string | null }).error ===
              'ERR_SENDING_WAPP_MSG',
        ),
      Boolean,
      'failure announced',
    );

    // Only failed messages can be retried.
    const inbound = page.messages[0] as { id: number };
    expect((await inject(t.app, admin, 'POST', `/messages/${inbound.id}/retry`)).statusCode).toBe(
      400,
    );

    await reconnect(down.id);
    const retried = await inject(t.app, admin, 'POST', `/messages/${created.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id: created.id, error: null });
    await eventually(
      async () => Boolean((await messageRow(created.id)).providerId),
      Boolean,
      'resent',
    );
    expect((await outbound(down.id)).find((m) => m.to === contact.number)?.body).toBe('Reintento');
  });

  it('deleting a message not yet sent withdraws it from the outbox', async () => {
    const { ticket, contact } = await conversation({ whatsappId: down.id });
    await unlink(down.id);
    const [created] = (await send(ticket.id, { body: 'Mejor no' })).json();
    await eventually(
      async () => Boolean((await outboxRow(created.id)).lastError),
      Boolean,
      'first failure',
    );
    // Parked far ahead, so no retry is in flight while it is deleted.
    await eventually(
      async () =>
        (
          await t.db
            .update(jobs)
            .set({ runAt: new Date(Date.now() + 3600_000) })
            .where(
              and(
                eq(jobs.queue, OUTBOX_QUEUE),
                eq(jobs.ref, `message:${created.id}`),
                eq(jobs.status, 'pending'),
              ),
            )
            .returning()
        ).length > 0,
      Boolean,
      'parked',
    );
    const res = await inject(t.app, admin, 'DELETE', `/messages/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: created.id, isDeleted: true });
    expect(await outboxRow(created.id)).toBeUndefined();
    await reconnect(down.id);
    const [later] = (await send(ticket.id, { body: 'Esto sí' })).json();
    await eventually(
      async () => Boolean((await messageRow(later.id)).providerId),
      Boolean,
      'later send',
    );
    expect(
      (await outbound(down.id)).filter((m) => m.to === contact.number).map((m) => m.body),
    ).toEqual(['Esto sí']);
  });
});

describe('DELETE /messages/:id', () => {
  it('deletes a sent message on WhatsApp and keeps it marked isDeleted', async () => {
    const { ticket, inboundId } = await conversation();
    const heard = await listen(admin, ticket.id);
    const [created] = (await send(ticket.id, { body: 'Ups' })).json();
    await eventually(
      async () => Boolean((await messageRow(created.id)).providerId),
      Boolean,
      'sent',
    );
    const { providerId } = await messageRow(created.id);
    const res = await inject(t.app, admin, 'DELETE', `/messages/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: created.id, isDeleted: true });
    expect((await messageRow(created.id)).isDeleted).toBe(true);
    const [onPhone] = await t.db
      .select()
      .from(simulatorMessages)
      .where(eq(simulatorMessages.providerId, providerId!));
    expect(onPhone.deleted).toBe(true);
    await eventually(
      async () =>
        heard.some(
          (h) =>
            h.event.endsWith('-appMessage') &&
            h.payload.action === 'update' &&
            (h.payload.message as { id: number; isDeleted: boolean }).isDeleted,
        ),
      Boolean,
      'delete announced',
    );

    // The contact's messages are not ours to delete.
    const [theirs] = await t.db.select().from(messages).where(eq(messages.providerId, inboundId));
    const refused = await inject(t.app, admin, 'DELETE', `/messages/${theirs.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('ERR_DELETE_WAPP_MSG');
    const other = await makeCompany(t.db);
    const foreign = await inject(
      t.app,
      await login(t.app, other.admin.email),
      'DELETE',
      `/messages/${created.id}`,
    );
    expect(foreign.statusCode).toBe(404);
  });
});

describe('a send repeated after its node died', () => {
  it('reaches the phone once, under the first provider id', async () => {
    const { ticket, contact } = await conversation();
    const [created] = (await send(ticket.id, { body: 'Una sola vez' })).json();
    await eventually(
      async () => (await outboxRow(created.id))?.status === 'done',
      Boolean,
      'first send',
    );
    const { providerId } = await messageRow(created.id);
    // The node died after WhatsApp took the message and before it recorded that: the message has no
    // provider id and the job is still claimed, its lease run out.
    await t.db.update(messages).set({ providerId: null }).where(eq(messages.id, created.id));
    await t.db
      .update(jobs)
      .set({ status: 'running', runAt: new Date(Date.now() - 1000) })
      .where(and(eq(jobs.queue, OUTBOX_QUEUE), eq(jobs.ref, `message:${created.id}`)));
    t.app.deps.outbox.kick();
    await eventually(
      async () =>
        (await outboxRow(created.id))?.status === 'done' &&
        (await outboxRow(created.id)).attempts === 2,
      Boolean,
      'sent again',
    );
    expect((await messageRow(created.id)).providerId).toBe(providerId);
    expect(
      (await outbound(connection.id)).filter(
        (m) => m.to === contact.number && m.body === 'Una sola vez',
      ),
    ).toHaveLength(1);
  });
});

// Last: it replaces the app the sockets above listen to.
describe('after a restart', () => {
  it('sends rows an earlier process left pending, or claimed and never finished', async () => {
    const { ticket, contact } = await conversation();
    const soon = new Date(Date.now() + 500);
    const rows = await t.db
      .insert(messages)
      .values(
        ['antes del corte', 'a medio enviar'].map((body) => ({
          companyId: company.company.id,
          ticketId: ticket.id,
          whatsappId: connection.id,
          body,
          fromMe: true,
          read: true,
        })),
      )
      .returning();
    await t.db.insert(jobs).values([
      {
        queue: OUTBOX_QUEUE,
        companyId: company.company.id,
        key: `ticket:${ticket.id}`,
        ref: `message:${rows[0].id}`,
        payload: { messageId: rows[0].id, media: null },
        status: 'pending',
        runAt: soon,
      },
      {
        queue: OUTBOX_QUEUE,
        companyId: company.company.id,
        key: `ticket:${ticket.id}`,
        ref: `message:${rows[1].id}`,
        payload: { messageId: rows[1].id, media: null },
        // A node died while sending it; its lease runs out at `soon`.
        status: 'running',
        attempts: 1,
        runAt: soon,
      },
    ]);
    await t.restart();
    await eventually(
      async () => (await Promise.all(rows.map((r) => messageRow(r.id)))).every((r) => r.providerId),
      Boolean,
      'both sent after restart',
    );
    expect(
      (await outbound(connection.id)).filter((m) => m.to === contact.number).map((m) => m.body),
    ).toEqual(['antes del corte', 'a medio enviar']);
  });
});
