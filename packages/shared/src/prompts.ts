import { z } from 'zod';
import { dateTime } from './responses';

// SPEC §3 Prompt, Sandbox chat response; §5 Prompt, Sandbox; §7 Prompts; §9 prompt defaults.
// An AI agent ("prompt") answers the contacts of a queue or a connection until a human takes over.

// SPEC §9: offered in the form; any other model name the company's server knows is accepted too
// (Ollama, vLLM and OpenRouter name theirs differently).
export const PROMPT_MODELS = [
  'gpt-3.5-turbo-1106',
  'gpt-4o-mini',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-5-mini',
  'gpt-5-nano',
] as const;

export const PROMPT_DEFAULTS = {
  model: 'gpt-3.5-turbo-1106',
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  // Sent to the contact when the agent hands the conversation to a person; '' sends nothing.
  handoffMessage: 'Le paso con una persona del equipo',
} as const;

export const PROMPT_NAME_MIN = 5;
export const PROMPT_NAME_MAX = 100;
export const PROMPT_TEXT_MIN = 50;
export const PROMPT_TEXT_MAX = 20_000;
export const PROMPT_MAX_TOKENS_LIMIT = 32_000;
export const PROMPT_MAX_MESSAGES_LIMIT = 100;
export const PROMPT_HANDOFF_MESSAGE_MAX = 1000;
export const PROMPT_KNOWLEDGE_DOCUMENTS_MAX = 200;
export const PROMPT_KNOWLEDGE = ['none', 'all', 'selected'] as const;
export type PromptKnowledge = (typeof PROMPT_KNOWLEDGE)[number];

// The tool the model calls to hand the conversation to a person (never a magic phrase).
export const HANDOFF_TOOL = 'transfer_to_human';

export const promptSchema = z.object({
  name: z.string().trim().min(PROMPT_NAME_MIN).max(PROMPT_NAME_MAX),
  prompt: z.string().trim().min(PROMPT_TEXT_MIN).max(PROMPT_TEXT_MAX),
  model: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[\w.:/@-]+$/, 'Letters, digits and . : / @ - _ only'),
  maxTokens: z.coerce.number().int().min(1).max(PROMPT_MAX_TOKENS_LIMIT),
  // SPEC §5: the input's range is 0-1 in steps of 0.1.
  temperature: z.coerce.number().min(0).max(1),
  maxMessages: z.coerce.number().int().min(1).max(PROMPT_MAX_MESSAGES_LIMIT),
  queueId: z.coerce.number().int().positive().nullable().optional().default(null),
  // Left out: the default text; empty: the contact is told nothing.
  handoffMessage: z
    .string()
    .trim()
    .max(PROMPT_HANDOFF_MESSAGE_MAX)
    .optional()
    .default(PROMPT_DEFAULTS.handoffMessage),
  // Issue 40: answers from the company's knowledge base: all its documents, the selected ones (the
  // ids given; none selected finds nothing), or none.
  knowledge: z.enum(PROMPT_KNOWLEDGE).optional().default('none'),
  knowledgeDocumentIds: z
    .array(z.coerce.number().int().positive())
    .max(PROMPT_KNOWLEDGE_DOCUMENTS_MAX)
    .optional()
    .default([]),
});
export const promptUpdateSchema = z
  .object({
    ...promptSchema.shape,
    queueId: z.coerce.number().int().positive().nullable(),
    handoffMessage: z.string().trim().max(PROMPT_HANDOFF_MESSAGE_MAX),
    knowledge: z.enum(PROMPT_KNOWLEDGE),
    knowledgeDocumentIds: z
      .array(z.coerce.number().int().positive())
      .max(PROMPT_KNOWLEDGE_DOCUMENTS_MAX),
  })
  .partial();
export type PromptInput = z.infer<typeof promptSchema>;
export type PromptUpdateInput = z.infer<typeof promptUpdateSchema>;

// What last went wrong reaching the provider while answering a customer (admins see it on the list).
export const promptErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  at: dateTime,
});

