import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for an OpenAI-compatible server (the machines running tests have no internet and
// no model). It speaks the part of OpenAI's HTTP API the product calls (chat completions with tools
// and structured output, embeddings, transcriptions, the model list) in OpenAI's wire format and error shape, so
// the real `openai` SDK talks to it through `baseURL`. Replies are deterministic and built from the
// conversation, so a tester sees plausible data; it records every request and fails on demand.

export const OPENAI_KEY = 'sk-test-fake';

export type OpenAiRequest = {
  method: string;
  path: string;
  authorization?: string;
  // Parsed JSON, or for multipart { fields, fileName, fileSize }.
  body: unknown;
};

export type FakeFailure = {
  status: number;
  message?: string;
  code?: string;
  type?: string;
  // Answer after this many ms instead of at once; with status 0 never answer until closed (a timeout).
  delayMs?: number;
};

export type FakeReply = {
  content?: string | null;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
};

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  description?: string;
};

type ChatContentPart = { type: string; text?: string };

type ChatToolCall = {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
};

type ChatMessage = {
  role: string;
  content?: string | ChatContentPart[] | null;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  name?: string;
};

type ChatTool = {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean };
};

export type ChatBody = {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  tools?: ChatTool[];
  tool_choice?: 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };
  response_format?:
    | { type: 'text' }
    | { type: 'json_object' }
    | {
        type: 'json_schema';
        json_schema: { name: string; strict?: boolean | null; schema?: JsonSchema };
      };
  stream?: boolean | null;
};

export type FakeOpenAi = {
  // Base URL ending in /v1, as the SDK's baseURL wants it.
  url: string;
  requests: OpenAiRequest[];
  // The key the server accepts (Authorization: Bearer …); undefined accepts any, as Ollama does.
  apiKey: string | undefined;
  // Milliseconds every chat completion and embeddings request waits before answering (a slow model).
  latencyMs: number;
  // The next `times` requests whose path includes pathPart (default any) fail with this, after
  // letting `skip` of them through (default 0); several queued failures are met in order.
  failNext(
    failure: FakeFailure,
    options?: { times?: number; pathPart?: string; skip?: number },
  ): void;
  // Drops the failures asked for that no request has met yet.
  clearFailures(): void;
  // Replaces the default reply rule for chat completions that do not ask for json_schema output;
  // returning undefined falls back to the default rule.
  respondWith(fn: ((body: ChatBody) => FakeReply | undefined) | undefined): void;
  // false: /v1/audio/transcriptions answers 404, as servers without speech-to-text do (Ollama).
  transcriptions: boolean;
  // Bodies of the chat completion requests so far.
  chatRequests(): ChatBody[];
  // Bodies of the embeddings requests so far.
  embeddingRequests(): EmbeddingBody[];
  close(): Promise<void>;
};

const MODELS = [
  'gpt-4o-mini',
  'gpt-4.1-mini',
  'gpt-5-mini',
  'llama3.2',
  'text-embedding-3-small',
  'nomic-embed-text',
];

const newId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// A message's content as a model reads it: array parts (text, images…) contribute their text.
const messageText = (message: ChatMessage) => {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
};

const userTextsOf = (body: ChatBody) =>
  body.messages.filter((m) => m.role === 'user').map(messageText);

// ---- structured output --------------------------------------------------------------------------

