import { z } from 'zod';
import { defineRoutes } from '../contract';
import { createdResponse, errorResponseSchema, noContentResponse, okResponse } from '../responses';
import {
  idParam,
  ticketBulkSchema,
  ticketCreateSchema,
  ticketListQuery,
  ticketUpdateSchema,
  uuidParam,
} from '../schemas';
import {
  ticketBulkResultSchema,
  ticketListPageSchema,
  ticketNoteViewSchema,
  ticketViewSchema,
} from '../tickets';
import { replySuggestionSchema } from '../copilot';
import { transcriptSchema } from '../transcript';

const one = okResponse(ticketViewSchema);

// SPEC §7 Tickets: every profile lists, opens and moves the tickets it may see (SPEC §6 visibility);
// deleting one is a permission of its own.
export const ticketsContract = defineRoutes('tickets', {
  listTickets: {
    method: 'GET',
    path: '/tickets',
    summary: 'List tickets by status, queue, search and filters, a page at a time',
    query: ticketListQuery,
    response: okResponse(ticketListPageSchema),
  },
  getTicketByUuid: {
    method: 'GET',
    path: '/tickets/u/:uuid',
    summary: 'Read one ticket by its uuid',
    params: uuidParam,
    response: one,
  },
  getTicket: {
    method: 'GET',
    path: '/tickets/:id',
    summary: 'Read one ticket',
    params: idParam,
    response: one,
  },
  // Issue 38: a conversation's transcript to take away.
  getTicketTranscript: {
    method: 'GET',
    path: '/tickets/:id/transcript.json',
    summary:
      'Download the transcript of a ticket as JSON: messages, media links, notes, who answered',
    params: idParam,
    response: okResponse(transcriptSchema),
  },
  getTicketTranscriptPdf: {
    method: 'GET',
    path: '/tickets/:id/transcript.pdf',
    summary: 'Download the transcript of a ticket as a PDF',
    params: idParam,
    response: {
      200: {
        description: 'The transcript, times in the company’s zone',
        content: { 'application/pdf': { schema: z.string().describe('A PDF document') } },
      },
      '4xx': errorResponseSchema,
    },
  },
  createTicket: {
    method: 'POST',
    path: '/tickets',
    summary: 'Open a ticket with a contact',
    body: ticketCreateSchema,
    response: createdResponse(ticketViewSchema),
  },
  updateTicket: {
    method: 'PUT',
    path: '/tickets/:id',
    summary: 'Accept, return, resolve, reopen or transfer a ticket',
    params: idParam,
    body: ticketUpdateSchema,
    response: one,
  },
  bulkUpdateTickets: {
    method: 'POST',
    path: '/tickets/bulk',
    summary:
      'Resolve, return, transfer or tag many tickets (by id or by list filter), each as its own change',
    body: ticketBulkSchema,
    response: okResponse(ticketBulkResultSchema),
  },
  // Issue 40, the agents' co-pilot (modules/copilot): whoever may see the ticket, on a plan with AI.
  suggestTicketReply: {
    method: 'POST',
    path: '/tickets/:id/suggestion',
    summary:
      'Draft a reply from the conversation and the knowledge base, in the customer’s language (nothing is sent)',
    params: idParam,
    response: okResponse(replySuggestionSchema),
  },
  summariseTicket: {
    method: 'POST',
    path: '/tickets/:id/summary',
    summary: 'Write a short summary of the conversation as a note of the ticket',
    params: idParam,
    response: createdResponse(ticketNoteViewSchema),
  },
  deleteTicket: {
    method: 'DELETE',
    path: '/tickets/:id',
    summary: 'Delete a ticket and its messages',
    params: idParam,
    response: noContentResponse,
  },
});
