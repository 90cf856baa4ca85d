import {
  promptsListSchema,
  promptsUsageSchema,
  promptViewSchema,
  sandboxChatResponseSchema,
  type PromptView,
  type PromptsUsage,
  type SandboxChatResponse,
} from '@atendi/shared';
import { jsonResponse } from './fixtures';

// An AI agent as GET /prompt lists it, checked against the shared schema.
export const makePrompt = (overrides: Partial<PromptView> = {}): PromptView => {
  const prompt: PromptView = {
    id: 1,
    name: 'Asistente de ventas',
    prompt:
      'Eres el asistente de ventas de Acme. Responde con amabilidad y toma los pedidos de los clientes.',
    model: 'gpt-4o-mini',
    maxTokens: 100,
    temperature: 1,
    maxMessages: 10,
    handoffMessage: 'Le paso con una persona del equipo',
    queueId: null,
    queue: null,
    knowledge: 'none',
    knowledgeDocuments: [],
    lastError: null,
    createdAt: '2025-03-04T09:05:00.000Z',
    updatedAt: '2025-03-04T09:05:00.000Z',
    ...overrides,
  };
  promptViewSchema.parse(prompt);
  return prompt;
};

export const promptListOf = (prompts: PromptView[]) => {
  const body = { prompts, count: prompts.length };
  promptsListSchema.parse(body);
  return jsonResponse(200, body);
};

// GET /prompt/usage (a Plus plan's quotas by default), checked against the shared schema.
export const promptsUsageOf = (overrides: Partial<PromptsUsage> = {}) => {
  const usage: PromptsUsage = {
    month: '2025-03',
    timeZone: 'America/Mexico_City',
    messages: 0,
    agents: 0,
    exhaustedAgents: 0,
    agentsLimit: 1,
    messagesLimit: 2000,
    tokens: 0,
    tokensLimit: 2_000_000,
    tokensByFeature: [],
    prompts: [],
    ...overrides,
  };
  promptsUsageSchema.parse(usage);
  return jsonResponse(200, usage);
};

// A sandbox answer, checked against the shared schema.
export const makeSandboxResponse = (
  overrides: Partial<SandboxChatResponse> = {},
): SandboxChatResponse => {
  const text = overrides.text ?? '¡Hola! ¿Qué desea pedir hoy?';
  const response: SandboxChatResponse = {
    text,
    response: text,
    final: false,
    sentiment: 'neutral',
    structured: {
      datos_cliente: { nombre: null, telefono: null, email: null, direccion: null },
      datos_pedido: { productos: [], total: null, observaciones: null },
    },
    handoff: null,
    tokens: { estimate: 42, usage: null },
    knowledge: null,
    ...overrides,
  };
  sandboxChatResponseSchema.parse(response);
  return response;
};
