import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  GRAPH_TOKEN,
  signPayload,
  startFakeGraph,
  webhookBody,
  type FakeGraph,
} from '../../../test/fake-graph';
import { eventually } from '../../../test/eventually';
import { createTestApp, makeCompany, type TestContext } from '../../../test/harness';
import type { App } from '../../app';
import { jobs, messages, tickets, whatsapps } from '../../db/schema';
import type { ChannelEventInput } from '../manager';
import { WEBHOOK_QUEUE, type WebhookJob } from './inbox';

const SECRET = 'app-secret-A';
const PHONE_A = '100000000000001';
const PHONE_B = '100000000000002';
// Same Meta app as A (same secret), another company.
const PHONE_C = '100000000000003';
const CUSTOMER = '5511988887777';

let t: TestContext;
let graph: FakeGraph;
let received: ChannelEventInput[];
const connection: Record<'a' | 'b' | 'c', typeof whatsapps.$inferSelect> = {} as never;

const subscribe = (app: App) =>
  app.deps.channels.onEvent(async (input) => void received.push(input));

const addConnection = async (
  name: string,
  phoneNumberId: string,
  appSecret: string | null,
  provider: 'cloud' | 'beta' = 'cloud',
) => {
  const { company } = await makeCompany(t.db);
  const [row] = await t.db
    .insert(whatsapps)
    .values({
      companyId: company.id,
      name,
      provider,
      cloudPhoneNumberId: phoneNumberId,
      cloudAccessToken: t.app.deps.secrets.seal(GRAPH_TOKEN),
      cloudAppSecret: appSecret && t.app.deps.secrets.seal(appSecret),
      cloudVerifyToken: `verify-${name}`,
      cloudApiBaseUrl: graph.url,
    })
    .returning();
  return row;
};

const post = (body: unknown, secret: string | null = SECRET) => {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: '/webhooks/whatsapp',
    headers: {
      'content-type': 'application/json',
      ...(secret ? { 'x-hub-signature-256': signPayload(raw, secret) } : {}),
    },
    payload: raw,
  });
};

// The stored webhooks: jobs of the background queue, one per connection a payload concerns.
const storedRows = async () =>
  (await t.db.select().from(jobs).where(eq(jobs.queue, WEBHOOK_QUEUE)).orderBy(jobs.id)).map(
    (row) => ({ ...row, whatsappId: (row.payload as WebhookJob).whatsappId }),
  );
const store = (whatsappId: number, body: unknown, row: Partial<typeof jobs.$inferInsert> = {}) =>
  t.db
    .insert(jobs)
    .values({ queue: WEBHOOK_QUEUE, payload: { whatsappId, body } satisfies WebhookJob, ...row })
    .returning();
const processBatch = () => t.app.deps.jobs.process(WEBHOOK_QUEUE);

const text = (id: string, body: string, timestamp = '1749416383') => ({
  from: CUSTOMER,
  id,
  timestamp,
  type: 'text',
  text: { body },
});
const contacts = [{ profile: { name: 'Maria Silva' }, wa_id: CUSTOMER }];

const messagesFor = (whatsappId: number) =>
  received.flatMap((r) =>
    r.connection.id === whatsappId && r.event.type === 'message' ? [r] : [],
  );
const acksFor = (whatsappId: number) =>
  received.flatMap((r) =>
    r.connection.id === whatsappId && r.event.type === 'ack'
      ? [{ providerId: r.event.providerId, ack: r.event.ack }]
      : [],
  );

beforeAll(async () => {
  graph = await startFakeGraph();
  t = await createTestApp();
  connection.a = await addConnection('A', PHONE_A, SECRET);
  connection.b = await addConnection('B', PHONE_B, 'app-secret-B');
  connection.c = await addConnection('C', PHONE_C, SECRET);
});
afterAll(async () => {
  await t.close();
  await graph.close();
});
let unsubscribe: () => void;
beforeEach(async () => {
  received = [];
  unsubscribe?.();
  unsubscribe = subscribe(t.app);
  await t.db.delete(jobs).where(eq(jobs.queue, WEBHOOK_QUEUE));
});

