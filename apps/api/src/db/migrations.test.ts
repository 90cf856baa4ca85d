import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, pgliteExtensions, type Db } from './client';
import * as schema from './schema';
import {
  campaignOptOuts,
  campaignShipping,
  campaigns,
  companies,
  contactListItems,
  contactLists,
  contacts,
  jobs,
} from './schema';

// Upgrading a database that has work queued keeps the work: the sends and webhooks waiting in the
// tables the one job queue replaced (migration 0004) move into it. The advertised plans seeded before
// the AI quotas existed get SPEC §9's (migration 0043).

let client: PGlite;
let db: Db;
let before: string;

// The migrations up to and including `tag`, as a folder of their own.
const migrationsUpTo = (tag: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'atendi-migrations-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === tag);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
};

beforeAll(async () => {
  client = new PGlite({ extensions: pgliteExtensions });
  db = drizzle({ client, schema, casing: 'snake_case' }) as unknown as Db;
  before = migrationsUpTo('0003_ticket_search');
  await migrate(drizzle({ client }), { migrationsFolder: before });
});
afterAll(async () => {
  await client.close();
  rmSync(before, { recursive: true, force: true });
});

describe('migration to the one job queue', () => {
  it('moves pending, in-flight and failed sends and unprocessed webhooks into jobs', async () => {
    // Written in the columns of that time (the schema of today has more).
    await client.query(`insert into plans (name) values ('Old plan')`);
    const {
      rows: [company],
    } = await client.query<{ id: number }>(
      `insert into companies (name, plan_id) values ('Old company', (select max(id) from plans))
       returning id`,
    );
    const {
      rows: [connection],
    } = await client.query<{ id: number }>(
      `insert into whatsapps (company_id, name, provider) values ($1, 'Cloud', 'cloud') returning id`,
      [company.id],
    );
    const [contact] = await db
      .insert(contacts)
      .values({ companyId: company.id, name: 'Ana', number: '5491122334455' })
      .returning();
    const {
      rows: [ticket],
    } = await client.query<{ id: number }>(
      `insert into tickets (company_id, contact_id, whatsapp_id, status)
       values ($1, $2, $3, 'open') returning id`,
      [company.id, contact.id, connection.id],
    );
    const sent: { id: number }[] = [];
    for (const body of ['pendiente', 'enviando', 'fallido', 'enviado']) {
      const { rows } = await client.query<{ id: number }>(
        `insert into messages (company_id, ticket_id, whatsapp_id, body, from_me)
         values ($1, $2, $3, $4, true) returning id`,
        [company.id, ticket.id, connection.id, body],
      );
      sent.push(rows[0]);
    }
    const statuses = ['pending', 'sending', 'failed', 'sent'];
    for (const [i, message] of sent.entries())
      await db.execute(sql`
        insert into message_outbox (company_id, whatsapp_id, ticket_id, message_id, payload, status, attempts, last_error)
        values (${company.id}, ${connection.id}, ${ticket.id}, ${message.id},
          ${JSON.stringify({ media: i === 0 ? { storedName: 'a.png' } : null })}::jsonb,
          ${statuses[i]}, ${i}, ${i === 2 ? 'ERR_WAPP_NOT_INITIALIZED: down' : null})`);
    await db.execute(sql`
      insert into webhook_events (provider, whatsapp_id, payload, processed_at)
      values ('cloud', ${connection.id}, '{"entry":["waiting"]}'::jsonb, null),
             ('cloud', ${connection.id}, '{"entry":["handled"]}'::jsonb, now())`);

    await migrate(drizzle({ client }), { migrationsFolder });

    const moved = await db.select().from(jobs).orderBy(asc(jobs.id));
    expect(
      moved.map((j) => ({
        queue: j.queue,
        key: j.key,
        ref: j.ref,
        companyId: j.companyId,
        status: j.status,
        attempts: j.attempts,
        lastError: j.lastError,
        payload: j.payload,
      })),
    ).toEqual([
      ...sent.map((message, i) => ({
        queue: 'message.send',
        key: `ticket:${ticket.id}`,
        ref: `message:${message.id}`,
        companyId: company.id,
        status: ['pending', 'running', 'failed', 'done'][i],
        attempts: i,
        lastError: i === 2 ? 'ERR_WAPP_NOT_INITIALIZED: down' : null,
        payload: { messageId: message.id, media: i === 0 ? { storedName: 'a.png' } : null },
      })),
      {
        queue: 'cloud.webhook',
        key: null,
        ref: null,
        companyId: company.id,
        status: 'pending',
        attempts: 0,
        lastError: null,
        payload: { whatsappId: connection.id, body: { entry: ['waiting'] } },
      },
    ]);
    const left = await db.execute<{ name: string | null }>(
      sql`select to_regclass('message_outbox')::text as name union all select to_regclass('webhook_events')::text`,
    );
    expect((left as unknown as { rows: { name: string | null }[] }).rows).toEqual([
      { name: null },
      { name: null },
    ]);
  });
});

