import { createHash, createPrivateKey } from 'node:crypto';
import type { protos, v2 } from '@google-cloud/dialogflow';

// Dialogflow ES through Google's client over its REST transport (fallback: true, HTTP/1 + JSON, no
// gRPC). Service-account keys authenticate as google-auth-library does for this client: each call
// carries a JWT signed with the key (a "self-signed JWT", reused until near its one-hour expiry); the
// key's token_uri is never used, there is no OAuth token exchange.

export type DialogflowKey = {
  project_id?: string;
  client_email: string;
  private_key: string;
  token_uri?: string;
  [k: string]: unknown;
};

export type DialogflowTarget = {
  key: DialogflowKey;
  projectName: string;
  language: string;
  // host[:port] (https) or http(s)://host:port
  endpoint: string;
  timeoutMs: number;
};

type DialogflowAnswer = {
  texts: string[];
  intent: string | null;
  action: string | null;
  endConversation: boolean;
  handoff: boolean;
  durationMs: number;
};

type DialogflowErrorCode =
  | 'ERR_DIALOGFLOW_AUTH'
  | 'ERR_DIALOGFLOW_NOT_FOUND'
  | 'ERR_DIALOGFLOW_UNAVAILABLE'
  | 'ERR_DIALOGFLOW_INVALID';

export class DialogflowError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly code: DialogflowErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DialogflowError';
    this.retryable = code === 'ERR_DIALOGFLOW_UNAVAILABLE';
  }
}

const DEFAULT_DIALOGFLOW_ENDPOINT = 'dialogflow.googleapis.com';

export const parseDialogflowKey = (json: string): DialogflowKey | null => {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const key = value as Record<string, unknown>;
  return typeof key.client_email === 'string' && typeof key.private_key === 'string'
    ? (key as DialogflowKey)
    : null;
};

// ---- errors -------------------------------------------------------------------------------------

// gRPC status names by number, as GoogleError carries them.
const GRPC_STATUS = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];
const HTTP_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  429: 'RESOURCE_EXHAUSTED',
};
const CODES: Record<string, DialogflowErrorCode> = {
  UNAUTHENTICATED: 'ERR_DIALOGFLOW_AUTH',
  PERMISSION_DENIED: 'ERR_DIALOGFLOW_AUTH',
  NOT_FOUND: 'ERR_DIALOGFLOW_NOT_FOUND',
  INVALID_ARGUMENT: 'ERR_DIALOGFLOW_INVALID',
  FAILED_PRECONDITION: 'ERR_DIALOGFLOW_INVALID',
  OUT_OF_RANGE: 'ERR_DIALOGFLOW_INVALID',
  UNIMPLEMENTED: 'ERR_DIALOGFLOW_INVALID',
};
const LEADS: Record<DialogflowErrorCode, string> = {
  ERR_DIALOGFLOW_AUTH: 'Dialogflow rejected the service-account key',
  ERR_DIALOGFLOW_NOT_FOUND: 'Dialogflow has no such agent',
  ERR_DIALOGFLOW_INVALID: 'Dialogflow refused the request',
  ERR_DIALOGFLOW_UNAVAILABLE: 'Dialogflow is unavailable',
};

type Failure = {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  response?: { data?: unknown };
};

