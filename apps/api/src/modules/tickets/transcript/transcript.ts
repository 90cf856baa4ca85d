import { asc, eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { transcriptSchema } from '@atendi/shared';
import type { AppDeps } from '../../../deps';
import {
  contacts,
  messages,
  prompts,
  queues,
  ticketNotes,
  ticketTracking,
  tickets,
  users,
  whatsapps,
} from '../../../db/schema';
import { auditAs } from '../../../platform/audit';
import type { AuthContext } from '../../../platform/context';
import { companyTimeZone } from '../../../platform/time-zones';
import { loadReactions } from '../core/reactions';
import { visibleTicketRow } from '../core/tickets.service';

// A conversation's transcript (issue 38): read for whoever may see the ticket, recorded in the audit
// log as an export. Media are links (signed, as the chat's), never the files themselves.

type Deps = Pick<AppDeps, 'db' | 'config' | 'uploads'>;
// As the server holds it (moments as Dates; the reply writes them as ISO 8601).
type Transcript = z.output<typeof transcriptSchema>;

// A file of a message as the transcript names it: a signed link (as the chat's), unless the caller
// says otherwise (a company export with its files names the file's place in the ZIP).
type MediaOf = (
  message: typeof messages.$inferSelect,
) => { url: string; name: string | null } | null;

// The transcript of a ticket the caller already may read (no visibility check, no audit entry).
export const buildTranscript = async (
  deps: Deps,
  ticket: typeof tickets.$inferSelect,
  options: { timeZone?: string; mediaOf?: MediaOf } = {},
): Promise<Transcript> => {
  const [[head], conversations, rows, notes, timeZone] = await Promise.all([
    deps.db
      .select({
        contact: { id: contacts.id, name: contacts.name, number: contacts.number },
        connection: { id: whatsapps.id, name: whatsapps.name },
        queueName: queues.name,
        userName: users.name,
      })
      .from(contacts)
      .innerJoin(whatsapps, eq(whatsapps.id, ticket.whatsappId))
      .leftJoin(queues, eq(queues.id, ticket.queueId ?? -1))
      .leftJoin(users, eq(users.id, ticket.userId ?? -1))
      .where(eq(contacts.id, ticket.contactId)),
    deps.db
      .select({
        startedAt: ticketTracking.startedAt,
        finishedAt: ticketTracking.finishedAt,
        queueId: ticketTracking.queueId,
        queueName: queues.name,
        userId: ticketTracking.userId,
        userName: users.name,
      })
      .from(ticketTracking)
      .leftJoin(queues, eq(queues.id, ticketTracking.queueId))
      .leftJoin(users, eq(users.id, ticketTracking.userId))
      .where(eq(ticketTracking.ticketId, ticket.id))
      .orderBy(asc(ticketTracking.startedAt)),
    deps.db
      .select({ message: messages, agentName: prompts.name })
      .from(messages)
      .leftJoin(prompts, eq(prompts.id, messages.promptId))
      .where(eq(messages.ticketId, ticket.id))
      .orderBy(asc(messages.createdAt), asc(messages.id)),
    deps.db
      .select({ note: ticketNotes, userName: users.name })
      .from(ticketNotes)
      .leftJoin(users, eq(users.id, ticketNotes.userId))
      .where(eq(ticketNotes.ticketId, ticket.id))
      .orderBy(asc(ticketNotes.createdAt), asc(ticketNotes.id)),
    options.timeZone ?? companyTimeZone(deps, ticket.companyId),
  ]);
  const reactions = await loadReactions(
    deps.db,
    rows.map(({ message }) => message.id),
  );
  const mediaOf: MediaOf =
    options.mediaOf ??
    ((message) => {
      const url = deps.uploads.urlFor(message.companyId, message.mediaUrl);
      return url ? { url, name: message.mediaName } : null;
    });
  const named = (id: number | null, name: string | null) =>
    id !== null && name !== null ? { id, name } : null;
  const transcript: Transcript = {
    ticket: {
      id: ticket.id,
      uuid: ticket.uuid,
      status: ticket.status,
      createdAt: ticket.createdAt,
      contact: head!.contact,
      connection: head!.connection,
      queue: named(ticket.queueId, head!.queueName),
      user: named(ticket.userId, head!.userName),
    },
    timeZone,
    conversations: conversations.map((c) => ({
      startedAt: c.startedAt,
      finishedAt: c.finishedAt,
      queue: named(c.queueId, c.queueName),
      user: named(c.userId, c.userName),
    })),
    messages: rows.map(({ message, agentName }) => {
      return {
        id: message.id,
        at: message.createdAt,
        from: !message.fromMe ? 'contact' : agentName ? 'ai' : 'agent',
        author: !message.fromMe ? head!.contact.name : (agentName ?? ''),
        body: message.isDeleted ? '' : message.body,
        mediaType: message.mediaType,
        transcript: message.isDeleted ? null : message.transcript,
        media: mediaOf(message),
        deleted: message.isDeleted,
        edited: message.isEdited,
        forwarded: message.isForwarded,
        reactions: (reactions.get(message.id) ?? []).map(({ emoji, fromMe, name }) => ({
          emoji,
          fromMe,
          name,
        })),
      };
    }),
    notes: notes.map(({ note, userName }) => ({
      id: note.id,
      at: note.createdAt,
      author: note.botName ?? userName ?? '',
      note: note.note,
    })),
    exportedAt: new Date(),
  };
  return transcript;
};

// A conversation's transcript for whoever may see the ticket, recorded in the audit log as an export.
export const ticketTranscript = async (
  deps: Deps,
  ctx: AuthContext,
  ticketId: number,
  format: 'json' | 'pdf',
): Promise<Transcript> => {
  const ticket = await visibleTicketRow(deps.db, ctx, ticketId);
  const transcript = await buildTranscript(deps, ticket);
  await auditAs(deps.db, ctx, {
    action: 'export.transcript',
    target: `ticket:${ticket.id}`,
    detail: { format, messages: transcript.messages.length },
  });
  return transcript;
};

const when = (at: Date | string, timeZone: string) =>
  new Intl.DateTimeFormat('es', {
    timeZone,
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(new Date(at));

// The transcript as a PDF (pdfkit, its standard Helvetica: Latin-1 text, which covers Spanish and
// Portuguese), the entries in order, times in the company's zone. Texts in Spanish, English and Brazilian
// Portuguese (its word left out where it is one of the other two: "Status", "Nota interna").
export const transcriptPdf = (transcript: Transcript, options: { compress?: boolean } = {}) =>
  new Promise<Buffer>((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 48,
      compress: options.compress ?? true,
      info: { Title: `Ticket #${transcript.ticket.id}`, Creator: 'Atendi' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const { ticket, timeZone } = transcript;
    doc.fontSize(16).font('Helvetica-Bold').text(`Ticket #${ticket.id} · ${ticket.contact.name}`);
    doc
      .moveDown(0.3)
      .fontSize(9)
      .font('Helvetica')
      .fillColor('#555555')
      .text(
        [
          `Contacto / Contact / Contato: ${ticket.contact.name} (+${ticket.contact.number})`,
          `Conexión / Connection / Conexão: ${ticket.connection.name}`,
          `Estado / Status: ${ticket.status}`,
          `Zona horaria / Time zone / Fuso horário: ${timeZone}`,
          `Exportado / Exported: ${when(transcript.exportedAt, timeZone)}`,
        ].join('\n'),
      );
    for (const c of transcript.conversations)
      doc.text(
        `${when(c.startedAt, timeZone)} – ${c.finishedAt ? when(c.finishedAt, timeZone) : '…'}: ` +
          `${c.queue?.name ?? 'Sin cola / No queue / Sem fila'} · ${c.user?.name ?? 'Sin agente / No agent / Sem atendente'}`,
      );
    doc.moveDown();
    type Entry = { at: Date | string; head: string; text: string; note: boolean };
    const entries: Entry[] = [
      ...transcript.messages.map((m) => ({
        at: m.at,
        head:
          m.from === 'contact'
            ? m.author
            : m.from === 'ai'
              ? `${m.author} (IA / AI)`
              : 'Agente / Agent / Atendente',
        text: [
          m.deleted ? '(mensaje eliminado / deleted message / mensagem apagada)' : m.body,
          m.media ? `[${m.mediaType}] ${m.media.name ?? ''} ${m.media.url}`.trim() : '',
          m.transcript ? `(transcripción / transcript / transcrição: ${m.transcript})` : '',
          m.edited ? '(editado / edited)' : '',
          m.forwarded ? '(reenviado / forwarded / encaminhada)' : '',
          // Helvetica has no emoji: the PDF says who reacted; the JSON keeps the emoji.
          m.reactions.length
            ? `(reacciones / reactions / reações: ${m.reactions.map((r) => r.name ?? (r.fromMe ? 'Agente / Agent / Atendente' : '?')).join(', ')})`
            : '',
        ]
          .filter(Boolean)
          .join('\n'),
        note: false,
      })),
      ...transcript.notes.map((n) => ({
        at: n.at,
        head: `Nota interna / Internal note · ${n.author}`,
        text: n.note,
        note: true,
      })),
    ].sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
    for (const entry of entries) {
      doc
        .fontSize(8)
        .font('Helvetica-Bold')
        .fillColor(entry.note ? '#8a6d00' : '#333333')
        .text(`${when(entry.at, timeZone)} · ${entry.head}`);
      doc
        .fontSize(10)
        .font('Helvetica')
        .fillColor('#000000')
        .text(entry.text || ' ')
        .moveDown(0.6);
    }
    doc.end();
  });

// Answers a PDF as a download named `name`.
export const sendPdf = (reply: FastifyReply, name: string, pdf: Buffer) =>
  reply
    .type('application/pdf')
    .header('Content-Disposition', `attachment; filename="${name}"`)
    .send(pdf);
