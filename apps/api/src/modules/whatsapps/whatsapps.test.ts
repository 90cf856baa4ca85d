import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  SIMULATOR_OUTBOUND_PAGE_SIZE,
  type SimulatorConversationItem,
  type SimulatorOutboundView,
  type WhatsappSessionEvent,
  type WhatsappView,
} from '@atendi/shared';
import {
  contacts,
  queues,
  simulatorMessages,
  tickets,
  whatsappAuthKeys,
  whatsapps,
} from '../../db/schema';
import type { ChannelEventInput } from '../../channels/manager';
import type { EventOf } from '../../events/domain-events';
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
import { caughtUp, closeSockets, listenAs } from '../../../test/sockets';
import { getDefaultWhatsapp, sealCloudSecrets } from './whatsapps.service';
import { withOpenCloudSecrets } from '../../channels/cloud/credentials';
import { isSealed } from '../../platform/secrets';

let t: TestContext;
let admin: Session;
let user: Session;
let company: Awaited<ReturnType<typeof makeCompany>>;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

beforeEach(async () => {
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
  user = await login(t.app, (await makeUser(t.db, company.company.id, 'user')).email);
});

const create = async (body: Record<string, unknown>, session = admin) =>
  inject(t.app, session, 'POST', '/whatsapp', { provider: 'simulator', ...body });
const list = async (session = admin) =>
  (await inject(t.app, session, 'GET', '/whatsapp?session=0')).json() as WhatsappView[];
const get = async (id: number) =>
  (await inject(t.app, admin, 'GET', `/whatsapp/${id}?session=0`)).json() as WhatsappView;

// Waits for the session to reach a status (sessions run in the background of the request).
const until = (id: number, status: string) =>
  eventually(
    () => get(id),
    (row) => row.status === status,
    `connection ${id} ${status}`,
  );

const queueOf = async (name: string, color: string) =>
  (await t.db.insert(queues).values({ companyId: company.company.id, name, color }).returning())[0];

