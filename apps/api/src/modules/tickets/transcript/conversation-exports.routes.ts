import type { FastifyInstance } from 'fastify';
import { conversationExportsContract as exportsContract } from '@atendi/shared';
import { contractRoutes } from '../../../platform/contract-routes';
import {
  createConversationExport,
  deleteConversationExport,
  downloadConversationExport,
  getConversationExport,
  listConversationExports,
} from './conversation-exports';

// Issue 38: the company's conversations exported for a range of days, for its admins.
export const conversationExportsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const access = { access: { permission: 'exports:manage' as const } };
  route(exportsContract.listConversationExports, access, async (request) =>
    listConversationExports(app.deps, request.auth),
  );
  route(exportsContract.createConversationExport, access, async (request) =>
    createConversationExport(app.deps, request.auth, request.body),
  );
  route(exportsContract.getConversationExport, access, async (request) =>
    getConversationExport(app.deps, request.auth, request.params.id),
  );
  route(exportsContract.downloadConversationExport, access, async (request, reply) =>
    downloadConversationExport(app.deps, request.auth, request.params.id, reply),
  );
  route(exportsContract.deleteConversationExport, access, async (request) => {
    await deleteConversationExport(app.deps, request.auth, request.params.id);
  });
};
