import { beforeAll, describe, expect, it } from 'vitest';
import { contacts, queues, tickets, userQueues } from '../../../db/schema';
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

let t: SharedTestContext;
let admin: Session;
let agent: Session;
let outsider: Session;
let ticketId: number;
let contactId: number;

beforeAll(async () => {
  t = await sharedTestApp();
  const company = await makeCompany(t.db);
  const companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  const [sales, support] = await t.db
    .insert(queues)
    .values([
      { companyId, name: 'Ventas', color: '#00aa00' },
      { companyId, name: 'Soporte', color: '#0000aa' },
    ])
    .returning();
  const agentRow = await makeUser(t.db, companyId, 'user');
  const outsiderRow = await makeUser(t.db, companyId, 'user');
  await t.db.insert(userQueues).values([
    { userId: agentRow.id, queueId: sales.id, companyId },
    { userId: outsiderRow.id, queueId: support.id, companyId },
  ]);
  agent = await login(t.app, agentRow.email);
  outsider = await login(t.app, outsiderRow.email);
  const connection = await makeWhatsapp(t.db, companyId);
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId, name: 'Lucía', number: '5491155550999' })
    .returning();
  contactId = contact.id;
  const [ticket] = await t.db
    .insert(tickets)
    .values({ companyId, contactId, whatsappId: connection.id, queueId: sales.id })
    .returning();
  ticketId = ticket.id;
});

const notes = async (session: Session) =>
  inject(t.app, session, 'GET', `/ticket-notes/list?ticketId=${ticketId}&contactId=${contactId}`);

describe('ticket notes', () => {
  it('adds notes with their author and lists them oldest first', async () => {
    const first = await inject(t.app, agent, 'POST', '/ticket-notes', {
      note: 'Pidió presupuesto',
      ticketId,
      contactId,
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      note: 'Pidió presupuesto',
      ticketId,
      contactId,
      user: { id: agent.userId },
    });
    await inject(t.app, admin, 'POST', '/ticket-notes', { note: 'Cliente VIP', ticketId });
    const res = await notes(agent);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((n: { note: string }) => n.note)).toEqual([
      'Pidió presupuesto',
      'Cliente VIP',
    ]);
  });

  it('refuses notes shorter than 2 characters and people outside the ticket’s queue', async () => {
    const empty = await inject(t.app, agent, 'POST', '/ticket-notes', { note: '   ', ticketId });
    expect(empty.statusCode).toBe(400);
    const short = await inject(t.app, agent, 'POST', '/ticket-notes', { note: ' k ', ticketId });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { note: [expect.any(String)] },
    });
    expect(
      (await inject(t.app, agent, 'POST', '/ticket-notes', { note: 'ok', ticketId })).statusCode,
    ).toBe(201);
    expect((await notes(outsider)).statusCode).toBe(403);
    const add = await inject(t.app, outsider, 'POST', '/ticket-notes', { note: 'xy', ticketId });
    expect(add.statusCode).toBe(403);
  });

  it('lets the author or an admin delete a note, nobody else', async () => {
    const mine = (
      await inject(t.app, agent, 'POST', '/ticket-notes', { note: 'borrar', ticketId })
    ).json();
    const theirs = (
      await inject(t.app, admin, 'POST', '/ticket-notes', { note: 'del admin', ticketId })
    ).json();
    expect((await inject(t.app, agent, 'DELETE', `/ticket-notes/${theirs.id}`)).statusCode).toBe(
      403,
    );
    expect((await inject(t.app, agent, 'DELETE', `/ticket-notes/${mine.id}`)).statusCode).toBe(204);
    expect((await inject(t.app, admin, 'DELETE', `/ticket-notes/${theirs.id}`)).statusCode).toBe(
      204,
    );
    const left = (await notes(admin)).json().map((n: { id: number }) => n.id);
    expect(left).not.toContain(mine.id);
    expect(left).not.toContain(theirs.id);
  });
});
