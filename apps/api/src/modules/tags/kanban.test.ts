import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  KanbanLanes,
  KanbanTickets,
  TagOption,
  TicketEvent,
  TicketView,
} from '@atendi/shared';
import { contacts, queues, tickets, userQueues } from '../../db/schema';
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
import { caughtUp, closeSockets, listenAs } from '../../../test/sockets';

let t: SharedTestContext;
let admin: Session;
let agent: Session;
let otherAdmin: Session;
let companyId: number;
let otherCompanyId: number;
let salesQueue: number;
let supportQueue: number;
let whatsappId: number;
let agentId: number;

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
  supportQueue = support.id;
  const agentRow = await makeUser(t.db, companyId, 'user');
  agentId = agentRow.id;
  await t.db.insert(userQueues).values({ userId: agentRow.id, queueId: sales.id, companyId });
  agent = await login(t.app, agentRow.email);
  const other = await makeCompany(t.db);
  otherCompanyId = other.company.id;
  otherAdmin = await login(t.app, other.admin.email);
  whatsappId = (await makeWhatsapp(t.db, companyId)).id;
});
afterAll(async () => {
  closeSockets();
});

let sequence = 0;
const makeTicket = async (
  values: { queueId?: number | null; status?: 'open' | 'pending' | 'closed'; userId?: number },
  owner = { companyId, whatsappId },
) => {
  sequence += 1;
  const [contact] = await t.db
    .insert(contacts)
    .values({
      companyId: owner.companyId,
      name: `Tablero ${sequence}`,
      number: `54911800000${sequence}`,
    })
    .returning();
  const [ticket] = await t.db
    .insert(tickets)
    .values({
      companyId: owner.companyId,
      contactId: contact.id,
      whatsappId: owner.whatsappId,
      queueId: values.queueId ?? null,
      status: values.status ?? 'pending',
      userId: values.userId ?? null,
      lastMessage: `Hola ${sequence}`,
    })
    .returning();
  return ticket;
};

