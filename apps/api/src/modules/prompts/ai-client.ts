import { eq } from 'drizzle-orm';
import OpenAI, { toFile } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/index';
import {
  HANDOFF_TOOL,
  sandboxAnalysisSchema,
  SENTIMENTS,
  type ErrorCode,
  type SandboxAnalysis,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { aiProviders, type prompts } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { refusalIn } from '../../platform/outbound';

// The one way the API reaches a language model: the official `openai` SDK against any
// OpenAI-compatible server (OpenAI, Azure's compatible endpoint, Ollama, vLLM, OpenRouter). Timeouts
// and retries are the SDK's (OPENAI_TIMEOUT_MS, OPENAI_MAX_RETRIES).

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'outbound'>;
type PromptRow = typeof prompts.$inferSelect;

export type ChatTurn = { role: 'user' | 'assistant'; content: string };
export type Usage = { prompt: number; completion: number; total: number };
export type Handoff = { queue: string | null; reason: string | null };
export type AgentReply = { text: string; handoff: Handoff | null; usage: Usage | null };

// Named always: left out, the SDK would read OPENAI_BASE_URL from the environment, and a company's own
// key would go to the platform's server.
const OPENAI_URL = 'https://api.openai.com/v1';

// What a settings form holds but has not saved (a "test connection"): each field given replaces the
// stored one, as saving it would ('' or null: none); a field left out keeps what is stored.
type ProviderDraft = { baseUrl?: string | null; apiKey?: string | null };

// Which server and key a company's agents use: its own when it set a key or an address, else the
// platform's; null when there is neither.
const providerOf = async (deps: Deps, companyId: number, draft: ProviderDraft = {}) => {
  const [stored] = await deps.db
    .select()
    .from(aiProviders)
    .where(eq(aiProviders.companyId, companyId));
  const baseUrl =
    draft.baseUrl !== undefined ? draft.baseUrl?.replace(/\/+$/, '') || null : stored?.baseUrl;
  const openKey = () => {
    if (draft.apiKey !== undefined) return draft.apiKey || null;
    if (!stored?.apiKeySealed) return null;
    try {
      return deps.secrets.open(stored.apiKeySealed);
    } catch {
      throw new AppError(
        'ERR_AI_NOT_CONFIGURED',
        'The stored AI key cannot be read (the server’s ENCRYPTION_KEY changed): set the key again',
      );
    }
  };
  const hasKey = draft.apiKey !== undefined ? Boolean(draft.apiKey) : Boolean(stored?.apiKeySealed);
  if (baseUrl || hasKey)
    return { baseURL: baseUrl ?? OPENAI_URL, apiKey: openKey() ?? 'no-key', own: true };
  const platform = deps.config.openAi;
  if (platform.apiKey || platform.baseUrl)
    return {
      baseURL: platform.baseUrl ?? OPENAI_URL,
      apiKey: platform.apiKey ?? 'no-key',
      own: false,
    };
  return null;
};

// A company's own server is reached through the outbound guard, and what it answers to a failed
// request is not read: its words never reach the caller (only the status, and the headers that
// say when to retry).
const companyFetch =
  (fetcher: typeof fetch): typeof fetch =>
  async (input, init) => {
    const response = await fetcher(input, init);
    if (response.ok) return response;
    await response.body?.cancel().catch(() => undefined);
    const headers = new Headers();
    for (const name of ['retry-after', 'retry-after-ms', 'x-should-retry']) {
      const value = response.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    return new Response(null, { status: response.status, headers });
  };

export const clientFor = async (deps: Deps, companyId: number, draft?: ProviderDraft) => {
  const provider = await providerOf(deps, companyId, draft);
  if (!provider)
    throw new AppError(
      'ERR_AI_NOT_CONFIGURED',
      'No AI provider: set a key or a server address in the AI provider settings',
    );
  const { own, ...server } = provider;
  // Refused before the SDK is built: it would retry a refused address with backoff.
  if (own) await deps.outbound.check(server.baseURL, 'baseUrl');
  return new OpenAI({
    ...server,
    ...(own ? { fetch: companyFetch(deps.outbound.fetch) } : {}),
    // Nothing of the process environment (OPENAI_ORG_ID…) rides along with a company's requests.
    organization: null,
    project: null,
    timeout: deps.config.openAi.timeoutMs,
    maxRetries: deps.config.openAi.maxRetries,
  });
};

// A provider's failure as the API tells it. The provider's own words are kept only where they
// help (a model it does not know) and never with anything that looks like a key.
export const providerFailure = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  const clean = (text: string) =>
    text
      .replace(/\b(sk|pk|rk|key)[-_][\w-]{4,}/gi, '***')
      .replace(/\s+/g, ' ')
      .slice(0, 300);
  const failure = (code: ErrorCode, message: string, status?: number) =>
    new AppError(code, message, status ? { details: { status } } : {});
  const refusal = refusalIn(error);
  if (refusal) return new AppError('ERR_OUTBOUND_URL_NOT_ALLOWED', refusal.message);
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return failure('ERR_AI_PROVIDER_UNAVAILABLE', 'The AI provider did not answer in time');
  if (error instanceof OpenAI.APIConnectionError)
    return failure('ERR_AI_PROVIDER_UNAVAILABLE', 'The AI provider cannot be reached');
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    if (status === 401 || status === 403)
      return failure('ERR_AI_PROVIDER_AUTH', 'The AI provider refused the key', status);
    if (status === 429)
      return failure(
        'ERR_AI_PROVIDER_UNAVAILABLE',
        'The AI provider is limiting requests (rate limit or quota)',
        status,
      );
    if (status >= 400 && status < 500)
      return failure(
        'ERR_AI_PROVIDER_REQUEST',
        `The AI provider refused the request: ${clean(error.message)}`,
        status,
      );
    return failure('ERR_AI_PROVIDER_UNAVAILABLE', 'The AI provider failed to answer', status);
  }
  if (error instanceof SyntaxError)
    return failure('ERR_AI_PROVIDER_UNAVAILABLE', 'The AI provider answered something unreadable');
  return failure('ERR_AI_PROVIDER_UNAVAILABLE', 'The AI provider failed to answer');
};

