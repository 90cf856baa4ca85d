import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Transcript } from '@atendi/shared';
import { auditLog, messages } from '../../../db/schema';
import {
  inject,
  login,
  makeCompany,
  makeUser,
  sharedTestApp,
  type Session,
  type SharedTestContext,
} from '../../../../test/harness';
import { eventually } from '../../../../test/eventually';
import { inbound, pairedSimulator, ticketOf } from '../../../../test/inbox';
import { transcriptPdf } from './transcript';

// A conversation's transcript (issue 38): JSON that says what the database holds, in order, with
// notes and who answered; a PDF of the same; for whoever may see the ticket only; audited.

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

let phone = 525557770000;
const conversation = async () => {
  const made = await makeCompany(t.db);
  const admin = await login(t.app, made.admin.email);
  const connection = await pairedSimulator(t.app, admin, {});
  const from = String((phone += 1));
  await inbound(t.app, admin, connection.id, { from, body: 'Hola, ¿mi pedido?', name: 'Lucía' });
  const ticket = (await eventually(
    () => ticketOf(t.db, made.company.id, from),
    Boolean,
    'ticket',
  ))!;
  const accepted = await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, {
    status: 'open',
    userId: admin.userId,
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  expect(
    (await inject(t.app, admin, 'POST', `/messages/${ticket.id}`, { body: 'Ya salió, señora' }))
      .statusCode,
  ).toBe(201);
  const note = await inject(t.app, admin, 'POST', '/ticket-notes', {
    ticketId: ticket.id,
    note: 'Cliente frecuente: ofrecer envío gratis',
  });
  expect(note.statusCode, note.body).toBe(201);
  return { made, admin, ticket };
};

const transcriptOf = async (session: Session, ticketId: number) => {
  const res = await inject(t.app, session, 'GET', `/tickets/${ticketId}/transcript.json`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Transcript;
};

describe('ticket transcripts', () => {
  it('holds exactly the ticket’s messages in order, its notes and who answered', async () => {
    const { made, admin, ticket } = await conversation();
    const transcript = await transcriptOf(admin, ticket.id);
    const stored = await t.db
      .select({ id: messages.id, body: messages.body, fromMe: messages.fromMe })
      .from(messages)
      .where(eq(messages.ticketId, ticket.id))
      .orderBy(messages.createdAt, messages.id);
    expect(transcript.messages.map((m) => [m.id, m.body, m.from])).toEqual(
      stored.map((m) => [m.id, m.body, m.fromMe ? 'agent' : 'contact']),
    );
    expect(transcript.messages[0]).toMatchObject({ author: 'Lucía', body: 'Hola, ¿mi pedido?' });
    expect(transcript.notes).toEqual([
      expect.objectContaining({ note: 'Cliente frecuente: ofrecer envío gratis' }),
    ]);
    expect(transcript.ticket).toMatchObject({
      id: ticket.id,
      contact: { name: 'Lucía' },
      user: { id: admin.userId },
    });
    expect(transcript.conversations).toEqual([
      expect.objectContaining({ user: { id: admin.userId, name: made.admin.name } }),
    ]);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.companyId, made.company.id), eq(auditLog.action, 'export.transcript')),
      );
    expect(entry).toMatchObject({ target: `ticket:${ticket.id}`, userId: admin.userId });
  });

  it('carries the reactions on each message: the contact’s, and the company’s with who chose it', async () => {
    const { made, admin, ticket } = await conversation();
    const [theirs, ours] = await eventually(
      () =>
        t.db
          .select()
          .from(messages)
          .where(eq(messages.ticketId, ticket.id))
          .orderBy(messages.createdAt, messages.id),
      (rows) => rows.length === 2 && Boolean(rows[1].providerId),
      'sent',
    );
    const react = await inject(t.app, admin, 'PUT', `/messages/${theirs.id}/reaction`, {
      emoji: '🙏',
    });
    expect(react.statusCode, react.body).toBe(200);
    const contactReacts = await inject(
      t.app,
      admin,
      'POST',
      `/simulator/${theirs.whatsappId}/reaction`,
      { from: theirs.remoteJid?.split('@')[0] ?? '', id: ours.providerId, emoji: '❤️' },
    );
    expect(contactReacts.statusCode, contactReacts.body).toBe(204);
    const transcript = await transcriptOf(admin, ticket.id);
    expect(transcript.messages.map((m) => m.reactions)).toEqual([
      [{ emoji: '🙏', fromMe: true, name: made.admin.name }],
      [{ emoji: '❤️', fromMe: false, name: 'Lucía' }],
    ]);
  });

  it('comes as a PDF with the same conversation', async () => {
    const { admin, ticket } = await conversation();
    const res = await inject(t.app, admin, 'GET', `/tickets/${ticket.id}/transcript.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="ticket-${ticket.id}.pdf"`,
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The same document uncompressed: its text is the strings its pages show (hex, WinAnsi).
    const plain = (
      await transcriptPdf(await transcriptOf(admin, ticket.id), { compress: false })
    ).toString('latin1');
    const shown = [...plain.matchAll(/<([0-9a-f]+)>/g)]
      .map(([, hex]) => Buffer.from(hex!, 'hex').toString('latin1'))
      .join('');
    for (const text of ['Lucía', 'Hola, ¿mi pedido?', 'Ya salió, señora', 'Cliente frecuente'])
      expect(shown).toContain(text);
    // Its labels in Spanish, English and Portuguese.
    expect(shown).toContain('Conexión / Connection / Conexão');
  });

  it('is for whoever may see the ticket: another company gets 404', async () => {
    const { made, ticket } = await conversation();
    const other = await makeCompany(t.db);
    const outsider = await login(t.app, other.admin.email);
    for (const format of ['json', 'pdf'])
      expect(
        (await inject(t.app, outsider, 'GET', `/tickets/${ticket.id}/transcript.${format}`))
          .statusCode,
      ).toBe(404);
    // Within the company, the ticket's own visibility rules decide (SPEC §6), as for opening it.
    const agent = await login(t.app, (await makeUser(t.db, made.company.id, 'user')).email);
    const opened = await inject(t.app, agent, 'GET', `/tickets/${ticket.id}`);
    const transcript = await inject(t.app, agent, 'GET', `/tickets/${ticket.id}/transcript.json`);
    expect(transcript.statusCode).toBe(opened.statusCode);
  });
});
