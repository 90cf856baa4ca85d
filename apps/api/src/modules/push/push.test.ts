import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { PushPreferences, WhatsappView } from '@atendi/shared';
import { jobs, messages, pushSubscriptions, queues, tickets } from '../../db/schema';
import { watchSla } from '../sla/sla';
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
import { inbound, pairedSimulator, ticketOf } from '../../../test/inbox';
import { closeSockets, openSocket } from '../../../test/sockets';
import { startPushService, type Device, type PushService } from '../../../test/push-service';

// Issue 41, Web Push: an agent's device registered through the API gets, from the durable queue, a
// push encrypted for it (RFC 8291, decrypted here with `http_ece` as the browser would) and signed
// with the server's VAPID key, for what they chose to hear of; never a push about another company's
// conversation, one they are looking at, or a queue they are no longer in; a device the push service
// forgot (410) is removed.

let t: TestContext;
let service: PushService;
let numbers = 0;
const nextNumber = () => `5491170000${String((numbers += 1)).padStart(3, '0')}`;

type Company = {
  id: number;
  admin: Session;
  connection: WhatsappView;
  queueId: number;
};

const companyWithQueue = async () => {
  const made = await makeCompany(t.db);
  const admin = await login(t.app, made.admin.email);
  const [queue] = await t.db
    .insert(queues)
    .values({ companyId: made.company.id, name: 'Ventas', color: '#00aa00' })
    .returning();
  return {
    id: made.company.id,
    admin,
    // One queue: a contact's conversation waits in it at once (no queue bot menu).
    connection: await pairedSimulator(t.app, admin, { queueIds: [queue!.id] }),
    queueId: queue!.id,
  };
};

// An agent of the company in its queue (or in none), signed in.
const agentOf = async (company: Company, queueIds = [company.queueId]) => {
  const user = await makeUser(t.db, company.id, 'user');
  const res = await inject(t.app, company.admin, 'PUT', `/users/${user!.id}`, { queueIds });
  expect(res.statusCode, res.body).toBe(200);
  return login(t.app, user!.email);
};

const register = async (session: Session, device: Device) => {
  const res = await inject(t.app, session, 'POST', '/push/subscriptions', device.subscription);
  expect(res.statusCode, res.body).toBe(200);
};

const choose = async (session: Session, changes: Partial<PushPreferences>) => {
  const current = (await inject(t.app, session, 'GET', '/push/preferences')).json();
  const res = await inject(t.app, session, 'PUT', '/push/preferences', { ...current, ...changes });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PushPreferences;
};

// The contact's message, once stored (with whatever jobs its transaction queued).
const say = async (company: Company, from: string, body: string) => {
  const res = await inbound(t.app, company.admin, company.connection.id, {
    from,
    name: 'Lucía Gómez',
    body,
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  await eventually(
    () =>
      t.db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.companyId, company.id), eq(messages.body, body))),
    (rows) => rows.length === 1,
    `the message "${body}" stored`,
  );
  return eventually(
    () => ticketOf(t.db, company.id, from),
    (ticket) => Boolean(ticket),
    'the ticket',
  ).then((ticket) => ticket!);
};

// Once every push the company's changes queued was sent or passed over: a device that has received
// nothing by then receives nothing.
const pushesSettled = (companyId: number) =>
  eventually(
    () =>
      t.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.queue, 'push.send'),
            eq(jobs.companyId, companyId),
            inArray(jobs.status, ['pending', 'running']),
          ),
        ),
    (rows) => rows.length === 0,
    'the pushes sent',
  );

const pushesOf = (device: Device, count: number, what: string) =>
  eventually(
    () => device.pushes(),
    (pushes) => pushes.length >= count,
    what,
  ).then((pushes) => pushes.map((push) => device.open(push)));

// The conversation, taken by the agent themselves (no push for what they did).
const takenBy = async (company: Company, agent: Session, from: string) => {
  const ticket = await say(company, from, `Hola ${from}`);
  const res = await inject(t.app, agent, 'PUT', `/tickets/${ticket.id}`, {
    status: 'open',
    userId: agent.userId,
  });
  expect(res.statusCode, res.body).toBe(200);
  return ticket;
};

let a: Company;

beforeAll(async () => {
  service = await startPushService();
  t = await createTestApp();
  a = await companyWithQueue();
});
afterAll(async () => {
  closeSockets();
  await t.close();
  await service.close();
});

