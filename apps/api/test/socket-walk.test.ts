import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { permissionTable, type Permission, type Profile } from '@atendi/shared';
import type { RouteInfo } from '../src/app';
import { contacts, plans, queues, tickets, userQueues } from '../src/db/schema';
import { channelReaders, type CompanyChannel } from '../src/realtime/realtime';
import { watchSla } from '../src/modules/sla/sla';
import { BILLING_QUEUE } from '../src/modules/subscriptions/billing-webhook';
import {
  SUPER_EMAIL,
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type Method,
  type Session,
  type TestContext,
} from './harness';
import { eventually } from './eventually';
import { caughtUp, closeSockets, listenAs, type Heard } from './sockets';
import {
  STRIPE_KEY,
  WEBHOOK_SECRET,
  makeInvoice,
  makeSubscription,
  signature,
  startFakeStripe,
  stripeEvent,
  type FakeStripe,
} from './fake-stripe';

// Walks every socket channel (realtime.ts channelReaders): a channel's readers are exactly those the
// GET routes of its records let in, and a change made as an admin reaches the sockets of its readers
// and of nobody else, carrying no secret.

// The GET routes that read each channel's records.
const READ_ROUTES: Record<CompanyChannel, string[]> = {
  auth: ['GET /auth/me'],
  user: ['GET /users'],
  settings: ['GET /settings/'],
  company: ['GET /companies/:id'],
  plan: ['GET /plans'],
  subscription: ['GET /subscriptions'],
  invoice: ['GET /subscriptions'],
  help: ['GET /helps'],
  whatsapp: ['GET /whatsapp', 'GET /whatsapp/:id'],
  whatsappSession: ['GET /whatsapp', 'GET /whatsapp/:id'],
  appMessage: ['GET /messages/:ticketId'],
  ticket: ['GET /tickets', 'GET /tickets/:id'],
  contact: ['GET /contacts', 'GET /contacts/:id'],
  queue: ['GET /queue', 'GET /queue/:id'],
  ContactList: ['GET /contact-lists', 'GET /contact-lists/:id'],
  ContactListItem: ['GET /contact-list-items', 'GET /contact-list-items/:id'],
  tag: ['GET /tags', 'GET /tags/:id'],
  quickemessage: ['GET /quick-messages', 'GET /quick-messages/:id'],
  schedule: ['GET /schedules', 'GET /schedules/:id'],
  campaign: ['GET /campaigns', 'GET /campaigns/:id'],
  announcement: ['GET /announcements', 'GET /announcements/:id'],
  file: ['GET /files', 'GET /files/:id'],
  prompt: ['GET /prompt', 'GET /prompt/:id'],
  queueIntegration: ['GET /queueIntegration', 'GET /queueIntegration/:id'],
  knowledge: ['GET /knowledge/documents', 'GET /knowledge/documents/:id'],
  presence: ['GET /users/list'],
  sla: ['GET /tickets/:id'],
};

// Who listens: the three profiles of company A, an admin of company B, and the platform company's
// super user and plain user.
type Listener = 'admin' | 'supervisor' | 'user' | 'stranger' | 'root' | 'platformUser';
const LISTENERS: Listener[] = ['admin', 'supervisor', 'user', 'stranger', 'root', 'platformUser'];
const PROFILE_OF: Record<'admin' | 'supervisor' | 'user', Profile> = {
  admin: 'admin',
  supervisor: 'supervisor',
  user: 'user',
};

let t: TestContext;
let stripe: FakeStripe;
let companyA: number;
let companyB: number;
let platform: number;
let sessions: Record<Listener, Session>;
let heard: Record<Listener, Heard[]>;
let ticketId: number;
let contactId: number;
let userEmail: string;
let connectionId: number;
// Strings that must reach no socket (secrets), or only the admin's (admin-only records).
const secrets: string[] = [];
const adminOnly: string[] = [];

const as = (who: Listener, method: Method, url: string, payload?: object) =>
  inject(t.app, sessions[who], method, url, payload).then((res) => {
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json() as Record<string, unknown>;
  });

// Company A's readers of a channel that goes to readers: by the permission table.
const readersInA = (channel: CompanyChannel): Listener[] => {
  const readers: string = channelReaders[channel];
  if (readers === 'company') return ['admin', 'supervisor', 'user'];
  return (['admin', 'supervisor', 'user'] as const).filter((who) =>
    (permissionTable[readers as Permission] as readonly string[]).includes(PROFILE_OF[who]),
  );
};