const tag = async (name: string, kanban: number, session = admin) => {
  const res = await inject(t.app, session, 'POST', '/tags', { name, kanban, color: '#123456' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TagOption;
};

const board = async (session: Session, query = '') => {
  const res = await inject(t.app, session, 'GET', `/ticket/kanban${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as KanbanTickets).tickets;
};
const cardIds = async (session: Session, query = '') =>
  (await board(session, query)).map((ticket) => ticket.id);

// A socket of the session listening to the open and waiting lists, as the board does.
const listen = (session: Session) =>
  listenAs<TicketEvent>(t.app, session, async (socket) => {
    for (const status of ['open', 'pending']) await socket.emitWithAck('joinTickets', status);
  });

describe('kanban', () => {
  it('lanes are the company’s kanban tags by name, not the plain tags or another company’s', async () => {
    await tag('Zeta carril', 1);
    await tag('Alfa carril', 1);
    await tag('Solo etiqueta', 0);
    await tag('Carril ajeno', 1, otherAdmin);

    const res = await inject(t.app, agent, 'GET', '/tags/kanban');
    expect(res.statusCode).toBe(200);
    const { lista } = res.json() as KanbanLanes;
    expect(lista.map((lane) => lane.name)).toEqual(['Alfa carril', 'Zeta carril']);
    expect(lista[0]).toEqual({
      id: expect.any(Number),
      name: 'Alfa carril',
      color: '#123456',
      kanban: 1,
    });
    const foreign = (await inject(t.app, otherAdmin, 'GET', '/tags/kanban')).json() as KanbanLanes;
    expect(foreign.lista.map((lane) => lane.name)).toEqual(['Carril ajeno']);
  });

  it('shows a user the open and waiting tickets of their queues and an admin every one', async () => {
    const waitingSales = await makeTicket({ queueId: salesQueue });
    const mineOpen = await makeTicket({ queueId: salesQueue, status: 'open', userId: agentId });
    const waitingSupport = await makeTicket({ queueId: supportQueue });
    const closedSales = await makeTicket({
      queueId: salesQueue,
      status: 'closed',
      userId: agentId,
    });
    const label = await tag('Visible en tablero', 1);
    await inject(t.app, admin, 'PUT', `/ticket-tags/${waitingSales.id}/${label.id}`);

    const userCards = await cardIds(agent, `?queueIds=${encodeURIComponent(`[${salesQueue}]`)}`);
    expect(userCards).toEqual(expect.arrayContaining([waitingSales.id, mineOpen.id]));
    expect(userCards).not.toContain(waitingSupport.id);
    expect(userCards).not.toContain(closedSales.id);
    // Naming another queue, or asking for everything, shows a user nothing more.
    const asked = await cardIds(
      agent,
      `?showAll=true&queueIds=${encodeURIComponent(`[${supportQueue}]`)}`,
    );
    expect(asked).toEqual([]);

    const adminCards = await cardIds(admin, '?showAll=true');
    expect(adminCards).toEqual(
      expect.arrayContaining([waitingSales.id, mineOpen.id, waitingSupport.id]),
    );
    expect(adminCards).not.toContain(closedSales.id);
    // Without show-all an admin's board leaves out the agent's conversation, as the ticket list does.
    expect(await cardIds(admin)).not.toContain(mineOpen.id);

    const card = (await board(agent)).find((ticket) => ticket.id === waitingSales.id);
    expect(card).toMatchObject({
      uuid: waitingSales.uuid,
      lastMessage: waitingSales.lastMessage,
      updatedAt: expect.any(String),
      contact: { name: expect.stringMatching(/^Tablero/), number: expect.any(String) },
      tags: [{ id: label.id, name: 'Visible en tablero', color: '#123456' }],
    });
    expect(card?.contact).toHaveProperty('profilePicUrl');
    // Another company's board never shows these tickets.
    expect(await cardIds(otherAdmin, '?showAll=true')).toEqual([]);
    const bad = await inject(t.app, admin, 'GET', '/ticket/kanban?queueIds=ventas');
    expect(bad.statusCode).toBe(400);
  });

  it('moving a card removes the old tag, adds the new one and moves it on another board live', async () => {
    const ticket = await makeTicket({ queueId: salesQueue });
    const from = await tag('Origen', 1);
    const to = await tag('Destino', 1);
    await inject(t.app, admin, 'PUT', `/ticket-tags/${ticket.id}/${from.id}`);
    const adminHeard = await listen(admin);
    const foreignHeard = await listen(otherAdmin);

    const cleared = await inject(t.app, agent, 'DELETE', `/ticket-tags/${ticket.id}`);
    expect(cleared.statusCode).toBe(204);
    const added = await inject(t.app, agent, 'PUT', `/ticket-tags/${ticket.id}/${to.id}`);
    expect(added.statusCode).toBe(200);
    expect((added.json() as TicketView).tags.map((x) => x.name)).toEqual(['Destino']);
    const card = (await board(admin, '?showAll=true')).find((row) => row.id === ticket.id);
    expect(card?.tags.map((x) => x.id)).toEqual([to.id]);

    const updates = () =>
      adminHeard
        .filter((h) => h.event === `company-${companyId}-ticket`)
        .map((h) => h.payload)
        .filter((p) => p.action === 'update' && p.ticket.id === ticket.id)
        .map((p) => (p.action === 'update' ? p.ticket.tags.map((x) => x.id) : []));
    // Every event of the two requests has reached both sockets.
    await caughtUp(adminHeard, foreignHeard);
    // The viewer first sees the card without tags, then in its new lane.
    expect(updates()).toEqual([[], [to.id]]);
    expect(foreignHeard.filter((h) => h.event.endsWith('-ticket'))).toEqual([]);
  });

  it('refuses another company’s ticket or tag with 404 and a ticket of a queue the user is not in', async () => {
    const ticket = await makeTicket({ queueId: salesQueue });
    const mine = await tag('Propio tablero', 1);
    const foreignTag = await tag('Ajeno tablero', 1, otherAdmin);
    const foreignTicket = await makeTicket(
      { queueId: null },
      { companyId: otherCompanyId, whatsappId: (await makeWhatsapp(t.db, otherCompanyId)).id },
    );
    await inject(t.app, admin, 'PUT', `/ticket-tags/${ticket.id}/${mine.id}`);

    const tagRefused = await inject(
      t.app,
      admin,
      'PUT',
      `/ticket-tags/${ticket.id}/${foreignTag.id}`,
    );
    expect(tagRefused.statusCode).toBe(404);
    for (const [method, url] of [
      ['DELETE', `/ticket-tags/${foreignTicket.id}`],
      ['PUT', `/ticket-tags/${foreignTicket.id}/${mine.id}`],
    ] as const) {
      const res = await inject(t.app, admin, method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('ERR_NO_TICKET_FOUND');
    }

    // A user of another queue: the ticket exists but is not theirs to move (same rule as opening it).
    const supportRow = await makeUser(t.db, companyId, 'user');
    await t.db
      .insert(userQueues)
      .values({ userId: supportRow.id, queueId: supportQueue, companyId });
    const supportAgent = await login(t.app, supportRow.email);
    const refused = await inject(t.app, supportAgent, 'DELETE', `/ticket-tags/${ticket.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');

    const card = (await board(admin, '?showAll=true')).find((row) => row.id === ticket.id);
    expect(card?.tags.map((x) => x.id)).toEqual([mine.id]);
  });

  it('is refused when the plan has no kanban', async () => {
    const made = await makeCompany(t.db, { planLimits: { useKanban: false } });
    const session = await login(t.app, made.admin.email);
    for (const url of ['/tags/kanban', '/ticket/kanban']) {
      const res = await inject(t.app, session, 'GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });
});
