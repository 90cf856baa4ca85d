import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  contacts,
  messages,
  queues,
  tags,
  ticketTags,
  tickets,
  userQueues,
  whatsapps,
} from '../../../db/schema';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type Session,
  type SharedTestContext,
} from '../../../../test/harness';
import { setSetting } from '../../../../test/inbox';
import { caughtUp, closeSockets, listenAs } from '../../../../test/sockets';
import type { TicketView } from './ticket-views';

let t: SharedTestContext;
let companyId: number;
let admin: Session;
let agent: Session;
let other: Session;
let agentId: number;
let sales: number;
let support: number;
let connection: number;

beforeAll(async () => {
  t = await sharedTestApp();
});

beforeEach(async () => {
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  connection = (await makeWhatsapp(t.db, companyId, { isDefault: true })).id;
  const [q1, q2] = await t.db
    .insert(queues)
    .values([
      { companyId, name: 'Ventas', color: '#00aa00' },
      { companyId, name: 'Soporte', color: '#0000aa' },
    ])
    .returning();
  sales = q1.id;
  support = q2.id;
  const agentRow = await makeUser(t.db, companyId, 'user');
  const otherRow = await makeUser(t.db, companyId, 'user');
  agentId = agentRow.id;
  await t.db.insert(userQueues).values([
    { userId: agentRow.id, queueId: sales, companyId },
    { userId: otherRow.id, queueId: support, companyId },
  ]);
  agent = await login(t.app, agentRow.email);
  other = await login(t.app, otherRow.email);
});

let numbers = 0;
const contact = async (name = 'Cliente') =>
  (
    await t.db
      .insert(contacts)
      .values({ companyId, name, number: `5491160000${String((numbers += 1)).padStart(3, '0')}` })
      .returning()
  )[0];

const waiting = async (queueId: number | null = sales, name?: string) => {
  const c = await contact(name);
  return (
    await t.db
      .insert(tickets)
      .values({ companyId, contactId: c.id, whatsappId: connection, queueId, lastMessage: 'hola' })
      .returning()
  )[0];
};

const put = (session: Session, id: number, body: object) =>
  inject(t.app, session, 'PUT', `/tickets/${id}`, body);
const list = async (session: Session, query = '') =>
  (await inject(t.app, session, 'GET', `/tickets?${query}`)).json() as {
    tickets: TicketView[];
    hasMore: boolean;
  };

