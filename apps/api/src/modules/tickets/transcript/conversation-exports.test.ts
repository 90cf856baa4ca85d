import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import { parseCsv, type ConversationExport, type Transcript } from '@atendi/shared';
import {
  auditLog,
  companies,
  contacts,
  conversationExports,
  messages,
  tickets,
} from '../../../db/schema';
import {
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  sharedTestApp,
  type Session,
  type SharedTestContext,
} from '../../../../test/harness';
import { eventually } from '../../../../test/eventually';
import { queryRows } from '../../../db/client';
import { pruneConversationExports } from './conversation-exports';

// A company's conversations exported for a range of days (issue 38): exactly the tickets that began
// in those days of the company's zone (checked against the database), as JSON Lines or CSV, with their
// files in a ZIP when asked; built in the background with progress; downloaded by its company's admins
// only, audited; gone once its time is up.

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

const ZONE = 'America/Mexico_City';

// The moment a calendar day of the zone begins, plus `seconds`.
const zoned = async (day: string, seconds = 0) => {
  const [row] = await queryRows<{ at: string }>(
    t.db,
    sql`select (((${day})::date)::timestamp at time zone ${ZONE} + make_interval(secs => ${seconds}))::text as at`,
  );
  return new Date(row.at);
};

// A company in ZONE with conversations that began around the range 2026-03-10 .. 2026-03-12: just
// before it, on its first and last seconds, just after it; each with two messages.
const companyWithConversations = async () => {
  const made = await makeCompany(t.db);
  await t.db.update(companies).set({ timeZone: ZONE }).where(eq(companies.id, made.company.id));
  const connection = await makeWhatsapp(t.db, made.company.id);
  const moments = [
    await zoned('2026-03-10', -1),
    await zoned('2026-03-10'),
    await zoned('2026-03-11', 12 * 3600),
    await zoned('2026-03-13', -1),
    await zoned('2026-03-13'),
  ];
  for (const [index, at] of moments.entries()) {
    const [contact] = await t.db
      .insert(contacts)
      .values({ companyId: made.company.id, name: `Cliente ${index}`, number: `52155500${index}` })
      .returning();
    const [ticket] = await t.db
      .insert(tickets)
      .values({
        companyId: made.company.id,
        contactId: contact.id,
        whatsappId: connection.id,
        status: 'closed',
        createdAt: at,
      })
      .returning();
    await t.db.insert(messages).values([
      {
        companyId: made.company.id,
        ticketId: ticket.id,
        contactId: contact.id,
        whatsappId: connection.id,
        body: `Hola; soy "${index}"`,
        createdAt: at,
      },
      {
        companyId: made.company.id,
        ticketId: ticket.id,
        whatsappId: connection.id,
        body: '=respuesta',
        fromMe: true,
        createdAt: new Date(at.getTime() + 1000),
      },
    ]);
  }
  return { made, connection, session: await login(t.app, made.admin.email) };
};

// The tickets of the company that began in the range, as the database says.
const ticketsInRange = async (companyId: number) =>
  (
    await t.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, companyId),
          gte(tickets.createdAt, await zoned('2026-03-10')),
          lt(tickets.createdAt, await zoned('2026-03-13')),
        ),
      )
      .orderBy(asc(tickets.id))
  ).map((row) => row.id);

const exportOf = async (session: Session, body: object) => {
  const res = await inject(t.app, session, 'POST', '/conversation-exports', body);
  expect(res.statusCode, res.body).toBe(201);
  const made = res.json() as ConversationExport;
  return eventually(
    async () =>
      (
        await inject(t.app, session, 'GET', `/conversation-exports/${made.id}`)
      ).json() as ConversationExport,
    (row) => row.status === 'done' || row.status === 'failed',
    'the export built',
  );
};

const download = (session: Session, id: number) =>
  inject(t.app, session, 'GET', `/conversation-exports/${id}/download`);

