import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ticketNotesContract as notes, type TicketNoteInput } from '@atendi/shared';
import type { Db } from '../../../db/client';
import { ticketNotes, users } from '../../../db/schema';
import type { AuthContext } from '../../../platform/context';
import { contractRoutes } from '../../../platform/contract-routes';
import { AppError } from '../../../platform/errors';
import { foundOr404, ownedRow } from '../../../platform/tenancy';
import { visibleTicketRow } from '../core/tickets.service';
import { seesAll } from '../core/visibility';

// Notes agents keep on a ticket (SPEC §7 ticket-notes): seen by whoever may see the ticket.

const listNotes = async (db: Db, ctx: AuthContext, ticketId: number, contactId?: number) => {
  const ticket = await visibleTicketRow(db, ctx, ticketId);
  const rows = await db
    .select({ note: ticketNotes, user: { id: users.id, name: users.name } })
    .from(ticketNotes)
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(
      and(
        eq(ticketNotes.ticketId, ticket.id),
        contactId ? eq(ticketNotes.contactId, contactId) : undefined,
      ),
    )
    .orderBy(asc(ticketNotes.createdAt), asc(ticketNotes.id));
  return rows.map(({ note, user }) => ({
    id: note.id,
    note: note.note,
    ticketId: note.ticketId,
    contactId: note.contactId,
    userId: note.userId,
    user: user?.id ? user : null,
    botName: note.botName,
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
  }));
};

const addNote = async (db: Db, ctx: AuthContext, input: TicketNoteInput) => {
  const ticket = await visibleTicketRow(db, ctx, input.ticketId);
  if (input.contactId && input.contactId !== ticket.contactId)
    throw new AppError('ERR_VALIDATION', 'The contact is not the ticket’s', {
      fields: { contactId: ['Not this ticket’s contact'] },
    });
  const [row] = await db
    .insert(ticketNotes)
    .values({
      companyId: ctx.companyId,
      note: input.note,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      userId: ctx.userId,
    })
    .returning();
  return (await listNotes(db, ctx, ticket.id)).find((n) => n.id === row.id)!;
};

const deleteNote = async (db: Db, ctx: AuthContext, id: number) => {
  const note = foundOr404(
    (
      await db
        .select()
        .from(ticketNotes)
        .where(ownedRow(ticketNotes, id, ctx))
    )[0],
  );
  await visibleTicketRow(db, ctx, note.ticketId);
  // A note is its author's; admins may remove any.
  if (note.userId !== ctx.userId && !seesAll(ctx))
    throw new AppError('ERR_NO_PERMISSION', 'Only its author or an admin may delete a note');
  await db.delete(ticketNotes).where(ownedRow(ticketNotes, id, ctx));
};

export const ticketNotesRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const { db } = app.deps;
  route(notes.listTicketNotes, async (request) =>
    listNotes(db, request.auth, request.query.ticketId, request.query.contactId),
  );
  route(notes.createTicketNote, async (request) => addNote(db, request.auth, request.body));
  route(notes.deleteTicketNote, async (request) => {
    await deleteNote(db, request.auth, request.params.id);
  });
};
