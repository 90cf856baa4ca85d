import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  aiProviderSchema,
  aiProviderViewSchema,
  createdResponse,
  idParam,
  messageResponseSchema,
  okResponse,
  promptSchema,
  promptsListSchema,
  promptUpdateSchema,
  promptViewSchema,
  sandboxChatResponseSchema,
  sandboxChatSchema,
} from '@atendi/shared';
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

// SPEC §7 Prompts: admins of a company whose plan has useOpenAi. The agent's runtime is agent.ts
// (its queue and recorders are listed in background.ts).
export const promptsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tags = ['prompts'];
  const config = {
    access: { permission: 'prompts:manage' as const, planFeature: 'useOpenAi' as const },
  };
  const one = okResponse(promptViewSchema);

  app.get(
    '/prompt',
    { schema: { tags, response: okResponse(promptsListSchema) }, config },
    async (request) => listPrompts(deps.db, request.auth),
  );
  app.get(
    '/prompt/:id',
    { schema: { tags, params: idParam, response: one }, config },
    async (request) => getPrompt(deps.db, request.auth, request.params.id),
  );
  app.post(
    '/prompt',
    { schema: { tags, body: promptSchema, response: createdResponse(promptViewSchema) }, config },
    async (request, reply) =>
      reply.status(201).send(await createPrompt(deps, request.auth, request.body)),
  );
  app.put(
    '/prompt/:id',
    { schema: { tags, params: idParam, body: promptUpdateSchema, response: one }, config },
    async (request) => updatePrompt(deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/prompt/:id',
    { schema: { tags, params: idParam, response: okResponse(messageResponseSchema) }, config },
    async (request) => deletePrompt(deps, request.auth, request.params.id),
  );
  app.post(
    '/prompt/:id/sandbox-chat',
    {
      schema: {
        tags,
        params: idParam,
        body: sandboxChatSchema,
        response: okResponse(sandboxChatResponseSchema),
      },
      config,
    },
    async (request) => sandboxChat(deps, request.auth, request.params.id, request.body),
  );

  // The company's own OpenAI-compatible provider: the key is write-only.
  app.get(
    '/ai-provider',
    { schema: { tags, response: okResponse(aiProviderViewSchema) }, config },
    async (request) => getAiProvider(deps, request.auth),
  );
  app.put(
    '/ai-provider',
    {
      schema: { tags, body: aiProviderSchema, response: okResponse(aiProviderViewSchema) },
      config,
    },
    async (request) => saveAiProvider(deps, request.auth, request.body),
  );
  app.get(
    '/ai-provider/models',
    {
      schema: { tags, response: okResponse(z.object({ models: z.array(z.string()) })) },
      config,
    },
    async (request) => providerModels(deps, request.auth),
  );
};
