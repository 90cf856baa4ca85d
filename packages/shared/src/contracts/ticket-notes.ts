import { z } from 'zod';
import { defineRoutes } from '../contract';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam, ticketNoteSchema, ticketNotesQuery } from '../schemas';
import { ticketNoteViewSchema } from '../tickets';

// SPEC §7 ticket-notes: whoever may see the ticket reads and adds its notes; a note is deleted by its
// author or an admin.
export const ticketNotesContract = defineRoutes('ticket-notes', {
  listTicketNotes: {
    method: 'GET',
    path: '/ticket-notes/list',
    summary: 'List the notes of a ticket and contact',
    query: ticketNotesQuery,
    response: okResponse(z.array(ticketNoteViewSchema)),
  },
  createTicketNote: {
    method: 'POST',
    path: '/ticket-notes',
    summary: 'Add a note to a ticket',
    body: ticketNoteSchema,
    response: createdResponse(ticketNoteViewSchema),
  },
  deleteTicketNote: {
    method: 'DELETE',
    path: '/ticket-notes/:id',
    summary: 'Delete a note',
    params: idParam,
    response: noContentResponse,
  },
});
