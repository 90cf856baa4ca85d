import type { FastifyInstance } from 'fastify';
import { aiProviderContract as aiProvider, promptsContract as prompts } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import {
  createPrompt,
  deletePrompt,
  getAiProvider,
  getPrompt,
  listPrompts,
  providerModels,
  saveAiProvider,
  updatePrompt,
} from './prompts.service';
import { sandboxChat } from './sandbox';
import { getPromptsUsage } from './ai-usage';

// SPEC §7 Prompts: admins of a company whose plan has useOpenAi. The agent's runtime is agent.ts
// (its queue and recorders are listed in background.ts).
export const promptsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const config = {
    access: { permission: 'prompts:manage' as const, planFeature: 'useOpenAi' as const },
  };

  route(prompts.listPrompts, config, async (request) => listPrompts(deps.db, request.auth));
  route(prompts.getPromptsUsage, config, async (request) => getPromptsUsage(deps, request.auth));
  route(prompts.getPrompt, config, async (request) =>
    getPrompt(deps.db, request.auth, request.params.id),
  );
  route(prompts.createPrompt, config, async (request) =>
    createPrompt(deps, request.auth, request.body),
  );
  route(prompts.updatePrompt, config, async (request) =>
    updatePrompt(deps, request.auth, request.params.id, request.body),
  );
  route(prompts.deletePrompt, config, async (request) =>
    deletePrompt(deps, request.auth, request.params.id),
  );
  route(prompts.sandboxChat, config, async (request) =>
    sandboxChat(deps, request.auth, request.params.id, request.body),
  );

  // The company's own OpenAI-compatible provider: the key is write-only.
  route(aiProvider.getAiProvider, config, async (request) => getAiProvider(deps, request.auth));
  route(aiProvider.saveAiProvider, config, async (request) =>
    saveAiProvider(deps, request.auth, request.body),
  );
  route(aiProvider.listAiProviderModels, config, async (request) =>
    providerModels(deps, request.auth),
  );
  route(aiProvider.testAiProvider, config, async (request) =>
    providerModels(deps, request.auth, request.body),
  );
};
