import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TagOption, TagsPage, TicketView } from '@atendi/shared';
import { contacts, queues, tags, tickets, userQueues } from '../../db/schema';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { caughtUp, closeSockets, listenAs } from '../../../test/sockets';

let t: SharedTestContext;
let admin: Session;
let agent: Session;
let outsider: Session;
let otherAdmin: Session;
let companyId: number;
let salesQueue: number;
let whatsappId: number;

beforeAll(async () => {
  t = await sharedTestApp();
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
});
afterAll(async () => {
  closeSockets();
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
    // Both join the chat and the waiting list, as the ticket's page does. The agent's chat join is
    // acknowledged; the outsider's is refused without an answer, asked before the acknowledged list
    // join.
    const listen = (session: Session, chat: 'joins' | 'refused') =>
      listenAs<{ action: string; ticket?: TicketView }>(t.app, session, async (socket) => {
        if (chat === 'joins')
          expect(await socket.timeout(5000).emitWithAck('joinChatBox', ticket.id)).toBe(true);
        else socket.emit('joinChatBox', ticket.id);
        expect(await socket.timeout(5000).emitWithAck('joinTickets', 'pending')).toBe(true);
      });
    const agentHeard = await listen(agent, 'joins');
    const outsiderHeard = await listen(outsider, 'refused');

    await inject(t.app, admin, 'POST', '/tags/sync', {
      ticketId: ticket.id,
      tags: [{ id: label.id }],
    });
    const updates = () =>
      agentHeard.filter(
        (h) => h.event === `company-${companyId}-ticket` && h.payload.ticket?.id === ticket.id,
      );
    // Every event of the request has reached both sockets.
    await caughtUp(agentHeard, outsiderHeard);
    // One socket in the chat room and a list slice hears the update once.
    expect(updates()).toHaveLength(1);
    expect(updates()[0].payload).toMatchObject({
      action: 'update',
      ticket: { id: ticket.id, tags: [{ id: label.id, name: 'En vivo', color: '#A4CCCC' }] },
    });
    expect(outsiderHeard.filter((h) => h.event.endsWith('-ticket'))).toEqual([]);
  });
});

