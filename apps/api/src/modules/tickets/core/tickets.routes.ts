import type { FastifyInstance } from 'fastify';
import { ticketsContract as tickets } from '@atendi/shared';
import { contractRoutes } from '../../../platform/contract-routes';
import { sendPdf, ticketTranscript, transcriptPdf } from '../transcript/transcript';
import {
  createTicket,
  deleteTicket,
  getTicket,
  getTicketByUuid,
  listTickets,
  updateTicket,
} from './tickets.service';

export const ticketsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;

  route(tickets.listTickets, async (request) => listTickets(deps.db, request.auth, request.query));
  route(tickets.getTicketByUuid, async (request) =>
    getTicketByUuid(deps.db, request.auth, request.params.uuid),
  );
  route(tickets.getTicket, async (request) => getTicket(deps.db, request.auth, request.params.id));
  // Issue 38: the transcript to take away, as JSON or PDF.
  route(tickets.getTicketTranscript, async (request) =>
    ticketTranscript(deps, request.auth, request.params.id, 'json'),
  );
  route(tickets.getTicketTranscriptPdf, async (request, reply) => {
    const transcript = await ticketTranscript(deps, request.auth, request.params.id, 'pdf');
    return sendPdf(reply, `ticket-${transcript.ticket.id}.pdf`, await transcriptPdf(transcript));
  });
  route(tickets.createTicket, async (request) => createTicket(deps, request.auth, request.body));
  route(tickets.updateTicket, async (request) =>
    updateTicket(deps, request.auth, request.params.id, request.body),
  );
  route(
    tickets.deleteTicket,
    { access: { permission: 'ticket-options:deleteTicket' } },
    async (request) => {
      await deleteTicket(deps, request.auth, request.params.id);
    },
  );
};