const positiveText = /(gracias|genial|excelente|perfecto|great|thanks|love)/i;
const negativeText = /(malo|terrible|p[eé]simo|enojad|molest|queja|horrible|bad|angry|awful)/i;
const closingText = /(gracias|adi[oó]s|eso es todo|nada m[aá]s|bye|thanks|that'?s all)/i;
// Without the i flag the capital letter still marks a name ("soy de Lima" is no name), so the
// lead-in words accept a capital themselves, as they have at the start of a sentence.
const nameText =
  /\b(?:[Mm]e llamo|[Mm]i nombre es|[Ss]oy|[Mm]y name is|I am|i am)\s+([A-ZÁÉÍÓÚÑ][\p{L}]+)/u;
const emailText = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const phoneText = /\+?\d[\d -]{6,}\d/g;
const addressLead = /(?:direcci[oó]n(?: es)?:?|address(?: is)?:?)\s*|(?=\b(?:calle|avenida|av\.))/i;
// A sentence ends at . ! ? or a line break, but not at the dot of "Av.".
const sentenceEnd = /(?<!\bav)\.(?=\s|$)|[!?\n]/i;
const itemText = /(\d+)\s+(\p{L}+)/gu;
const nameKey = /nombre|name/i;
const quantityKey = /cantidad|quantity|qty/i;

const typesOf = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

type Resolved = { schema: JsonSchema; nullable: boolean };

// Follows $ref into the root's $defs and unwraps anyOf/oneOf (how zod writes `.nullable()`), so the
// rules below see one concrete type and whether null is allowed.
const resolve = (schema: JsonSchema, root: JsonSchema, depth = 0): Resolved => {
  if (depth > 20) return { schema: {}, nullable: true };
  if (schema.$ref) {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref);
    const target = match
      ? (match[1] === '$defs' ? root.$defs : root.definitions)?.[match[2]]
      : schema.$ref === '#'
        ? root
        : undefined;
    return target ? resolve(target, root, depth + 1) : { schema: {}, nullable: true };
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const nullable = branches.some((b) => typesOf(b).includes('null'));
    const concrete = branches.find((b) => !(typesOf(b).length === 1 && typesOf(b)[0] === 'null'));
    if (!concrete) return { schema: { type: 'null' }, nullable: true };
    const inner = resolve(concrete, root, depth + 1);
    return { schema: inner.schema, nullable: nullable || inner.nullable };
  }
  const types = typesOf(schema);
  return { schema, nullable: types.includes('null') || (schema.enum ?? []).includes(null) };
};

const kindOf = (schema: JsonSchema) => {
  const types = typesOf(schema).filter((t) => t !== 'null');
  if (types.length > 0) return types[0];
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  if (schema.enum) return 'enum';
  return 'null';
};

type Context = { all: string; last: string; root: JsonSchema };

const pickEnum = (values: string[], ctx: Context) => {
  const positive = values.find((v) => v === 'positivo' || v === 'positive');
  const negative = values.find((v) => v === 'negativo' || v === 'negative');
  if (positive && negative) {
    if (positiveText.test(ctx.last)) return positive;
    if (negativeText.test(ctx.last)) return negative;
    if (values.includes('neutral')) return 'neutral';
  }
  return values[0];
};

const stringFor = (key: string, ctx: Context): string | undefined => {
  if (nameKey.test(key)) return nameText.exec(ctx.all)?.[1];
  if (/email|correo/i.test(key)) return emailText.exec(ctx.all)?.[0];
  if (/tel|phone/i.test(key))
    return [...ctx.all.matchAll(phoneText)]
      .map((m) => m[0].replace(/\D/g, ''))
      .find((digits) => digits.length >= 8);
  if (/direcci|address/i.test(key)) {
    const lead = addressLead.exec(ctx.all);
    if (!lead) return undefined;
    const rest = ctx.all.slice(lead.index + lead[0].length);
    const end = sentenceEnd.exec(rest);
    const address = (end ? rest.slice(0, end.index) : rest).trim().replace(/[,;:]+$/, '');
    return address || undefined;
  }
  return undefined;
};

// An array of order lines: items with a name and a quantity, one per "<number> <word>" said.
const itemsFor = (items: JsonSchema, ctx: Context): unknown[] | undefined => {
  const item = resolve(items, ctx.root).schema;
  const properties = Object.entries(item.properties ?? {});
  const nameProp = properties.find(
    ([key, s]) => nameKey.test(key) && kindOf(resolve(s, ctx.root).schema) === 'string',
  );
  const quantityProp = properties.find(
    ([key, s]) =>
      quantityKey.test(key) && ['number', 'integer'].includes(kindOf(resolve(s, ctx.root).schema)),
  );
  if (!nameProp || !quantityProp) return undefined;
  return [...ctx.all.matchAll(itemText)].map((match) => {
    const line = build(item, '', ctx);
    return {
      ...(isRecord(line) ? line : {}),
      [nameProp[0]]: match[2],
      [quantityProp[0]]: Number(match[1]),
    };
  });
};

