import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PromptView } from '@atendi/shared';
import { aiProviders, queues, tickets, whatsapps } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type Method,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { caughtUp, closeSockets, listenAs } from '../../../test/sockets';
import { OPENAI_KEY, startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai';

// SPEC §7 Prompts through the HTTP API, against a local OpenAI-compatible server that the real SDK
// reaches over HTTP (OPENAI_BASE_URL), as it would reach OpenAI or Ollama.

const COMPANY_KEY = 'sk-company-0123456789abcdef';
const SYSTEM =
  'Eres Sofía, la asistente de Pizzería Roma. Saluda a {{firstName}} y ayuda con pedidos.';

let t: TestContext;
let fake: FakeOpenAi;
let companyFake: FakeOpenAi;
let admin: Session;
let agent: Session;
let outsider: Session;
let companyId: number;
const logged: string[] = [];

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

const promptBody = (extra: object = {}) => ({
  name: 'Asistente de ventas',
  prompt: SYSTEM,
  model: 'gpt-4o-mini',
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  ...extra,
});

const create = async (extra: object = {}, session = admin) => {
  const res = await call(session, 'POST', '/prompt', promptBody(extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as PromptView;
};

beforeAll(async () => {
  fake = await startFakeOpenAi();
  // A company's own server, which accepts only the company's key.
  companyFake = await startFakeOpenAi({ apiKey: COMPANY_KEY });
  t = await createTestApp(
    {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_MAX_RETRIES: '0',
      LOG_LEVEL: 'debug',
    },
    {
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logged.push(chunk.toString());
          done();
        },
      }),
    },
  );
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  agent = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
  const other = await makeCompany(t.db);
  outsider = await login(t.app, other.admin.email);
});
afterAll(async () => {
  closeSockets();
  await t.close();
  await fake.close();
  await companyFake.close();
});

