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
    {
      schema: {
        summary: 'List the AI agents',
        operationId: 'listPrompts',
        tags,
        response: okResponse(promptsListSchema),
      },
      config,
    },
    async (request) => listPrompts(deps.db, request.auth),
  );
  app.get(
    '/prompt/:id',
    {
      schema: {
        summary: 'Read one AI agent',
        operationId: 'getPrompt',
        tags,
        params: idParam,
        response: one,
      },
      config,
    },
    async (request) => getPrompt(deps.db, request.auth, request.params.id),
  );
  app.post(
    '/prompt',
    {
      schema: {
        summary: 'Create an AI agent',
        operationId: 'createPrompt',
        tags,
        body: promptSchema,
        response: createdResponse(promptViewSchema),
      },
      config,
    },
    async (request, reply) =>
      reply.status(201).send(await createPrompt(deps, request.auth, request.body)),
  );
  app.put(
    '/prompt/:id',
    {
      schema: {
        summary: 'Change an AI agent',
        operationId: 'updatePrompt',
        tags,
        params: idParam,
        body: promptUpdateSchema,
        response: one,
      },
      config,
    },
    async (request) => updatePrompt(deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/prompt/:id',
    {
      schema: {
        summary: 'Delete an AI agent',
        operationId: 'deletePrompt',
        tags,
        params: idParam,
        response: okResponse(messageResponseSchema),
      },
      config,
    },
    async (request) => deletePrompt(deps, request.auth, request.params.id),
  );
  app.post(
    '/prompt/:id/sandbox-chat',
    {
      schema: {
        summary: 'Try an AI agent on a conversation without sending anything',
        operationId: 'sandboxChat',
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
    {
      schema: {
        summary: "Read the company's AI provider (the key is never answered)",
        operationId: 'getAiProvider',
        tags,
        response: okResponse(aiProviderViewSchema),
      },
      config,
    },
    async (request) => getAiProvider(deps, request.auth),
  );
  app.put(
    '/ai-provider',
    {
      schema: {
        summary: "Set the company's AI provider and key",
        operationId: 'saveAiProvider',
        tags,
        body: aiProviderSchema,
        response: okResponse(aiProviderViewSchema),
      },
      config,
    },
    async (request) => saveAiProvider(deps, request.auth, request.body),
  );
  app.get(
    '/ai-provider/models',
    {
      schema: {
        summary: "List the models the company's AI provider offers",
        operationId: 'listAiProviderModels',
        tags,
        response: okResponse(z.object({ models: z.array(z.string()) })),
      },
      config,
    },
    async (request) => providerModels(deps, request.auth),
  );
};
