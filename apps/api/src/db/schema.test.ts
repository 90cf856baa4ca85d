import { beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { sharedTestApp, makeCompany, type SharedTestContext } from '../../test/harness';
import { companies, contacts, messages, queues, tickets, whatsapps } from './schema';

// The rules the database itself guarantees, whatever code writes to it.
let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

const conversation = async () => {
  const { company } = await makeCompany(t.db);
  const [whatsapp] = await t.db
    .insert(whatsapps)
    .values({ companyId: company.id, name: 'Main' })
    .returning();
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId: company.id, name: 'Ana', number: '5491122334455' })
    .returning();
  const [ticket] = await t.db
    .insert(tickets)
    .values({
      companyId: company.id,
      contactId: contact.id,
      whatsappId: whatsapp.id,
      status: 'open',
    })
    .returning();
  return { company, whatsapp, contact, ticket };
};

const rejects = (work: Promise<unknown>) => expect(work).rejects.toBeTruthy();

describe('data model rules', () => {
  it('allows one non-closed ticket per contact and connection, and new ones after closing', async () => {
    const { company, whatsapp, contact, ticket } = await conversation();
    const another = () =>
      t.db.insert(tickets).values({
        companyId: company.id,
        contactId: contact.id,
        whatsappId: whatsapp.id,
        status: 'pending',
      });
    await rejects(another());
    await t.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, ticket.id));
    await expect(another()).resolves.toBeDefined();
  });

  it('stores a redelivered provider message once per connection', async () => {
    const { company, whatsapp, contact, ticket } = await conversation();
    const deliver = () =>
      t.db
        .insert(messages)
        .values({
          companyId: company.id,
          ticketId: ticket.id,
          contactId: contact.id,
          whatsappId: whatsapp.id,
          providerId: 'WAMID.1',
          body: 'hola',
        })
        .onConflictDoNothing();
    await deliver();
    await deliver();
    const [{ value }] = await t.db
      .select({ value: count() })
      .from(messages)
      .where(eq(messages.ticketId, ticket.id));
    expect(value).toBe(1);
  });

  it('keeps contact numbers unique per company but not across companies', async () => {
    const a = await makeCompany(t.db);
    const b = await makeCompany(t.db);
    await t.db
      .insert(contacts)
      .values({ companyId: a.company.id, name: 'X', number: '5511999990000' });
    await rejects(
      t.db.insert(contacts).values({ companyId: a.company.id, name: 'Y', number: '5511999990000' }),
    );
    await expect(
      t.db.insert(contacts).values({ companyId: b.company.id, name: 'X', number: '5511999990000' }),
    ).resolves.toBeDefined();
  });

  it('keeps queue colours unique per company', async () => {
    const a = await makeCompany(t.db);
    await t.db.insert(queues).values({ companyId: a.company.id, name: 'Ventas', color: '#ff0000' });
    await rejects(
      t.db.insert(queues).values({ companyId: a.company.id, name: 'Soporte', color: '#ff0000' }),
    );
  });

  it('refuses to delete a connection that still has conversations, but a company deletion takes everything', async () => {
    const { company, whatsapp, ticket } = await conversation();
    await rejects(t.db.delete(whatsapps).where(eq(whatsapps.id, whatsapp.id)));
    expect(await t.db.select().from(tickets).where(eq(tickets.id, ticket.id))).toHaveLength(1);
    await t.db.delete(companies).where(eq(companies.id, company.id));
    expect(await t.db.select().from(tickets).where(eq(tickets.id, ticket.id))).toHaveLength(0);
    expect(await t.db.select().from(whatsapps).where(eq(whatsapps.id, whatsapp.id))).toHaveLength(
      0,
    );
  });

  it("raises a ticket's version on every update, even ten at once and by hand-written SQL", async () => {
    const { ticket } = await conversation();
    expect(ticket.version).toBe(0);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.db
          .update(tickets)
          .set({ lastMessage: `m${i}` })
          .where(eq(tickets.id, ticket.id)),
      ),
    );
    await t.db.execute(sql`update tickets set unread_messages = 3 where id = ${ticket.id}`);
    const [after] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(after.version).toBe(11);
  });
});