export const promptViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  prompt: z.string(),
  model: z.string(),
  maxTokens: z.number(),
  temperature: z.number(),
  maxMessages: z.number(),
  handoffMessage: z.string(),
  queueId: z.number().nullable(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  knowledge: z.enum(PROMPT_KNOWLEDGE),
  // The documents it answers from when they are selected, by name.
  knowledgeDocuments: z.array(z.object({ id: z.number(), name: z.string() })),
  lastError: promptErrorSchema.nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type PromptView = z.input<typeof promptViewSchema>;

export const promptsListSchema = z.object({
  prompts: z.array(promptViewSchema),
  count: z.number(),
});
export type PromptsList = z.input<typeof promptsListSchema>;

// What a company's tokens were spent on (issue 40): AI agents' answers, the sandbox, the co-pilot's
// reply suggestions and summaries, voice notes read, live insight, and the knowledge base's
// embeddings (ingest and search).
export const AI_FEATURES = [
  'agent',
  'sandbox',
  'suggestion',
  'summary',
  'transcription',
  'insight',
  'embedding',
] as const;
export type AiFeature = (typeof AI_FEATURES)[number];

// SPEC §9 plan quotas: a company's AI agents in the calendar month (YYYY-MM) of its time zone. The
// answers its agents sent contacts (deleted agents' too), its agents and those whose answers ran out,
// and what its plan allows (0: unlimited): agents, and answers per agent a month.
export const aiUsageSchema = z.object({
  month: z.string(),
  messages: z.number(),
  agents: z.number(),
  exhaustedAgents: z.number(),
  agentsLimit: z.number(),
  messagesLimit: z.number(),
  // Tokens spent this month (every feature, as the provider counted them) and the plan's monthly
  // tokens (0: unlimited); each feature's part.
  tokens: z.number(),
  tokensLimit: z.number(),
  tokensByFeature: z.array(
    z.object({ feature: z.enum(AI_FEATURES), calls: z.number(), tokens: z.number() }),
  ),
});
export type AiUsage = z.input<typeof aiUsageSchema>;

// GET /prompt/usage: the company's, with the answers each agent sent this month (none: not listed).
export const promptsUsageSchema = aiUsageSchema.extend({
  timeZone: z.string(),
  prompts: z.array(z.object({ promptId: z.number(), messages: z.number() })),
});
export type PromptsUsage = z.input<typeof promptsUsageSchema>;

// SPEC §7 company-{id}-prompt.
export type PromptEvent =
  { action: 'create' | 'update'; prompt: PromptView } | { action: 'delete'; promptId: number };

// The company's provider (any OpenAI-compatible server). The key is write-only: the API answers
// only whether one is set.
export const aiProviderSchema = z.object({
  // null or '' = the platform's provider (OPENAI_BASE_URL), or OpenAI's when the company has a key.
  baseUrl: z
    .union([
      z.literal(''),
      z
        .string()
        .trim()
        .max(500)
        .regex(/^https?:\/\/[^\s]+$/i, 'An http(s) address'),
    ])
    .nullable()
    .optional(),
  // Absent keeps the stored key; null or '' removes it.
  apiKey: z.string().trim().max(500).nullable().optional(),
});
export type AiProviderInput = z.infer<typeof aiProviderSchema>;

export const aiProviderViewSchema = z.object({
  baseUrl: z.string().nullable(),
  keySet: z.boolean(),
  // Whether the platform offers its own provider (OPENAI_API_KEY or OPENAI_BASE_URL set).
  platformDefault: z.boolean(),
  updatedAt: dateTime.nullable(),
});
export type AiProviderView = z.input<typeof aiProviderViewSchema>;

// Sandbox (SPEC §7 POST /prompt/{id}/sandbox-chat).
export const SANDBOX_MAX_TURNS = 200;
// Room for the longest answer an agent may give (maxTokens up to 32,000: about 4 characters each).
export const SANDBOX_TURN_MAX = 130_000;
export const sandboxTurnSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().trim().min(1).max(SANDBOX_TURN_MAX),
});
export type SandboxTurn = z.infer<typeof sandboxTurnSchema>;

export const sandboxChatSchema = z.object({
  turns: z.array(sandboxTurnSchema).min(1).max(SANDBOX_MAX_TURNS),
  maxMessages: z.coerce.number().int().min(1).max(PROMPT_MAX_MESSAGES_LIMIT).optional(),
  contactName: z.string().trim().max(100).optional().default(''),
});
export type SandboxChatInput = z.infer<typeof sandboxChatSchema>;

export const SENTIMENTS = ['negativo', 'neutral', 'positivo'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

const nullableText = z.string().nullable();
export const customerDataSchema = z.object({
  nombre: nullableText,
  telefono: nullableText,
  email: nullableText,
  direccion: nullableText,
});
export const orderDataSchema = z.object({
  productos: z.array(z.object({ nombre: z.string(), cantidad: z.number().nullable() })),
  total: z.number().nullable(),
  observaciones: nullableText,
});
export const sandboxAnalysisSchema = z.object({
  final: z.boolean(),
  sentiment: z.enum(SENTIMENTS),
  datos_cliente: customerDataSchema,
  datos_pedido: orderDataSchema,
});
export type SandboxAnalysis = z.infer<typeof sandboxAnalysisSchema>;

export const tokenUsageSchema = z.object({
  prompt: z.number(),
  completion: z.number(),
  total: z.number(),
});

export const sandboxChatResponseSchema = z.object({
  text: z.string(),
  // SPEC §3 names it text or response: both carry the answer.
  response: z.string(),
  // The conversation is over (the customer is done, or the agent handed it to a person).
  final: z.boolean(),
  sentiment: z.enum(SENTIMENTS),
  structured: z.object({ datos_cliente: customerDataSchema, datos_pedido: orderDataSchema }),
  // The agent called the hand-off tool: the queue it named (null: the ticket's own), and the agent's
  // hand-off message the contact would be sent after the answer (null: none).
  handoff: z
    .object({
      queue: z.string().nullable(),
      reason: z.string().nullable(),
      message: z.string().nullable(),
    })
    .nullable(),
  // SPEC §9 estimate of what the request sends; usage as the provider counted it, when it did.
  tokens: z.object({ estimate: z.number(), usage: tokenUsageSchema.nullable() }),
  // Issue 40: an agent answering from the knowledge base: the passages it was given (numbered as
  // the answer cites them) and which the answer cited; null for an agent without knowledge.
  knowledge: z
    .object({
      passages: z.array(
        z.object({
          number: z.number(),
          chunkId: z.number(),
          documentId: z.number(),
          documentName: z.string(),
          page: z.number().nullable(),
          ordinal: z.number(),
          text: z.string(),
          cited: z.boolean(),
        }),
      ),
    })
    .nullable(),
});
export type SandboxChatResponse = z.input<typeof sandboxChatResponseSchema>;

// SPEC §9: about one token per four characters plus 6 per message.
export const estimateTokens = (texts: readonly string[]) =>
  texts.reduce((sum, text) => sum + Math.ceil(text.length / 4) + 6, 0);

// The newest `max` turns, in order (what the agent is given of a conversation).
export const newestTurns = <T>(turns: readonly T[], max: number): T[] =>
  max > 0 ? turns.slice(Math.max(0, turns.length - max)) : [];
