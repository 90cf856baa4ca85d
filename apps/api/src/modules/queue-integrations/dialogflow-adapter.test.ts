import { randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  closeDialogflowClients,
  detectIntent,
  DialogflowError,
  parseDialogflowKey,
  type DialogflowTarget,
} from './dialogflow-adapter';
import {
  makeServiceAccountKey,
  startFakeDialogflow,
  type FakeDialogflow,
  type FakeIntent,
} from '../../../test/fake-dialogflow';

// The adapter through Google's own client over HTTP, against a local stand-in that checks the
// service-account JWT as Google does and answers from a small scripted agent.

const PROJECT = 'atendi-bot';
let fake: FakeDialogflow;
let account: ReturnType<typeof makeServiceAccountKey>;

const target = (overrides: Partial<DialogflowTarget> = {}): DialogflowTarget => ({
  key: account.key,
  projectName: PROJECT,
  language: 'es',
  endpoint: fake.endpoint,
  timeoutMs: 5_000,
  ...overrides,
});

// The error a turn fails with; whatever it is, it never carries the private key.
const failure = async (promise: Promise<unknown>, privateKey = account.key.private_key) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DialogflowError);
  const { message } = error as DialogflowError;
  expect(message).not.toContain(privateKey);
  expect(message).not.toMatch(/PRIVATE KEY|MII[A-Za-z0-9+/]{20}/);
  return error as DialogflowError;
};

const INTENTS: FakeIntent[] = [
  {
    displayName: 'Default Welcome Intent',
    keywords: ['hola'],
    texts: ['¡Hola! Soy el asistente virtual.', '  ', '¿En qué te puedo ayudar?'],
    action: 'input.welcome',
    extraMessages: [{ text: { text: ['Hello from Messenger'] }, platform: 'FACEBOOK' }],
  },
  {
    displayName: 'Despedida',
    keywords: ['chau'],
    texts: ['¡Gracias por escribirnos!'],
    endConversation: true,
  },
  {
    displayName: 'Hablar con una persona',
    keywords: ['humano'],
    texts: ['Te paso con una persona del equipo.'],
    payload: { action: 'transfer', queue: 'ventas' },
  },
  { displayName: 'Derivar', keywords: ['derivar'], action: 'handoff', texts: ['Derivando…'] },
  {
    displayName: 'Tarjeta',
    keywords: ['tarjeta'],
    texts: ['Mirá la tarjeta.'],
    payload: { action: 'show_card' },
  },
  {
    displayName: 'Webhook',
    keywords: ['pedido'],
    fulfillmentText: '  Tu pedido 1234 está en camino.  ',
  },
];

beforeAll(async () => {
  fake = await startFakeDialogflow({ projects: [PROJECT], intents: INTENTS });
  account = makeServiceAccountKey(fake.tokenUri, PROJECT);
  fake.trustKey(account.publicKey, account.key.client_email);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await closeDialogflowClients();
  await fake.close();
});

