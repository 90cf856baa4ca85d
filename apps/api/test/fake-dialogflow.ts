import {
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  randomUUID,
  verify,
  type KeyObject,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for Dialogflow ES (the machines running tests have no internet and no agent). It
// speaks the REST shape of v2 detectIntent, Google's error JSON and the OAuth2 JWT-bearer token
// grant, and checks credentials the way Google does: an RS256 JWT signed by a service-account key it
// trusts, either exchanged at /token for an access token or sent directly as the bearer (the
// "self-signed JWT" google-auth-library uses for service accounts). A small scripted agent answers;
// it records every detectIntent and fails on demand.

export type FakeIntent = {
  displayName: string;
  // Matches when the text contains one of these, ignoring case.
  keywords: string[];
  // One text response each (ES's default platform), as the console's Responses section holds them.
  texts?: string[];
  // Overrides fulfillmentText, which ES fills from the first text response.
  fulfillmentText?: string;
  action?: string;
  // The console's "Set this intent as end of conversation".
  endConversation?: boolean;
  // A "Custom payload" response.
  payload?: Record<string, unknown>;
  // Further fulfilment messages in REST JSON (other platforms, cards…).
  extraMessages?: Record<string, unknown>[];
};

export type DetectIntentRequest = {
  project: string;
  session: string;
  // The session path as sent: projects/{project}/agent/sessions/{session}.
  sessionPath: string;
  text: string | undefined;
  languageCode: string | undefined;
  body: unknown;
  // How the caller proved who it is.
  credential: 'access_token' | 'self_signed_jwt';
  // The kid of the JWT: the key's private_key_id.
  keyId: unknown;
  // Claims of the JWT that authenticated it (the bearer itself, or the one exchanged for the token).
  claims: Record<string, unknown>;
  intent: string;
};

export type DialogflowFailure = {
  // HTTP status; 0 never answers until the client gives up or the fake closes (a timeout).
  status: number;
  message?: string;
  // Answer with a non-JSON body, as a proxy in front of Google would.
  html?: boolean;
};

export type FakeDialogflow = {
  url: string;
  // What to give the adapter as endpoint.
  endpoint: string;
  // What to put as token_uri in generated keys.
  tokenUri: string;
  projects: Set<string>;
  languages: Set<string>;
  requests: DetectIntentRequest[];
  tokenRequests: number;
  trustKey(publicKey: KeyObject | string, clientEmail: string): void;
  setIntents(intents: FakeIntent[]): void;
  // The next `times` authenticated detectIntent calls fail with this.
  failNext(failure: DialogflowFailure, times?: number): void;
  close(): Promise<void>;
};

const SCOPES = [
  'https://www.googleapis.com/auth/cloud-platform',
  'https://www.googleapis.com/auth/dialogflow',
];
// What a self-signed JWT without scopes names as its audience.
const SERVICE_AUDIENCE = 'https://dialogflow.googleapis.com/';

const FALLBACK_INTENT: FakeIntent = {
  displayName: 'Default Fallback Intent',
  keywords: [],
  texts: ['Perdón, no entendí. ¿Podés repetirlo?'],
  action: 'input.unknown',
};

export const DEFAULT_INTENTS: FakeIntent[] = [
  {
    displayName: 'Default Welcome Intent',
    keywords: ['hola', 'buenas', 'olá'],
    texts: ['¡Hola! Soy el asistente virtual.', '¿En qué te puedo ayudar?'],
    action: 'input.welcome',
  },
  {
    displayName: 'Horarios',
    keywords: ['horario', 'abren'],
    texts: ['Atendemos de lunes a viernes de 9 a 18 h.'],
  },
  {
    displayName: 'Despedida',
    keywords: ['chau', 'adiós', 'gracias'],
    texts: ['¡Gracias por escribirnos!'],
    action: 'smalltalk.goodbye',
    endConversation: true,
  },
  {
    displayName: 'Hablar con una persona',
    keywords: ['humano', 'persona', 'asesor'],
    texts: ['Te paso con una persona del equipo.'],
    payload: { action: 'transfer', queue: 'ventas' },
  },
];

// A service-account key as the Cloud console issues it, for a pair generated here. Nothing trusts it
// until the test calls trustKey(publicKey, key.client_email).
export const makeServiceAccountKey = (
  tokenUri: string,
  projectId: string,
  clientEmail = `atendi-bot@${projectId}.iam.gserviceaccount.com`,
) => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: String(100000000000000000000n + BigInt(Math.floor(Math.random() * 1e15))),
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
    universe_domain: 'googleapis.com',
  };
  return { key, json: JSON.stringify(key, null, 2), publicKey };
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const defaultMessages: Record<number, string> = {
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'Internal error encountered.',
  503: 'The service is currently unavailable.',
  504: 'Deadline exceeded.',
};

