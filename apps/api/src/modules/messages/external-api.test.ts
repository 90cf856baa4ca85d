import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import type { ExternalSendResponse, WhatsappView } from '@atendi/shared';
import { companies, contacts, messages, plans, tickets } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import type { EventOf } from '../../events/domain-events';
import { outbound, pairedSimulator } from '../../../test/inbox';
import { multipart } from '../../../test/multipart';

// POST /api/messages/send: a company's own system sends through a connection named by its token.

// Above what any other test here sends with one token.
const RATE_LIMIT = 12;

let t: TestContext;
let company: Awaited<ReturnType<typeof makeCompany>>;
let admin: Session;
let connection: WhatsappView;
let phone = 5491170000000;
const nextPhone = () => String((phone += 1));

beforeAll(async () => {
  t = await createTestApp({ EXTERNAL_API_RATE_LIMIT: String(RATE_LIMIT) });
});
afterAll(() => t.close());
beforeEach(async () => {
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
  connection = await pairedSimulator(t.app, admin, {});
});

const send = (
  payload: object | undefined,
  headers: Record<string, string> = {},
  token: string | null = connection.token,
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/messages/send',
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
    ...(payload ? { payload } : {}),
  });

const sendForm = (form: ReturnType<typeof multipart>, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/messages/send',
    headers: { authorization: `Bearer ${connection.token}`, ...form.headers, ...headers },
    payload: form.payload,
  });

const sentTo = async (to: string) =>
  (await outbound(t.app, admin, connection.id)).filter((m) => m.to === to);

const companyMessages = async () =>
  (
    await t.db
      .select({ n: count() })
      .from(messages)
      .where(eq(messages.companyId, company.company.id))
  )[0]!.n;