describe('ticket transitions (SPEC §4)', () => {
  it('accept takes a waiting ticket; return puts it back; resolve closes it; reopen opens it again', async () => {
    const ticket = await waiting();
    const accepted = await put(agent, ticket.id, { status: 'open' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      status: 'open',
      userId: agentId,
      user: { id: agentId },
    });

    const returned = await put(agent, ticket.id, { status: 'pending' });
    expect(returned.json()).toMatchObject({ status: 'pending', userId: null });

    await put(agent, ticket.id, { status: 'open' });
    const resolved = await put(agent, ticket.id, { status: 'closed' });
    expect(resolved.json()).toMatchObject({ status: 'closed', userId: agentId });

    const reopened = await put(admin, ticket.id, { status: 'open' });
    expect(reopened.json()).toMatchObject({ status: 'open', userId: admin.userId });
  });

  it('transfers to a person (open, theirs) or to nobody (waiting), with queue and connection', async () => {
    const ticket = await waiting();
    await put(agent, ticket.id, { status: 'open' });
    const toOther = await put(agent, ticket.id, { userId: admin.userId, queueId: support });
    expect(toOther.json()).toMatchObject({
      status: 'open',
      userId: admin.userId,
      queueId: support,
      queue: { name: 'Soporte' },
    });
    const toNobody = await put(admin, ticket.id, { userId: null, queueId: sales });
    expect(toNobody.json()).toMatchObject({ status: 'pending', userId: null, queueId: sales });
  });

  it('closing clears the integration and the AI prompt', async () => {
    const ticket = await waiting();
    await t.db.update(tickets).set({ useIntegration: true }).where(eq(tickets.id, ticket.id));
    const closed = await put(admin, ticket.id, { status: 'closed' });
    expect(closed.json()).toMatchObject({
      status: 'closed',
      useIntegration: false,
      integrationId: null,
      promptId: null,
    });
  });

  it('an agent cannot take over a conversation another person is serving; an admin can', async () => {
    const ticket = await waiting(null);
    await put(agent, ticket.id, { status: 'open' });
    const refused = await put(other, ticket.id, { status: 'closed' });
    expect(refused.statusCode).toBe(403);
    expect((await put(admin, ticket.id, { status: 'closed' })).statusCode).toBe(200);
  });

  it('reopening while the contact has another active ticket names who holds it', async () => {
    const first = await waiting();
    await put(agent, first.id, { status: 'closed' });
    const [second] = await t.db
      .insert(tickets)
      .values({
        companyId,
        contactId: first.contactId,
        whatsappId: connection,
        queueId: sales,
        userId: agentId,
        status: 'open',
      })
      .returning();
    const res = await put(admin, first.id, { status: 'open' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      details: { ticket: { id: second.id }, queue: { name: 'Ventas' } },
    });
    expect(res.json().details.user.name).toBeTruthy();
  });

  it('agents accepting one waiting ticket at once: one takes it, the others get 409 naming them, one greeting', async () => {
    await setSetting(t.db, companyId, 'sendGreetingAccepted', 'enabled');
    const ticket = await waiting();
    const rivals = [agent];
    for (let i = 0; i < 4; i += 1) {
      const row = await makeUser(t.db, companyId, 'user');
      await t.db.insert(userQueues).values({ userId: row.id, queueId: sales, companyId });
      rivals.push(await login(t.app, row.email));
    }
    rivals.push(admin);
    const answers = await Promise.all(
      rivals.map((session) => put(session, ticket.id, { status: 'open' })),
    );
    const winners = answers.filter((a) => a.statusCode === 200);
    expect(winners).toHaveLength(1);
    const holder = winners[0].json() as TicketView;
    const [row] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row.userId).toBe(holder.userId);
    for (const lost of answers.filter((a) => a !== winners[0])) {
      expect(lost.statusCode).toBe(409);
      expect(lost.json()).toMatchObject({
        error: 'ERR_TICKET_TAKEN',
        details: { user: { id: holder.userId, name: holder.user!.name } },
      });
    }
    const greetings = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(greetings).toHaveLength(1);
    expect(greetings[0].body).toContain(holder.user!.name);
  });

  it('a repeated accept or resolve (double click, second tab) changes nothing and sends nothing twice', async () => {
    await setSetting(t.db, companyId, 'sendGreetingAccepted', 'enabled');
    await t.db
      .update(whatsapps)
      .set({ complationMessage: 'Gracias por escribirnos' })
      .where(eq(whatsapps.id, connection));
    const ticket = await waiting();
    const accepts = await Promise.all(
      [1, 2, 3].map(() => put(agent, ticket.id, { status: 'open' })),
    );
    expect(accepts.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const resolves = await Promise.all([
      put(agent, ticket.id, { status: 'closed' }),
      put(admin, ticket.id, { status: 'closed' }),
    ]);
    expect(resolves.map((a) => a.statusCode)).toEqual([200, 200]);
    const sent = await t.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(sent.map((m) => m.body).filter((b) => b === 'Gracias por escribirnos')).toHaveLength(1);
    expect(sent).toHaveLength(2);
    const [row] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row).toMatchObject({ status: 'closed', userId: agentId });
  });

  it('reopening a ticket someone reopened a moment before is a conflict, not a takeover', async () => {
    const ticket = await waiting();
    await put(agent, ticket.id, { status: 'closed' });
    const [first, second] = await Promise.all([
      put(agent, ticket.id, { status: 'open' }),
      put(admin, ticket.id, { status: 'open' }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const winner = (first.statusCode === 200 ? first : second).json() as TicketView;
    const [row] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row.userId).toBe(winner.userId);
  });

  it('two admins accepting at once while naming themselves (as SPEC clients do): one wins, the other 409', async () => {
    const ticket = await waiting();
    const other = await login(t.app, (await makeUser(t.db, companyId, 'admin')).email);
    const [first, second] = await Promise.all([
      put(admin, ticket.id, { status: 'open', userId: admin.userId }),
      put(other, ticket.id, { status: 'open', userId: other.userId }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const winner = (first.statusCode === 200 ? first : second).json() as TicketView;
    expect((first.statusCode === 409 ? first : second).json()).toMatchObject({
      error: 'ERR_TICKET_TAKEN',
      details: { user: { id: winner.userId } },
    });
    const [row] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row.userId).toBe(winner.userId);
    // Naming someone else is a transfer, which an admin may still make.
    const moved = await put(admin, ticket.id, { userId: agentId });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ status: 'open', userId: agentId });
  });

  it('a transfer to another queue takes the chat away from whoever may no longer see it', async () => {
    const ticket = await waiting(sales);
    const inChat = (session: Session) =>
      listenAs(t.app, session, async (socket) =>
        expect(await socket.timeout(5000).emitWithAck('joinChatBox', ticket.id)).toBe(true),
      );
    const agentHeard = await inChat(agent);
    const adminHeard = await inChat(admin);
    const moved = await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, {
      status: 'open',
      userId: (await inject(t.app, admin, 'GET', '/auth/me')).json().id,
      queueId: support,
    });
    expect(moved.statusCode).toBe(200);
    const from = { agent: agentHeard.length, admin: adminHeard.length };
    const said = await inject(t.app, admin, 'POST', `/messages/${ticket.id}`, { body: 'Soporte' });
    expect(said.statusCode).toBe(201);
    await caughtUp(agentHeard, adminHeard);
    const messagesOf = (heard: typeof agentHeard, since: number) =>
      heard.slice(since).filter((h) => h.event === `company-${companyId}-appMessage`);
    expect(messagesOf(adminHeard, from.admin)).toHaveLength(1);
    expect(messagesOf(agentHeard, from.agent)).toEqual([]);
    closeSockets();
  });

  it('only admins delete tickets', async () => {
    const ticket = await waiting();
    expect((await inject(t.app, agent, 'DELETE', `/tickets/${ticket.id}`)).statusCode).toBe(403);
    expect((await inject(t.app, admin, 'DELETE', `/tickets/${ticket.id}`)).statusCode).toBe(204);
    expect((await inject(t.app, admin, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(404);
  });
});

describe('creating tickets', () => {
  it('opens a ticket for a contact on the default connection, assigned to the creator', async () => {
    const c = await contact('Nuevo');
    const res = await inject(t.app, agent, 'POST', '/tickets', {
      contactId: c.id,
      queueId: sales,
      status: 'open',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'open',
      userId: agentId,
      whatsappId: connection,
      contact: { name: 'Nuevo' },
    });
    const again = await inject(t.app, admin, 'POST', '/tickets', {
      contactId: c.id,
      status: 'open',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ERR_OTHER_OPEN_TICKET');
  });

  it('requires a queue from non-admins, and refuses another company’s contact', async () => {
    const c = await contact();
    const res = await inject(t.app, agent, 'POST', '/tickets', { contactId: c.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.queueId).toBeDefined();
    const elsewhere = await makeCompany(t.db);
    const [foreign] = await t.db
      .insert(contacts)
      .values({ companyId: elsewhere.company.id, name: 'Ajeno', number: '5491199999999' })
      .returning();
    const refused = await inject(t.app, admin, 'POST', '/tickets', { contactId: foreign.id });
    expect(refused.statusCode).toBe(404);
  });
});

describe('reading tickets', () => {
  it('opens a ticket by uuid inside one’s queues and refuses it outside them', async () => {
    const ticket = await waiting(sales);
    const mine = await inject(t.app, agent, 'GET', `/tickets/u/${ticket.uuid}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ id: ticket.id, queue: { name: 'Ventas' } });
    const refused = await inject(t.app, other, 'GET', `/tickets/u/${ticket.uuid}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');
  });

  it('lists per profile: agents see their queues’ waiting tickets and their own; admins see all with showAll', async () => {
    const inSales = await waiting(sales, 'Ana');
    const inSupport = await waiting(support, 'Beto');
    const noQueue = await waiting(null, 'Caro');
    const ids = (page: { tickets: TicketView[] }) => page.tickets.map((x) => x.id).sort();

    expect(ids(await list(agent, 'status=pending'))).toEqual([inSales.id, noQueue.id].sort());
    expect(ids(await list(other, 'status=pending'))).toEqual([inSupport.id, noQueue.id].sort());
    expect(ids(await list(admin, 'status=pending&showAll=true'))).toEqual(
      [inSales.id, inSupport.id, noQueue.id].sort(),
    );
    // An agent's showAll is ignored.
    expect(ids(await list(agent, 'status=pending&showAll=true'))).toEqual(
      [inSales.id, noQueue.id].sort(),
    );

    // Once another agent serves it, it leaves the first agent's list.
    await put(admin, noQueue.id, { status: 'open', userId: admin.userId });
    expect(ids(await list(agent, 'status=pending'))).toEqual([inSales.id]);
    expect(ids(await list(agent, 'status=open'))).toEqual([]);
  });

  it('filters by queue, tag, user, unread and searches names, numbers and message text', async () => {
    const a = await waiting(sales, 'Mariana Paz');
    const b = await waiting(support, 'Julio Rey');
    await t.db.update(tickets).set({ unreadMessages: 3 }).where(eq(tickets.id, b.id));
    await t.db.insert(messages).values({
      companyId,
      ticketId: b.id,
      whatsappId: connection,
      body: 'quiero el presupuesto del plan anual',
    });
    const [tag] = await t.db
      .insert(tags)
      .values({ companyId, name: 'VIP', color: '#ff0000' })
      .returning();
    await t.db.insert(ticketTags).values({ ticketId: a.id, tagId: tag.id, companyId });
    const ids = async (q: string) =>
      (await list(admin, `showAll=true&${q}`)).tickets.map((x) => x.id);

    expect(await ids(`queueIds=${encodeURIComponent(JSON.stringify([support]))}`)).toEqual([b.id]);
    expect(await ids(`tags=${encodeURIComponent(JSON.stringify([tag.id]))}`)).toEqual([a.id]);
    expect(await ids('withUnreadMessages=true')).toEqual([b.id]);
    expect(await ids('searchParam=mariana')).toEqual([a.id]);
    expect(await ids('searchParam=presupuesto')).toEqual([b.id]);
    const bad = await inject(t.app, admin, 'GET', '/tickets?tags=not-json');
    expect(bad.statusCode).toBe(400);
  });

  it('a search fills its pages with distinct tickets, newest first, beyond the first page too', async () => {
    const matching = [];
    for (let i = 0; i < 45; i += 1) {
      const ticket = await waiting(null);
      // Two matching messages: the ticket still counts once.
      await t.db.insert(messages).values(
        ['Le envío la FACTURA corregida', 'la factura llegó'].map((body) => ({
          companyId,
          ticketId: ticket.id,
          whatsappId: connection,
          body,
        })),
      );
      matching.push(ticket.id);
      if (i % 3 === 0) await waiting(null);
    }
    const newestFirst = [...matching].reverse();
    const first = await list(admin, 'searchParam=Factura&showAll=true');
    expect(first.tickets.map((x) => x.id)).toEqual(newestFirst.slice(0, 40));
    expect(first.hasMore).toBe(true);
    const second = await list(admin, 'searchParam=Factura&showAll=true&pageNumber=2');
    expect(second.tickets.map((x) => x.id)).toEqual(newestFirst.slice(40));
    expect(second.hasMore).toBe(false);
    // A word only a few tickets have: found through the indexes, newest first.
    await t.db.insert(messages).values(
      [matching[3], matching[10]].map((ticketId) => ({
        companyId,
        ticketId,
        whatsappId: connection,
        body: 'reembolso pendiente',
      })),
    );
    const rare = await list(admin, 'searchParam=reembolso&showAll=true');
    expect(rare.tickets.map((x) => x.id)).toEqual([matching[10], matching[3]]);
  });

  it('pages by 40, most recently updated first', async () => {
    const created = [];
    for (let i = 0; i < 41; i += 1) created.push(await waiting(null));
    const first = await list(admin, 'status=pending&showAll=true');
    expect(first.tickets).toHaveLength(40);
    expect(first.hasMore).toBe(true);
    expect(first.tickets[0].id).toBe(created.at(-1)!.id);
    const second = await list(admin, 'status=pending&showAll=true&pageNumber=2');
    expect(second.tickets.map((x) => x.id)).toEqual([created[0].id]);
    expect(second.hasMore).toBe(false);
  });
});