const build = (raw: JsonSchema, key: string, ctx: Context): unknown => {
  const { schema, nullable } = resolve(raw, ctx.root);
  const strings = (schema.enum ?? []).filter((v): v is string => typeof v === 'string');
  if (schema.enum) return strings.length > 0 ? pickEnum(strings, ctx) : (schema.enum[0] ?? null);
  switch (kindOf(schema)) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, s]) => [k, build(s, k, ctx)]),
      );
    case 'array':
      return (schema.items && itemsFor(schema.items, ctx)) ?? [];
    case 'boolean':
      return key === 'final' ? closingText.test(ctx.last) : false;
    case 'string':
      return stringFor(key, ctx) ?? (nullable ? null : '');
    case 'number':
    case 'integer': {
      // An order's total where the customer said one ("total 1500", "total de $1.500,50").
      const total = /total\D{0,12}?(\d[\d.,]*)/i.exec(ctx.all)?.[1];
      if (/total/i.test(key) && total)
        return Number(total.replace(/[.,](?=\d{3}\b)/g, '').replace(',', '.'));
      return nullable ? null : 0;
    }
    default:
      return null;
  }
};

// A value for a json_schema response format, from the conversation's user messages (the last one
// decides the mood and whether the customer is done; all of them hold the customer's data).
export const structuredFor = (schema: JsonSchema, userTexts: string[]): unknown =>
  build(schema, '', {
    all: userTexts.join('\n'),
    last: userTexts[userTexts.length - 1] ?? '',
    root: schema,
  });

// ---- chat replies -------------------------------------------------------------------------------

const humanText = /\b(humano|persona|agente|asesor|human|person|agent)\b/i;

const defaultReply = (body: ChatBody): { reply: FakeReply; cut: boolean } => {
  const lastUser = [...body.messages].reverse().find((m) => m.role === 'user');
  const text = lastUser ? messageText(lastUser) : '';
  const transfer = (body.tools ?? []).find((t) => t.function?.name === 'transfer_to_human');
  if (transfer && body.tool_choice !== 'none' && humanText.test(text)) {
    const queueSchema = transfer.function.parameters?.properties?.queue;
    const queues = (queueSchema?.enum ?? []).filter((v): v is string => typeof v === 'string');
    const queue =
      queues.length > 0
        ? (queues.find((q) => text.toLowerCase().includes(q.toLowerCase())) ?? queues[0])
        : undefined;
    const args = {
      ...(queue === undefined ? {} : { queue }),
      reason: 'El cliente pidió hablar con una persona',
    };
    return {
      reply: { content: null, toolCalls: [{ name: 'transfer_to_human', arguments: args }] },
      cut: false,
    };
  }
  const content = `Respuesta automática (${body.messages.length} mensajes): ${text}`;
  const limit = body.max_completion_tokens ?? body.max_tokens;
  if (typeof limit === 'number' && content.length > limit * 4)
    return { reply: { content: content.slice(0, Math.max(0, limit * 4)) }, cut: true };
  return { reply: { content }, cut: false };
};

const completion = (body: ChatBody, custom: FakeReply | undefined) => {
  let reply: FakeReply;
  let cut = false;
  const format = body.response_format;
  if (format?.type === 'json_schema') {
    const schema = format.json_schema?.schema;
    reply = {
      content: schema ? JSON.stringify(structuredFor(schema, userTextsOf(body))) : '{}',
    };
  } else if (custom) {
    reply = custom;
  } else if (format?.type === 'json_object') {
    reply = { content: '{}' };
  } else {
    ({ reply, cut } = defaultReply(body));
  }
  const toolCalls: ChatToolCall[] = (reply.toolCalls ?? []).map((call) => ({
    id: newId('call_'),
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  // A reply with tool calls may say nothing; one without says at least ''.
  const content = reply.content === undefined ? (toolCalls.length > 0 ? null : '') : reply.content;
  const promptChars = body.messages.reduce((sum, m) => sum + messageText(m).length, 0);
  const prompt_tokens = Math.ceil(promptChars / 4) + 6 * body.messages.length;
  const completionChars =
    (content ?? '').length + toolCalls.reduce((sum, c) => sum + c.function.arguments.length, 0);
  const completion_tokens = Math.ceil(completionChars / 4);
  return {
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: nowSeconds(),
    model: body.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : cut ? 'length' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens },
  };
};

// What makes a request a chat completion the fake can answer, in the words OpenAI answers with.
const chatProblem = (body: unknown): string | undefined => {
  if (!isRecord(body))
    return "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload.)";
  if (typeof body.model !== 'string' || body.model === '')
    return 'you must provide a model parameter';
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return "Invalid 'messages': empty array. Expected an array with minimum length 1.";
  if (!body.messages.every((m) => isRecord(m) && typeof m.role === 'string'))
    return "Invalid 'messages': every message needs a role.";
  if (body.stream === true) return 'Streaming (stream: true) is not supported by this stand-in.';
  return undefined;
};

// ---- embeddings ---------------------------------------------------------------------------------

export type EmbeddingBody = {
  model: string;
  input: string | string[];
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
};

// The vectors' length unless a request asks for `dimensions`.
export const FAKE_EMBEDDING_DIMENSIONS = 256;

// Words that say little about what a text is about, left out of its vector.
const STOP_WORDS = new Set(
  (
    'que los las del por con una para como pero sus mas este esta son sin sobre entre cuando muy ' +
    'the and for are but not you with this that from have was were what which your can does how ' +
    'hay ser fue han cual donde'
  ).split(' '),
);

// A word as the stand-in compares words: lower case, without accents, its first six letters (a crude
// stem, so "devoluciones" and "devolución" meet).
const wordsOf = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word))
    .map((word) => word.slice(0, 6));