describe('POST /api/messages/send', () => {
  it('sends a text through the connection and shows it in the contact’s new ticket', async () => {
    const res = await send({ number: '+54 9 11 7000-9999', body: 'Su pedido salió hoy' });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json() as ExternalSendResponse;
    expect(answer).toMatchObject({
      number: '5491170009999',
      messages: [{ status: 'queued', body: 'Su pedido salió hoy', mediaType: 'chat' }],
    });
    const delivered = await eventually(
      () => sentTo('5491170009999'),
      (list) => list.length === 1,
      'the phone received it',
    );
    expect(delivered[0]!.body).toBe('Su pedido salió hoy');

    // The conversation waits in the inbox with the message in it, from the contact it created.
    const [ticket] = await t.db.select().from(tickets).where(eq(tickets.id, answer.ticketId));
    expect(ticket).toMatchObject({
      status: 'pending',
      whatsappId: connection.id,
      contactId: answer.contactId,
      lastMessage: 'Su pedido salió hoy',
    });
    const list = await inject(t.app, admin, 'GET', `/messages/${answer.ticketId}`);
    expect(
      list.json().messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe]),
    ).toEqual([['Su pedido salió hoy', true]]);
    // Once sent, a later look says so.
    await eventually(
      async () =>
        (await t.db.select().from(messages).where(eq(messages.id, answer.messages[0]!.id)))[0]!.ack,
      (ack) => ack >= 1,
      'ack',
    );
  });

  it('adds to the contact’s active ticket instead of opening another, and takes a JSON number', async () => {
    const number = nextPhone();
    const first = (await send({ number, body: 'uno' })).json() as ExternalSendResponse;
    await t.db
      .update(tickets)
      .set({ status: 'open', userId: company.admin.id })
      .where(eq(tickets.id, first.ticketId));
    const second = await send({ number: Number(number), body: 'dos' });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ ticketId: first.ticketId, contactId: first.contactId });
    const [ticket] = await t.db.select().from(tickets).where(eq(tickets.id, first.ticketId));
    expect(ticket).toMatchObject({ status: 'open', userId: company.admin.id });
    expect(
      await t.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, company.company.id), eq(contacts.number, number))),
    ).toHaveLength(1);
  });

  it('tells contact.changed when a send creates its contact, and not for the next send', async () => {
    const heard: EventOf<'contact.changed'>[] = [];
    t.app.deps.events.on('contact.changed', (event) => {
      if (event.companyId === company.company.id) heard.push(event);
    });
    const number = nextPhone();
    const first = (await send({ number, body: 'uno' })).json() as ExternalSendResponse;
    expect((await send({ number, body: 'dos' })).statusCode).toBe(201);
    expect(heard).toEqual([
      {
        type: 'contact.changed',
        companyId: company.company.id,
        contactId: first.contactId,
        created: true,
      },
    ]);
  });

  it('sends files as multipart, the text as the first file’s caption', async () => {
    const to = nextPhone();
    const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
    const res = await sendForm(
      multipart({ number: to, body: 'Su factura' }, [
        { name: 'factura.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4') },
        { name: 'foto.png', type: 'image/png', data: png },
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as ExternalSendResponse).messages.map((m) => [m.body, m.mediaType])).toEqual(
      [
        ['Su factura', 'application'],
        ['', 'image'],
      ],
    );
    const received = await eventually(
      () => sentTo(to),
      (list) => list.length === 2,
      'files received',
    );
    expect(received.map((m) => [m.mediaType, m.fileName])).toEqual([
      ['application', 'factura.pdf'],
      ['image', 'foto.png'],
    ]);
  });

  it('refuses a missing, empty, unknown or replaced token with 401, and never a session token', async () => {
    const body = { number: nextPhone(), body: 'hola' };
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer ' },
      { authorization: 'Bearer    ' },
      { authorization: 'Basic abc' },
      { authorization: 'Bearer nope-nope-nope' },
      { authorization: `Bearer ${admin.token}` },
    ];
    for (const headers of attempts) {
      const res = await send(body, headers, null);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json().error).toBe('ERR_INVALID_API_TOKEN');
    }
    // A connection whose token was replaced: the old one stops at once, the new one works.
    const old = connection.token!;
    const renewed = await inject(t.app, admin, 'POST', `/whatsapp/${connection.id}/token`);
    expect((await send(body, {}, old)).statusCode).toBe(401);
    expect((await send(body, {}, renewed.json().token)).statusCode).toBe(201);
    // The token is checked before the payload: a bad payload without a token is still 401.
    expect((await send({ number: 'x' }, {}, 'unknown')).statusCode).toBe(401);
    expect(await companyMessages()).toBe(1);
  });

  it('needs the plan’s external API flag and an active company', async () => {
    const body = { number: nextPhone(), body: 'hola' };
    await t.db.update(plans).set({ useExternalApi: false }).where(eq(plans.id, company.planId));
    const refused = await send(body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    await t.db.update(plans).set({ useExternalApi: true }).where(eq(plans.id, company.planId));
    await t.db
      .update(companies)
      .set({ status: 'suspended' })
      .where(eq(companies.id, company.company.id));
    const inactive = await send(body);
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json().error).toBe('ERR_COMPANY_INACTIVE');
    expect(await companyMessages()).toBe(0);
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    for (const payload of [
      { body: 'sin número' },
      { number: nextPhone() },
      { number: nextPhone(), body: '   ' },
      { number: '12ab', body: 'hola' },
      { number: '123', body: 'hola' },
      { number: '1234567890123456789', body: 'hola' },
    ]) {
      const res = await send(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    expect((await send(undefined)).statusCode).toBe(400);
    const noNumber = await sendForm(
      multipart({ body: 'x' }, [{ name: 'a.png', type: 'image/png', data: Buffer.from('png') }]),
    );
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().fields.number).toBeDefined();
    const badFile = await sendForm(
      multipart({ number: nextPhone() }, [
        { name: 'virus.exe', type: 'application/octet-stream', data: Buffer.from('MZ') },
      ]),
    );
    expect(badFile.statusCode).toBe(415);
    expect(await companyMessages()).toBe(0);
    expect(
      await t.db.select().from(contacts).where(eq(contacts.companyId, company.company.id)),
    ).toHaveLength(0);
  });

  it('sends once for one Idempotency-Key, even for calls made at the same moment', async () => {
    const to = nextPhone();
    const key = 'order-1234-shipped';
    const calls = await Promise.all(
      Array.from({ length: 5 }, () =>
        send({ number: to, body: 'Su pedido salió' }, { 'idempotency-key': key }),
      ),
    );
    expect(calls.map((c) => c.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(calls.map((c) => (c.json() as ExternalSendResponse).messages[0]!.id));
    expect(ids.size).toBe(1);
    expect(calls.filter((c) => c.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    // A retry later answers the same message, with how far it got.
    await eventually(
      () => sentTo(to),
      (list) => list.length === 1,
      'sent',
    );
    const retry = await send({ number: to, body: 'Su pedido salió' }, { 'idempotency-key': key });
    expect(retry.statusCode).toBe(200);
    expect((retry.json() as ExternalSendResponse).messages[0]!.id).toBe([...ids][0]);
    expect(await companyMessages()).toBe(1);
    expect(await sentTo(to)).toHaveLength(1);

    // The same key for another request is refused; another key sends again.
    const reused = await send({ number: to, body: 'Otra cosa' }, { 'idempotency-key': key });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error).toBe('ERR_IDEMPOTENCY_KEY_REUSED');
    expect(
      (await send({ number: to, body: 'Su pedido salió' }, { 'idempotency-key': 'other' }))
        .statusCode,
    ).toBe(201);
    expect(await companyMessages()).toBe(2);
    expect((await send({ number: to, body: 'x' }, { 'idempotency-key': ' ' })).statusCode).toBe(
      400,
    );
  });

  it('limits calls per token with 429 and Retry-After; other tokens are not held back', async () => {
    const to = nextPhone();
    for (let i = 0; i < RATE_LIMIT; i += 1)
      expect((await send({ number: to, body: `m${i}` })).statusCode).toBe(201);
    const limited = await send({ number: to, body: 'one too many' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('ERR_TOO_MANY_REQUESTS');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await pairedSimulator(t.app, admin, {});
    expect((await send({ number: to, body: 'otra conexión' }, {}, other.token)).statusCode).toBe(
      201,
    );
  });

  it('keeps each company to its own connection, contacts and tickets', async () => {
    const number = nextPhone();
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const theirs = await pairedSimulator(t.app, otherAdmin, {});
    const mine = (await send({ number, body: 'de A' })).json() as ExternalSendResponse;
    const their = (
      await send({ number, body: 'de B' }, {}, theirs.token)
    ).json() as ExternalSendResponse;
    expect(mine.contactId).not.toBe(their.contactId);
    expect(mine.ticketId).not.toBe(their.ticketId);
    const [ticket] = await t.db.select().from(tickets).where(eq(tickets.id, their.ticketId));
    expect(ticket).toMatchObject({ companyId: other.company.id, whatsappId: theirs.id });
    // Each company's inbox shows only its own.
    expect((await inject(t.app, otherAdmin, 'GET', `/messages/${mine.ticketId}`)).statusCode).toBe(
      404,
    );
    expect(await sentTo(number).then((list) => list.map((m) => m.body))).toEqual(['de A']);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const operation = doc.paths['/api/messages/send'].post;
    expect(operation.responses).toHaveProperty('201');
    // The connection's token, not a user's session.
    expect(operation.security).toEqual([{ connectionToken: [] }]);
    expect(doc.components.securitySchemes.connectionToken).toEqual({
      type: 'http',
      scheme: 'bearer',
    });
  });
});