const companyOf = (who: Listener) =>
  who === 'stranger' ? companyB : who === 'root' || who === 'platformUser' ? platform : companyA;

// What a listener heard on a channel (its own company's name of it) since `from`.
const onChannel = (who: Listener, channel: CompanyChannel, from: Record<Listener, number>) =>
  heard[who].slice(from[who]).filter((h) => h.event === `company-${companyOf(who)}-${channel}`);

type Step = {
  // The channels the change is heard on.
  channels: CompanyChannel[];
  what: string;
  act: () => Promise<unknown>;
  // Who hears it; the others must not.
  hears: Listener[];
  // What each listener's events must be like.
  check?: (who: Listener, events: Heard[]) => void;
};

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    STRIPE_SECRET_KEY: STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    BILLING_INTERVAL: '0',
  });
  const a = await makeCompany(t.db);
  const b = await makeCompany(t.db);
  companyA = a.company.id;
  companyB = b.company.id;
  const root = await login(t.app, SUPER_EMAIL);
  platform = root.companyId;
  const [qa, qb] = await t.db
    .insert(queues)
    .values([
      { companyId: companyA, name: 'Ventas', color: '#aa0000' },
      { companyId: companyA, name: 'Soporte', color: '#00aa00' },
    ])
    .returning();
  const supervisor = await makeUser(t.db, companyA, 'supervisor');
  const user = await makeUser(t.db, companyA, 'user');
  userEmail = user.email;
  // The supervisor works in the ticket's queue, the user in another one.
  await t.db.insert(userQueues).values([
    { userId: supervisor.id, queueId: qa.id, companyId: companyA },
    { userId: user.id, queueId: qb.id, companyId: companyA },
  ]);
  const connection = await makeWhatsapp(t.db, companyA);
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId: companyA, name: 'Ana Walker', number: '5491155550101' })
    .returning();
  contactId = contact.id;
  const [ticket] = await t.db
    .insert(tickets)
    .values({ companyId: companyA, contactId, whatsappId: connection.id, queueId: qa.id })
    .returning();
  ticketId = ticket.id;
  sessions = {
    admin: await login(t.app, a.admin.email),
    supervisor: await login(t.app, supervisor.email),
    user: await login(t.app, user.email),
    stranger: await login(t.app, b.admin.email),
    root,
    platformUser: await login(t.app, (await makeUser(t.db, platform, 'user')).email),
  };
  // Every socket joins the lists and notifications a page would.
  const entries = await Promise.all(
    LISTENERS.map(async (who) => {
      const recording = await listenAs(
        t.app,
        sessions[who],
        async (socket) => {
          for (const status of ['open', 'pending', 'closed'])
            await socket.timeout(5000).emitWithAck('joinTickets', status);
          await socket.timeout(5000).emitWithAck('joinNotification');
          // The chat of a ticket of queue A: only who may see it is let in (and acknowledged).
          if (who === 'admin' || who === 'supervisor')
            await socket.timeout(5000).emitWithAck('joinChatBox', ticketId);
          else socket.emit('joinChatBox', ticketId);
        },
        // Presence is a channel walked here too.
        { presence: true },
      );
      return [who, recording] as const;
    }),
  );
  heard = Object.fromEntries(entries) as Record<Listener, Heard[]>;
});
afterAll(async () => {
  closeSockets();
  await t.close();
  await stripe.close();
});