const parseBody = (data: unknown): Record<string, unknown> | undefined => {
  if (typeof data === 'object' && data !== null) return data as Record<string, unknown>;
  if (typeof data !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

const PEM_BLOCK = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g;

// What went wrong, in Google's words where it said any. Non-2xx answers arrive as gaxios errors
// (HTTP status, body as text): the REST transport's fetch rejects them before gax decodes them. A
// GoogleError (numeric gRPC code) still comes from gax itself, e.g. for an answer it cannot decode.
const classify = (error: unknown, key: DialogflowKey): DialogflowError => {
  const failure = (typeof error === 'object' && error !== null ? error : {}) as Failure;
  const http = typeof failure.status === 'number' ? failure.status : undefined;
  // gaxios keeps a streamed error body only as the error's message.
  const body = parseBody(failure.response?.data) ?? (http ? parseBody(failure.message) : undefined);
  const google = parseBody(body?.error);
  // An OAuth token endpoint answers { error: 'invalid_grant', error_description }.
  const oauth = typeof body?.error === 'string' ? body.error : undefined;
  let status: string | undefined;
  if (oauth) status = 'UNAUTHENTICATED';
  else if (typeof google?.status === 'string') status = google.status;
  else if (http) status = HTTP_STATUS[http] ?? (http < 500 ? 'FAILED_PRECONDITION' : 'UNAVAILABLE');
  else if (typeof failure.code === 'number') status = GRPC_STATUS[failure.code];
  const code = (status && CODES[status]) || 'ERR_DIALOGFLOW_UNAVAILABLE';
  // Without a status it is a network failure, named by its errno (ECONNREFUSED, ENOTFOUND…).
  const label = status ?? (typeof failure.code === 'string' ? failure.code : undefined);
  // An HTML error page says nothing worth keeping.
  const detail =
    (typeof google?.message === 'string' && google.message) ||
    (oauth && [oauth, body?.error_description].filter(Boolean).join(': ')) ||
    (http ? `HTTP ${http}` : typeof failure.message === 'string' && failure.message) ||
    'unknown error';
  const message = `${LEADS[code]}${label ? ` (${label})` : ''}: ${detail}`;
  const redacted = key.private_key ? message.split(key.private_key).join('[private key]') : message;
  return new DialogflowError(code, redacted.replace(PEM_BLOCK, '[private key]').slice(0, 500));
};

// ---- clients ------------------------------------------------------------------------------------

// Loaded on first use: with gRPC and Dialogflow's protos it takes about a second and 65 MB, which an
// API without Dialogflow integrations should not pay at startup.
let library: Promise<typeof import('@google-cloud/dialogflow')> | undefined;

const MAX_CLIENTS = 50;
// One client per key and endpoint, so the signed JWT (and the parsed protos) serve every turn.
const clients = new Map<string, v2.SessionsClient>();

const transportOf = (endpoint: string) => {
  const url = new URL(/^https?:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  // gax takes the host and port apart: `port` wins over a port in apiEndpoint and defaults to 443.
  return {
    apiEndpoint: url.hostname,
    port: Number(url.port) || (protocol === 'http' ? 80 : 443),
    protocol,
  };
};

const clientFor = async (target: DialogflowTarget) => {
  // Awaited first: from here on nothing yields, so concurrent first turns share one client.
  const { v2: dialogflow } = await (library ??= import('@google-cloud/dialogflow'));
  const { key } = target;
  const endpoint = target.endpoint.trim() || DEFAULT_DIALOGFLOW_ENDPOINT;
  // Hashing the private key (not only private_key_id) keeps a re-uploaded key from reusing a client.
  const id = [
    key.client_email,
    createHash('sha256').update(key.private_key).digest('hex'),
    endpoint,
  ].join('\n');
  const cached = clients.get(id);
  if (cached) {
    clients.delete(id);
    clients.set(id, cached);
    return cached;
  }
  // A key that is no PEM would only fail inside the JWT signing, as an error with no status.
  try {
    createPrivateKey(key.private_key);
  } catch {
    throw new DialogflowError(
      'ERR_DIALOGFLOW_AUTH',
      "The service-account key's private_key is not a PEM private key",
    );
  }
  let transport: ReturnType<typeof transportOf>;
  try {
    transport = transportOf(endpoint);
  } catch {
    throw new DialogflowError('ERR_DIALOGFLOW_INVALID', `Invalid Dialogflow endpoint: ${endpoint}`);
  }
  const client = new dialogflow.SessionsClient({
    credentials: {
      type: 'service_account',
      client_email: key.client_email,
      private_key: key.private_key,
      ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}),
    },
    fallback: true,
    ...transport,
  });
  clients.set(id, client);
  if (clients.size > MAX_CLIENTS) {
    const [oldest, dropped] = clients.entries().next().value!;
    clients.delete(oldest);
    void dropped.close().catch(() => undefined);
  }
  return client;
};

export const closeDialogflowClients = async () => {
  const open = [...clients.values()];
  clients.clear();
  await Promise.all(open.map((client) => client.close().catch(() => undefined)));
};

// ---- answers ------------------------------------------------------------------------------------

type Struct = protos.google.protobuf.IStruct | null | undefined;

// Struct fields (diagnosticInfo, custom payloads) arrive in protobuf form, { fields: { name: { boolValue:
// true, kind: 'boolValue' } } }, not as the plain JSON the REST API sent.
const scalar = (struct: Struct, name: string) => {
  const value = struct?.fields?.[name];
  return value?.stringValue ?? value?.boolValue ?? value?.numberValue ?? null;
};

const HANDOFF_ACTIONS = ['handoff', 'transfer'];

const answerOf = (
  result: protos.google.cloud.dialogflow.v2.IQueryResult,
  started: number,
): DialogflowAnswer => {
  // Responses for other platforms (Facebook, Telegram…) repeat the default ones in their own form.
  const messages = (result.fulfillmentMessages ?? []).filter(
    (m) => !m.platform || m.platform === 'PLATFORM_UNSPECIFIED',
  );
  const joined = messages
    .map((m) =>
      (m.text?.text ?? [])
        .map((t) => t.trim())
        .filter(Boolean)
        .join('\n'),
    )
    .filter(Boolean);
  const texts = (joined.length > 0 ? joined : [result.fulfillmentText ?? ''])
    .map((t) => t.trim())
    .filter(Boolean);
  const payloadAction = (m: protos.google.cloud.dialogflow.v2.Intent.IMessage) =>
    String(scalar(m.payload, 'action') ?? '').toLowerCase();
  return {
    texts,
    intent: result.intent?.displayName || null,
    action: result.action || null,
    endConversation: scalar(result.diagnosticInfo, 'end_conversation') === true,
    handoff:
      result.action === 'handoff' ||
      messages.some((m) => HANDOFF_ACTIONS.includes(payloadAction(m))),
    durationMs: Date.now() - started,
  };
};

// One turn: the contact's text in the ticket's session. The REST transport ignores the per-call
// timeout (it only becomes a gRPC deadline) and the public method's promise cannot be cancelled, so
// our own timer bounds the wait (a gaxios `timeout` would rely on AbortSignal.any, whose timeout
// signal Node 20 may garbage-collect before it fires). gax's retries are off so that one turn stays
// one request: the integration runtime decides about retrying from `retryable`.
export const detectIntent = async (
  target: DialogflowTarget,
  sessionId: string,
  text: string,
): Promise<DialogflowAnswer> => {
  const started = Date.now();
  if (!target.projectName.trim() || /[/?#\s]/.test(target.projectName))
    throw new DialogflowError(
      'ERR_DIALOGFLOW_INVALID',
      `Invalid Dialogflow project: ${target.projectName}`,
    );
  const client = await clientFor(target);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DialogflowError(
            'ERR_DIALOGFLOW_UNAVAILABLE',
            `Dialogflow did not answer within ${target.timeoutMs} ms`,
          ),
        ),
      target.timeoutMs,
    );
  });
  try {
    const [response] = await Promise.race([
      client.detectIntent(
        {
          session: client.projectAgentSessionPath(target.projectName, sessionId),
          queryInput: { text: { text, languageCode: target.language } },
        },
        { timeout: target.timeoutMs, retry: null },
      ),
      expired,
    ]);
    return answerOf(response.queryResult ?? {}, started);
  } catch (error) {
    throw error instanceof DialogflowError ? error : classify(error, target.key);
  } finally {
    clearTimeout(timer);
  }
};