// FNV-1a, 32 bits.
const hash = (text: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

// A deterministic embedding of a text: its words (weight 1) and their character trigrams (weight
// 0.3) hashed into `dimensions` buckets with a sign, L2-normalised. Texts sharing words are near
// (cosine), texts sharing none are about orthogonal; the same text always gives the same vector.
export const fakeEmbedding = (text: string, dimensions = FAKE_EMBEDDING_DIMENSIONS) => {
  const vector = new Array<number>(dimensions).fill(0);
  const add = (feature: string, weight: number) => {
    const h = hash(feature);
    vector[h % dimensions] += (h & 0x80000000 ? -1 : 1) * weight;
  };
  for (const word of wordsOf(text)) {
    add(`w:${word}`, 1);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i += 1) add(`t:${padded.slice(i, i + 3)}`, 0.3);
  }
  const norm = Math.hypot(...vector);
  // A text without words still gets a vector of length 1 (as real models give).
  if (norm === 0) {
    vector[hash(text) % dimensions] = 1;
    return vector;
  }
  return vector.map((value) => value / norm);
};

const base64Of = (vector: number[]) =>
  Buffer.from(new Float32Array(vector).buffer).toString('base64');

// What makes a request an embeddings request the fake can answer, in the words OpenAI answers with.
const embeddingProblem = (body: unknown): string | undefined => {
  if (!isRecord(body))
    return "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload.)";
  if (typeof body.model !== 'string' || body.model === '')
    return 'you must provide a model parameter';
  if (!/embed/i.test(body.model)) return `The model '${body.model}' does not support embeddings`;
  const input = body.input;
  const texts = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(texts) || texts.length === 0 || texts.length > 2048)
    return "Invalid 'input': expected a string or an array of 1 to 2048 strings.";
  if (!texts.every((text) => typeof text === 'string' && text !== ''))
    return "Invalid 'input': every input must be a non-empty string (token arrays are not supported by this stand-in).";
  const dimensions = body.dimensions;
  if (dimensions !== undefined && (!Number.isInteger(dimensions) || (dimensions as number) < 1))
    return "Invalid 'dimensions': expected a positive integer.";
  return undefined;
};

const embeddings = (body: EmbeddingBody, defaultDimensions: number) => {
  const texts = typeof body.input === 'string' ? [body.input] : body.input;
  const dimensions = body.dimensions ?? defaultDimensions;
  const prompt_tokens = texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
  return {
    object: 'list',
    model: body.model,
    data: texts.map((text, index) => {
      const vector = fakeEmbedding(text, dimensions);
      return {
        object: 'embedding',
        index,
        embedding: body.encoding_format === 'base64' ? base64Of(vector) : vector,
      };
    }),
    usage: { prompt_tokens, total_tokens: prompt_tokens },
  };
};

// ---- multipart ----------------------------------------------------------------------------------

type Multipart = { fields: Record<string, string>; fileName?: string; fileSize?: number };

