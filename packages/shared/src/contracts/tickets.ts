import { defineRoutes } from '../contract';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import {
  idParam,
  ticketBulkSchema,
  ticketCreateSchema,
  ticketListQuery,
  ticketUpdateSchema,
  uuidParam,
} from '../schemas';
import { ticketBulkResultSchema, ticketListPageSchema, ticketViewSchema } from '../tickets';

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
  deleteTicket: {
    method: 'DELETE',
    path: '/tickets/:id',
    summary: 'Delete a ticket and its messages',
    params: idParam,
    response: noContentResponse,
  },
});