describe('migration to the plans’ AI quotas', () => {
  it('gives the seeded Plus and Premium their AI agents and answers; other plans stay unlimited', async () => {
    const older = new PGlite({ extensions: pgliteExtensions });
    const upTo = migrationsUpTo('0041_connection_history');
    try {
      await migrate(drizzle({ client: older }), { migrationsFolder: upTo });
      await older.query(
        `insert into plans (name, users, connections, queues, value, use_open_ai) values
          ('Basic', 2, 1, 5, 39, false), ('Plus', 2, 1, 8, 99, true),
          ('Premium', 4, 3, 0, 149, true), ('Enterprise', 10, 5, 0, 499, true)`,
      );
      await migrate(drizzle({ client: older }), { migrationsFolder });
      const { rows } = await older.query<{ name: string; ai_agents: number; ai_messages: number }>(
        'select name, ai_agents, ai_messages from plans order by id',
      );
      expect(rows).toEqual([
        { name: 'Basic', ai_agents: 0, ai_messages: 0 },
        { name: 'Plus', ai_agents: 1, ai_messages: 2000 },
        { name: 'Premium', ai_agents: 3, ai_messages: 2000 },
        { name: 'Enterprise', ai_agents: 0, ai_messages: 0 },
      ]);
    } finally {
      await older.close();
      rmSync(upTo, { recursive: true, force: true });
    }
  });
});

describe("migration to Mexican numbers without the old mobile '1'", () => {
  it('moves 521 numbers to 52 and the 10 digits, unless that form is already taken', async () => {
    const mexico = new PGlite({ extensions: pgliteExtensions });
    const mxDb = drizzle({ client: mexico, schema, casing: 'snake_case' }) as unknown as Db;
    const upTo = migrationsUpTo('0043_plan_ai_quotas');
    try {
      await migrate(drizzle({ client: mexico }), { migrationsFolder: upTo });
      // Written as that database's plans were (later migrations add columns to them).
      const {
        rows: [plan],
      } = await mexico.query<{ id: number }>(
        `insert into plans (name) values ('Plan') returning id`,
      );
      const [one, two] = await mxDb
        .insert(companies)
        .values([
          { name: 'Uno', planId: plan.id },
          { name: 'Dos', planId: plan.id },
        ])
        .returning();
      await mxDb.insert(contacts).values([
        { companyId: one.id, name: 'Lupita', number: '5215512345678' },
        // Both forms of one person: the old one stays, the contact of the new one is kept.
        { companyId: one.id, name: 'Vieja', number: '5213312345678' },
        { companyId: one.id, name: 'Nueva', number: '523312345678' },
        { companyId: two.id, name: 'Lupita', number: '5215512345678' },
        // Not the old Mexican form: 52 1 and 9 digits, and an Argentine number.
        { companyId: one.id, name: 'Corto', number: '521551234567' },
        { companyId: one.id, name: 'Argentina', number: '5491112345678' },
      ]);
      const [list] = await mxDb
        .insert(contactLists)
        .values({ companyId: one.id, name: 'Lista' })
        .returning();
      await mxDb
        .insert(contactListItems)
        .values({ companyId: one.id, contactListId: list.id, name: 'L', number: '5215512345678' });
      const [campaign] = await mxDb
        .insert(campaigns)
        .values({ companyId: one.id, name: 'Campaña' })
        .returning();
      await mxDb
        .insert(campaignShipping)
        .values({ companyId: one.id, campaignId: campaign.id, number: '5215512345678' });
      await mxDb
        .insert(campaignOptOuts)
        .values({ companyId: one.id, number: '5215512345678', keyword: 'BAJA' });

      await migrate(drizzle({ client: mexico }), { migrationsFolder });

      const numbers = await mxDb
        .select({ companyId: contacts.companyId, name: contacts.name, number: contacts.number })
        .from(contacts)
        .orderBy(asc(contacts.id));
      expect(numbers).toEqual([
        { companyId: one.id, name: 'Lupita', number: '525512345678' },
        { companyId: one.id, name: 'Vieja', number: '5213312345678' },
        { companyId: one.id, name: 'Nueva', number: '523312345678' },
        { companyId: two.id, name: 'Lupita', number: '525512345678' },
        { companyId: one.id, name: 'Corto', number: '521551234567' },
        { companyId: one.id, name: 'Argentina', number: '5491112345678' },
      ]);
      for (const table of [contactListItems, campaignShipping, campaignOptOuts])
        expect(await mxDb.select({ number: table.number }).from(table)).toEqual([
          { number: '525512345678' },
        ]);
    } finally {
      await mexico.close();
      rmSync(upTo, { recursive: true, force: true });
    }
  });
});