describe('GET /webhooks/whatsapp (subscription check)', () => {
  const verify = (query: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/webhooks/whatsapp', query });

  it("answers Meta's challenge when the verify token is a connection's", async () => {
    const res = await verify({
      'hub.mode': 'subscribe',
      'hub.verify_token': 'verify-B',
      'hub.challenge': '1158201444',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('1158201444');
  });

  it('refuses a wrong token, another mode, or no token', async () => {
    const refused: Record<string, string>[] = [
      { 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '1' },
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': 'verify-A', 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.verify_token': '', 'hub.challenge': '1' },
      {},
    ];
    for (const query of refused) {
      const res = await verify(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION', message: expect.any(String) });
    }
  });
});

describe('POST /webhooks/whatsapp', () => {
  it('refuses a bad or missing signature with 401 and stores nothing', async () => {
    const body = webhookBody({
      phoneNumberId: PHONE_A,
      value: { contacts, messages: [text('wamid.sig', 'hi')] },
    });
    for (const secret of ['wrong-secret', null]) {
      const res = await post(body, secret);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        error: 'ERR_INVALID_SIGNATURE',
        message: expect.any(String),
      });
    }
    // Signed, then changed on the way.
    const raw = JSON.stringify(body);
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/webhooks/whatsapp',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signPayload(raw, SECRET),
      },
      payload: raw.replace('"hi"', '"pay me"'),
    });
    expect(tampered.statusCode).toBe(401);
    expect(await storedRows()).toEqual([]);
  });

  it('refuses a batch when any connection it touches does not vouch for it', async () => {
    // Signed with A's secret, but it also speaks for B (another app).
    const res = await post(
      webhookBody(
        { phoneNumberId: PHONE_A, value: { contacts, messages: [text('wamid.x1', 'a')] } },
        { phoneNumberId: PHONE_B, value: { contacts, messages: [text('wamid.x2', 'b')] } },
      ),
    );
    expect(res.statusCode).toBe(401);
    expect(await storedRows()).toEqual([]);
  });

  it('ignores unknown phone number ids and non-cloud connections, storing nothing', async () => {
    const beta = await addConnection('Beta', '100000000000099', SECRET, 'beta');
    for (const phoneNumberId of ['999999999999999', beta.cloudPhoneNumberId!]) {
      const raw = JSON.stringify(
        webhookBody({ phoneNumberId, value: { contacts, messages: [text('wamid.u', 'x')] } }),
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/webhooks/whatsapp',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-hub-signature-256': signPayload(raw, SECRET),
        },
        payload: raw,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: true });
    }
    expect(await storedRows()).toEqual([]);
  });

  it('answers 400 for malformed JSON and for payloads that are not webhooks', async () => {
    const broken = await post('{"object": "whatsapp_business_account", "entry": [');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toBe('ERR_VALIDATION');
    const wrongShape = await post({ object: 'whatsapp_business_account', entry: 'nope' });
    expect(wrongShape.statusCode).toBe(400);
    expect(wrongShape.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/webhooks/whatsapp',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(notJson.statusCode).toBe(415);
    expect(notJson.json().error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    const badMessage = await post(
      webhookBody({ phoneNumberId: PHONE_A, value: { messages: [{ id: 'wamid.1' }] } }),
    );
    expect(badMessage.statusCode).toBe(400);
    expect(await storedRows()).toEqual([]);
  });

  it("stores a payload of several chats as one job per chat, keyed so each chat's messages keep their order", async () => {
    const OTHER = '5511977776666';
    const body = webhookBody({
      phoneNumberId: PHONE_A,
      value: {
        contacts: [...contacts, { profile: { name: 'Ana' }, wa_id: OTHER }],
        messages: [
          text('wamid.k1', 'uno'),
          { ...text('wamid.k2', 'dos'), from: OTHER },
          text('wamid.k3', 'tres'),
        ],
        statuses: [
          { id: 'wamid.out9', status: 'delivered', timestamp: '1', recipient_id: CUSTOMER },
        ],
      },
    });
    expect((await post(body)).statusCode).toBe(200);
    const rows = await storedRows();
    expect(rows.map((row) => [row.key, (row.payload as WebhookJob).chat])).toEqual([
      [`${connection.a.id}:${CUSTOMER}`, CUSTOMER],
      [`${connection.a.id}:${OTHER}`, OTHER],
    ]);
    // A payload of statuses only has no chat: nothing to keep in order.
    const statuses = webhookBody({
      phoneNumberId: PHONE_A,
      value: { statuses: [{ id: 'wamid.out9', status: 'read', timestamp: '2' }] },
    });
    expect((await post(statuses)).statusCode).toBe(200);
    expect((await storedRows())[2]).toMatchObject({ key: null, payload: { body: statuses } });

    await vi.waitFor(async () => {
      expect((await storedRows()).map((row) => row.status)).toEqual(['done', 'done', 'done']);
    });
    // Every message once, each chat's in order, and the first chat's job handed the status on.
    const bodiesFrom = (from: string) =>
      messagesFor(connection.a.id).flatMap((r) =>
        r.event.type === 'message' && r.event.message.from === from ? [r.event.message.body] : [],
      );
    expect(bodiesFrom(CUSTOMER)).toEqual(['uno', 'tres']);
    expect(bodiesFrom(OTHER)).toEqual(['dos']);
    // Each status once; a payload of statuses only is keyed by no chat, so its job may run before or
    // after the chat's (the channel layer keeps the furthest ack).
    expect(acksFor(connection.a.id).sort((a, b) => a.ack - b.ack)).toEqual([
      { providerId: 'wamid.out9', ack: 3 },
      { providerId: 'wamid.out9', ack: 4 },
    ]);
  });

  it('stores a batch, answers 200, and hands messages, media and acks to the channel layer', async () => {
    const photo = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);
    graph.addMedia('778899', photo, 'image/jpeg');
    const body = webhookBody(
      {
        phoneNumberId: PHONE_A,
        value: {
          contacts,
          messages: [
            text('wamid.t1', 'Hola, necesito ayuda'),
            {
              from: CUSTOMER,
              id: 'wamid.i1',
              timestamp: '1749416390',
              type: 'image',
              image: { id: '778899', mime_type: 'image/jpeg', sha256: 'x', caption: 'Mi factura' },
              context: { from: '15550001111', id: 'wamid.t1' },
            },
          ],
        },
      },
      {
        phoneNumberId: PHONE_A,
        value: {
          statuses: [
            { id: 'wamid.out1', status: 'delivered', timestamp: '1', recipient_id: CUSTOMER },
            { id: 'wamid.out1', status: 'read', timestamp: '2', recipient_id: CUSTOMER },
          ],
        },
      },
    );
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    const [row] = await storedRows();
    expect(row).toMatchObject({
      whatsappId: connection.a.id,
      companyId: connection.a.companyId,
      payload: { body },
    });

    await vi.waitFor(async () => {
      expect((await storedRows())[0].status).toBe('done');
    });
    const [first, second] = messagesFor(connection.a.id);
    expect(first.connection).toEqual({
      id: connection.a.id,
      companyId: connection.a.companyId,
      provider: 'cloud',
    });
    expect(first.event).toMatchObject({
      type: 'message',
      message: {
        providerId: 'wamid.t1',
        from: CUSTOMER,
        contactName: 'Maria Silva',
        body: 'Hola, necesito ayuda',
        mediaType: 'chat',
      },
    });
    expect(second.event).toMatchObject({
      type: 'message',
      message: {
        providerId: 'wamid.i1',
        mediaType: 'image',
        body: 'Mi factura',
        quotedId: 'wamid.t1',
      },
    });
    expect(second.mediaError).toBeUndefined();
    expect(second.media).toMatchObject({ mimetype: 'image/jpeg', size: photo.length });
    const kept = await t.app.deps.uploads.read(connection.a.companyId, second.media!.storedName);
    expect(kept?.equals(photo)).toBe(true);
    expect(acksFor(connection.a.id)).toEqual([
      { providerId: 'wamid.out1', ack: 3 },
      { providerId: 'wamid.out1', ack: 4 },
    ]);
    const [processed] = await storedRows();
    expect(processed).toMatchObject({ attempts: 1, lastError: null, status: 'done' });
  });

  it('stores one row per connection of a batch and gives each connection only its events', async () => {
    const res = await post(
      webhookBody(
        { phoneNumberId: PHONE_A, value: { contacts, messages: [text('wamid.forA', 'to A')] } },
        { phoneNumberId: PHONE_C, value: { contacts, messages: [text('wamid.forC', 'to C')] } },
        {
          phoneNumberId: '999999999999999',
          value: { contacts, messages: [text('wamid.no', 'x')] },
        },
      ),
    );
    expect(res.statusCode).toBe(200);
    expect((await storedRows()).map((r) => r.whatsappId).sort()).toEqual(
      [connection.a.id, connection.c.id].sort(),
    );
    await vi.waitFor(async () => {
      expect((await storedRows()).every((r) => r.status === 'done')).toBe(true);
    });
    const ids = (whatsappId: number) =>
      messagesFor(whatsappId).map((r) => r.event.type === 'message' && r.event.message.providerId);
    expect(ids(connection.a.id)).toEqual(['wamid.forA']);
    expect(ids(connection.c.id)).toEqual(['wamid.forC']);
    expect(received).toHaveLength(2);
  });

  it('retries a delivery that failed and then processes it', async () => {
    let failures = 1;
    const stopFailing = t.app.deps.channels.onEvent(async () => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('ticket store unavailable');
      }
    });
    try {
      const res = await post(
        webhookBody({
          phoneNumberId: PHONE_A,
          value: { contacts, messages: [text('wamid.r1', 'again')] },
        }),
      );
      expect(res.statusCode).toBe(200);
      await vi.waitFor(async () => {
        expect((await storedRows())[0]).toMatchObject({
          attempts: 1,
          status: 'pending',
          lastError: 'ticket store unavailable',
        });
      });
      // Due now rather than after its backoff.
      await t.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.queue, WEBHOOK_QUEUE));
      t.app.deps.jobs.kick(WEBHOOK_QUEUE);
      await vi.waitFor(async () => {
        expect((await storedRows())[0]).toMatchObject({
          attempts: 2,
          lastError: null,
          status: 'done',
        });
      });
      // At least once: the first attempt's event reached the subscriber before the failing one threw.
      expect(messagesFor(connection.a.id).length).toBeGreaterThanOrEqual(1);
      expect(await processBatch()).toEqual({ claimed: 0, succeeded: 0 });
    } finally {
      stopFailing();
    }
  });
});

