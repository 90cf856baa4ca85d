import type { FastifyInstance } from 'fastify';
import { templatesContract as templates } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { listTemplates, sendTemplateMessage, syncTemplates } from './templates.service';

// Cloud API message templates (contracts/templates.ts): every profile reads a connection's copy;
// only admins sync it.
export const templatesRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const edit = { access: { permission: 'connections-page:editOrDeleteConnection' as const } };

  route(templates.listTemplates, async (request) =>
    listTemplates(deps.db, request.auth, request.params.id),
  );
  route(templates.syncTemplates, edit, async (request) =>
    syncTemplates(deps, request.auth, request.params.id, request.log),
  );
  route(templates.sendTemplateMessage, async (request) =>
    sendTemplateMessage(deps, request.auth, request.params.ticketId, request.body, {
      kick: deps.outbox.kick,
      log: request.log,
    }),
  );
};