// Just enough of multipart/form-data for a transcription upload: the text fields, and the name and
// size of the part called `file`.
const parseMultipart = (body: Buffer, contentType: string): Multipart | undefined => {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!match) return undefined;
  const delimiter = Buffer.from(`--${match[1] ?? match[2]}`);
  const out: Multipart = { fields: {} };
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const partStart = start + delimiter.length;
    if (body.subarray(partStart, partStart + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, partStart);
    if (next < 0) break;
    // Each part sits between "\r\n" after the delimiter and "\r\n" before the next one.
    const part = body.subarray(partStart + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      const data = part.subarray(headerEnd + 4);
      const name = /\bname="([^"]*)"/i.exec(headers)?.[1];
      const fileName = /\bfilename="([^"]*)"/i.exec(headers)?.[1];
      if (name === 'file') {
        out.fileName = fileName ?? '';
        out.fileSize = data.length;
      } else if (name !== undefined && fileName === undefined) {
        out.fields[name] = data.toString('utf8');
      }
    }
    start = next;
  }
  return out;
};

// ---- server -------------------------------------------------------------------------------------

const errorType = (status: number) =>
  status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
const errorMessage = (status: number) =>
  status === 429
    ? 'Rate limit reached for requests (simulated failure)'
    : status >= 500
      ? 'The server had an error while processing your request (simulated failure)'
      : `Simulated failure (${status})`;