describe('detectIntent against the Dialogflow stand-in', () => {
  it("answers with the matched intent's texts, one per message, in the ticket's session", async () => {
    const session = randomUUID();
    const answer = await detectIntent(target(), session, 'hola, ¿cómo va?');
    expect(answer).toMatchObject({
      texts: ['¡Hola! Soy el asistente virtual.', '¿En qué te puedo ayudar?'],
      intent: 'Default Welcome Intent',
      action: 'input.welcome',
      endConversation: false,
      handoff: false,
    });
    expect(answer.durationMs).toBeGreaterThanOrEqual(0);
    const request = fake.requests.at(-1)!;
    expect(request).toMatchObject({
      project: PROJECT,
      session,
      sessionPath: `projects/${PROJECT}/agent/sessions/${session}`,
      text: 'hola, ¿cómo va?',
      languageCode: 'es',
      body: { queryInput: { text: { text: 'hola, ¿cómo va?', languageCode: 'es' } } },
    });
  });

  it('sends the integration language and answers the fallback intent when nothing matches', async () => {
    const answer = await detectIntent(target({ language: 'pt-BR' }), randomUUID(), 'xyz');
    expect(answer).toMatchObject({
      texts: ['Perdón, no entendí. ¿Podés repetirlo?'],
      intent: 'Default Fallback Intent',
      action: 'input.unknown',
    });
    expect(fake.requests.at(-1)!.languageCode).toBe('pt-BR');
  });

  it('falls back to fulfillmentText, trimmed, when there are no text messages', async () => {
    const answer = await detectIntent(target(), randomUUID(), 'mi pedido');
    expect(answer).toMatchObject({ texts: ['Tu pedido 1234 está en camino.'], action: null });
  });

  it('signs in with the key as google-auth-library does: one self-signed JWT, reused for an hour', async () => {
    // A key of its own, so no client from an earlier test holds a JWT already.
    const own = makeServiceAccountKey(
      fake.tokenUri,
      PROJECT,
      `turns@${PROJECT}.iam.gserviceaccount.com`,
    );
    fake.trustKey(own.publicKey, own.key.client_email);
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const from = fake.requests.length;
    for (const minutes of [0, 10, 50]) {
      vi.setSystemTime(start + minutes * 60_000);
      await detectIntent(target({ key: own.key }), randomUUID(), 'hola');
    }
    // Close to its expiry (one hour) the client signs a new one.
    vi.setSystemTime(start + 58 * 60_000);
    await detectIntent(target({ key: own.key }), randomUUID(), 'hola');
    const turns = fake.requests.slice(from);
    expect(turns.map((r) => r.credential)).toEqual(Array(4).fill('self_signed_jwt'));
    expect(turns[0].claims).toMatchObject({
      iss: own.key.client_email,
      sub: own.key.client_email,
      scope: expect.stringContaining('https://www.googleapis.com/auth/dialogflow'),
    });
    expect(turns[0].keyId).toBe(own.key.private_key_id);
    const issuedAt = turns.map((r) => r.claims.iat);
    // A client per turn would sign at each turn's time.
    expect(issuedAt.slice(0, 3)).toEqual(Array(3).fill(Math.floor(start / 1000)));
    expect(issuedAt[3]).toBe(Math.floor(start / 1000) + 58 * 60);
    // The key's token_uri is never used: there is no token exchange.
    expect(fake.tokenRequests).toBe(0);
  });

  it('recognises an end-of-conversation intent (diagnosticInfo.end_conversation)', async () => {
    const answer = await detectIntent(target(), randomUUID(), 'chau');
    expect(answer).toMatchObject({
      texts: ['¡Gracias por escribirnos!'],
      intent: 'Despedida',
      endConversation: true,
      handoff: false,
    });
  });

  it("recognises a handoff by the payload's action or the intent's action", async () => {
    const byPayload = await detectIntent(target(), randomUUID(), 'quiero un humano');
    expect(byPayload).toMatchObject({
      texts: ['Te paso con una persona del equipo.'],
      handoff: true,
      endConversation: false,
    });
    const byAction = await detectIntent(target(), randomUUID(), 'derivar');
    expect(byAction).toMatchObject({ action: 'handoff', handoff: true });
    const otherPayload = await detectIntent(target(), randomUUID(), 'la tarjeta');
    expect(otherPayload).toMatchObject({ texts: ['Mirá la tarjeta.'], handoff: false });
  });
});

describe('detectIntent failures', () => {
  it('a key the agent does not trust is an auth error, not retryable', async () => {
    const stranger = makeServiceAccountKey(fake.tokenUri, PROJECT, account.key.client_email);
    const error = await failure(
      detectIntent(target({ key: stranger.key }), randomUUID(), 'hola'),
      stranger.key.private_key,
    );
    expect(error).toMatchObject({ code: 'ERR_DIALOGFLOW_AUTH', retryable: false });
    expect(error.message).toContain('UNAUTHENTICATED');
    expect(error.message).toContain('Request had invalid authentication credentials');
  });

  it('a denied permission is an auth error', async () => {
    fake.failNext({
      status: 403,
      message: "IAM permission 'dialogflow.sessions.detectIntent' denied.",
    });
    const error = await failure(detectIntent(target(), randomUUID(), 'hola'));
    expect(error).toMatchObject({ code: 'ERR_DIALOGFLOW_AUTH', retryable: false });
    expect(error.message).toContain("IAM permission 'dialogflow.sessions.detectIntent' denied.");
  });

  it('a private_key that is no PEM key is an auth error that does not repeat it', async () => {
    const broken = {
      ...account.key,
      private_key: '-----BEGIN PRIVATE KEY-----\nnot-a-key\n-----END PRIVATE KEY-----\n',
    };
    const error = await failure(
      detectIntent(target({ key: broken }), randomUUID(), 'hola'),
      broken.private_key,
    );
    expect(error).toMatchObject({ code: 'ERR_DIALOGFLOW_AUTH', retryable: false });
  });

  it('an unknown project is not found, not retryable', async () => {
    const error = await failure(
      detectIntent(target({ projectName: 'otro-proyecto' }), randomUUID(), 'hola'),
    );
    expect(error).toMatchObject({ code: 'ERR_DIALOGFLOW_NOT_FOUND', retryable: false });
    expect(error.message).toContain("No DesignTimeAgent found for project 'otro-proyecto'");
  });

  it('an empty text or an unsupported language is invalid, not retryable', async () => {
    const empty = await failure(detectIntent(target(), randomUUID(), ''));
    expect(empty).toMatchObject({ code: 'ERR_DIALOGFLOW_INVALID', retryable: false });
    const language = await failure(detectIntent(target({ language: 'xx' }), randomUUID(), 'hola'));
    expect(language).toMatchObject({ code: 'ERR_DIALOGFLOW_INVALID', retryable: false });
    expect(language.message).toContain('Invalid language code "xx"');
  });

  it('503, 429 and a 500 page are unavailable and retryable, each after one request', async () => {
    for (const [failureMode, label] of [
      [{ status: 503 }, 'UNAVAILABLE'],
      [{ status: 429 }, 'RESOURCE_EXHAUSTED'],
      [{ status: 500, html: true }, 'HTTP 500'],
    ] as const) {
      fake.failNext(failureMode);
      const from = fake.requests.length;
      const error = await failure(detectIntent(target(), randomUUID(), 'hola'));
      expect(error).toMatchObject({ code: 'ERR_DIALOGFLOW_UNAVAILABLE', retryable: true });
      expect(error.message).toContain(label);
      expect(error.message).not.toContain('<html>');
      expect(fake.requests.length - from).toBe(1);
    }
    // The failures were one-off: the next turn is answered.
    const answer = await detectIntent(target(), randomUUID(), 'hola');
    expect(answer.intent).toBe('Default Welcome Intent');
  });

  it('a server that never answers fails by the timeout', async () => {
    fake.failNext({ status: 0 });
    const started = Date.now();
    const error = await failure(detectIntent(target({ timeoutMs: 400 }), randomUUID(), 'hola'));
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ code: 'ERR_DIALOGFLOW_UNAVAILABLE', retryable: true });
    expect(error.message).toBe('Dialogflow did not answer within 400 ms');
    // Not before its time (how long after depends on the machine's load: no bound).
    expect(elapsed).toBeGreaterThanOrEqual(390);
  });

  it('an endpoint nobody listens on is unavailable, naming the network error', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const error = await failure(
      detectIntent(target({ endpoint: `http://127.0.0.1:${port}` }), randomUUID(), 'hola'),
    );
    expect(error).toMatchObject({ code: 'ERR_DIALOGFLOW_UNAVAILABLE', retryable: true });
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('never repeats the private key, even when the server echoes it', async () => {
    fake.failNext({ status: 400, message: `Bad key: ${account.key.private_key}` });
    const error = await failure(detectIntent(target(), randomUUID(), 'hola'));
    expect(error.code).toBe('ERR_DIALOGFLOW_INVALID');
    expect(error.message).toContain('Bad key: [private key]');
  });
});

