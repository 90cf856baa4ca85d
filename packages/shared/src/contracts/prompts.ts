import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  aiProviderSchema,
  aiProviderViewSchema,
  promptSchema,
  promptsListSchema,
  promptsUsageSchema,
  promptUpdateSchema,
  promptViewSchema,
  sandboxChatResponseSchema,
  sandboxChatSchema,
} from '../prompts';
import { createdResponse, messageResponseSchema, okResponse } from '../responses';
import { idParam } from '../schemas';

const one = okResponse(promptViewSchema);

// SPEC §7 Prompts: the AI agents, for admins of a company whose plan has useOpenAi.
export const promptsContract = defineRoutes('prompts', {
  listPrompts: {
    method: 'GET',
    path: '/prompt',
    summary: 'List the AI agents',
    response: okResponse(promptsListSchema),
  },
  getPromptsUsage: {
    method: 'GET',
    path: '/prompt/usage',
    summary: "This month's answers of the AI agents against the plan's quotas",
    response: okResponse(promptsUsageSchema),
  },
  getPrompt: {
    method: 'GET',
    path: '/prompt/:id',
    summary: 'Read one AI agent',
    params: idParam,
    response: one,
  },
  createPrompt: {
    method: 'POST',
    path: '/prompt',
    summary: 'Create an AI agent',
    body: promptSchema,
    response: createdResponse(promptViewSchema),
  },
  updatePrompt: {
    method: 'PUT',
    path: '/prompt/:id',
    summary: 'Change an AI agent',
    params: idParam,
    body: promptUpdateSchema,
    response: one,
  },
  deletePrompt: {
    method: 'DELETE',
    path: '/prompt/:id',
    summary: 'Delete an AI agent',
    params: idParam,
    response: okResponse(messageResponseSchema),
  },
  sandboxChat: {
    method: 'POST',
    path: '/prompt/:id/sandbox-chat',
    summary: 'Try an AI agent on a conversation without sending anything',
    params: idParam,
    body: sandboxChatSchema,
    response: okResponse(sandboxChatResponseSchema),
  },
});

// The company's own OpenAI-compatible provider, under the same access as the agents: the key is
// write-only.
export const aiProviderContract = defineRoutes('prompts', {
  getAiProvider: {
    method: 'GET',
    path: '/ai-provider',
    summary: "Read the company's AI provider (the key is never answered)",
    response: okResponse(aiProviderViewSchema),
  },
  saveAiProvider: {
    method: 'PUT',
    path: '/ai-provider',
    summary: "Set the company's AI provider and key",
    body: aiProviderSchema,
    response: okResponse(aiProviderViewSchema),
  },
  listAiProviderModels: {
    method: 'GET',
    path: '/ai-provider/models',
    summary: "List the models the company's AI provider offers",
    response: okResponse(z.object({ models: z.array(z.string()) })),
  },
  testAiProvider: {
    method: 'POST',
    path: '/ai-provider/test',
    summary:
      'List the models of a provider as typed, without saving it (a field left out keeps the stored one)',
    body: aiProviderSchema,
    response: okResponse(z.object({ models: z.array(z.string()) })),
  },
});
