import type { FastifyInstance } from 'fastify';
import { knowledgeContract as knowledge } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import {
  addKnowledgeSource,
  deleteKnowledgeDocument,
  getKnowledgeDocument,
  listKnowledgeDocuments,
  refreshKnowledgeDocument,
  renameKnowledgeDocument,
  replaceKnowledgeDocument,
  uploadKnowledgeDocument,
} from './knowledge.service';
import { searchKnowledge } from './retrieval';

// Issue 40: the company's knowledge base, for admins of a company whose plan has useOpenAi (what it
// is for: the AI agents). The ingest is ingest.ts (its queue is listed in background.ts).
export const knowledgeRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const access = {
    access: { permission: 'knowledge:manage' as const, planFeature: 'useOpenAi' as const },
  };

  route(knowledge.listKnowledgeDocuments, access, async (request) =>
    listKnowledgeDocuments(deps, request.auth),
  );
  route(knowledge.getKnowledgeDocument, access, async (request) =>
    getKnowledgeDocument(deps, request.auth, request.params.id),
  );
  route(knowledge.uploadKnowledgeDocument, access, async (request) =>
    uploadKnowledgeDocument(deps, request.auth, request),
  );
  route(knowledge.addKnowledgeSource, access, async (request) =>
    addKnowledgeSource(deps, request.auth, request.body),
  );
  route(knowledge.renameKnowledgeDocument, access, async (request) =>
    renameKnowledgeDocument(deps, request.auth, request.params.id, request.body),
  );
  route(knowledge.replaceKnowledgeDocument, access, async (request) =>
    replaceKnowledgeDocument(deps, request.auth, request.params.id, request),
  );
  route(knowledge.refreshKnowledgeDocument, access, async (request) =>
    refreshKnowledgeDocument(deps, request.auth, request.params.id),
  );
  route(knowledge.deleteKnowledgeDocument, access, async (request) => {
    await deleteKnowledgeDocument(deps, request.auth, request.params.id);
  });
  route(knowledge.searchKnowledge, access, async (request) =>
    searchKnowledge(deps, request.auth.companyId, request.query.q, { limit: request.query.limit }),
  );
};