describe('parseDialogflowKey', () => {
  it('accepts a JSON object with client_email and private_key strings', () => {
    expect(parseDialogflowKey(account.json)).toEqual(account.key);
    expect(parseDialogflowKey('{"client_email":"a@b.c","private_key":"k"}')).toEqual({
      client_email: 'a@b.c',
      private_key: 'k',
    });
  });

  it('rejects anything else', () => {
    for (const json of [
      '',
      'not json',
      'null',
      '[]',
      '"key"',
      '{"client_email":"a@b.c"}',
      '{"client_email":"a@b.c","private_key":42}',
    ])
      expect(parseDialogflowKey(json), json).toBeNull();
  });
});

// google-auth-library never exchanges the key for a token with this client, but other Google
// clients do (and Google accepts the result on every API): the stand-in speaks that grant too.
describe('the stand-in token endpoint', () => {
  const assertion = (privateKey: string, claims: Record<string, unknown>) => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}`;
    return `${unsigned}.${sign('sha256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
  };
  const grant = (jwt: string) =>
    fetch(fake.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: jwt,
      }),
    });
  const claims = () => {
    const iat = Math.floor(Date.now() / 1000);
    return {
      iss: account.key.client_email,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      aud: fake.tokenUri,
      iat,
      exp: iat + 3600,
    };
  };

  it('issues an access token for a JWT signed by a trusted key, accepted by detectIntent', async () => {
    const from = fake.tokenRequests;
    const res = await grant(assertion(account.key.private_key, claims()));
    expect(res.status).toBe(200);
    const token = (await res.json()) as { access_token: string; token_type: string };
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(fake.tokenRequests).toBe(from + 1);
    const session = randomUUID();
    const answer = await fetch(
      `${fake.url}/v2/projects/${PROJECT}/agent/sessions/${session}:detectIntent`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}` },
        body: JSON.stringify({ queryInput: { text: { text: 'chau', languageCode: 'es' } } }),
      },
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      queryResult: { diagnosticInfo: { end_conversation: true }, languageCode: 'es' },
    });
    expect(fake.requests.at(-1)).toMatchObject({ session, credential: 'access_token' });
  });

  it('refuses a JWT signed by another key or for another audience', async () => {
    const stranger = makeServiceAccountKey(fake.tokenUri, PROJECT);
    for (const jwt of [
      assertion(stranger.key.private_key, claims()),
      assertion(account.key.private_key, {
        ...claims(),
        aud: 'https://oauth2.googleapis.com/token',
      }),
    ]) {
      const res = await grant(jwt);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
    }
  });
});