describe('socket walk', () => {
  it("every channel's readers are those its GET routes let in", () => {
    const routes = new Map<string, RouteInfo>(
      t.app.routeCatalog.map((r) => [`${r.method} ${r.url}`, r]),
    );
    expect(Object.keys(READ_ROUTES).sort()).toEqual(Object.keys(channelReaders).sort());
    for (const [channel, reads] of Object.entries(READ_ROUTES) as [CompanyChannel, string[]][]) {
      const readers: string = channelReaders[channel];
      for (const read of reads) {
        const route = routes.get(read);
        expect(route, `${read} (${channel})`).toBeDefined();
        expect(route!.access.superOnly, read).toBeFalsy();
        // 'company', 'ticket' and 'self' channels are read by every profile (tickets and one's own
        // records are then narrowed by the service; the emits follow the same rule).
        const expected = readers in permissionTable ? readers : undefined;
        expect(route!.access.permission, `${read} (${channel})`).toBe(expected);
      }
    }
  });

  it('every change reaches its readers and nobody else, and no socket hears a secret', async () => {
    const sendAt = () => new Date(Date.now() + 3600_000).toISOString();
    const steps: Step[] = [
      {
        channels: ['user'],
        what: 'an admin renames the user',
        act: () => as('admin', 'PUT', `/users/${sessions.user.userId}`, { name: 'Walker Renamed' }),
        // Managers and the user itself read that record.
        hears: ['admin', 'user'],
      },
      {
        channels: ['settings'],
        what: 'an admin changes a setting',
        act: () => as('admin', 'PUT', '/settings/userRating', { value: 'enabled' }),
        hears: readersInA('settings'),
      },
      {
        channels: ['settings'],
        what: 'a super user changes a super-only setting',
        act: () => as('root', 'PUT', '/settings/asaas', { value: 'payments-key-walker' }),
        hears: ['root'],
      },
      {
        channels: ['company'],
        what: "an admin changes the company's service hours",
        act: () => as('admin', 'PUT', `/companies/${companyA}/schedules`, { schedules: [] }),
        hears: readersInA('company'),
      },
      {
        channels: ['company'],
        what: 'a super user edits company A',
        act: () => as('root', 'PUT', `/companies/${companyA}`, { phone: '5491100000000' }),
        // A's users read their own company; of the platform company only super users read others'.
        hears: ['admin', 'supervisor', 'user', 'root'],
      },
      {
        channels: ['plan'],
        what: 'a super user adds a plan',
        act: () => as('root', 'POST', '/plans', { name: 'Walker plan' }),
        hears: LISTENERS,
      },
      {
        channels: ['help'],
        what: 'a super user adds a help video',
        act: () => as('root', 'POST', '/helps', { title: 'Walker help' }),
        hears: LISTENERS,
      },
      {
        channels: ['announcement'],
        what: 'a super user publishes an announcement',
        act: () => as('root', 'POST', '/announcements', { title: 'Walker news', text: 'Hola' }),
        hears: LISTENERS,
      },
      {
        channels: ['announcement'],
        what: 'a super user deactivates it',
        act: async () => {
          const [latest] = (
            (await as('root', 'GET', '/announcements?searchParam=Walker')) as {
              records: { id: number }[];
            }
          ).records;
          adminOnly.push('Walker hidden');
          return as('root', 'PUT', `/announcements/${latest.id}`, {
            status: false,
            text: 'Walker hidden',
          });
        },
        hears: LISTENERS,
        // Only super users read an inactive announcement; the others hear that it is gone.
        check: (who, events) => {
          const [event] = events;
          if (who === 'root') expect(event.payload).toMatchObject({ action: 'update' });
          else expect(event.payload).toEqual({ action: 'delete', id: expect.any(Number) });
        },
      },
      {
        channels: ['whatsapp'],
        what: 'an admin adds a connection',
        act: async () => {
          const made = await as('admin', 'POST', '/whatsapp', {
            name: 'Walker line',
            provider: 'simulator',
          });
          connectionId = made.id as number;
          secrets.push(made.token as string);
        },
        hears: readersInA('whatsapp'),
        check: (_who, events) =>
          expect(events[0].payload).toMatchObject({ whatsapp: { token: null } }),
      },
      {
        channels: ['whatsappSession'],
        what: 'an admin restarts its session',
        act: () => as('admin', 'POST', `/whatsappsession/${connectionId}`),
        hears: readersInA('whatsappSession'),
      },
      {
        channels: ['ticket'],
        what: 'an admin accepts a ticket of the supervisor’s queue',
        act: () => as('admin', 'PUT', `/tickets/${ticketId}`, { status: 'open' }),
        // The queue's members and whoever sees every ticket; not the user of another queue.
        hears: ['admin', 'supervisor'],
      },
      {
        channels: ['sla'],
        what: 'the resolution deadline of the admin’s ticket comes near',
        act: async () => {
          await t.db
            .update(tickets)
            .set({ slaStartedAt: new Date(), slaResolveDueAt: new Date(Date.now() + 60_000) })
            .where(eq(tickets.id, ticketId));
          await watchSla(t.app.deps, new Date());
        },
        // Only the agent holding it.
        hears: ['admin'],
        check: (_who, events) =>
          expect(events.at(-1)!.payload).toMatchObject({
            action: 'warning',
            ticketId,
            kind: 'resolution',
            contactName: 'Ana Walker',
          }),
      },
      {
        channels: ['appMessage'],
        what: 'the admin writes in it',
        act: () => as('admin', 'POST', `/messages/${ticketId}`, { body: 'Walker reply' }),
        hears: ['admin', 'supervisor'],
      },
      {
        channels: ['contact'],
        what: 'an admin adds a contact',
        act: () => as('admin', 'POST', '/contacts', { name: 'Walker', number: '5491155550102' }),
        hears: readersInA('contact'),
      },
      {
        channels: ['queue'],
        what: 'an admin adds a queue',
        act: () => as('admin', 'POST', '/queue', { name: 'Walker queue', color: '#0000aa' }),
        hears: readersInA('queue'),
      },
      {
        channels: ['presence'],
        what: 'the user steps away',
        act: () => as('user', 'PUT', '/presence', { availability: 'away' }),
        hears: readersInA('presence'),
        check: (_who, events) =>
          expect(events.at(-1)!.payload).toMatchObject({ action: 'update', presence: 'away' }),
      },
      {
        channels: ['tag'],
        what: 'an admin adds a tag',
        act: () => as('admin', 'POST', '/tags', { name: 'Walker tag' }),
        hears: readersInA('tag'),
      },
      {
        channels: ['quickemessage'],
        what: 'an admin adds a company-wide answer',
        act: () =>
          as('admin', 'POST', '/quick-messages', {
            shortcode: 'walker',
            message: 'Hola',
            geral: true,
          }),
        hears: readersInA('quickemessage'),
      },
      {
        channels: ['quickemessage'],
        what: 'an admin adds a personal answer',
        act: () => {
          adminOnly.push('Walker personal');
          return as('admin', 'POST', '/quick-messages', {
            shortcode: 'mine',
            message: 'Walker personal',
          });
        },
        hears: ['admin'],
      },
      {
        channels: ['schedule'],
        what: 'an admin schedules a message',
        act: () =>
          as('admin', 'POST', '/schedules', { body: 'Walker later', contactId, sendAt: sendAt() }),
        hears: readersInA('schedule'),
      },
      {
        channels: ['file'],
        what: 'an admin adds a file list',
        act: () => as('admin', 'POST', '/files', { name: 'Walker files', message: 'Hola' }),
        hears: readersInA('file'),
      },
      {
        channels: ['ContactList'],
        what: 'an admin adds a contact list',
        act: () => as('admin', 'POST', '/contact-lists', { name: 'Walker list' }),
        hears: readersInA('ContactList'),
      },
      {
        channels: ['ContactListItem'],
        what: 'an admin adds a number to it',
        act: async () => {
          const [list] = (
            (await as('admin', 'GET', '/contact-lists?searchParam=Walker')) as {
              records: { id: number }[];
            }
          ).records;
          adminOnly.push('5491155550199');
          return as('admin', 'POST', '/contact-list-items', {
            contactListId: list.id,
            name: 'Walker item',
            number: '5491155550199',
          });
        },
        hears: readersInA('ContactListItem'),
      },
      {
        channels: ['campaign'],
        what: 'an admin drafts a campaign',
        act: () => {
          adminOnly.push('Walker campaign text');
          return as('admin', 'POST', '/campaigns', {
            name: 'Walker campaign',
            message1: 'Walker campaign text',
          });
        },
        hears: readersInA('campaign'),
      },
      {
        channels: ['prompt'],
        what: 'an admin adds an AI agent',
        act: () => {
          const prompt = `Walker system prompt: ${'answer kindly and briefly. '.repeat(3)}`;
          adminOnly.push('Walker system prompt');
          return as('admin', 'POST', '/prompt', {
            name: 'Walker agent',
            prompt,
            model: 'gpt-4o-mini',
            maxTokens: 100,
            temperature: 0.5,
            maxMessages: 10,
          });
        },
        hears: readersInA('prompt'),
      },
      {
        channels: ['queueIntegration'],
        what: 'an admin adds a webhook integration',
        act: async () => {
          adminOnly.push('https://walker.example/hook');
          const made = await as('admin', 'POST', '/queueIntegration', {
            name: 'Walker hook',
            type: 'webhook',
            urlN8N: 'https://walker.example/hook',
          });
          secrets.push(made.signingSecret as string);
        },
        hears: readersInA('queueIntegration'),
      },
      {
        channels: ['knowledge'],
        what: "an admin adds the company's quick messages to the knowledge base",
        act: () => as('admin', 'POST', '/knowledge/sources', { type: 'quick-messages' }),
        hears: readersInA('knowledge'),
        check: (_who, events) =>
          expect(events[0].payload).toMatchObject({
            action: 'update',
            document: { source: 'quick-messages', status: 'queued' },
          }),
      },
      {
        channels: ['subscription', 'invoice'],
        what: 'the company pays a subscription (Stripe webhook)',
        act: () => paidCheckout(companyA),
        hears: readersInA('subscription'),
      },
      // Last: the login elsewhere ends the user's first session and drops its socket.
      {
        channels: ['auth'],
        what: 'the user logs in again elsewhere',
        act: () => login(t.app, userEmail),
        // Only the user's own sockets.
        hears: ['user'],
      },
    ];

    // Each channel is walked (a new channel without a step fails here).
    expect([...new Set(steps.flatMap((s) => s.channels))].sort()).toEqual(
      Object.keys(channelReaders).sort(),
    );

    let from = Object.fromEntries(LISTENERS.map((who) => [who, 0])) as Record<Listener, number>;
    for (const step of steps) {
      await step.act();
      for (const channel of step.channels) {
        const label = `${channel}: ${step.what}`;
        // The readers hear it (so the absence below is not vacuous)...
        for (const who of step.hears)
          await eventually(
            () => onChannel(who, channel, from).length,
            (count) => count > 0,
            `${who} hears ${label}`,
          );
        // ...then, once every socket has caught up with the server, the others have not.
        await caughtUp(
          ...LISTENERS.filter((who) => who !== 'user' || channel !== 'auth').map(
            (who) => heard[who],
          ),
        );
        for (const who of LISTENERS) {
          const events = onChannel(who, channel, from);
          if (step.hears.includes(who)) step.check?.(who, events);
          else expect(events, `${who} must not hear ${label}`).toEqual([]);
        }
      }
      from = Object.fromEntries(LISTENERS.map((who) => [who, heard[who].length])) as Record<
        Listener,
        number
      >;
    }

    for (const who of LISTENERS) {
      const all = JSON.stringify(heard[who]);
      for (const secret of secrets) expect(all, `${who} heard a secret`).not.toContain(secret);
      if (who !== 'admin' && who !== 'root')
        for (const text of adminOnly) expect(all, `${who} heard "${text}"`).not.toContain(text);
      // Nothing of another company, whatever the channel.
      expect(
        heard[who].filter((h) => !h.event.startsWith(`company-${companyOf(who)}-`)),
        who,
      ).toEqual([]);
    }
  });
});

