import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { TagOption, TicketView } from '@atendi/shared';
import { contacts, queues, tickets, userQueues } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type Session,
  type TestContext,
} from '../../../test/harness';

let t: TestContext;
let admin: Session;
let agent: Session;
let outsider: Session;
let otherAdmin: Session;
let companyId: number;
let salesQueue: number;
let whatsappId: number;
let port = 0;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  const [sales, support] = await t.db
    .insert(queues)
    .values([
      { companyId, name: 'Ventas', color: '#00aa00' },
      { companyId, name: 'Soporte', color: '#0000aa' },
    ])
    .returning();
  salesQueue = sales.id;
  const agentRow = await makeUser(t.db, companyId, 'user');
  const outsiderRow = await makeUser(t.db, companyId, 'user');
  await t.db.insert(userQueues).values([
    { userId: agentRow.id, queueId: sales.id, companyId },
    { userId: outsiderRow.id, queueId: support.id, companyId },
  ]);
  agent = await login(t.app, agentRow.email);
  outsider = await login(t.app, outsiderRow.email);
  otherAdmin = await login(t.app, (await makeCompany(t.db)).admin.email);
  whatsappId = (await makeWhatsapp(t.db, companyId)).id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  sockets.forEach((s) => s.disconnect());
  await t.close();
});

let sequence = 0;
// A waiting ticket of a new contact in the sales queue.
const salesTicket = async () => {
  sequence += 1;
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId, name: `Cliente ${sequence}`, number: `54911600000${sequence}` })
    .returning();
  const [ticket] = await t.db
    .insert(tickets)
    .values({ companyId, contactId: contact.id, whatsappId, queueId: salesQueue })
    .returning();
  return ticket;
};