describe('prompts CRUD', () => {
  it('creates, reads, changes and deletes an agent, with its queue', async () => {
    const [queue] = await t.db
      .insert(queues)
      .values({ companyId, name: 'Ventas', color: '#118811' })
      .returning();
    const created = await create({ queueId: queue.id, maxTokens: 250, temperature: 0.4 });
    expect(created).toMatchObject({
      name: 'Asistente de ventas',
      prompt: SYSTEM,
      model: 'gpt-4o-mini',
      maxTokens: 250,
      temperature: 0.4,
      maxMessages: 10,
      queueId: queue.id,
      queue: { id: queue.id, name: 'Ventas', color: '#118811' },
      // Left out: the default text the contact gets when the agent hands over.
      handoffMessage: 'Le paso con una persona del equipo',
      lastError: null,
    });
    expect((await call(admin, 'GET', `/prompt/${created.id}`)).json()).toEqual(created);
    const list = (await call(admin, 'GET', '/prompt')).json();
    expect(list.prompts.map((p: PromptView) => p.id)).toContain(created.id);
    expect(list.count).toBe(list.prompts.length);

    const changed = await call(admin, 'PUT', `/prompt/${created.id}`, {
      maxMessages: 4,
      queueId: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ maxMessages: 4, maxTokens: 250, queue: null });
    // An empty hand-off message is kept empty (the contact is told nothing); a long one is refused.
    const silent = await call(admin, 'PUT', `/prompt/${created.id}`, { handoffMessage: '  ' });
    expect(silent.json()).toMatchObject({ handoffMessage: '', maxMessages: 4 });
    const tooLong = await call(admin, 'PUT', `/prompt/${created.id}`, {
      handoffMessage: 'x'.repeat(1001),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { handoffMessage: expect.any(Array) },
    });

    const removed = await call(admin, 'DELETE', `/prompt/${created.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ message: expect.any(String) });
    expect((await call(admin, 'GET', `/prompt/${created.id}`)).json().error).toBe(
      'ERR_NO_PROMPT_FOUND',
    );
  });

  it('applies the SPEC §5 rules: name 5-100, prompt ≥ 50, temperature 0-1, numbers required', async () => {
    const bad = await call(admin, 'POST', '/prompt', {
      name: 'Ana',
      prompt: 'Muy corto',
      model: '',
      maxTokens: 0,
      temperature: 1.5,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
    expect(Object.keys(bad.json().fields).sort()).toEqual(
      ['maxMessages', 'maxTokens', 'model', 'name', 'prompt', 'temperature'].sort(),
    );
    // Models other than the suggested ones are accepted (Ollama's, OpenRouter's names).
    expect((await create({ model: 'meta-llama/llama-3.1-8b:free' })).model).toBe(
      'meta-llama/llama-3.1-8b:free',
    );
  });

  it('refuses a queue of another company as if it did not exist', async () => {
    const [foreign] = await t.db
      .insert(queues)
      .values({ companyId: outsider.companyId, name: 'Ajena', color: '#220022' })
      .returning();
    const res = await call(admin, 'POST', '/prompt', promptBody({ queueId: foreign.id }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ queueId: ['ERR_NO_QUEUE_FOUND'] });
  });

  it('is for admins of plans with useOpenAi only', async () => {
    expect((await call(agent, 'GET', '/prompt')).statusCode).toBe(403);
    expect((await call(agent, 'POST', '/prompt', promptBody())).json().error).toBe(
      'ERR_NO_PERMISSION',
    );
    const noAi = await makeCompany(t.db, { planLimits: { useOpenAi: false } });
    const noAiAdmin = await login(t.app, noAi.admin.email);
    for (const [method, url] of [
      ['GET', '/prompt'],
      ['POST', '/prompt'],
      ['GET', '/ai-provider'],
    ] as const) {
      const res = await call(noAiAdmin, method, url, method === 'POST' ? promptBody() : undefined);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error, url).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });

  it("another company's agents answer 404 everywhere and are never listed", async () => {
    const mine = await create({ name: 'Solo de mi empresa' });
    for (const [method, url, payload] of [
      ['GET', `/prompt/${mine.id}`, undefined],
      ['PUT', `/prompt/${mine.id}`, { name: 'Robado por otro' }],
      ['DELETE', `/prompt/${mine.id}`, undefined],
      ['POST', `/prompt/${mine.id}/sandbox-chat`, { turns: [{ role: 'user', content: 'hola' }] }],
    ] as const) {
      const res = await call(outsider, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe('ERR_NO_PROMPT_FOUND');
    }
    expect((await call(outsider, 'GET', '/prompt')).json().prompts).toEqual([]);
    expect((await call(admin, 'GET', `/prompt/${mine.id}`)).json().name).toBe('Solo de mi empresa');
    // Nor can a queue or a connection of the other company name it.
    const [theirQueue] = await t.db
      .insert(queues)
      .values({ companyId: outsider.companyId, name: 'Suya', color: '#330033' })
      .returning();
    const queueRes = await call(outsider, 'PUT', `/queue/${theirQueue.id}`, { promptId: mine.id });
    expect(queueRes.statusCode).toBe(400);
    expect(queueRes.json().fields).toEqual({ promptId: ['ERR_NOT_FOUND'] });
    const theirConnection = await makeWhatsapp(t.db, outsider.companyId);
    const connRes = await call(outsider, 'PUT', `/whatsapp/${theirConnection.id}`, {
      promptId: mine.id,
    });
    expect(connRes.statusCode).toBe(400);
    expect(connRes.json().fields.promptId).toBeDefined();
  });

  it('deleting an agent takes it off queues, connections and the conversations it answered', async () => {
    const doomed = await create({ name: 'Agente pasajero' });
    const [queue] = await t.db
      .insert(queues)
      .values({ companyId, name: 'Con agente', color: '#445566' })
      .returning();
    expect(
      (await call(admin, 'PUT', `/queue/${queue.id}`, { promptId: doomed.id })).json().promptId,
    ).toBe(doomed.id);
    const connection = await makeWhatsapp(t.db, companyId, { promptId: doomed.id });
    await call(admin, 'DELETE', `/prompt/${doomed.id}`);
    const [queueAfter] = await t.db.select().from(queues).where(eq(queues.id, queue.id));
    const [connectionAfter] = await t.db
      .select()
      .from(whatsapps)
      .where(eq(whatsapps.id, connection.id));
    expect([queueAfter.promptId, connectionAfter.promptId]).toEqual([null, null]);
    expect(await t.db.select().from(tickets).where(eq(tickets.promptId, doomed.id))).toEqual([]);
  });

  it('tells the company, and nobody else, on company-{id}-prompt', async () => {
    const colleague = await listenAs(t.app, admin);
    const stranger = await listenAs(t.app, outsider);
    const made = await create({ name: 'En vivo ahora' });
    await call(admin, 'PUT', `/prompt/${made.id}`, { name: 'En vivo, editado' });
    await call(admin, 'DELETE', `/prompt/${made.id}`);
    const events = await eventually(
      async () => colleague.filter((h) => h.event === `company-${companyId}-prompt`),
      (heard) => heard.length >= 3,
      'prompt events',
    );
    expect(events.map((e) => e.payload.action)).toEqual(['create', 'update', 'delete']);
    expect(events[1].payload.prompt).toMatchObject({ id: made.id, name: 'En vivo, editado' });
    expect(events[2].payload).toEqual({ action: 'delete', promptId: made.id });
    await caughtUp(stranger);
    expect(stranger.filter((h) => h.event.endsWith('-prompt'))).toEqual([]);
  });
});

describe("the company's AI provider", () => {
  it('keeps the key write-only and sealed, and the sandbox uses it on the company server', async () => {
    expect((await call(admin, 'GET', '/ai-provider')).json()).toEqual({
      baseUrl: null,
      keySet: false,
      platformDefault: true,
      updatedAt: null,
    });
    const saved = await call(admin, 'PUT', '/ai-provider', {
      baseUrl: `${companyFake.url}/`,
      apiKey: COMPANY_KEY,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(COMPANY_KEY);
    expect(saved.json()).toMatchObject({ baseUrl: companyFake.url, keySet: true });
    expect((await call(admin, 'GET', '/ai-provider')).body).not.toContain(COMPANY_KEY);
    const [row] = await t.db.select().from(aiProviders).where(eq(aiProviders.companyId, companyId));
    expect(row.apiKeySealed).toBeTruthy();
    expect(row.apiKeySealed).not.toContain(COMPANY_KEY);

    // Changing the address alone keeps the key.
    await call(admin, 'PUT', '/ai-provider', { baseUrl: companyFake.url });
    const prompt = await create({ name: 'Con proveedor propio' });
    const before = companyFake.requests.length;
    const res = await call(admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: 'Hola' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const used = companyFake.requests.slice(before);
    expect(used.length).toBeGreaterThan(0);
    expect(used.every((r) => r.authorization === `Bearer ${COMPANY_KEY}`)).toBe(true);
    expect((await call(admin, 'GET', '/ai-provider/models')).json().models).toContain(
      'gpt-4o-mini',
    );

    // A wrong key is the provider's refusal, told as such, never echoed.
    await call(admin, 'PUT', '/ai-provider', { apiKey: 'sk-wrong-key-000000' });
    const refused = await call(admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: 'Hola' }],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('ERR_AI_PROVIDER_AUTH');
    expect(refused.body).not.toContain('sk-wrong');

    // Removing the key and address goes back to the platform's provider.
    const cleared = await call(admin, 'PUT', '/ai-provider', { baseUrl: '', apiKey: null });
    expect(cleared.json()).toMatchObject({ baseUrl: null, keySet: false });
    const platformBefore = fake.requests.length;
    expect(
      (
        await call(admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
          turns: [{ role: 'user', content: 'Hola' }],
        })
      ).statusCode,
    ).toBe(200);
    expect(fake.requests.length).toBeGreaterThan(platformBefore);
    // The log heard every request (LOG_LEVEL=debug) and none of the keys.
    expect(logged.join('')).toContain('/ai-provider');
    expect(logged.join('')).not.toContain(COMPANY_KEY);
    expect(logged.join('')).not.toContain('sk-wrong-key');
    expect(logged.join('')).not.toContain(OPENAI_KEY);
  });

  it('tests a provider as typed without saving it: the typed key, or the stored one when none is typed', async () => {
    const before = companyFake.requests.length;
    const typed = await call(admin, 'POST', '/ai-provider/test', {
      baseUrl: companyFake.url,
      apiKey: COMPANY_KEY,
    });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(typed.json().models).toContain('gpt-4o-mini');
    expect(companyFake.requests.slice(before).map((r) => r.authorization)).toEqual([
      `Bearer ${COMPANY_KEY}`,
    ]);
    // Nothing was saved.
    expect((await call(admin, 'GET', '/ai-provider')).json()).toMatchObject({
      baseUrl: null,
      keySet: false,
    });

    // A wrong key typed is the provider's refusal, before anything is saved, never echoed.
    const wrong = await call(admin, 'POST', '/ai-provider/test', {
      baseUrl: companyFake.url,
      apiKey: 'sk-typed-wrong-0000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('ERR_AI_PROVIDER_AUTH');
    expect(wrong.body).not.toContain('sk-typed');

    // With a key stored, a new address typed alone is tried with that key.
    await call(admin, 'PUT', '/ai-provider', { apiKey: COMPANY_KEY });
    const keyKept = await call(admin, 'POST', '/ai-provider/test', { baseUrl: companyFake.url });
    expect(keyKept.statusCode, keyKept.body).toBe(200);
    expect(companyFake.requests.at(-1)?.authorization).toBe(`Bearer ${COMPANY_KEY}`);
    await call(admin, 'PUT', '/ai-provider', { apiKey: null });
  });

  it('refuses an address that is not http(s)', async () => {
    const res = await call(admin, 'PUT', '/ai-provider', { baseUrl: 'file:///etc/passwd' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.baseUrl).toBeDefined();
  });
});

describe('sandbox chat', () => {
  it('answers with text, final, sentiment, structured data and tokens', async () => {
    const prompt = await create({ name: 'Pizzería sandbox' });
    const turns = [
      { role: 'user', content: 'Hola, me llamo Ana y quiero 2 pizzas' },
      { role: 'assistant', content: '¡Claro! ¿A qué dirección?' },
      { role: 'user', content: 'Mi dirección es Calle Sol 12. Excelente, gracias' },
    ];
    const res = await call(admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns,
      contactName: 'Ana López',
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer.text).toContain('Calle Sol 12');
    expect(answer.response).toBe(answer.text);
    expect(answer).toMatchObject({
      final: true,
      sentiment: 'positivo',
      handoff: null,
      structured: {
        datos_cliente: { nombre: 'Ana', direccion: 'Calle Sol 12' },
        datos_pedido: { productos: [{ nombre: 'pizzas', cantidad: 2 }] },
      },
    });
    // SPEC §9 estimate of what was sent; usage as the provider counted both requests.
    const system = fake.chatRequests().at(-2)?.messages[0];
    expect(typeof system?.content === 'string' && system.content).toContain('Saluda a Ana y');
    const expected =
      Math.ceil(SYSTEM.replace('{{firstName}}', 'Ana').length / 4) +
      6 +
      turns.reduce((sum, turn) => sum + Math.ceil(turn.content.length / 4) + 6, 0);
    expect(answer.tokens.estimate).toBe(expected);
    expect(answer.tokens.usage.total).toBeGreaterThan(0);
    // The analysis is asked for as a strict JSON schema.
    expect(fake.chatRequests().at(-1)?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { strict: true },
    });
  });

  it('sends only the newest maxMessages turns, in order', async () => {
    const prompt = await create({ name: 'Ventana corta', maxMessages: 2 });
    const turns = ['uno', 'dos', 'tres', 'cuatro', 'cinco'].map((content, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content,
    }));
    await call(admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, { turns });
    const asked = fake.chatRequests().at(-2)!;
    expect(asked.messages.slice(1).map((m) => m.content)).toEqual(['cuatro', 'cinco']);
    // The caller may widen it for one try.
    await call(admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, { turns, maxMessages: 3 });
    expect(
      fake
        .chatRequests()
        .at(-2)!
        .messages.slice(1)
        .map((m) => m.content),
    ).toEqual(['tres', 'cuatro', 'cinco']);
  });

  it('reports a hand-off the agent asks for', async () => {
    await t.db.insert(queues).values({ companyId, name: 'Soporte', color: '#0000aa' });
    const prompt = await create({
      name: 'Con traspaso',
      handoffMessage: 'Ya le comunico con soporte, {{firstName}}.',
    });
    const res = await call(admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: 'Quiero hablar con una persona de soporte' }],
      contactName: 'Marta Gómez',
    });
    // The hand-off message the contact would get, its variables filled as for a real contact.
    expect(res.json()).toMatchObject({
      final: true,
      handoff: {
        queue: 'Soporte',
        reason: expect.any(String),
        message: 'Ya le comunico con soporte, Marta.',
      },
    });
    const silent = await create({ name: 'Traspaso callado', handoffMessage: '' });
    const quiet = await call(admin, 'POST', `/prompt/${silent.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: 'Quiero hablar con una persona' }],
    });
    expect(quiet.json().handoff).toMatchObject({ message: null });
  });

  it('tells provider failures apart and refuses empty turns', async () => {
    const prompt = await create({ name: 'Con fallos' });
    const ask = () =>
      call(admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
        turns: [{ role: 'user', content: 'hola' }],
      });
    fake.failNext({ status: 429 });
    const limited = await ask();
    expect(limited.statusCode).toBe(424);
    expect(limited.json().error).toBe('ERR_AI_PROVIDER_UNAVAILABLE');
    fake.failNext({ status: 404, message: "The model 'gpt-4o-mini' does not exist" });
    const unknown = await ask();
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      error: 'ERR_AI_PROVIDER_REQUEST',
      message: expect.stringContaining('does not exist'),
    });
    const empty = await call(admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: '   ' }],
    });
    expect(empty.statusCode).toBe(400);
    expect((await ask()).statusCode).toBe(200);
  });
});