describe('web push', () => {
  it('a registered device gets the contact’s message encrypted for it and signed with the server’s VAPID key', async () => {
    const agent = await agentOf(a);
    const key = await inject(t.app, agent, 'GET', '/push/vapid-public-key');
    expect(key.json()).toEqual({ publicKey: t.config.vapid.publicKey });
    const device = service.device();
    await register(agent, device);

    const from = nextNumber();
    const ticket = await takenBy(a, agent, from);
    await say(a, from, '¿Tienen talles grandes?');

    const [push] = await pushesOf(device, 1, 'the push of the message');
    expect(push).toEqual({
      title: 'Lucía Gómez',
      body: '¿Tienen talles grandes?',
      url: `/tickets/${ticket.uuid}`,
      tag: `ticket-${ticket.uuid}`,
      kind: 'newMessage',
    });
    const { headers } = device.pushes()[0]!;
    expect(headers['content-encoding']).toBe('aes128gcm');
    expect(headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${t.config.vapid.publicKey}$`),
    );
    expect(Number(headers.ttl)).toBeGreaterThan(0);
    expect(headers.urgency).toBe('high');
    await pushesSettled(a.id);
    // Taking the conversation themselves pushed nothing; the one message, one push.
    expect(device.pushes()).toHaveLength(1);
    const [row] = await t.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, device.subscription.endpoint));
    expect(row?.lastSuccessAt).toBeInstanceOf(Date);
  });

  it('each device hears in the language of the app on it', async () => {
    const agent = await agentOf(a);
    const english = service.device();
    const portuguese = service.device();
    const spanish = service.device();
    for (const [device, language] of [
      [english, 'en'],
      [portuguese, 'pt-BR'],
    ] as const) {
      const res = await inject(t.app, agent, 'POST', '/push/subscriptions', {
        ...device.subscription,
        language,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Without one, Spanish; one the product does not speak is refused.
    await register(agent, spanish);
    const unknown = await inject(t.app, agent, 'POST', '/push/subscriptions', {
      ...service.device().subscription,
      language: 'fr',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('ERR_VALIDATION');

    const from = nextNumber();
    const ticket = await say(a, from, 'Buenas tardes');
    const given = await inject(t.app, a.admin, 'PUT', `/tickets/${ticket.id}`, {
      status: 'open',
      userId: agent.userId,
    });
    expect(given.statusCode, given.body).toBe(200);
    const [inEnglish] = await pushesOf(english, 1, 'the assignment in English');
    const [inPortuguese] = await pushesOf(portuguese, 1, 'the assignment in Portuguese');
    const [inSpanish] = await pushesOf(spanish, 1, 'the assignment in Spanish');
    expect(inEnglish!.title).toBe('Conversation assigned: Lucía Gómez');
    expect(inPortuguese!.title).toBe('Conversa atribuída: Lucía Gómez');
    expect(inSpanish!.title).toBe('Conversación asignada: Lucía Gómez');

    // The language chosen again on a device: only its owner changes it.
    const stranger = await agentOf(a);
    const patch = (session: Session, language: string) =>
      inject(t.app, session, 'PATCH', '/push/subscriptions', {
        endpoint: english.subscription.endpoint,
        language,
      });
    expect((await patch(stranger, 'es')).statusCode).toBe(204);
    expect((await patch(agent, 'pt-BR')).statusCode).toBe(204);
    expect((await patch(agent, 'fr')).statusCode).toBe(400);

    // A photo without a caption reads as one, in each device's language.
    const photo = await inbound(t.app, a.admin, a.connection.id, {
      from,
      name: 'Lucía Gómez',
      body: '',
      mediaType: 'image',
      fileName: 'foto.png',
      mediaBase64: Buffer.from('not really a png').toString('base64'),
    });
    expect(photo.statusCode, photo.body).toBeLessThan(300);
    const [, photoOnSwitched] = await pushesOf(english, 2, 'the photo, now in Portuguese');
    const [, photoInSpanish] = await pushesOf(spanish, 2, 'the photo in Spanish');
    expect(photoOnSwitched).toMatchObject({ title: 'Lucía Gómez', body: '📷 Foto' });
    expect(photoInSpanish).toMatchObject({ title: 'Lucía Gómez', body: '📷 Imagen' });
  });

  it('a conversation given or transferred to an agent is pushed to them', async () => {
    const first = await agentOf(a);
    const second = await agentOf(a);
    const firstDevice = service.device();
    const secondDevice = service.device();
    await register(first, firstDevice);
    await register(second, secondDevice);
    const ticket = await say(a, nextNumber(), 'Necesito ayuda con mi pedido');

    const given = await inject(t.app, a.admin, 'PUT', `/tickets/${ticket.id}`, {
      status: 'open',
      userId: first.userId,
    });
    expect(given.statusCode, given.body).toBe(200);
    const [assigned] = await pushesOf(firstDevice, 1, 'the assignment');
    expect(assigned).toMatchObject({
      title: 'Conversación asignada: Lucía Gómez',
      body: 'Necesito ayuda con mi pedido',
      url: `/tickets/${ticket.uuid}`,
      kind: 'assigned',
    });

    const moved = await inject(t.app, a.admin, 'PUT', `/tickets/${ticket.id}`, {
      userId: second.userId,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const [transferred] = await pushesOf(secondDevice, 1, 'the transfer');
    expect(transferred).toMatchObject({
      title: 'Conversación transferida: Lucía Gómez',
      kind: 'transferred',
    });
    await pushesSettled(a.id);
    expect(firstDevice.pushes()).toHaveLength(1);
  });

  it('an SLA deadline about to pass is pushed to the agent holding the conversation', async () => {
    const agent = await agentOf(a);
    const device = service.device();
    await register(agent, device);
    const ticket = await takenBy(a, agent, nextNumber());
    // Its resolution is due in two minutes: within the queue's five warning minutes.
    const due = new Date(Date.now() + 120_000);
    await t.db
      .update(tickets)
      .set({ slaStartedAt: new Date(), slaResolveDueAt: due })
      .where(eq(tickets.id, ticket.id));
    await watchSla(t.app.deps, new Date());
    const [push] = await pushesOf(device, 1, 'the SLA warning');
    expect(push).toMatchObject({
      title: 'SLA por vencer: Lucía Gómez',
      url: `/tickets/${ticket.uuid}`,
      kind: 'slaWarning',
    });
    expect(device.pushes()[0]!.headers.ttl).toBe('900');
  });

  it('a push service answering 410 removes the subscription', async () => {
    const agent = await agentOf(a);
    const device = service.device();
    await register(agent, device);
    const from = nextNumber();
    await takenBy(a, agent, from);
    device.answer(410);

    await say(a, from, '¿Siguen ahí?');
    await pushesOf(device, 1, 'the push the service refused');
    await eventually(
      () =>
        t.db
          .select()
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.endpoint, device.subscription.endpoint)),
      (rows) => rows.length === 0,
      'the subscription removed',
    );
    await say(a, from, '¿Hola?');
    await pushesSettled(a.id);
    expect(device.pushes()).toHaveLength(1);
  });

  it('a kind of push turned off is not sent; turned on again, it is', async () => {
    const agent = await agentOf(a);
    const device = service.device();
    await register(agent, device);
    expect((await inject(t.app, agent, 'GET', '/push/preferences')).json()).toEqual({
      newMessage: true,
      assigned: true,
      transferred: true,
      waitingInQueues: false,
      slaWarning: true,
    });
    const from = nextNumber();
    await takenBy(a, agent, from);

    expect(await choose(agent, { newMessage: false })).toMatchObject({ newMessage: false });
    await say(a, from, 'Primer mensaje');
    await pushesSettled(a.id);
    expect(device.pushes()).toHaveLength(0);

    await choose(agent, { newMessage: true });
    await say(a, from, 'Segundo mensaje');
    const [push] = await pushesOf(device, 1, 'the push once turned on');
    expect(push?.body).toBe('Segundo mensaje');
  });

  it('no push for the conversation the agent has open in a tab in front; one once it is hidden or left', async () => {
    const agent = await agentOf(a);
    const device = service.device();
    await register(agent, device);
    const from = nextNumber();
    const ticket = await takenBy(a, agent, from);
    const socket = await openSocket(t.app, agent);
    await socket.timeout(5000).emitWithAck('joinChatBox', ticket.id);

    await say(a, from, 'Lo estás mirando');
    await pushesSettled(a.id);
    expect(device.pushes()).toHaveLength(0);

    // The tab put in the background with the chat still open: nobody is looking.
    socket.emit('presence', { hidden: true });
    await eventually(
      () => t.app.deps.realtime.chatViewers(a.id, ticket.id),
      (viewers) => !viewers.includes(agent.userId),
      'the hidden tab no longer counted as looking',
    );
    await say(a, from, 'Te fuiste a otra pestaña');
    const [hidden] = await pushesOf(device, 1, 'the push while the tab is hidden');
    expect(hidden?.body).toBe('Te fuiste a otra pestaña');
    // Back in front: no push again.
    socket.emit('presence', { hidden: false });
    await eventually(
      () => t.app.deps.realtime.chatViewers(a.id, ticket.id),
      (viewers) => viewers.includes(agent.userId),
      'the tab looking again',
    );
    await say(a, from, 'Volviste');
    await pushesSettled(a.id);
    expect(device.pushes()).toHaveLength(1);

    socket.emit('leaveChatBox', ticket.id);
    socket.disconnect();
    await say(a, from, 'Ya no lo mirás');
    const [, push] = await pushesOf(device, 2, 'the push once the chat is closed');
    expect(push?.body).toBe('Ya no lo mirás');
  });

  it('waiting conversations reach the queue’s members who chose them, never after leaving the queue, nor another company', async () => {
    const watcher = await agentOf(a);
    const quiet = await agentOf(a);
    const watcherDevice = service.device();
    const quietDevice = service.device();
    await register(watcher, watcherDevice);
    await register(quiet, quietDevice);
    await choose(watcher, { waitingInQueues: true });
    // Another company's agent who wants every waiting conversation of their own queues.
    const b = await companyWithQueue();
    const outsider = await agentOf(b);
    const outsiderDevice = service.device();
    await register(outsider, outsiderDevice);
    await choose(outsider, { waitingInQueues: true });

    const ticket = await say(a, nextNumber(), 'Quiero comprar');
    const [push] = await pushesOf(watcherDevice, 1, 'the waiting push');
    expect(push).toMatchObject({
      title: 'Esperando en Ventas: Lucía Gómez',
      body: 'Quiero comprar',
      url: `/tickets/${ticket.uuid}`,
      kind: 'waitingInQueues',
    });

    // Taken out of the queue: the next waiting conversation is not theirs to hear of.
    const res = await inject(t.app, a.admin, 'PUT', `/users/${watcher.userId}`, { queueIds: [] });
    expect(res.statusCode, res.body).toBe(200);
    await say(a, nextNumber(), 'Otra consulta');
    await pushesSettled(a.id);
    await pushesSettled(b.id);
    expect(watcherDevice.pushes()).toHaveLength(1);
    expect(quietDevice.pushes()).toHaveLength(0);
    expect(outsiderDevice.pushes()).toHaveLength(0);
  });

  it('a push queued before the agent left the queue is not sent', async () => {
    const watcher = await agentOf(a);
    const device = service.device();
    await register(watcher, device);
    await choose(watcher, { waitingInQueues: true });
    // The push service is down: the push waits for its retry.
    device.answer(503);
    await say(a, nextNumber(), 'Consulta en espera');
    await pushesOf(device, 1, 'the first attempt');
    device.answer(201);
    const res = await inject(t.app, a.admin, 'PUT', `/users/${watcher.userId}`, { queueIds: [] });
    expect(res.statusCode, res.body).toBe(200);
    await t.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(and(eq(jobs.queue, 'push.send'), eq(jobs.status, 'pending')));
    await pushesSettled(a.id);
    expect(device.pushes()).toHaveLength(1);
  });

  it('refuses endpoints that are not https or reach private networks, and malformed keys', async () => {
    const agent = await agentOf(a);
    const { subscription } = service.device();
    const post = (body: object) => inject(t.app, agent, 'POST', '/push/subscriptions', body);

    const plain = await post({ ...subscription, endpoint: 'http://push.example.com/abc' });
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toMatchObject({ error: 'ERR_PUSH_SUBSCRIPTION_INVALID' });
    const inside = await post({ ...subscription, endpoint: 'https://10.0.0.8/push/abc' });
    expect(inside.statusCode).toBe(400);
    expect(inside.json()).toMatchObject({ error: 'ERR_OUTBOUND_URL_NOT_ALLOWED' });
    // Plain http on a loopback address the operator did not let through.
    const loopback = await post({ ...subscription, endpoint: 'http://127.0.0.2/push/abc' });
    expect(loopback.json()).toMatchObject({ error: 'ERR_PUSH_SUBSCRIPTION_INVALID' });
    const badKey = await post({ ...subscription, keys: { ...subscription.keys, p256dh: 'abc' } });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json()).toMatchObject({ error: 'ERR_PUSH_SUBSCRIPTION_INVALID' });
    const badAuth = await post({
      ...subscription,
      keys: { ...subscription.keys, auth: 'x'.repeat(30) },
    });
    expect(badAuth.json()).toMatchObject({ error: 'ERR_PUSH_SUBSCRIPTION_INVALID' });
    const badPrefs = await inject(t.app, agent, 'PUT', '/push/preferences', { newMessage: 'yes' });
    expect(badPrefs.statusCode).toBe(400);
    expect(badPrefs.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('one endpoint is one device: registered at once many times it is one row, and the last user to register it owns it', async () => {
    const first = await agentOf(a);
    const second = await agentOf(a);
    const device = service.device();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        inject(t.app, i % 2 ? second : first, 'POST', '/push/subscriptions', device.subscription),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const rows = () =>
      t.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, device.subscription.endpoint));
    expect(await rows()).toHaveLength(1);

    await register(second, device);
    // The first user's sign-out of it does not remove the second's device.
    const other = await inject(
      t.app,
      first,
      'DELETE',
      `/push/subscriptions?endpoint=${encodeURIComponent(device.subscription.endpoint)}`,
    );
    expect(other.statusCode).toBe(204);
    expect((await rows())[0]?.userId).toBe(second.userId);
    const own = await inject(
      t.app,
      second,
      'DELETE',
      `/push/subscriptions?endpoint=${encodeURIComponent(device.subscription.endpoint)}`,
    );
    expect(own.statusCode).toBe(204);
    expect(await rows()).toHaveLength(0);
  });
});