// Reasoning models (o-series, gpt-5) take max_completion_tokens and only their own temperature.
export const lengthAndTemperature = (model: string, maxTokens: number, temperature: number) =>
  /^(o\d|gpt-5)/i.test(model)
    ? { max_completion_tokens: maxTokens }
    : { max_tokens: maxTokens, temperature };

export const usageOf = (usage: OpenAI.CompletionUsage | undefined | null): Usage | null =>
  usage
    ? {
        prompt: usage.prompt_tokens,
        completion: usage.completion_tokens,
        total: usage.total_tokens,
      }
    : null;

export const addUsage = (a: Usage | null, b: Usage | null): Usage | null =>
  a && b
    ? {
        prompt: a.prompt + b.prompt,
        completion: a.completion + b.completion,
        total: a.total + b.total,
      }
    : (a ?? b);

const handoffTool = (queueNames: string[]): ChatCompletionTool => ({
  type: 'function',
  function: {
    name: HANDOFF_TOOL,
    description:
      'Transfer the conversation to a human agent: when the customer asks for a person, or when you cannot help.',
    parameters: {
      type: 'object',
      properties: {
        ...(queueNames.length
          ? {
              queue: {
                type: 'string',
                enum: queueNames,
                description: 'The department (queue) that should take the conversation',
              },
            }
          : {}),
        reason: { type: 'string', description: 'Why the conversation is transferred' },
      },
      additionalProperties: false,
    },
  },
});

const HANDOFF_HINT = `When the customer asks to talk to a person, or you cannot help, call ${HANDOFF_TOOL}.`;

const textArgument = (args: Record<string, unknown>, name: string) =>
  typeof args[name] === 'string' && args[name].trim() ? args[name].trim() : null;

// One turn of the agent: its system prompt and the conversation so far → the answer, or its call to
// hand the conversation to a person.
export const askAgent = async (
  client: OpenAI,
  prompt: Pick<PromptRow, 'model' | 'maxTokens' | 'temperature'>,
  system: string,
  turns: ChatTurn[],
  queueNames: string[],
): Promise<AgentReply> => {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: `${system}\n\n${HANDOFF_HINT}` },
    ...turns,
  ];
  const completion = await client.chat.completions.create({
    model: prompt.model,
    messages,
    tools: [handoffTool(queueNames)],
    tool_choice: 'auto',
    ...lengthAndTemperature(prompt.model, prompt.maxTokens, prompt.temperature),
  });
  const choice = completion.choices[0];
  const text = (choice?.message?.content ?? '').trim();
  const call = choice?.message?.tool_calls?.find(
    (c) => c.type === 'function' && c.function.name === HANDOFF_TOOL,
  );
  let handoff: Handoff | null = null;
  if (call && call.type === 'function') {
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(call.function.arguments || '{}');
      if (parsed && typeof parsed === 'object') args = parsed as Record<string, unknown>;
    } catch {
      // Unreadable arguments still mean "a person, please": the ticket's own queue takes it.
    }
    const queue = textArgument(args, 'queue');
    handoff = {
      queue: queue && queueNames.includes(queue) ? queue : null,
      reason: textArgument(args, 'reason'),
    };
  }
  return { text, handoff, usage: usageOf(completion.usage) };
};