// The route remembers each number's connection to skip the lookup; changes made anywhere (here
// straight in the database, as another API node would) must hold for the very next webhook.
describe('POST /webhooks/whatsapp after a connection changed', () => {
  const textTo = (phoneNumberId: string, id: string) =>
    webhookBody({ phoneNumberId, value: { contacts, messages: [text(id, id)] } });
  const storedFor = async () => (await storedRows()).map((r) => r.whatsappId);

  it('checks the next webhook against a new app secret', async () => {
    const phone = '100000000000101';
    const d = await addConnection('Secret', phone, 'old-secret');
    expect((await post(textTo(phone, 'wamid.s1'), 'old-secret')).statusCode).toBe(200);
    await t.db
      .update(whatsapps)
      .set({ cloudAppSecret: t.app.deps.secrets.seal('new-secret') })
      .where(eq(whatsapps.id, d.id));

    expect((await post(textTo(phone, 'wamid.s2'), 'old-secret')).statusCode).toBe(401);
    expect((await post(textTo(phone, 'wamid.s3'), 'new-secret')).statusCode).toBe(200);
    expect(await storedFor()).toEqual([d.id, d.id]);
  });

  it('stores the next webhook for the connection that now has the phone number id', async () => {
    const phone = '100000000000102';
    const before = await addConnection('Before', phone, 'secret-before');
    expect((await post(textTo(phone, 'wamid.p1'), 'secret-before')).statusCode).toBe(200);
    await t.db
      .update(whatsapps)
      .set({ cloudPhoneNumberId: '100000000000103' })
      .where(eq(whatsapps.id, before.id));
    const after = await addConnection('After', phone, 'secret-after');

    expect((await post(textTo(phone, 'wamid.p2'), 'secret-before')).statusCode).toBe(401);
    expect((await post(textTo(phone, 'wamid.p3'), 'secret-after')).statusCode).toBe(200);
    expect(await storedFor()).toEqual([before.id, after.id]);
  });

  it('ignores the next webhook for a deleted connection or one moved to another provider', async () => {
    for (const [name, phone, change] of [
      ['Deleted', '100000000000104', 'delete'],
      ['Moved', '100000000000105', 'provider'],
    ] as const) {
      const row = await addConnection(name, phone, SECRET);
      expect((await post(textTo(phone, `wamid.${name}1`))).statusCode).toBe(200);
      if (change === 'delete') {
        // Its first webhook becomes a conversation in the background: the connection goes once that
        // is stored, with it.
        await eventually(
          () => t.db.select().from(messages).where(eq(messages.whatsappId, row.id)),
          (stored) => stored.length === 1,
          'the first webhook stored',
        );
        await t.db.delete(messages).where(eq(messages.whatsappId, row.id));
        await t.db.delete(tickets).where(eq(tickets.whatsappId, row.id));
        await t.db.delete(jobs).where(eq(jobs.queue, WEBHOOK_QUEUE));
        await t.db.delete(whatsapps).where(eq(whatsapps.id, row.id));
      } else await t.db.update(whatsapps).set({ provider: 'beta' }).where(eq(whatsapps.id, row.id));
      const res = await post(textTo(phone, `wamid.${name}2`));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: true });
    }
    // Only the moved connection's first webhook (the deleted one's went with it).
    expect((await storedRows()).map((r) => r.payload)).toEqual([
      { whatsappId: expect.any(Number), body: textTo('100000000000105', 'wamid.Moved1') },
    ]);
  });

  it('stores webhooks that arrive together once each, deciding each on its own', async () => {
    const phone = '100000000000106';
    const d = await addConnection('Together', phone, 'first-secret');
    expect((await post(textTo(phone, 'wamid.g0'), 'first-secret')).statusCode).toBe(200);
    await t.db
      .update(whatsapps)
      .set({ cloudAppSecret: t.app.deps.secrets.seal('second-secret') })
      .where(eq(whatsapps.id, d.id));

    const forA = Array.from({ length: 10 }, (_, i) => post(textTo(PHONE_A, `wamid.a${i}`)));
    const stale = post(textTo(phone, 'wamid.g1'), 'first-secret');
    const fresh = post(textTo(phone, 'wamid.g2'), 'second-secret');
    const answers = await Promise.all([...forA, stale, fresh]);
    expect(answers.map((r) => r.statusCode)).toEqual([...Array(10).fill(200), 401, 200]);

    const rows = await storedRows();
    type Stored = { body: { entry: { changes: { value: { messages: { id: string }[] } }[] }[] } };
    const ids = rows.map(
      (r) =>
        `${r.whatsappId}:${(r.payload as Stored).body.entry[0].changes[0].value.messages[0].id}`,
    );
    expect(ids.sort()).toEqual(
      [
        `${d.id}:wamid.g0`,
        `${d.id}:wamid.g2`,
        ...Array.from({ length: 10 }, (_, i) => `${connection.a.id}:wamid.a${i}`),
      ].sort(),
    );
  });
});

