import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually';
import {
  fakeEmbedding,
  FAKE_EMBEDDING_DIMENSIONS,
  OPENAI_KEY,
  startFakeOpenAi,
  structuredFor,
  type FakeOpenAi,
  type JsonSchema,
} from './fake-openai';

// The stand-in is only worth something if the real SDK accepts its answers: every case goes
// through `openai` over HTTP, as the product does.

const nullableString = { type: ['string', 'null'] };
const conversationSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['final', 'sentiment', 'datos_cliente', 'datos_pedido'],
  properties: {
    final: { type: 'boolean' },
    sentiment: { type: 'string', enum: ['negativo', 'neutral', 'positivo'] },
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
      required: ['productos', 'total'],
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
      },
    },
  },
};

const transferTool: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'transfer_to_human',
    description: 'Pasa la conversación a una persona',
    parameters: {
      type: 'object',
      properties: {
        queue: { type: 'string', enum: ['Ventas', 'Soporte'] },
        reason: { type: 'string' },
      },
      required: ['reason'],
    },
  },
};

describe('fake OpenAI through the real SDK', () => {
  let fake: FakeOpenAi;
  let client: OpenAI;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    client = new OpenAI({ apiKey: OPENAI_KEY, baseURL: fake.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('answers a plain completion with the last user text, the message count and usage', async () => {
    const answer = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Eres un asistente' },
        { role: 'user', content: 'Hola' },
        { role: 'assistant', content: '¿En qué te ayudo?' },
        { role: 'user', content: [{ type: 'text', text: '¿Tienen envío?' }] },
      ],
    });
    const [choice] = answer.choices;
    expect(answer.object).toBe('chat.completion');
    expect(answer.id).toMatch(/^chatcmpl-/);
    expect(answer.model).toBe('gpt-4o-mini');
    expect(choice.finish_reason).toBe('stop');
    expect(choice.message.content).toBe('Respuesta automática (4 mensajes): ¿Tienen envío?');
    const chars = 'Eres un asistente'.length + 'Hola'.length + 17 + '¿Tienen envío?'.length;
    expect(answer.usage).toEqual({
      prompt_tokens: Math.ceil(chars / 4) + 24,
      completion_tokens: Math.ceil((choice.message.content ?? '').length / 4),
      total_tokens:
        Math.ceil(chars / 4) + 24 + Math.ceil((choice.message.content ?? '').length / 4),
    });
  });

  it('cuts the reply at max_tokens and says so', async () => {
    const answer = await client.chat.completions.create({
      model: 'gpt-5-mini',
      max_completion_tokens: 3,
      messages: [{ role: 'user', content: 'una pregunta larga' }],
    });
    expect(answer.choices[0].message.content).toBe('Respuesta au');
    expect(answer.choices[0].finish_reason).toBe('length');
  });

  it('calls transfer_to_human with the queue the customer named', async () => {
    const answer = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'quiero hablar con un humano de soporte' }],
      tools: [transferTool],
    });
    const [choice] = answer.choices;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function tool call');
    expect(call.id).toMatch(/^call_/);
    expect(call.function.name).toBe('transfer_to_human');
    expect(JSON.parse(call.function.arguments)).toEqual({
      queue: 'Soporte',
      reason: 'El cliente pidió hablar con una persona',
    });
  });

  it('fills a strict json_schema from the conversation', async () => {
    const answer = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'Extrae los datos' },
        {
          role: 'user',
          content: 'Hola, me llamo Ana, quiero 2 pizzas, excelente servicio, gracias',
        },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'conversacion', strict: true, schema: conversationSchema },
      },
    });
    expect(JSON.parse(answer.choices[0].message.content ?? '')).toEqual({
      final: true,
      sentiment: 'positivo',
      datos_cliente: { nombre: 'Ana', telefono: null, email: null, direccion: null },
      datos_pedido: { productos: [{ nombre: 'pizzas', cantidad: 2 }], total: null },
    });
  });

  it('reads contact data and mood in structuredFor', () => {
    const value = structuredFor(conversationSchema, [
      'Mi nombre es Luis, mi correo es luis@ejemplo.com y mi teléfono +51 987-654-321',
      'Mi dirección es Av. Siempre Viva 742, Lima. El pedido llegó terrible',
    ]);
    expect(value).toMatchObject({
      final: false,
      sentiment: 'negativo',
      datos_cliente: {
        nombre: 'Luis',
        email: 'luis@ejemplo.com',
        telefono: '51987654321',
        direccion: 'Av. Siempre Viva 742, Lima',
      },
    });
  });

  it('throws AuthenticationError for a wrong key', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: fake.url, maxRetries: 0 });
    const error = await wrong.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hola' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key');
  });

  it('rejects streaming and an empty conversation as OpenAI would', async () => {
    await expect(
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [] }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hola' }],
        stream: true,
      }),
    ).rejects.toThrow(/not supported by this stand-in/);
  });

  it('fails the next request with 429, then answers again', async () => {
    fake.failNext({ status: 429 }, { pathPart: '/chat/completions' });
    const request = () =>
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hola' }],
      });
    await expect(request()).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const answer = await request();
    expect(answer.choices[0].message.content).toBe('Respuesta automática (1 mensajes): hola');
  });

  it('never answers a status 0 failure, so the SDK times out; close() still ends quickly', async () => {
    const own = await startFakeOpenAi();
    const slow = new OpenAI({ apiKey: OPENAI_KEY, baseURL: own.url, maxRetries: 0, timeout: 300 });
    own.failNext({ status: 0 });
    await expect(
      slow.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hola' }],
      }),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    // One more hanging request left open: close() must drop it rather than wait.
    own.failNext({ status: 0 });
    const asked = own.requests.length;
    const pending = fetch(`${own.url}/models`).catch(() => undefined);
    await eventually(
      () => own.requests.length,
      (count) => count > asked,
      'the hanging request to arrive',
    );
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await pending;
  });

  it('transcribes an upload, and answers 404 where transcriptions are off', async () => {
    const file = async () => toFile(Buffer.from('abc'), 'nota.ogg');
    const answer = await client.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
    });
    expect(answer.text).toBe('Transcripción de nota.ogg');
    expect(fake.requests.at(-1)?.body).toEqual({
      fields: { model: 'whisper-1' },
      fileName: 'nota.ogg',
      fileSize: 3,
    });
    fake.transcriptions = false;
    try {
      await expect(
        client.audio.transcriptions.create({ file: await file(), model: 'whisper-1' }),
      ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    } finally {
      fake.transcriptions = true;
    }
  });

  it('answers what respondWith scripts, and the default rule when it returns undefined', async () => {
    fake.respondWith((body) =>
      body.messages.some((m) => m.content === 'pedido')
        ? { toolCalls: [{ name: 'crear_pedido', arguments: { items: 2 } }] }
        : undefined,
    );
    try {
      const scripted = await client.chat.completions.create({
        model: 'llama3.2',
        messages: [{ role: 'user', content: 'pedido' }],
      });
      const call = scripted.choices[0].message.tool_calls?.[0];
      if (call?.type !== 'function') throw new Error('expected a function tool call');
      expect(call.function.name).toBe('crear_pedido');
      expect(JSON.parse(call.function.arguments)).toEqual({ items: 2 });
      const fallback = await client.chat.completions.create({
        model: 'llama3.2',
        messages: [{ role: 'user', content: 'otra cosa' }],
      });
      expect(fallback.choices[0].message.content).toBe(
        'Respuesta automática (1 mensajes): otra cosa',
      );
    } finally {
      fake.respondWith(undefined);
    }
  });

  it('embeds texts from their words: deterministic, unit length, near when they share words', async () => {
    const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);
    const texts = [
      'Tiene treinta días para devolver un producto.',
      '¿Cuántos días tengo para devolver el producto?',
      'Enviamos a todo el país en 48 horas.',
    ];
    const answer = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: texts,
      encoding_format: 'float',
    });
    const vectors = answer.data.map((item) => item.embedding);
    expect(answer.data.map((item) => item.index)).toEqual([0, 1, 2]);
    expect(vectors.every((v) => v.length === FAKE_EMBEDDING_DIMENSIONS)).toBe(true);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(vectors[0]).toEqual(fakeEmbedding(texts[0]));
    expect(cosine(vectors[0], vectors[1])).toBeGreaterThan(cosine(vectors[0], vectors[2]) + 0.3);
    expect(answer.usage.prompt_tokens).toBeGreaterThan(0);
    // The SDK's default asks for base64 and decodes it; `dimensions` shortens the vector.
    const packed = await client.embeddings.create({ model: 'nomic-embed-text', input: texts[0] });
    expect(packed.data[0].embedding.map((x) => Number(x.toFixed(5)))).toEqual(
      fakeEmbedding(texts[0]).map((x) => Number(Math.fround(x).toFixed(5))),
    );
    const short = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'hola',
      dimensions: 16,
      encoding_format: 'float',
    });
    expect(short.data[0].embedding).toHaveLength(16);
    // A chat model makes no embeddings, and an empty input is refused, as OpenAI answers.
    await expect(
      client.embeddings.create({ model: 'gpt-4o-mini', input: 'hola' }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      client.embeddings.create({ model: 'text-embedding-3-small', input: [] }),
    ).rejects.toMatchObject({ status: 400 });
    expect(fake.embeddingRequests().at(-1)).toMatchObject({ input: [] });
  });

  it('lists models and records path, authorization and body of every request', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('gpt-4o-mini');
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      temperature: 0.2,
      messages: [{ role: 'user', content: 'registro' }],
    });
    const last = fake.requests.at(-1);
    expect(last).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      authorization: `Bearer ${OPENAI_KEY}`,
      body: { model: 'gpt-4o-mini', temperature: 0.2 },
    });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === '/v1/models')).toBe(true);
    expect(fake.chatRequests().at(-1)?.messages).toEqual([{ role: 'user', content: 'registro' }]);
  });

  it('accepts any key when started with apiKey null, and waits latencyMs', async () => {
    const open = await startFakeOpenAi({ apiKey: null });
    try {
      open.latencyMs = 100;
      const anyKey = new OpenAI({ apiKey: 'ollama', baseURL: open.url, maxRetries: 0 });
      const started = Date.now();
      const answer = await anyKey.chat.completions.create({
        model: 'llama3.2',
        messages: [{ role: 'user', content: 'hola' }],
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
      expect(answer.choices[0].message.content).toContain('hola');
      // A client that gives up before the slow model answers leaves the server running.
      const impatient = new OpenAI({
        apiKey: 'ollama',
        baseURL: open.url,
        maxRetries: 0,
        timeout: 20,
      });
      await expect(
        impatient.chat.completions.create({
          model: 'llama3.2',
          messages: [{ role: 'user', content: 'hola' }],
        }),
      ).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
      // A later request waits as long, so it is answered after the abandoned one was due.
      const later = await anyKey.chat.completions.create({
        model: 'llama3.2',
        messages: [{ role: 'user', content: 'sigue ahí' }],
      });
      expect(later.choices[0].message.content).toContain('sigue ahí');
      expect((await anyKey.models.list()).data.length).toBeGreaterThan(0);
    } finally {
      await open.close();
    }
  });
});