export const startFakeOpenAi = async (
  // embeddingDimensions: the vectors' length when a request does not ask for one (a real model's,
  // 1,536 for text-embedding-3-small, where a bench wants its cost; 256 by default).
  options: { apiKey?: string | null; port?: number; embeddingDimensions?: number } = {},
): Promise<FakeOpenAi> => {
  const requests: OpenAiRequest[] = [];
  const failures: { failure: FakeFailure; times: number; pathPart?: string; skip: number }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let custom: ((body: ChatBody) => FakeReply | undefined) | undefined;

  // Answers after ms unless the client has gone (an SDK timeout aborts) or the fake is closed.
  const later = (res: ServerResponse, ms: number, answer: () => void) => {
    if (ms <= 0) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, ms);
    timers.add(timer);
    res.on('close', () => {
      clearTimeout(timer);
      timers.delete(timer);
    });
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': newId('req_') });
    res.end(JSON.stringify(body));
  };
  const openAiError = (
    res: ServerResponse,
    status: number,
    message: string,
    type = errorType(status),
    code: string | null = null,
  ) => send(res, status, { error: { message, type, param: null, code } });

  const takeFailure = (path: string) => {
    const index = failures.findIndex((f) => !f.pathPart || path.includes(f.pathPart));
    if (index < 0) return undefined;
    const queued = failures[index];
    if (queued.skip > 0) {
      queued.skip -= 1;
      return undefined;
    }
    queued.times -= 1;
    if (queued.times <= 0) failures.splice(index, 1);
    return queued.failure;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer) => {
    const method = req.method ?? '';
    const contentType = req.headers['content-type'] ?? '';
    let body: unknown = null;
    let multipart: Multipart | undefined;
    if (/^multipart\/form-data/i.test(contentType)) {
      multipart = parseMultipart(raw, contentType);
      body = multipart ?? raw.toString('utf8');
    } else if (raw.length > 0) {
      const text = raw.toString('utf8');
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        body = text;
      }
    }
    const authorization = req.headers.authorization;
    requests.push({ method, path, authorization, body });

    const failure = takeFailure(path);
    if (failure) {
      // Status 0 is a server that never answers: the request stays open until the client gives up
      // or close() drops the connection.
      if (failure.status === 0) return;
      return later(res, failure.delayMs ?? 0, () =>
        openAiError(
          res,
          failure.status,
          failure.message ?? errorMessage(failure.status),
          failure.type ?? errorType(failure.status),
          failure.code ?? (failure.status === 429 ? 'rate_limit_exceeded' : null),
        ),
      );
    }

    if (path === '/v1/audio/transcriptions' && !fake.transcriptions)
      return openAiError(res, 404, `Invalid URL (${method} ${path})`, 'invalid_request_error');
    if (fake.apiKey !== undefined && authorization !== `Bearer ${fake.apiKey}`)
      return openAiError(
        res,
        401,
        'Incorrect API key provided',
        'invalid_request_error',
        'invalid_api_key',
      );

    if (method === 'GET' && path === '/v1/models')
      return send(res, 200, {
        object: 'list',
        data: MODELS.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'fake' })),
      });
    const model = /^\/v1\/models\/([^/]+)$/.exec(path);
    if (method === 'GET' && model) {
      const id = decodeURIComponent(model[1]);
      if (!MODELS.includes(id))
        return openAiError(
          res,
          404,
          `The model '${id}' does not exist`,
          'invalid_request_error',
          'model_not_found',
        );
      return send(res, 200, { id, object: 'model', created: 1700000000, owned_by: 'fake' });
    }

    if (method === 'POST' && path === '/v1/chat/completions') {
      const problem = chatProblem(body);
      if (problem) return openAiError(res, 400, problem, 'invalid_request_error');
      const chat = body as ChatBody;
      const answer = () => {
        try {
          const scripted =
            chat.response_format?.type === 'json_schema' ? undefined : custom?.(chat);
          send(res, 200, completion(chat, scripted));
        } catch (error) {
          // A reply a test scripted threw, or a body the rules cannot read: answered as OpenAI
          // answers its own failures, so the test sees it instead of a hung request.
          openAiError(res, 500, `Stand-in failed: ${(error as Error).message}`, 'server_error');
        }
      };
      return later(res, fake.latencyMs, answer);
    }

    if (method === 'POST' && path === '/v1/embeddings') {
      const problem = embeddingProblem(body);
      if (problem) return openAiError(res, 400, problem, 'invalid_request_error');
      return later(res, fake.latencyMs, () =>
        send(
          res,
          200,
          embeddings(
            body as EmbeddingBody,
            options.embeddingDimensions ?? FAKE_EMBEDDING_DIMENSIONS,
          ),
        ),
      );
    }

    if (method === 'POST' && path === '/v1/audio/transcriptions') {
      if (!multipart)
        return openAiError(
          res,
          400,
          'Expected a multipart/form-data body',
          'invalid_request_error',
        );
      if (multipart.fileName === undefined)
        return openAiError(
          res,
          400,
          "Missing required parameter: 'file'.",
          'invalid_request_error',
          'missing_required_parameter',
        );
      if (!multipart.fields.model)
        return openAiError(
          res,
          400,
          'you must provide a model parameter',
          'invalid_request_error',
          'missing_required_parameter',
        );
      const text = `Transcripción de ${multipart.fileName}`;
      if (multipart.fields.response_format === 'text') {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
        return;
      }
      // As OpenAI's: models billed by tokens say how many (audio in, text out), whisper-1 the seconds.
      const heard = Math.ceil((multipart.fileSize ?? 0) / 64) + 1;
      const written = Math.ceil(text.length / 4);
      const usage =
        multipart.fields.model === 'whisper-1'
          ? { type: 'duration', seconds: 1 }
          : {
              type: 'tokens',
              input_tokens: heard,
              output_tokens: written,
              total_tokens: heard + written,
            };
      return send(res, 200, { text, usage });
    }

    return openAiError(res, 404, `Invalid URL (${method} ${path})`, 'invalid_request_error');
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, (req.url ?? '/').split('?')[0], Buffer.concat(chunks)));
    // A client that aborts mid-upload must not take the server down.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));

  const fake: FakeOpenAi = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    apiKey: options.apiKey === null ? undefined : (options.apiKey ?? OPENAI_KEY),
    latencyMs: 0,
    transcriptions: true,
    failNext: (failure, { times = 1, pathPart, skip = 0 } = {}) =>
      void failures.push({ failure, times, pathPart, skip }),
    clearFailures: () => void failures.splice(0),
    respondWith: (fn) => {
      custom = fn;
    },
    chatRequests: () =>
      requests
        .filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions' && isRecord(r.body))
        .map((r) => r.body as ChatBody),
    embeddingRequests: () =>
      requests
        .filter((r) => r.method === 'POST' && r.path === '/v1/embeddings' && isRecord(r.body))
        .map((r) => r.body as EmbeddingBody),
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
};

// A model that follows an agent's knowledge-base instructions (for the fake OpenAI server's
// respondWith): it answers with the opening of the first passage it is given, citing it as [1], and
// hands the conversation to a person when it is given none. Other requests get the default answers.
export const citingModel = (body: ChatBody): FakeReply | undefined => {
  if (body.response_format) return undefined;
  const system = body.messages.find((m) => m.role === 'system')?.content;
  const first = /\[1\] \(([^)]*)\)\n([^\n]*)/.exec(typeof system === 'string' ? system : '');
  if (!first)
    return {
      content: null,
      toolCalls: [{ name: 'transfer_to_human', arguments: { reason: 'Sin información' } }],
    };
  return { content: `Según nuestra política, ${first[2].slice(0, 60).toLowerCase()} [1].` };
};
