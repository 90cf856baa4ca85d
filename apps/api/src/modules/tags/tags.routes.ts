import type { FastifyInstance } from 'fastify';
import { tagsContract as tags } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
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

export const tagsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const manage = { access: { permission: 'tags:manage' as const } };
  // SPEC §2 Kanban is a plan feature.
  const kanban = { access: { planFeature: 'useKanban' as const } };

  // Every profile reads tags (ticket drawer, search filter, kanban); only admins add them.
  route(tags.listTagOptions, async (request) => listTagOptions(deps.db, request.auth));
  route(tags.listTags, async (request) => listTags(deps, request.auth, request.query));
  route(tags.listKanbanLanes, kanban, async (request) => listKanbanLanes(deps.db, request.auth));
  route(tags.listKanbanTickets, kanban, async (request) =>
    listKanbanTickets(deps.db, request.auth, request.query),
  );
  route(tags.getTag, async (request) => getTag(deps, request.auth, request.params.id));
  route(tags.createTag, manage, async (request) => createTag(deps, request.auth, request.body));
  route(tags.updateTag, manage, async (request) =>
    updateTag(deps, request.auth, request.params.id, request.body),
  );
  route(tags.deleteTag, manage, async (request) => {
    await deleteTag(deps, request.auth, request.params.id);
  });

  route(tags.syncTicketTags, async (request) => syncTicketTags(deps, request.auth, request.body));
  route(tags.addTicketTag, async (request) =>
    addTicketTag(deps, request.auth, request.params.ticketId, request.params.tagId),
  );
  route(tags.clearTicketTags, async (request) => {
    await clearTicketTags(deps, request.auth, request.params.ticketId);
  });
};
