import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { contacts, jobs, messages, tickets } from '../src/db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeWhatsapp,
  type TestContext,
} from './harness';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  // A database that fails to write a table, as a full disk or a broken replica would.
  await t.db.execute(sql`create function fail_write() returns trigger language plpgsql as $$
    begin raise exception 'simulated storage failure'; end $$`);
});
afterAll(() => t.close());

const failWrites = (table: 'tickets' | 'messages', on: boolean) =>
  t.db.execute(
    on
      ? sql.raw(
          `create trigger fail_${table} before insert on ${table} for each row execute function fail_write()`,
        )
      : sql.raw(`drop trigger fail_${table} on ${table}`),
  );

it('a database failure storing a ticket or a message answers ERR_CREATING_TICKET / ERR_CREATING_MESSAGE and keeps nothing', async () => {
  const company = await makeCompany(t.db);
  const companyId = company.company.id;
  const admin = await login(t.app, company.admin.email);
  await makeWhatsapp(t.db, companyId, { isDefault: true });
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId, name: 'Carla', number: '5491133334444' })
    .returning();

  await failWrites('tickets', true);
  const refused = await inject(t.app, admin, 'POST', '/tickets', { contactId: contact.id });
  await failWrites('tickets', false);
  expect(refused.statusCode).toBe(500);
  expect(refused.json()).toMatchObject({ error: 'ERR_CREATING_TICKET' });
  expect(refused.body).not.toContain('simulated');
  expect(await t.db.select().from(tickets).where(eq(tickets.contactId, contact.id))).toEqual([]);

  const created = await inject(t.app, admin, 'POST', '/tickets', { contactId: contact.id });
  expect(created.statusCode, created.body).toBe(201);
  const ticketId = (created.json() as { id: number }).id;
  await failWrites('messages', true);
  const unsent = await inject(t.app, admin, 'POST', `/messages/${ticketId}`, { body: 'Hola' });
  await failWrites('messages', false);
  expect(unsent.statusCode).toBe(500);
  expect(unsent.json()).toMatchObject({ error: 'ERR_CREATING_MESSAGE' });
  expect(await t.db.select().from(messages).where(eq(messages.ticketId, ticketId))).toEqual([]);
  // Nor a send queued for it.
  expect(await t.db.select().from(jobs).where(eq(jobs.companyId, companyId))).toEqual([]);
});