describe('connections', () => {
  it('creates a connection with the SPEC defaults, a token, and the default flag on the first one', async () => {
    const res = await create({ name: 'Ventas' });
    expect(res.statusCode).toBe(201);
    const view = res.json() as WhatsappView;
    expect(view).toMatchObject({
      name: 'Ventas',
      isDefault: true,
      provider: 'simulator',
      maxUseBotQueues: 3,
      timeUseBotQueues: 0,
      expiresTicket: 0,
      queues: [],
    });
    expect(view.token).toMatch(/^[\w-]{20,}$/);
    expect(view.schedules).toHaveLength(7);
    // Pairing starts on its own: the QR button has a code to show.
    const waiting = await until(view.id, 'qrcode');
    expect(waiting.qrcode).not.toBe('');

    const second = (await create({ name: 'Soporte' })).json() as WhatsappView;
    expect(second.isDefault).toBe(false);
    expect((await getDefaultWhatsapp(t.db, company.company.id)).id).toBe(view.id);
  });

  it('defaults to the Baileys provider', async () => {
    const res = await inject(t.app, admin, 'POST', '/whatsapp', { name: 'Principal' });
    expect(res.json().provider).toBe('beta');
  });

  it('moves the default flag and refuses to leave the company without one', async () => {
    const first = (await create({ name: 'Uno' })).json() as WhatsappView;
    const second = (await create({ name: 'Dos', isDefault: true })).json() as WhatsappView;
    expect(second.isDefault).toBe(true);
    expect((await get(first.id)).isDefault).toBe(false);

    const refused = await inject(t.app, admin, 'PUT', `/whatsapp/${second.id}`, {
      isDefault: false,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('ERR_NO_OTHER_WHATSAPP');

    // Deleting the default hands the flag to the one left.
    expect((await inject(t.app, admin, 'DELETE', `/whatsapp/${second.id}`)).statusCode).toBe(204);
    expect((await get(first.id)).isDefault).toBe(true);
    await t.db.delete(whatsapps).where(eq(whatsapps.id, first.id));
    await expect(getDefaultWhatsapp(t.db, company.company.id)).rejects.toMatchObject({
      code: 'ERR_NO_DEF_WAPP_FOUND',
    });
  });

  it('requires a greeting with more than one queue and keeps the queues it was given', async () => {
    const a = await queueOf('Ventas', '#111111');
    const b = await queueOf('Soporte', '#222222');
    const refused = await create({ name: 'Con colas', queueIds: [a.id, b.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'ERR_WAPP_GREETING_REQUIRED',
      fields: { greetingMessage: ['ERR_WAPP_GREETING_REQUIRED'] },
    });
    expect(await list()).toEqual([]);

    const res = await create({
      name: 'Con colas',
      queueIds: [a.id, b.id],
      greetingMessage: 'Hola! 1 o 2',
    });
    expect(res.statusCode).toBe(201);
    const view = res.json() as WhatsappView;
    expect(view.queueIds.sort()).toEqual([a.id, b.id].sort());
    expect(view.queues.map((q) => q.name).sort()).toEqual(['Soporte', 'Ventas']);

    // Clearing the greeting later is refused the same way.
    const cleared = await inject(t.app, admin, 'PUT', `/whatsapp/${view.id}`, {
      greetingMessage: ' ',
    });
    expect(cleared.json().error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const one = await inject(t.app, admin, 'PUT', `/whatsapp/${view.id}`, {
      queueIds: [a.id],
      greetingMessage: '',
    });
    expect(one.statusCode).toBe(200);
    expect(one.json().queueIds).toEqual([a.id]);
  });

  it('refuses another company’s queue like one that does not exist', async () => {
    const other = await makeCompany(t.db);
    const [foreign] = await t.db
      .insert(queues)
      .values({ companyId: other.company.id, name: 'Ajena', color: '#333333' })
      .returning();
    const res = await create({ name: 'Mezcla', queueIds: [foreign.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ queueIds: ['ERR_NO_QUEUE_FOUND'] });
  });

  it('keeps to the plan’s connection limit', async () => {
    const small = await makeCompany(t.db, { planLimits: { connections: 1 } });
    const smallAdmin = await login(t.app, small.admin.email);
    expect((await create({ name: 'Única' }, smallAdmin)).statusCode).toBe(201);
    const refused = await create({ name: 'Otra' }, smallAdmin);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_PLAN_LIMIT_CONNECTIONS');
  });

  it('shows the external token to admins only, and regenerates it', async () => {
    const view = (await create({ name: 'Token' })).json() as WhatsappView;
    expect((await list(user))[0].token).toBeNull();
    const res = await inject(t.app, admin, 'POST', `/whatsapp/${view.id}/token`);
    expect(res.statusCode).toBe(200);
    expect(res.json().token).not.toBe(view.token);
    expect((await get(view.id)).token).toBe(res.json().token);
  });

  it("shows a Cloud API connection's verify token to admins only, and to no socket", async () => {
    const [row] = await t.db
      .insert(whatsapps)
      .values({
        companyId: company.company.id,
        name: 'Meta',
        provider: 'cloud',
        cloudPhoneNumberId: '1555000',
        cloudAccessToken: 'sealed-elsewhere',
        cloudAppSecret: 'sealed-elsewhere',
        cloudVerifyToken: 'VerifyOnlyAdmins42',
        token: 'ExternalApiToken42',
      })
      .returning();
    const adminHeard = await listenAs(t.app, admin);
    const userHeard = await listenAs(t.app, user);
    const renamed = await inject(t.app, admin, 'PUT', `/whatsapp/${row.id}`, { name: 'Meta 2' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      cloudVerifyToken: 'VerifyOnlyAdmins42',
      token: 'ExternalApiToken42',
    });
    expect((await get(row.id)).cloudVerifyToken).toBe('VerifyOnlyAdmins42');
    const seenByUser = (await list(user)).find((c) => c.id === row.id)!;
    expect(seenByUser).toMatchObject({ name: 'Meta 2', cloudVerifyToken: null, token: null });
    await caughtUp(adminHeard, userHeard);
    // Both hear the change (so the check below is not vacuous), neither hears the secrets.
    for (const heard of [adminHeard, userHeard]) {
      const update = heard.find((h) => h.event === `company-${company.company.id}-whatsapp`);
      expect(update?.payload).toMatchObject({ action: 'update', whatsapp: { name: 'Meta 2' } });
      expect(JSON.stringify(heard)).not.toMatch(/VerifyOnlyAdmins42|ExternalApiToken42|sealed/);
    }
    closeSockets();
  });

  it('keeps Cloud API secrets write-only and asks for all of them', async () => {
    const missing = await create({ name: 'Cloud', provider: 'cloud', cloudPhoneNumberId: '123' });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fields).sort()).toEqual([
      'cloudAccessToken',
      'cloudAppSecret',
      'cloudVerifyToken',
    ]);
  });

  it('refuses the simulator where it is not enabled', async () => {
    const off = await createTestApp({ SIMULATOR_ENABLED: 'false' });
    try {
      const c = await makeCompany(off.db);
      const session = await login(off.app, c.admin.email);
      const res = await inject(off.app, session, 'POST', '/whatsapp', {
        name: 'Sim',
        provider: 'simulator',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('ERR_PROVIDER_UNAVAILABLE');
      expect((await inject(off.app, session, 'POST', '/simulator/1/scan')).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('refuses to delete a connection that has tickets', async () => {
    const view = (await create({ name: 'Con tickets' })).json() as WhatsappView;
    const [contact] = await t.db
      .insert(contacts)
      .values({ companyId: company.company.id, name: 'Ana', number: '5511999990000' })
      .returning();
    await t.db.insert(tickets).values({
      companyId: company.company.id,
      contactId: contact.id,
      whatsappId: view.id,
      status: 'pending',
    });
    const res = await inject(t.app, admin, 'DELETE', `/whatsapp/${view.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_WAPP_IN_USE');
    expect((await get(view.id)).id).toBe(view.id);
  });

  it('validates names', async () => {
    const res = await create({ name: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.name).toBeDefined();
  });
});

describe('Cloud API credentials saved before they were sealed', () => {
  it('are sealed at start, once when several nodes start together, and open to what was saved', async () => {
    const [row] = await t.db
      .insert(whatsapps)
      .values({
        companyId: company.company.id,
        name: 'Cloud antigua',
        provider: 'cloud',
        cloudPhoneNumberId: '555000111',
        cloudAccessToken: 'EAAG-plain-token',
        cloudAppSecret: 'plain-app-secret',
        cloudVerifyToken: 'verify',
      })
      .returning();
    const plain = (await t.db.select().from(whatsapps))
      .flatMap((w) => [w.cloudAccessToken, w.cloudAppSecret])
      .filter((value) => value && !isSealed(value)).length;
    expect(plain).toBeGreaterThanOrEqual(2);
    const counts = await Promise.all(
      [1, 2, 3].map(() => sealCloudSecrets(t.db, t.app.deps.secrets)),
    );
    // Each plain value sealed once, whichever node got to it.
    expect(counts.reduce((a, b) => a + b, 0)).toBe(plain);
    const [sealed] = await t.db.select().from(whatsapps).where(eq(whatsapps.id, row.id));
    expect(isSealed(sealed.cloudAccessToken!)).toBe(true);
    expect(isSealed(sealed.cloudAppSecret!)).toBe(true);
    expect(withOpenCloudSecrets(t.app.deps.secrets, sealed)).toMatchObject({
      cloudAccessToken: 'EAAG-plain-token',
      cloudAppSecret: 'plain-app-secret',
    });
    expect(await sealCloudSecrets(t.db, t.app.deps.secrets)).toBe(0);
    // The API still says only that they are set.
    const view = (await get(row.id)) as WhatsappView & Record<string, unknown>;
    expect(view).toMatchObject({ hasCloudAccessToken: true, hasCloudAppSecret: true });
    expect(JSON.stringify(view)).not.toContain('plain');
  });
});

describe('sessions and the simulated phone', () => {
  const events: ChannelEventInput[] = [];
  beforeAll(() => {
    t.app.deps.channels.onEvent(async (input) => void events.push(input));
  });
  beforeEach(() => void (events.length = 0));

  const paired = async (name = 'Demo') => {
    const view = (await create({ name })).json() as WhatsappView;
    await until(view.id, 'qrcode');
    const scan = await inject(t.app, admin, 'POST', `/simulator/${view.id}/scan`);
    expect(scan.statusCode).toBe(200);
    return until(view.id, 'CONNECTED');
  };

  it('pairs by QR: scanning connects, clears the code and reports the number', async () => {
    const row = await paired();
    expect(row.qrcode).toBe('');
    expect(row.number).toMatch(/^\d+$/);
    // Nothing waits for a scan any more.
    const again = await inject(t.app, admin, 'POST', `/simulator/${row.id}/scan`);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
  });

  it('delivers inbound messages as the channel layer’s events; a repeated id is the same message', async () => {
    const row = await paired();
    const res = await inject(t.app, admin, 'POST', `/simulator/${row.id}/inbound`, {
      from: '+55 11 8888-7777'.replace(/\D/g, ''),
      name: 'Ana',
      body: 'Hola',
    });
    expect(res.statusCode).toBe(200);
    const { id } = res.json() as { id: string };
    await inject(t.app, admin, 'POST', `/simulator/${row.id}/inbound`, {
      from: '551188887777',
      body: 'Hola',
      id,
    });
    const messages = events.filter((e) => e.event.type === 'message');
    expect(messages).toHaveLength(2);
    const [first, second] = messages.map((e) =>
      e.event.type === 'message' ? e.event.message : undefined,
    );
    expect(first).toMatchObject({
      providerId: id,
      body: 'Hola',
      contactName: 'Ana',
      mediaType: 'chat',
      fromMe: false,
      isGroup: false,
    });
    // Brazil's ninth digit: one person, one number.
    expect(first?.from).toBe('5511988887777');
    expect(second?.providerId).toBe(id);
    expect(messages[0].connection).toEqual({
      id: row.id,
      companyId: company.company.id,
      provider: 'simulator',
    });
  });

  it("another company's phone running on this server is not found, and hears nothing", async () => {
    const row = await paired('Ajeno');
    expect(t.app.deps.channels.isRunningHere(row.id)).toBe(true);
    const other = await makeCompany(t.db);
    const stranger = await login(t.app, other.admin.email);
    const before = events.length;
    const res = await inject(t.app, stranger, 'POST', `/simulator/${row.id}/inbound`, {
      from: '5491133334444',
      body: 'no debería llegar',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_WAPP_FOUND');
    expect(events.slice(before)).toEqual([]);
    const typing = await inject(t.app, stranger, 'POST', `/simulator/${row.id}/typing`, {
      from: '5491133334444',
      typing: true,
    });
    expect(typing.statusCode).toBe(404);
  });

  it('stores inbound media in our storage before handing the message on', async () => {
    const row = await paired();
    await inject(t.app, admin, 'POST', `/simulator/${row.id}/inbound`, {
      from: '5491122223333',
      mediaType: 'image',
      fileName: 'foto.png',
      mediaBase64: Buffer.from('png-bytes').toString('base64'),
      quotedId: 'ABC',
    });
    const [message] = events.filter((e) => e.event.type === 'message');
    expect(message.media).toMatchObject({ fileName: 'foto.png', size: 9 });
    const kept = await t.app.deps.uploads.read(company.company.id, message.media!.storedName);
    expect(kept?.toString()).toBe('png-bytes');
    expect(message.event.type === 'message' && message.event.message.quotedId).toBe('ABC');
  });

  it('pages what the phone received newest first, each page oldest to newest', async () => {
    const row = await paired();
    // 501 earlier messages, then one sent through the session: the newest 500 on page 1.
    await t.db.insert(simulatorMessages).values(
      Array.from({ length: 501 }, (_, i) => ({
        companyId: company.company.id,
        whatsappId: row.id,
        providerId: `OLD-${i}`,
        to: '5491122223333',
        body: `viejo ${i}`,
      })),
    );
    const sent = await t.app.deps.channels.send(row.id, { to: '5491122223333', body: 'el último' });
    const page = async (query: string) => {
      const res = await inject(t.app, admin, 'GET', `/simulator/${row.id}/outbound${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as SimulatorOutboundView[]).map((m) => m.id);
    };
    const first = await page('');
    expect(first).toHaveLength(SIMULATOR_OUTBOUND_PAGE_SIZE);
    expect(first.at(-1)).toBe(sent.providerId);
    expect(first[0]).toBe('OLD-2');
    expect(await page('?pageNumber=1')).toEqual(first);
    expect(await page('?pageNumber=2')).toEqual(['OLD-0', 'OLD-1']);
    expect(await page('?pageNumber=3')).toEqual([]);
    const bad = await inject(t.app, admin, 'GET', `/simulator/${row.id}/outbound?pageNumber=0`);
    expect(bad.statusCode).toBe(400);
  });

  it('sends at once reach the phone each once, in order; a repeated send is the same message', async () => {
    const row = await paired();
    const bodies = Array.from({ length: 12 }, (_, i) => `respuesta ${i + 1}`);
    const sent = await Promise.all([
      ...bodies.map((body) => t.app.deps.channels.send(row.id, { to: '5491122223333', body })),
      // A retried send (same idempotency key), twice at once, beside the others.
      ...[1, 2].map(() =>
        t.app.deps.channels.send(row.id, {
          to: '5491122223333',
          body: 'una vez',
          idempotencyKey: 'job-77',
        }),
      ),
    ]);
    const [again, twice] = sent.slice(-2);
    expect(twice.providerId).toBe(again.providerId);
    const outbound = (
      await inject(t.app, admin, 'GET', `/simulator/${row.id}/outbound`)
    ).json() as SimulatorOutboundView[];
    expect(outbound.map((m) => m.body)).toEqual([...bodies, 'una vez']);
    expect(outbound.map((m) => m.id)).toEqual(sent.slice(0, -1).map((s) => s.providerId));
  });

  it('sends through the session; the phone lists it and acks it, never backwards', async () => {
    const row = await paired();
    const sent = await t.app.deps.channels.send(row.id, {
      to: '5491122223333',
      body: 'Buen día',
      quotedId: 'Q1',
    });
    const outbound = await inject(t.app, admin, 'GET', `/simulator/${row.id}/outbound`);
    expect(outbound.json()).toEqual([
      expect.objectContaining({
        id: sent.providerId,
        to: '5491122223333',
        body: 'Buen día',
        quotedId: 'Q1',
        ack: 2,
        mediaType: 'chat',
      }),
    ]);
    await inject(t.app, admin, 'POST', `/simulator/${row.id}/ack`, { id: sent.providerId, ack: 4 });
    await inject(t.app, admin, 'POST', `/simulator/${row.id}/ack`, { id: sent.providerId, ack: 3 });
    expect((await inject(t.app, admin, 'GET', `/simulator/${row.id}/outbound`)).json()[0].ack).toBe(
      4,
    );
    const acks = events.filter((e) => e.event.type === 'ack').map((e) => e.event);
    expect(acks).toEqual([
      { type: 'ack', providerId: sent.providerId, ack: 4 },
      { type: 'ack', providerId: sent.providerId, ack: 3 },
    ]);
    const unknown = await inject(t.app, admin, 'POST', `/simulator/${row.id}/ack`, {
      id: 'nope',
      ack: 3,
    });
    expect(unknown.statusCode).toBe(400);
  });

  it("shows both sides of the phone's chats in order, and one contact's chat when asked", async () => {
    const row = await paired();
    const ana = '5491144445555';
    const beto = '5491166667777';
    const conversation = async (query = '') => {
      const res = await inject(t.app, admin, 'GET', `/simulator/${row.id}/conversation${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as SimulatorConversationItem[]).map((m) => [
        m.direction,
        m.contact,
        m.body,
      ]);
    };
    const write = async (from: string, body: string, id?: string) => {
      const res = await inject(t.app, admin, 'POST', `/simulator/${row.id}/inbound`, {
        from,
        body,
        ...(id ? { id } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { id: string }).id;
    };

    const first = await write(ana, 'Hola');
    await t.app.deps.channels.send(row.id, { to: ana, body: 'Buen día, ¿en qué le ayudamos?' });
    await write(beto, 'Soy otro cliente');
    await write(ana, 'Quiero hacer un pedido');
    // A redelivery of Ana's first message is the same message.
    await write(ana, 'Hola', first);
    await t.app.deps.channels.send(row.id, { to: ana, body: 'Claro, ¿qué necesita?' });

    expect(await conversation()).toEqual([
      ['in', ana, 'Hola'],
      ['out', ana, 'Buen día, ¿en qué le ayudamos?'],
      ['in', beto, 'Soy otro cliente'],
      ['in', ana, 'Quiero hacer un pedido'],
      ['out', ana, 'Claro, ¿qué necesita?'],
    ]);
    expect(await conversation(`?number=${ana}`)).toEqual([
      ['in', ana, 'Hola'],
      ['out', ana, 'Buen día, ¿en qué le ayudamos?'],
      ['in', ana, 'Quiero hacer un pedido'],
      ['out', ana, 'Claro, ¿qué necesita?'],
    ]);
    // What the phone received is still only the platform's side, and only that side is acked.
    const received = (await inject(t.app, admin, 'GET', `/simulator/${row.id}/outbound`)).json();
    expect(received.map((m: SimulatorOutboundView) => m.body)).toEqual([
      'Buen día, ¿en qué le ayudamos?',
      'Claro, ¿qué necesita?',
    ]);
    const ackOwn = await inject(t.app, admin, 'POST', `/simulator/${row.id}/ack`, {
      id: first,
      ack: 4,
    });
    expect(ackOwn.statusCode).toBe(400);
    const bad = await inject(t.app, admin, 'GET', `/simulator/${row.id}/conversation?number=x`);
    expect(bad.statusCode).toBe(400);
  });

  it('reports typing', async () => {
    const row = await paired();
    const res = await inject(t.app, admin, 'POST', `/simulator/${row.id}/typing`, {
      from: '5491122223333',
      typing: true,
    });
    expect(res.statusCode).toBe(204);
    expect(events.map((e) => e.event)).toContainEqual({
      type: 'typing',
      from: '5491122223333',
      typing: true,
    });
  });

  it('refuses to send or receive while not connected', async () => {
    const view = (await create({ name: 'Sin vincular' })).json() as WhatsappView;
    await until(view.id, 'qrcode');
    const res = await inject(t.app, admin, 'POST', `/simulator/${view.id}/inbound`, {
      from: '5491122223333',
      body: 'x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    await expect(t.app.deps.channels.send(view.id, { to: '1', body: 'x' })).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
    // Nor does a phone that never linked the connection unlink it: the QR stays to be scanned.
    const unlink = await inject(t.app, admin, 'POST', `/simulator/${view.id}/disconnect`);
    expect(unlink.statusCode).toBe(400);
    expect(unlink.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    const [row] = await t.db.select().from(whatsapps).where(eq(whatsapps.id, view.id));
    expect(row.status).toBe('qrcode');
  });

  it('a phone that unlinks the device leaves the connection DISCONNECTED and unpaired', async () => {
    const row = await paired();
    expect((await inject(t.app, admin, 'POST', `/simulator/${row.id}/disconnect`)).statusCode).toBe(
      204,
    );
    await until(row.id, 'DISCONNECTED');
    const keys = await t.db
      .select()
      .from(whatsappAuthKeys)
      .where(eq(whatsappAuthKeys.whatsappId, row.id));
    expect(keys).toEqual([]);
    // "Try again" then shows a new QR code.
    expect((await inject(t.app, admin, 'POST', `/whatsappsession/${row.id}`)).statusCode).toBe(200);
    await until(row.id, 'qrcode');
  });

  it('session routes: disconnect unpairs, new QR starts over, try again resumes a pairing', async () => {
    const row = await paired();
    // Try again keeps the pairing: straight back to CONNECTED.
    expect((await inject(t.app, admin, 'POST', `/whatsappsession/${row.id}`)).statusCode).toBe(200);
    await until(row.id, 'CONNECTED');
    const off = await inject(t.app, admin, 'DELETE', `/whatsappsession/${row.id}`);
    expect(off.statusCode).toBe(200);
    expect((await get(row.id)).status).toBe('DISCONNECTED');
    const fresh = await inject(t.app, admin, 'PUT', `/whatsappsession/${row.id}`);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const waiting = await until(row.id, 'qrcode');
    expect(waiting.qrcode).not.toBe('');
    // A pairing code instead of a QR.
    const code = await inject(t.app, admin, 'PUT', `/whatsappsession/${row.id}`, {
      phoneNumber: '+5491122223333',
    });
    expect(code.statusCode).toBe(200);
    const pairing = await until(row.id, 'PAIRING');
    expect(pairing.pairingCode).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
    expect(pairing.qrcode).toBe('');
  });

  it('tells connection.status when the status changes, and not when the same one is written again', async () => {
    const heard: EventOf<'connection.status'>[] = [];
    t.app.deps.events.on('connection.status', (event) => {
      if (event.companyId === company.company.id) heard.push(event);
    });
    const row = await paired();
    const changes = () =>
      heard.filter((e) => e.whatsappId === row.id).map((e) => [e.before, e.after]);
    // Created, started, showing its QR code (refreshed codes are no change), scanned. The row reads
    // CONNECTED a moment before the listeners hear of it.
    await eventually(
      () => Promise.resolve(changes()),
      (seen) => seen.length === 4,
      'scanned',
    );
    expect(changes()).toEqual([
      [null, 'DISCONNECTED'],
      ['DISCONNECTED', 'OPENING'],
      ['OPENING', 'qrcode'],
      ['qrcode', 'CONNECTED'],
    ]);
    expect((await inject(t.app, admin, 'DELETE', `/whatsappsession/${row.id}`)).statusCode).toBe(
      200,
    );
    expect(changes().slice(4)).toEqual([['CONNECTED', 'DISCONNECTED']]);
    // Disconnected again: DISCONNECTED is written once more, which changes nothing.
    expect((await inject(t.app, admin, 'DELETE', `/whatsappsession/${row.id}`)).statusCode).toBe(
      200,
    );
    expect((await get(row.id)).status).toBe('DISCONNECTED');
    expect(changes()).toHaveLength(5);
  });

  it('users without the permission cannot drive sessions or the phone', async () => {
    const row = await paired();
    for (const [method, url] of [
      ['POST', `/whatsappsession/${row.id}`],
      ['DELETE', `/whatsappsession/${row.id}`],
      ['POST', `/simulator/${row.id}/scan`],
    ] as const) {
      const res = await inject(t.app, user, method, url);
      expect(res.statusCode, url).toBe(403);
    }
  });

  it('a connection of another provider is not a simulator', async () => {
    const [beta] = await t.db
      .insert(whatsapps)
      .values({ companyId: company.company.id, name: 'Baileys', provider: 'beta' })
      .returning();
    expect((await inject(t.app, admin, 'POST', `/simulator/${beta.id}/scan`)).statusCode).toBe(404);
  });

  it('sessions resume after a restart: paired ones connect again without a new QR', async () => {
    const row = await paired('Persistente');
    const app = await t.restart();
    expect(app.deps.channels.isRunningHere(row.id)).toBe(true);
    const after = await until(row.id, 'CONNECTED');
    expect(after.qrcode).toBe('');
    // It works after the restart: a message goes out through it.
    const sent = await app.deps.channels.send(row.id, { to: '5491122223333', body: 'sigo aquí' });
    expect(sent.providerId).toMatch(/^SIMOUT/);
    admin = await login(t.app, company.admin.email);
  });
});

describe('live updates', () => {
  afterAll(() => closeSockets());

  it('session updates reach only the connection’s company, without auth state', async () => {
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const mine = await listenAs<WhatsappSessionEvent>(t.app, admin);
    const leaked = await listenAs(t.app, otherAdmin);
    const connectionEvents = [
      `company-${company.company.id}-whatsappSession`,
      `company-${company.company.id}-whatsapp`,
    ];
    const seen = () => mine.filter((h) => connectionEvents.includes(h.event)).map((h) => h.payload);
    const view = (await create({ name: 'En vivo' })).json() as WhatsappView;
    await until(view.id, 'qrcode');
    await inject(t.app, admin, 'POST', `/simulator/${view.id}/scan`);
    await until(view.id, 'CONNECTED');
    // The scan request returns once CONNECTED is stored and announced.
    await caughtUp(mine, leaked);
    const sessions = seen()
      .filter((e) => 'session' in e)
      .map((e) => e.session);
    expect(sessions.map((s) => s.status)).toEqual(
      expect.arrayContaining(['OPENING', 'qrcode', 'CONNECTED']),
    );
    expect(sessions.find((s) => s.status === 'qrcode')?.qrcode).not.toBe('');
    expect(sessions.at(-1)).toMatchObject({ id: view.id, status: 'CONNECTED', qrcode: '' });
    for (const s of sessions)
      expect(Object.keys(s).sort()).toEqual([
        'cloudMessagingLimit',
        'cloudQualityRating',
        'id',
        'number',
        'pairingCode',
        'qrcode',
        'retries',
        'status',
        'updatedAt',
      ]);
    const created = seen().find(
      (e) => (e as { action: string }).action === 'create',
    ) as unknown as { whatsapp: WhatsappView };
    expect(created.whatsapp.name).toBe('En vivo');
    expect(created.whatsapp.token).toBeNull();
    expect(leaked).toEqual([]);
  });
});