describe('tags page', () => {
  it('lists tags by name with their ticket counts, searched and 20 a page', async () => {
    const company = await makeCompany(t.db);
    const boss = await login(t.app, company.admin.email);
    const clerk = await login(t.app, (await makeUser(t.db, company.company.id, 'user')).email);
    const names = Array.from(
      { length: 22 },
      (_, i) => `Etiqueta ${String(i + 1).padStart(2, '0')}`,
    );
    for (const name of names) await tag(name, boss);
    const connection = await makeWhatsapp(t.db, company.company.id);
    const counted = [];
    for (const n of [1, 2, 3]) {
      const [contact] = await t.db
        .insert(contacts)
        .values({ companyId: company.company.id, name: `Contado ${n}`, number: `54911700000${n}` })
        .returning();
      const [ticket] = await t.db
        .insert(tickets)
        .values({ companyId: company.company.id, contactId: contact.id, whatsappId: connection.id })
        .returning();
      counted.push(ticket);
    }
    const list = (session: Session, query: string) =>
      inject(t.app, session, 'GET', `/tags?${query}`).then((res) => {
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as TagsPage;
      });
    const first = (await list(clerk, '')).tags[0];
    // Etiqueta 01 on three tickets.
    for (const ticket of counted)
      await inject(t.app, boss, 'PUT', `/ticket-tags/${ticket.id}/${first.id}`);

    const page1 = await list(clerk, 'pageNumber=1');
    expect(page1.hasMore).toBe(true);
    expect(page1.tags.map((x) => x.name)).toEqual(names.slice(0, 20));
    expect(page1.tags[0]).toMatchObject({ name: 'Etiqueta 01', ticketsCount: 3, kanban: 0 });
    expect(page1.tags[1].ticketsCount).toBe(0);
    const page2 = await list(clerk, 'pageNumber=2');
    expect(page2).toEqual({
      hasMore: false,
      tags: [
        expect.objectContaining({ name: 'Etiqueta 21', ticketsCount: 0 }),
        expect.objectContaining({ name: 'Etiqueta 22', ticketsCount: 0 }),
      ],
    });
    const search = await list(clerk, 'searchParam=queta%200');
    expect(search.tags.map((x) => x.name)).toEqual(names.slice(0, 9));
    expect(search.hasMore).toBe(false);
    expect((await list(clerk, 'searchParam=ETIQUETA%2022')).tags.map((x) => x.name)).toEqual([
      'Etiqueta 22',
    ]);

    const one = await inject(t.app, clerk, 'GET', `/tags/${first.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: first.id, name: 'Etiqueta 01', ticketsCount: 3 });
    // The other company sees none of them.
    expect((await list(otherAdmin, 'searchParam=Etiqueta')).tags).toEqual([]);
    expect((await inject(t.app, otherAdmin, 'GET', `/tags/${first.id}`)).statusCode).toBe(404);
  });

  it('searches "%" and "_" as the characters they are, not as wildcards', async () => {
    const boss = await login(t.app, (await makeCompany(t.db)).admin.email);
    for (const name of ['Descuento 50%', 'Pedido 500', 'vip_oro', 'vipxoro']) await tag(name, boss);
    const search = async (term: string) => {
      const res = await inject(t.app, boss, 'GET', `/tags?searchParam=${encodeURIComponent(term)}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as TagsPage).tags.map((x) => x.name);
    };
    expect(await search('50%')).toEqual(['Descuento 50%']);
    expect(await search('vip_')).toEqual(['vip_oro']);
  });

  it('edits a tag’s name, colour and kanban flag, refusing a name already used', async () => {
    const edited = await tag('Editar mí');
    await tag('Ocupada');
    const heard = await listenAs(t.app, agent);

    const res = await inject(t.app, admin, 'PUT', `/tags/${edited.id}`, {
      name: 'Editada',
      color: '#00ff00',
      kanban: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: edited.id,
      name: 'Editada',
      color: '#00ff00',
      kanban: 1,
      ticketsCount: 0,
    });
    // Leaving the colour and flag out keeps them.
    const renamed = await inject(t.app, admin, 'PUT', `/tags/${edited.id}`, { name: 'Editada 2' });
    expect(renamed.json()).toMatchObject({ name: 'Editada 2', color: '#00ff00', kanban: 1 });
    // Its own name again is no clash.
    expect(
      (await inject(t.app, admin, 'PUT', `/tags/${edited.id}`, { name: 'Editada 2' })).statusCode,
    ).toBe(200);

    const twin = await inject(t.app, admin, 'PUT', `/tags/${edited.id}`, { name: 'Ocupada' });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().fields).toHaveProperty('name');
    const invalid = await inject(t.app, admin, 'PUT', `/tags/${edited.id}`, {
      name: 'ab',
      color: 'green',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toBe('ERR_VALIDATION');
    expect((await inject(t.app, admin, 'GET', `/tags/${edited.id}`)).json().name).toBe('Editada 2');

    const events = () => heard.filter((h) => h.event === `company-${companyId}-tag`);
    await eventually(
      events,
      (list) => list.filter((e) => e.payload.action === 'update').length >= 3,
      'three tag updates',
    );
    expect(events().filter((e) => e.payload.action === 'update')[0].payload).toEqual({
      action: 'update',
      tag: { id: edited.id, name: 'Editada', color: '#00ff00', kanban: 1 },
    });
  });

  it('refuses changes to profiles without the right, and another company’s tag is not found', async () => {
    const kept = await tag('Intocable');
    const put = await inject(t.app, agent, 'PUT', `/tags/${kept.id}`, { name: 'Cambiada' });
    expect(put.statusCode).toBe(403);
    expect(put.json().error).toBe('ERR_NO_PERMISSION');
    expect((await inject(t.app, agent, 'DELETE', `/tags/${kept.id}`)).statusCode).toBe(403);
    expect((await inject(t.app, agent, 'POST', '/tags', { name: 'Del agente' })).statusCode).toBe(
      403,
    );
    // A supervisor reaches the tag form, kanban toggle included (SPEC §6).
    const supervisor = await login(t.app, (await makeUser(t.db, companyId, 'supervisor')).email);
    const lane = await inject(t.app, supervisor, 'POST', '/tags', { name: 'Carril', kanban: 1 });
    expect(lane.statusCode, lane.body).toBe(201);
    expect(lane.json()).toMatchObject({ name: 'Carril', kanban: 1 });
    const foreignPut = await inject(t.app, otherAdmin, 'PUT', `/tags/${kept.id}`, {
      name: 'Ajena ya',
    });
    expect(foreignPut.statusCode).toBe(404);
    expect((await inject(t.app, otherAdmin, 'DELETE', `/tags/${kept.id}`)).statusCode).toBe(404);
    expect((await inject(t.app, admin, 'GET', `/tags/${kept.id}`)).json()).toMatchObject({
      name: 'Intocable',
    });
    expect((await inject(t.app, admin, 'PUT', '/tags/999999', { name: 'Nadie' })).statusCode).toBe(
      404,
    );
  });

  it('deletes a tag, takes it off its tickets and tells the company', async () => {
    const ticket = await salesTicket();
    const gone = await tag('Borrable');
    const stays = await tag('Se queda');
    await inject(t.app, admin, 'POST', '/tags/sync', {
      ticketId: ticket.id,
      tags: [{ id: gone.id }, { id: stays.id }],
    });
    const heard = await listenAs(t.app, agent);

    const res = await inject(t.app, admin, 'DELETE', `/tags/${gone.id}`);
    expect(res.statusCode).toBe(204);
    expect((await inject(t.app, admin, 'GET', `/tags/${gone.id}`)).statusCode).toBe(404);
    expect(await tagNames(ticket.id)).toEqual(['Se queda']);
    expect(await t.db.select().from(tags).where(eq(tags.id, gone.id))).toEqual([]);

    const tagEvents = () => heard.filter((h) => h.event === `company-${companyId}-tag`);
    await eventually(tagEvents, (list) => list.length > 0, 'the tag event');
    expect(tagEvents().map((h) => h.payload)).toEqual([{ action: 'delete', tagId: gone.id }]);
    expect((await inject(t.app, admin, 'DELETE', `/tags/${gone.id}`)).statusCode).toBe(404);
  });
});
