import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createdResponse,
  idParam,
  noContentResponse,
  okResponse,
  ticketCreateSchema,
  ticketListPageSchema,
  ticketListQuery,
  ticketUpdateSchema,
  ticketViewSchema,
  uuidParam,
} from '@atendi/shared';
import {
  createTicket,
  deleteTicket,
  getTicket,
  getTicketByUuid,
  listTickets,
  updateTicket,
} from './tickets.service';

export const ticketsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tags = ['tickets'];
  const one = okResponse(ticketViewSchema);

  app.get(
    '/tickets',
    {
      schema: {
        summary: 'List tickets by status, queue, search and filters, a page at a time',
        operationId: 'listTickets',
        tags,
        querystring: ticketListQuery,
        response: okResponse(ticketListPageSchema),
      },
    },
    async (request) => listTickets(deps.db, request.auth, request.query),
  );
  app.get(
    '/tickets/u/:uuid',
    {
      schema: {
        summary: 'Read one ticket by its uuid',
        operationId: 'getTicketByUuid',
        tags,
        params: uuidParam,
        response: one,
      },
    },
    async (request) => getTicketByUuid(deps.db, request.auth, request.params.uuid),
  );
  app.get(
    '/tickets/:id',
    {
      schema: {
        summary: 'Read one ticket',
        operationId: 'getTicket',
        tags,
        params: idParam,
        response: one,
      },
    },
    async (request) => getTicket(deps.db, request.auth, request.params.id),
  );
  app.post(
    '/tickets',
    {
      schema: {
        summary: 'Open a ticket with a contact',
        operationId: 'createTicket',
        tags,
        body: ticketCreateSchema,
        response: createdResponse(ticketViewSchema),
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createTicket(deps, request.auth, request.body)),
  );
  app.put(
    '/tickets/:id',
    {
      schema: {
        summary: 'Accept, return, resolve, reopen or transfer a ticket',
        operationId: 'updateTicket',
        tags,
        params: idParam,
        body: ticketUpdateSchema,
        response: one,
      },
    },
    async (request) => updateTicket(deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/tickets/:id',
    {
      schema: {
        summary: 'Delete a ticket and its messages',
        operationId: 'deleteTicket',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: { access: { permission: 'ticket-options:deleteTicket' } },
    },
    async (request, reply) => {
      await deleteTicket(deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
};
