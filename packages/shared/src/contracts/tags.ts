import { z } from 'zod';
import { defineRoutes } from '../contract';
import { kanbanLanesSchema, kanbanTicketsQuery, kanbanTicketsSchema } from '../kanban';
import { ticketIdParam } from '../messages';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';
import {
  tagOptionSchema,
  tagSchema,
  tagsPageSchema,
  tagSyncSchema,
  tagUpdateSchema,
  tagsQuery,
  tagViewSchema,
  ticketTagParams,
} from '../tags';
import { ticketViewSchema } from '../tickets';

const ticket = okResponse(ticketViewSchema);

// SPEC §7 Tags, "Tags on tickets" and Kanban: every profile reads tags (ticket drawer, search filter,
// kanban) and tags its tickets; only admins add, change or delete tags.
export const tagsContract = defineRoutes('tags', {
  listTagOptions: {
    method: 'GET',
    path: '/tags/list',
    summary: "List every tag's id, name and colour (pickers)",
    response: okResponse(z.array(tagOptionSchema)),
  },
  // The tags page (SPEC §2 Tags): name search, 20 a page, each with its ticket count.
  listTags: {
    method: 'GET',
    path: '/tags',
    summary: 'List tags with their ticket counts, a page at a time',
    query: tagsQuery,
    response: okResponse(tagsPageSchema),
  },
  listKanbanLanes: {
    method: 'GET',
    path: '/tags/kanban',
    summary: "List the kanban board's lanes",
    response: okResponse(kanbanLanesSchema),
  },
  listKanbanTickets: {
    method: 'GET',
    path: '/ticket/kanban',
    summary: "List the kanban board's cards",
    query: kanbanTicketsQuery,
    response: okResponse(kanbanTicketsSchema),
  },
  getTag: {
    method: 'GET',
    path: '/tags/:id',
    summary: 'Read one tag',
    params: idParam,
    response: okResponse(tagViewSchema),
  },
  // Answers the tag without its ticket count (TagOption), as the live event carries it.
  createTag: {
    method: 'POST',
    path: '/tags',
    summary: 'Create a tag',
    body: tagSchema,
    response: createdResponse(tagOptionSchema),
  },
  updateTag: {
    method: 'PUT',
    path: '/tags/:id',
    summary: 'Change a tag',
    params: idParam,
    body: tagUpdateSchema,
    response: okResponse(tagViewSchema),
  },
  deleteTag: {
    method: 'DELETE',
    path: '/tags/:id',
    summary: 'Delete a tag',
    params: idParam,
    response: noContentResponse,
  },
  syncTicketTags: {
    method: 'POST',
    path: '/tags/sync',
    summary: "Set a ticket's tags",
    description: 'The ticket keeps exactly the tags given; answers the ticket.',
    body: tagSyncSchema,
    response: ticket,
  },
  addTicketTag: {
    method: 'PUT',
    path: '/ticket-tags/:ticketId/:tagId',
    summary: 'Add a tag to a ticket',
    params: ticketTagParams,
    response: ticket,
  },
  clearTicketTags: {
    method: 'DELETE',
    path: '/ticket-tags/:ticketId',
    summary: 'Remove every tag from a ticket',
    params: ticketIdParam,
    response: noContentResponse,
  },
});