type Jwt = { header: Record<string, unknown>; claims: Record<string, unknown> };

export const startFakeDialogflow = async (
  options: { projects?: string[]; intents?: FakeIntent[] } = {},
): Promise<FakeDialogflow> => {
  const trusted = new Map<string, KeyObject[]>();
  const tokens = new Map<string, { jwt: Jwt; expires: number }>();
  const failures: { failure: DialogflowFailure; times: number }[] = [];
  let intents = options.intents ?? DEFAULT_INTENTS;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body));
  };
  const googleError = (res: ServerResponse, status: number, message: string) =>
    send(res, status, {
      error: { code: status, message, status: statusNames[status] ?? 'UNKNOWN' },
    });

  // A JWT signed by a trusted key of its issuer and not expired, or why not (as Google words it).
  const checkJwt = (token: string): Jwt | string => {
    const [header64, claims64, signature64] = token.split('.');
    if (!signature64) return 'Invalid JWT.';
    const decode = (part: string) =>
      JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;
    let jwt: Jwt;
    try {
      jwt = { header: decode(header64), claims: decode(claims64) };
    } catch {
      return 'Invalid JWT.';
    }
    if (jwt.header.alg !== 'RS256') return 'Invalid JWT: unsupported algorithm.';
    const keys = trusted.get(String(jwt.claims.iss)) ?? [];
    const signed = Buffer.from(`${header64}.${claims64}`);
    const signature = Buffer.from(signature64, 'base64url');
    if (!keys.some((key) => verify('sha256', signed, key, signature)))
      return 'Invalid JWT Signature.';
    if (typeof jwt.claims.exp !== 'number' || jwt.claims.exp * 1000 < Date.now())
      return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
    return jwt;
  };

  const grantToken = (res: ServerResponse, raw: string) => {
    fake.tokenRequests += 1;
    const form = new URLSearchParams(raw);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return send(res, 400, {
        error: 'unsupported_grant_type',
        error_description: 'Invalid grant_type.',
      });
    const jwt = checkJwt(form.get('assertion') ?? '');
    if (typeof jwt === 'string')
      return send(res, 400, { error: 'invalid_grant', error_description: jwt });
    if (jwt.claims.aud !== fake.tokenUri)
      return send(res, 400, {
        error: 'invalid_grant',
        error_description: 'Invalid JWT: audience.',
      });
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    tokens.set(accessToken, { jwt, expires: Date.now() + 3_600_000 });
    return send(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 });
  };

  // Who is calling: an access token issued here, or a self-signed JWT for this API.
  const authenticate = (authorization: string | undefined) => {
    const bearer = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!bearer) return undefined;
    const issued = tokens.get(bearer);
    if (issued)
      return issued.expires > Date.now()
        ? {
            credential: 'access_token' as const,
            claims: issued.jwt.claims,
            keyId: issued.jwt.header.kid,
          }
        : undefined;
    const jwt = checkJwt(bearer);
    if (typeof jwt === 'string' || jwt.claims.sub !== jwt.claims.iss) return undefined;
    const scopes = String(jwt.claims.scope ?? '').split(' ');
    const forThisApi =
      scopes.some((scope) => SCOPES.includes(scope)) || jwt.claims.aud === SERVICE_AUDIENCE;
    return forThisApi
      ? { credential: 'self_signed_jwt' as const, claims: jwt.claims, keyId: jwt.header.kid }
      : undefined;
  };

  const answer = (project: string, intent: FakeIntent, queryText: string, languageCode: string) => {
    const texts = intent.texts ?? [];
    const messages: Record<string, unknown>[] = [
      ...texts.map((text) => ({ text: { text: [text] } })),
      ...(intent.payload ? [{ payload: intent.payload }] : []),
      ...(intent.extraMessages ?? []),
    ];
    return {
      responseId: `${randomUUID()}-${randomBytes(4).toString('hex')}`,
      queryResult: {
        queryText,
        ...(intent.action ? { action: intent.action } : {}),
        parameters: {},
        allRequiredParamsPresent: true,
        fulfillmentText: intent.fulfillmentText ?? texts[0] ?? '',
        ...(messages.length > 0 ? { fulfillmentMessages: messages } : {}),
        intent: {
          name: `projects/${project}/agent/intents/${randomUUID()}`,
          displayName: intent.displayName,
          ...(intent === FALLBACK_INTENT ? { isFallback: true } : {}),
        },
        intentDetectionConfidence: intent === FALLBACK_INTENT ? 1 : 0.87,
        ...(intent.endConversation ? { diagnosticInfo: { end_conversation: true } } : {}),
        languageCode,
      },
    };
  };

  const detectIntent = (req: IncomingMessage, res: ServerResponse, path: string, raw: string) => {
    const match = /^\/v2\/(projects\/([^/]+)\/agent\/sessions\/([^/:]+)):detectIntent$/.exec(path);
    if (!match) return googleError(res, 404, `Method not found: ${path}`);
    const [, sessionPath, project, session] = match.map(decodeURIComponent);
    const who = authenticate(req.headers.authorization);
    if (!who)
      return googleError(
        res,
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      );
    let body: unknown;
    try {
      body = JSON.parse(raw || '{}');
    } catch {
      return googleError(res, 400, 'Invalid JSON payload received.');
    }
    const query = isRecord(body) && isRecord(body.queryInput) ? body.queryInput.text : undefined;
    const text = isRecord(query) && typeof query.text === 'string' ? query.text : undefined;
    const languageCode =
      isRecord(query) && typeof query.languageCode === 'string' ? query.languageCode : undefined;
    const intent = text
      ? (intents.find((i) =>
          i.keywords.some((k) => text.toLowerCase().includes(k.toLowerCase())),
        ) ?? FALLBACK_INTENT)
      : FALLBACK_INTENT;
    fake.requests.push({
      project,
      session,
      sessionPath,
      text,
      languageCode,
      body,
      ...who,
      intent: intent.displayName,
    });

    const failure = failures[0];
    if (failure) {
      failure.times -= 1;
      if (failure.times <= 0) failures.shift();
      const { status, message, html } = failure.failure;
      if (status === 0) return;
      if (html) {
        res.writeHead(status, { 'content-type': 'text/html' });
        return res.end(`<html><body><h1>${status} Server Error</h1></body></html>`);
      }
      return googleError(
        res,
        status,
        message ?? defaultMessages[status] ?? `Simulated failure (${status})`,
      );
    }
    if (!fake.projects.has(project))
      return googleError(
        res,
        404,
        `com.google.apps.framework.request.NotFoundException: No DesignTimeAgent found for project '${project}'.`,
      );
    if (!text) return googleError(res, 400, 'Invalid Argument: the query text is empty.');
    if (!languageCode || !fake.languages.has(languageCode))
      return googleError(
        res,
        400,
        `com.google.apps.framework.request.BadRequestException: Invalid language code "${languageCode ?? ''}".`,
      );
    return send(res, 200, answer(project, intent, text, languageCode));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const raw = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST' && path === '/token') return grantToken(res, raw);
      if (req.method === 'POST') return detectIntent(req, res, path, raw);
      return googleError(res, 404, `Method not found: ${req.method} ${path}`);
    });
    req.on('error', () => undefined);
    res.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeDialogflow = {
    url,
    endpoint: url,
    tokenUri: `${url}/token`,
    projects: new Set(options.projects ?? ['atendi-bot']),
    languages: new Set(['es', 'pt-BR', 'en']),
    requests: [],
    tokenRequests: 0,
    trustKey: (publicKey, clientEmail) =>
      void trusted.set(clientEmail, [
        ...(trusted.get(clientEmail) ?? []),
        typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey,
      ]),
    setIntents: (next) => {
      intents = next;
    },
    failNext: (failure, times = 1) => void failures.push({ failure, times }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
};