const unzip = (buffer: Buffer) =>
  new Promise<Map<string, Buffer>>((resolve, reject) => {
    const entries = new Map<string, Buffer>();
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(entries));
      zip.readEntry();
    });
  });

describe('conversation exports', () => {
  it('hold exactly the conversations that began in the range, as JSON Lines', async () => {
    const { made, session } = await companyWithConversations();
    // Another company's conversation in the same days stays out.
    await companyWithConversations();
    const built = await exportOf(session, {
      dateFrom: '2026-03-10',
      dateTo: '2026-03-12',
      format: 'jsonl',
    });
    const expected = await ticketsInRange(made.company.id);
    expect(expected).toHaveLength(3);
    expect(built).toMatchObject({
      status: 'done',
      total: 3,
      done: 3,
      error: null,
      createdBy: { id: made.admin.id },
    });
    expect(new Date(built.expiresAt!).getTime() - Date.now()).toBeGreaterThan(71 * 3600_000);

    const res = await download(session, built.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="conversaciones-2026-03-10-2026-03-12.jsonl"',
    );
    expect(built.size).toBe(res.rawPayload.length);
    const lines = res.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Transcript);
    expect(lines.map((line) => line.ticket.id)).toEqual(expected);
    expect(lines[0]).toMatchObject({
      timeZone: ZONE,
      messages: [
        { from: 'contact', body: 'Hola; soy "1"' },
        { from: 'agent', body: '=respuesta' },
      ],
    });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'export.conversations'),
          eq(auditLog.target, `conversation-export:${built.id}`),
        ),
      );
    expect(entry).toMatchObject({
      userId: made.admin.id,
      detail: { dateFrom: '2026-03-10', dateTo: '2026-03-12', format: 'jsonl', conversations: 3 },
    });
  });

  it('write one message a row as CSV, in the API’s dialect', async () => {
    const { made, session } = await companyWithConversations();
    const built = await exportOf(session, {
      dateFrom: '2026-03-10',
      dateTo: '2026-03-12',
      format: 'csv',
    });
    const res = await download(session, built.id);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.startsWith('\ufeffticketId;ticketUuid;')).toBe(true);
    expect(res.body).toContain('\r\n');
    const rows = parseCsv(res.body.replace(/^\ufeff/, ''));
    const [header, ...records] = rows;
    const column = (name: string) => header.indexOf(name);
    const expected = await ticketsInRange(made.company.id);
    const stored = await t.db
      .select({ id: messages.id })
      .from(messages)
      .where(inArray(messages.ticketId, expected));
    expect(records.map((r) => Number(r[column('messageId')])).sort()).toEqual(
      stored.map((m) => m.id).sort(),
    );
    expect(new Set(records.map((r) => Number(r[column('ticketId')])))).toEqual(new Set(expected));
    // A quote, a separator and a formula-looking text come back as written.
    expect(records.map((r) => r[column('body')])).toContain('Hola; soy "2"');
    expect(records.map((r) => r[column('body')])).toContain("'=respuesta");
    // The first second of the range, in the company's zone.
    expect(records[0][column('localTime')]).toBe('2026-03-10 00:00:00');
  });

  it('put the conversations’ files in a ZIP when asked', async () => {
    const { made, connection, session } = await companyWithConversations();
    const [ticket] = await t.db
      .select()
      .from(tickets)
      .where(eq(tickets.companyId, made.company.id))
      .orderBy(asc(tickets.id))
      .limit(2)
      .offset(1);
    const photo = Buffer.from('una foto de prueba');
    const stored = await t.app.deps.uploads.store(made.company.id, photo, {
      fileName: 'foto.jpg',
      mimetype: 'image/jpeg',
    });
    await t.db.insert(messages).values({
      companyId: made.company.id,
      ticketId: ticket.id,
      whatsappId: connection.id,
      body: '',
      mediaType: 'image',
      mediaUrl: stored.storedName,
      mediaName: 'foto.jpg',
      createdAt: new Date(ticket.createdAt.getTime() + 5000),
    });
    const built = await exportOf(session, {
      dateFrom: '2026-03-10',
      dateTo: '2026-03-12',
      format: 'jsonl',
      includeMedia: true,
    });
    const res = await download(session, built.id);
    expect(res.headers['content-type']).toBe('application/zip');
    const entries = await unzip(res.rawPayload);
    expect([...entries.keys()].sort()).toEqual([
      'conversaciones.jsonl',
      `media/${stored.storedName}`,
    ]);
    expect(entries.get(`media/${stored.storedName}`)).toEqual(photo);
    const lines = entries
      .get('conversaciones.jsonl')!
      .toString()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Transcript);
    const withPhoto = lines.find((line) => line.ticket.id === ticket.id)!;
    expect(withPhoto.messages.at(-1)!.media).toEqual({
      url: `media/${stored.storedName}`,
      name: 'foto.jpg',
    });
  });

  it('are their company admins’ only, refuse a bad range, and go when deleted or expired', async () => {
    const { made, session } = await companyWithConversations();
    for (const body of [
      { dateFrom: '2026-03-12', dateTo: '2026-03-10', format: 'csv' },
      { dateFrom: '2025-01-01', dateTo: '2026-03-10', format: 'csv' },
      { dateFrom: '2026-02-30', dateTo: '2026-03-10', format: 'csv' },
      { dateFrom: '2026-03-01', dateTo: '2026-03-10', format: 'xlsx' },
    ]) {
      const res = await inject(t.app, session, 'POST', '/conversation-exports', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const built = await exportOf(session, {
      dateFrom: '2026-03-10',
      dateTo: '2026-03-12',
      format: 'csv',
    });
    const other = await makeCompany(t.db);
    const stranger = await login(t.app, other.admin.email);
    for (const [method, url] of [
      ['GET', `/conversation-exports/${built.id}`],
      ['GET', `/conversation-exports/${built.id}/download`],
      ['DELETE', `/conversation-exports/${built.id}`],
    ] as const)
      expect((await inject(t.app, stranger, method, url)).statusCode, url).toBe(404);
    expect((await inject(t.app, stranger, 'GET', '/conversation-exports')).json()).toEqual({
      exports: [],
    });
    const agent = await login(t.app, (await makeUser(t.db, made.company.id, 'user')).email);
    expect((await inject(t.app, agent, 'GET', '/conversation-exports')).statusCode).toBe(403);

    // Not built yet: nothing to download.
    const [waiting] = await t.db
      .insert(conversationExports)
      .values({
        companyId: made.company.id,
        format: 'csv',
        dateFrom: '2026-03-10',
        dateTo: '2026-03-10',
      })
      .returning();
    const early = await download(session, waiting.id);
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe('ERR_EXPORT_NOT_READY');

    const [row] = await t.db
      .select()
      .from(conversationExports)
      .where(eq(conversationExports.id, built.id));
    expect(await t.app.deps.files.stat(row.fileKey!)).toBeDefined();
    await pruneConversationExports(t.app.deps, new Date(row.expiresAt!.getTime() + 1000));
    expect(
      (await inject(t.app, session, 'GET', `/conversation-exports/${built.id}`)).statusCode,
    ).toBe(404);
    expect(await t.app.deps.files.stat(row.fileKey!)).toBeUndefined();

    const again = await exportOf(session, {
      dateFrom: '2026-03-10',
      dateTo: '2026-03-12',
      format: 'jsonl',
    });
    const [againRow] = await t.db
      .select()
      .from(conversationExports)
      .where(eq(conversationExports.id, again.id));
    expect(
      (await inject(t.app, session, 'DELETE', `/conversation-exports/${again.id}`)).statusCode,
    ).toBe(204);
    expect(await t.app.deps.files.stat(againRow.fileKey!)).toBeUndefined();
  });
});