const nullableString = { type: ['string', 'null'] } as const;
// The structured output the sandbox asks for (strict JSON schema: every property required).
const ANALYSIS_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['final', 'sentiment', 'datos_cliente', 'datos_pedido'],
  properties: {
    final: {
      type: 'boolean',
      description: 'true when the customer has nothing more to ask (the conversation is over)',
    },
    sentiment: { type: 'string', enum: [...SENTIMENTS] },
    datos_cliente: {
      type: 'object',
      additionalProperties: false,
      required: ['nombre', 'telefono', 'email', 'direccion'],
      properties: {
        nombre: nullableString,
        telefono: nullableString,
        email: nullableString,
        direccion: nullableString,
      },
    },
    datos_pedido: {
      type: 'object',
      additionalProperties: false,
      required: ['productos', 'total', 'observaciones'],
      properties: {
        productos: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['nombre', 'cantidad'],
            properties: { nombre: { type: 'string' }, cantidad: { type: ['number', 'null'] } },
          },
        },
        total: { type: ['number', 'null'] },
        observaciones: nullableString,
      },
    },
  },
} as const;

const ANALYSIS_INSTRUCTIONS =
  'Analiza la conversación entre un cliente (user) y un agente (assistant). Responde solo con el JSON ' +
  'pedido: si la conversación terminó (final), el sentimiento del cliente y los datos del cliente y ' +
  'del pedido que aparezcan (null o vacío cuando no aparecen).';

// The customer's mood and the data the conversation holds, through the provider's structured output.
export const analyseConversation = async (
  client: OpenAI,
  model: string,
  turns: ChatTurn[],
): Promise<{ analysis: SandboxAnalysis; usage: Usage | null }> => {
  const completion = await client.chat.completions.create({
    model,
    messages: [{ role: 'system', content: ANALYSIS_INSTRUCTIONS }, ...turns],
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'analisis_conversacion', strict: true, schema: ANALYSIS_JSON_SCHEMA },
    },
    ...lengthAndTemperature(model, 800, 0),
  });
  const content = completion.choices[0]?.message?.content ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    parsed = undefined;
  }
  const analysis = sandboxAnalysisSchema.safeParse(parsed);
  if (!analysis.success)
    throw new AppError(
      'ERR_AI_PROVIDER_REQUEST',
      'The AI provider did not return the structured data asked for (does this model support JSON schema output?)',
    );
  return { analysis: analysis.data, usage: usageOf(completion.usage) };
};

// Speech to text, the provider's failure thrown as the SDK throws it (the voice notes' job retries
// it, modules/prompts/voice-notes.ts). Models billed by tokens say how many (whisper-1 bills seconds:
// no tokens).
export const speechToText = async (
  client: OpenAI,
  model: string,
  file: { data: Buffer; name: string },
): Promise<{ text: string | null; usage: Usage | null }> => {
  const result = await client.audio.transcriptions.create({
    file: await toFile(file.data, file.name),
    model,
  });
  const usage =
    result.usage?.type === 'tokens'
      ? {
          prompt: result.usage.input_tokens,
          completion: result.usage.output_tokens,
          total: result.usage.total_tokens,
        }
      : null;
  return { text: result.text?.trim() || null, usage };
};

// The models the provider lists (the form suggests them).
export const listModels = async (client: OpenAI) => {
  const ids: string[] = [];
  for await (const model of client.models.list()) {
    ids.push(model.id);
    if (ids.length >= 500) break;
  }
  return ids.sort();
};

// The embeddings of texts, in their order, through the provider's `embeddings` endpoint (as floats:
// servers such as Ollama's have no base64). Every vector must be there and of one length.
export const embedTexts = async (
  client: OpenAI,
  model: string,
  inputs: string[],
): Promise<{ vectors: number[][]; usage: Usage | null }> => {
  const response = await client.embeddings.create({
    model,
    input: inputs,
    encoding_format: 'float',
  });
  const vectors = [...response.data]
    .sort((a, b) => a.index - b.index)
    .map((item) => item.embedding);
  const dimensions = vectors[0]?.length ?? 0;
  if (
    vectors.length !== inputs.length ||
    dimensions === 0 ||
    vectors.some((v) => !Array.isArray(v) || v.length !== dimensions || !v.every(Number.isFinite))
  )
    throw new AppError(
      'ERR_AI_PROVIDER_REQUEST',
      'The AI provider did not answer one embedding for each text (does this model make embeddings?)',
    );
  const tokens = response.usage?.total_tokens;
  return {
    vectors,
    usage: typeof tokens === 'number' ? { prompt: tokens, completion: 0, total: tokens } : null,
  };
};