// What Stripe sends when company A pays a checkout: its subscription and invoice are stored.
const paidCheckout = async (companyId: number) => {
  const [plan] = await t.db.insert(plans).values({ name: 'Walker paid', value: 39 }).returning();
  const priced = await as('root', 'POST', `/plans/${plan.id}/price`);
  const metadata = { companyId: String(companyId), planId: String(plan.id) };
  const customer = `cus_walker_${companyId}`;
  const subscription = makeSubscription({
    customer,
    price: priced.stripePriceId as string,
    metadata,
  });
  const invoice = makeInvoice({ customer, subscription: subscription.id, metadata, amount: 3900 });
  const completed = stripeEvent('checkout.session.completed', {
    id: `cs_${invoice.id}`,
    object: 'checkout.session',
    mode: 'subscription',
    client_reference_id: String(companyId),
    metadata,
    customer,
    subscription: subscription.id,
    invoice: invoice.id,
    payment_status: 'paid',
    amount_total: 3900,
    currency: 'usd',
  });
  const payload = JSON.stringify(completed);
  const res = await t.app.inject({
    method: 'POST',
    url: '/subscriptions/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature(payload) },
    payload,
  });
  expect(res.statusCode).toBe(200);
  await t.app.deps.jobs.idle();
  await t.app.deps.jobs.process(BILLING_QUEUE);
};