describe('webhook inbox', () => {
  it('processes rows stored before a crash once the app starts again', async () => {
    const voice = Buffer.from('OggS-voice-note');
    graph.addMedia('crash-voice', voice, 'audio/ogg');
    // Stored and acknowledged, then the process died before handling it.
    await store(
      connection.b.id,
      webhookBody({
        phoneNumberId: PHONE_B,
        value: {
          contacts,
          messages: [
            {
              from: CUSTOMER,
              id: 'wamid.crash',
              timestamp: '1749416383',
              type: 'audio',
              audio: { id: 'crash-voice', mime_type: 'audio/ogg; codecs=opus', voice: true },
            },
          ],
        },
      }),
      // A dead node's claim that has run out.
      { status: 'running', runAt: new Date(Date.now() - 1000), attempts: 1 },
    );
    const folder = path.join(t.config.dataDir, 'uploads', String(connection.b.companyId));
    const before = existsSync(folder) ? readdirSync(folder) : [];
    const app = await t.restart();
    unsubscribe = subscribe(app);
    await vi.waitFor(async () => {
      expect((await storedRows())[0]).toMatchObject({
        attempts: 2,
        lastError: null,
        status: 'done',
      });
    });
    // The new app handled it at start-up (before anyone here could subscribe): the voice note it
    // downloaded through the driver is in the company's files.
    const added = readdirSync(folder).filter((name) => !before.includes(name));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/\.ogg$/);
    expect(readFileSync(path.join(folder, added[0])).equals(voice)).toBe(true);
  });

  it('hands a stored webhook to the channel layer when kicked, and closes out one whose connection is gone', async () => {
    const gone = await addConnection('Gone', '100000000000077', SECRET);
    await store(
      connection.b.id,
      webhookBody({
        phoneNumberId: PHONE_B,
        value: { contacts, messages: [text('wamid.manual', 'stored earlier')] },
      }),
    );
    await store(
      gone.id,
      webhookBody({
        phoneNumberId: '100000000000077',
        value: { messages: [text('wamid.g', 'g')] },
      }),
    );
    await t.db.delete(whatsapps).where(eq(whatsapps.id, gone.id));
    t.app.deps.jobs.kick(WEBHOOK_QUEUE);
    await vi.waitFor(async () => {
      expect(await storedRows()).toMatchObject([
        { whatsappId: connection.b.id, status: 'done', attempts: 1 },
        // Not retried: nobody is left to hand its events to.
        { whatsappId: gone.id, status: 'failed', lastError: 'The connection no longer exists' },
      ]);
    });
    expect(received.map((r) => r.event.type === 'message' && r.event.message.body)).toEqual([
      'stored earlier',
    ]);
  });
});
