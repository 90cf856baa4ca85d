import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdResponse,
  idParam,
  kanbanLanesSchema,
  kanbanTicketsQuery,
  kanbanTicketsSchema,
  noContentResponse,
  okResponse,
  tagOptionSchema,
  tagSchema,
  tagsPageSchema,
  tagViewSchema,
  ticketViewSchema,
  tagsQuery,
  tagSyncSchema,
  tagUpdateSchema,
  ticketIdParam,
  ticketTagParams,
} from '@atendi/shared';
import {
  addTicketTag,
  clearTicketTags,
  createTag,
  deleteTag,
  getTag,
  listKanbanLanes,
  listKanbanTickets,
  listTagOptions,
  listTags,
  syncTicketTags,
  updateTag,
} from './tags.service';

const kanbanConfig = { access: { planFeature: 'useKanban' as const } };

export const tagsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tags = ['tags'];
  const ticket = okResponse(ticketViewSchema);

  // Every profile reads tags (ticket drawer, search filter, kanban); only admins add them.
  app.get(
    '/tags/list',
    {
      schema: {
        summary: "List every tag's id, name and colour (pickers)",
        operationId: 'listTagOptions',
        tags,
        response: okResponse(z.array(tagOptionSchema)),
      },
    },
    async (request) => listTagOptions(deps.db, request.auth),
  );
  // The tags page (SPEC §2 Tags): name search, 20 a page, each with its ticket count.
  app.get(
    '/tags',
    {
      schema: {
        summary: 'List tags with their ticket counts, a page at a time',
        operationId: 'listTags',
        tags,
        querystring: tagsQuery,
        response: okResponse(tagsPageSchema),
      },
    },
    async (request) => listTags(deps, request.auth, request.query),
  );
  // SPEC §2 Kanban, a plan feature: the lanes and the cards of the board.
  app.get(
    '/tags/kanban',
    {
      schema: {
        summary: "List the kanban board's lanes",
        operationId: 'listKanbanLanes',
        tags,
        response: okResponse(kanbanLanesSchema),
      },
      config: kanbanConfig,
    },
    async (request) => listKanbanLanes(deps.db, request.auth),
  );
  app.get(
    '/ticket/kanban',
    {
      schema: {
        summary: "List the kanban board's cards",
        operationId: 'listKanbanTickets',
        tags,
        querystring: kanbanTicketsQuery,
        response: okResponse(kanbanTicketsSchema),
      },
      config: kanbanConfig,
    },
    async (request) => listKanbanTickets(deps.db, request.auth, request.query),
  );
  app.get(
    '/tags/:id',
    {
      schema: {
        summary: 'Read one tag',
        operationId: 'getTag',
        tags,
        params: idParam,
        response: okResponse(tagViewSchema),
      },
    },
    async (request) => getTag(deps, request.auth, request.params.id),
  );
  // Answers the tag without its ticket count (TagOption), as the live event carries it.
  app.post(
    '/tags',
    {
      schema: {
        summary: 'Create a tag',
        operationId: 'createTag',
        tags,
        body: tagSchema,
        response: createdResponse(tagOptionSchema),
      },
      config: { access: { permission: 'tags:manage' } },
    },
    async (request, reply) =>
      reply.status(201).send(await createTag(deps, request.auth, request.body)),
  );

  app.put(
    '/tags/:id',
    {
      schema: {
        summary: 'Change a tag',
        operationId: 'updateTag',
        tags,
        params: idParam,
        body: tagUpdateSchema,
        response: okResponse(tagViewSchema),
      },
      config: { access: { permission: 'tags:manage' } },
    },
    async (request) => updateTag(deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/tags/:id',
    {
      schema: {
        summary: 'Delete a tag',
        operationId: 'deleteTag',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: { access: { permission: 'tags:manage' } },
    },
    async (request, reply) => {
      await deleteTag(deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );

  // The ticket's tags become the ones given; answers the ticket.
  app.post(
    '/tags/sync',
    {
      schema: {
        summary: "Set a ticket's tags",
        operationId: 'syncTicketTags',
        tags,
        body: tagSyncSchema,
        response: ticket,
      },
    },
    async (request) => syncTicketTags(deps, request.auth, request.body),
  );
  app.put(
    '/ticket-tags/:ticketId/:tagId',
    {
      schema: {
        summary: 'Add a tag to a ticket',
        operationId: 'addTicketTag',
        tags,
        params: ticketTagParams,
        response: ticket,
      },
    },
    async (request) =>
      addTicketTag(deps, request.auth, request.params.ticketId, request.params.tagId),
  );
  app.delete(
    '/ticket-tags/:ticketId',
    {
      schema: {
        summary: 'Remove every tag from a ticket',
        operationId: 'clearTicketTags',
        tags,
        params: ticketIdParam,
        response: noContentResponse,
      },
    },
    async (request, reply) => {
      await clearTicketTags(deps, request.auth, request.params.ticketId);
      return reply.status(204).send();
    },
  );
};