const tag = async (name: string, session = admin, extra: Record<string, unknown> = {}) => {
  const res = await inject(t.app, session, 'POST', '/tags', { name, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TagOption;
};

const ticketOf = async (id: number, session = admin) =>
  (await inject(t.app, session, 'GET', `/tickets/${id}`)).json() as TicketView;
const tagNames = async (id: number) => (await ticketOf(id)).tags.map((x) => x.name);

describe('tags', () => {
  it('lets admins add tags with a default colour and lists them by name for everyone', async () => {
    const urgent = await tag('Urgente', admin, { color: '#ff0000', kanban: 1 });
    expect(urgent).toEqual({
      id: expect.any(Number),
      name: 'Urgente',
      color: '#ff0000',
      kanban: 1,
    });
    const vip = await tag('Cliente VIP');
    expect(vip).toMatchObject({ color: '#A4CCCC', kanban: 0 });

    const refused = await inject(t.app, agent, 'POST', '/tags', { name: 'Mía' });
    expect(refused.statusCode).toBe(403);
    const short = await inject(t.app, admin, 'POST', '/tags', { name: 'ab' });
    expect(short.statusCode).toBe(400);
    const twin = await inject(t.app, admin, 'POST', '/tags', { name: 'Urgente' });
    expect(twin.statusCode).toBe(409);

    const list = await inject(t.app, agent, 'GET', '/tags/list');
    expect(list.statusCode).toBe(200);
    expect((list.json() as TagOption[]).map((x) => x.name)).toEqual(['Cliente VIP', 'Urgente']);
    // Another company sees none of them.
    expect((await inject(t.app, otherAdmin, 'GET', '/tags/list')).json()).toEqual([]);
  });

  it('sync replaces the ticket’s tags with exactly the ones given', async () => {
    const ticket = await salesTicket();
    const [a, b, c] = [await tag('Sync A'), await tag('Sync B'), await tag('Sync C')];
    const first = await inject(t.app, agent, 'POST', '/tags/sync', {
      ticketId: ticket.id,
      tags: [{ id: a.id, name: a.name }, { id: b.id }],
    });
    expect(first.statusCode).toBe(200);
    expect((first.json() as TicketView).tags.map((x) => x.name)).toEqual(['Sync A', 'Sync B']);

    const second = await inject(t.app, agent, 'POST', '/tags/sync', {
      ticketId: ticket.id,
      tags: [{ id: c.id }, { id: b.id }, { id: c.id }],
    });
    expect(second.statusCode).toBe(200);
    expect(await tagNames(ticket.id)).toEqual(['Sync B', 'Sync C']);

    await inject(t.app, agent, 'POST', '/tags/sync', { ticketId: ticket.id, tags: [] });
    expect(await tagNames(ticket.id)).toEqual([]);
  });

  it('adds one tag and removes all of them', async () => {
    const ticket = await salesTicket();
    const one = await tag('Uno');
    const two = await tag('Dos');
    for (const id of [one.id, two.id, one.id]) {
      const res = await inject(t.app, agent, 'PUT', `/ticket-tags/${ticket.id}/${id}`);
      expect(res.statusCode).toBe(200);
    }
    expect(await tagNames(ticket.id)).toEqual(['Dos', 'Uno']);
    expect((await inject(t.app, agent, 'DELETE', `/ticket-tags/${ticket.id}`)).statusCode).toBe(
      204,
    );
    expect(await tagNames(ticket.id)).toEqual([]);
  });

  it('refuses another company’s tag and leaves the ticket as it was', async () => {
    const ticket = await salesTicket();
    const mine = await tag('Propia');
    await inject(t.app, admin, 'PUT', `/ticket-tags/${ticket.id}/${mine.id}`);
    const foreign = await tag('Ajena', otherAdmin);

    const sync = await inject(t.app, admin, 'POST', '/tags/sync', {
      ticketId: ticket.id,
      tags: [{ id: foreign.id }],
    });
    expect(sync.statusCode).toBe(400);
    expect(sync.json().fields).toHaveProperty('tags');
    const add = await inject(t.app, admin, 'PUT', `/ticket-tags/${ticket.id}/${foreign.id}`);
    expect(add.statusCode).toBe(404);
    expect(await tagNames(ticket.id)).toEqual(['Propia']);
  });

  it('refuses tickets the caller may not see: another company’s (404) or another queue’s (403)', async () => {
    const ticket = await salesTicket();
    const label = await tag('Visible');
    const foreign = await inject(t.app, otherAdmin, 'POST', '/tags/sync', {
      ticketId: ticket.id,
      tags: [],
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NO_TICKET_FOUND');
    expect(
      (await inject(t.app, otherAdmin, 'DELETE', `/ticket-tags/${ticket.id}`)).statusCode,
    ).toBe(404);

    // The same rule as opening the ticket: a queue the user is not in.
    const queueRefusal = await inject(
      t.app,
      outsider,
      'PUT',
      `/ticket-tags/${ticket.id}/${label.id}`,
    );
    expect(queueRefusal.statusCode).toBe(403);
    expect(
      (
        await inject(t.app, outsider, 'POST', '/tags/sync', {
          ticketId: ticket.id,
          tags: [{ id: label.id }],
        })
      ).statusCode,
    ).toBe(403);
    expect(await tagNames(ticket.id)).toEqual([]);
  });

  it('tells the ticket’s chat and lists the new tags, and not the sockets that may not see it', async () => {
    const ticket = await salesTicket();
    const label = await tag('En vivo');
    const listen = async (session: Session) => {
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
      const heard: { event: string; payload: { action: string; ticket?: TicketView } }[] = [];
      socket.onAny((event: string, payload: (typeof heard)[number]['payload']) =>
        heard.push({ event, payload }),
      );
      socket.emit('joinChatBox', ticket.id);
      socket.emit('joinTickets', 'pending');
      await new Promise((r) => setTimeout(r, 100));
      return heard;
    };
    const agentHeard = await listen(agent);
    const outsiderHeard = await listen(outsider);

    await inject(t.app, admin, 'POST', '/tags/sync', {
      ticketId: ticket.id,
      tags: [{ id: label.id }],
    });
    const updates = () =>
      agentHeard.filter(
        (h) => h.event === `company-${companyId}-ticket` && h.payload.ticket?.id === ticket.id,
      );
    const until = Date.now() + 5000;
    while (!updates().length && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    // One socket in the chat room and a list slice hears the update once.
    expect(updates()).toHaveLength(1);
    expect(updates()[0].payload).toMatchObject({
      action: 'update',
      ticket: { id: ticket.id, tags: [{ id: label.id, name: 'En vivo', color: '#A4CCCC' }] },
    });
    expect(outsiderHeard.filter((h) => h.event.endsWith('-ticket'))).toEqual([]);
  });
});
