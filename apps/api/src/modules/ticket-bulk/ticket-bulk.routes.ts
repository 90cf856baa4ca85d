import type { FastifyInstance } from 'fastify';
import { ticketsContract } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { bulkUpdateTickets } from './ticket-bulk.service';

export const ticketBulkRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  route(ticketsContract.bulkUpdateTickets, async (request) =>
    bulkUpdateTickets(app.deps, request.auth, request.body, request.log),
  );
};
