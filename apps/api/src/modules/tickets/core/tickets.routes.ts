import type { FastifyInstance } from 'fastify';
import { ticketsContract as tickets } from '@atendi/shared';
import { contractRoutes } from '../../../platform/contract-routes';
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
