import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import type { PromptView, WhatsappView } from '@atendi/shared';
import { jobs, messages, plans, queues, ticketNotes } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import {
  inbound,
  outbound,
  pairedSimulator,
  setSetting,
  ticketOf,
  ticketSettled,
} from '../../../test/inbox';
import { OPENAI_KEY, startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai';
import { campaignSent } from '../../../test/campaigns';

// The AI agent answering customers: simulator contacts write, the agent answers through the
// outbox, hands conversations to people with its tool, and falls back to the queue when the provider
// fails. The model is the local OpenAI-compatible stand-in, reached by the real SDK over HTTP.

const SYSTEM =
  'Eres Sofía, la asistente virtual de Pizzería Roma. Responde a {{name}} con amabilidad y brevedad.';

let t: TestContext;
let fake: FakeOpenAi;
let admin: Session;
let companyId: number;
let planId: number;
let numbers = 0;
const nextNumber = () => `5491170000${String((numbers += 1)).padStart(3, '0')}`;

const createPrompt = async (extra: object = {}) => {
  const res = await inject(t.app, admin, 'POST', '/prompt', {
    name: 'Sofía de Pizzería',
    prompt: SYSTEM,
    model: 'gpt-4o-mini',
    maxTokens: 200,
    temperature: 0.5,
    maxMessages: 10,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as PromptView;
};

// A paired simulator connection whose agent answers every new conversation.
const agentConnection = async (promptExtra: object = {}, fields: object = {}) => {
  const prompt = await createPrompt(promptExtra);
  const connection = await pairedSimulator(t.app, admin, { promptId: prompt.id, ...fields });
  return { prompt, connection };
};

const sentTo = async (connection: WhatsappView, to: string) =>
  (await outbound(t.app, admin, connection.id)).filter((m) => m.to === to).map((m) => m.body);

const storedMessages = async (ticketId: number) =>
  t.db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(asc(messages.id));

const notesOf = async (ticketId: number) =>
  (await t.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticketId))).map(
    (n) => n.note,
  );

const HANDOFF_DEFAULT = 'Le paso con una persona del equipo';

// The answers the phone holds once the agent is done with everything it was given: the job queue has
// no turn left for the ticket.
const settled = async (ticketId: number) =>
  eventually(
    async () =>
      t.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          sql`${jobs.queue} = 'prompt.reply' and ${jobs.key} = ${`ticket:${ticketId}`} and ${jobs.status} in ('pending', 'running')`,
        ),
    (live) => live.length === 0,
    'no AI turn left',
  );

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await createTestApp({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_MAX_RETRIES: '0',
    OPENAI_TIMEOUT_MS: '2000',
  });
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  planId = company.planId;
  admin = await login(t.app, company.admin.email);
  // The model is asked only for the agent's turns here: the co-pilot's summary of a hand-over has its
  // own tests (modules/copilot).
  await setSetting(t.db, companyId, 'aiSummaries', 'disabled');
});
beforeEach(() => {
  fake.latencyMs = 0;
  fake.clearFailures();
  fake.respondWith(undefined);
  fake.transcriptions = true;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('an AI agent on a connection', () => {
  it('answers the contact in the ticket, through the outbox, marked as its own', async () => {
    const { prompt, connection } = await agentConnection();
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, {
      from,
      name: 'Ana Pérez',
      body: 'Hola, ¿abren hoy?',
    });
    const bodies = await eventually(
      () => sentTo(connection, from),
      (sent) => sent.length === 1,
      'the answer on the phone',
    );
    expect(bodies[0]).toBe('Respuesta automática (2 mensajes): Hola, ¿abren hoy?');
    const ticket = (await ticketOf(t.db, companyId, from))!;
    expect(ticket).toMatchObject({ status: 'pending', userId: null, promptId: prompt.id });
    const stored = await storedMessages(ticket.id);
    expect(stored.map((m) => [m.fromMe, m.promptId])).toEqual([
      [false, null],
      [true, prompt.id],
    ]);
    // The system prompt with the contact's variables filled, then the conversation.
    const asked = fake.chatRequests().at(-1)!;
    expect(asked.messages[0]).toMatchObject({ role: 'system' });
    expect(asked.messages[0].content).toContain('Responde a Ana Pérez con amabilidad');
    expect(asked.messages.slice(1)).toEqual([{ role: 'user', content: 'Hola, ¿abren hoy?' }]);
    expect(asked).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 200, temperature: 0.5 });
    expect(asked.tools?.[0]?.function.name).toBe('transfer_to_human');
    // Its answer is visible to agents in the chat, with the agent's mark.
    const chat = await inject(t.app, admin, 'GET', `/messages/${ticket.id}`);
    expect(chat.json().messages.at(-1)).toMatchObject({ fromMe: true, promptId: prompt.id });
  });

  it('is given the newest maxMessages messages of the ticket, in order', async () => {
    const { connection } = await agentConnection({ maxMessages: 3 });
    const from = nextNumber();
    for (const [i, body] of ['uno', 'dos', 'tres'].entries()) {
      await inbound(t.app, admin, connection.id, { from, body });
      await eventually(
        () => sentTo(connection, from),
        (sent) => sent.length === i + 1,
        `answer ${i + 1}`,
      );
    }
    const asked = fake.chatRequests().at(-1)!;
    expect(asked.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'dos'],
      ['assistant', 'Respuesta automática (4 mensajes): dos'],
      ['user', 'tres'],
    ]);
  });

  it('hands the conversation to a person with its tool: the ticket waits in the queue it named', async () => {
    const made = await t.db
      .insert(queues)
      .values([
        { companyId, name: 'Ventas', color: '#00aa00', orderQueue: 1 },
        { companyId, name: 'Reclamos', color: '#aa0000', orderQueue: 2 },
      ])
      .returning();
    const { prompt, connection } = await agentConnection(
      {},
      { queueIds: made.map((q) => q.id), greetingMessage: 'Bienvenido' },
    );
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 1,
      'first answer',
    );
    fake.respondWith((body) => {
      const tool = body.tools?.find((x) => x.function.name === 'transfer_to_human');
      const queues = tool?.function.parameters?.properties?.queue?.enum;
      expect(queues).toEqual(['Ventas', 'Reclamos']);
      return {
        content: null,
        toolCalls: [
          {
            name: 'transfer_to_human',
            arguments: { queue: 'Reclamos', reason: 'Pedido llegó frío' },
          },
        ],
      };
    });
    await inbound(t.app, admin, connection.id, { from, body: 'Quiero hablar con un humano' });
    // The contact is told a person takes over: the agent's hand-off message (its default here).
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 2,
      'the hand-off message',
    );
    expect((await sentTo(connection, from)).at(-1)).toBe(HANDOFF_DEFAULT);
    const ticket = (await ticketOf(t.db, companyId, from))!;
    expect(ticket).toMatchObject({ status: 'pending', userId: null, promptId: null });
    expect(ticket.queueId).toBe(made[1].id);
    expect((await storedMessages(ticket.id)).at(-1)).toMatchObject({
      fromMe: true,
      body: HANDOFF_DEFAULT,
      promptId: prompt.id,
    });
    // The note on the ticket is signed with the agent's name, as agents' notes are with theirs.
    const notes = await inject(
      t.app,
      admin,
      'GET',
      `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`,
    );
    expect(notes.json()).toEqual([
      expect.objectContaining({
        note: 'Transfirió la conversación a una persona. Motivo: Pedido llegó frío',
        userId: null,
        user: null,
        botName: 'Sofía de Pizzería',
      }),
    ]);
    // Agents of that queue see it waiting.
    const waiting = await inject(
      t.app,
      admin,
      'GET',
      `/tickets?status=pending&showAll=true&queueIds=${JSON.stringify([made[1].id])}`,
    );
    expect(waiting.json().tickets.map((x: { id: number }) => x.id)).toContain(ticket.id);
    // From now on the agent stays quiet.
    const asked = fake.chatRequests().length;
    await inbound(t.app, admin, connection.id, { from, body: '¿Hola?' });
    await eventually(
      async () => (await storedMessages(ticket.id)).some((m) => m.body === '¿Hola?'),
      Boolean,
      'the message stored',
    );
    await settled(ticket.id);
    expect(fake.chatRequests().length).toBe(asked);
  });

  it("sends its answer, then the agent's own hand-off message with the contact's variables", async () => {
    const { connection } = await agentConnection({
      name: 'Agente de turnos',
      handoffMessage: 'Gracias, {{firstName}}. Un asesor del equipo le escribe en breve.',
    });
    fake.respondWith(() => ({
      content: 'Entiendo, eso lo resuelve mejor una persona.',
      toolCalls: [{ name: 'transfer_to_human', arguments: { reason: 'Reprogramar turno' } }],
    }));
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, {
      from,
      name: 'Lucía Fernández',
      body: 'Necesito cambiar mi turno',
    });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 2,
      'the answer and the hand-off message',
    );
    expect(await sentTo(connection, from)).toEqual([
      'Entiendo, eso lo resuelve mejor una persona.',
      'Gracias, Lucía. Un asesor del equipo le escribe en breve.',
    ]);
    const ticket = (await ticketOf(t.db, companyId, from))!;
    expect(ticket.promptId).toBeNull();
    await settled(ticket.id);
    // Sent once: the agent's turn is over.
    expect(await sentTo(connection, from)).toHaveLength(2);
  });

  it('tells the contact nothing on a hand-off when its hand-off message is empty', async () => {
    const { connection } = await agentConnection({ name: 'Agente callado', handoffMessage: '' });
    fake.respondWith(() => ({
      content: null,
      toolCalls: [{ name: 'transfer_to_human', arguments: {} }],
    }));
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Quiero un humano' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.promptId === null,
      'the hand-off',
    );
    await ticketSettled(t.db, ticket!.id);
    expect(await sentTo(connection, from)).toEqual([]);
    expect((await storedMessages(ticket!.id)).map((m) => m.body)).toEqual(['Quiero un humano']);
    expect((await notesOf(ticket!.id)).join(' ')).toContain('Transfirió la conversación');
  });

  it('answers one turn once when the contact sends 5 messages at the same time', async () => {
    const { connection } = await agentConnection();
    const from = nextNumber();
    fake.latencyMs = 400;
    const parallel = (bodies: string[]) =>
      Promise.all(bodies.map((body) => inbound(t.app, admin, connection.id, { from, body })));
    const first = await parallel(['uno', 'dos']);
    expect(first.map((r) => r.statusCode)).toEqual([200, 200]);
    // The model is thinking about the first messages when three more arrive together.
    const before = fake.chatRequests().length;
    await eventually(
      () => fake.chatRequests().length,
      (n) => n > before,
      'the model asked',
    );
    const rest = await parallel(['tres', 'cuatro', 'cinco']);
    expect(rest.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const ticket = (await ticketOf(t.db, companyId, from))!;
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length >= 1,
      'an answer',
    );
    await settled(ticket.id);
    expect(await sentTo(connection, from)).toHaveLength(1);
    // The one answer read all five.
    const asked = fake.chatRequests().at(-1)!;
    expect(
      asked.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .sort(),
    ).toEqual(['cinco', 'cuatro', 'dos', 'tres', 'uno']);
    const stored = await storedMessages(ticket.id);
    expect(stored.filter((m) => !m.fromMe)).toHaveLength(5);
    expect(stored.filter((m) => m.fromMe)).toHaveLength(1);
    // The next message is a new turn with its own answer.
    fake.latencyMs = 0;
    await inbound(t.app, admin, connection.id, { from, body: 'seis' });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 2,
      'the second answer',
    );
  });

  it('gives an audio message its transcription, or "[audio]" where the provider has none', async () => {
    const { connection } = await agentConnection();
    const voice = { mediaType: 'audio' as const, fileName: 'nota.ogg', mediaBase64: 'T2dnUw==' };
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: '', ...voice });
    const answers = await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 1,
      'answer',
    );
    expect(answers[0]).toContain('Transcripción de');
    const ticket = (await ticketOf(t.db, companyId, from))!;
    // Agents read the transcript under the audio too; the caption (none) stays as it was.
    const [voiceNote] = await storedMessages(ticket.id);
    expect(voiceNote).toMatchObject({
      body: '',
      transcript: expect.stringMatching(/^Transcripción de/),
    });

    fake.transcriptions = false;
    const other = nextNumber();
    await inbound(t.app, admin, connection.id, { from: other, body: '', ...voice });
    const plain = await eventually(
      () => sentTo(connection, other),
      (s) => s.length === 1,
      'answer',
    );
    expect(plain[0]).toContain('[audio]');
  });
});

describe('a campaign recipient whose conversation an AI agent holds', () => {
  it('answering an opt-out word is told it was heard, and the agent neither answers nor reads it', async () => {
    const { connection } = await agentConnection({ name: 'Agente de promociones' });
    const from = nextNumber();
    await campaignSent(t.app, admin, t.db, connection.id, [{ name: 'Elena', number: from }]);
    const asked = fake.chatRequests().length;
    await inbound(t.app, admin, connection.id, { from, body: 'Baja' });
    const ticket = (await ticketOf(t.db, companyId, from))!;
    await ticketSettled(t.db, ticket.id);
    expect(await sentTo(connection, from)).toEqual([
      'Hola Elena',
      'Listo, ya no te enviaremos mensajes de nuestras campañas.',
    ]);
    expect(fake.chatRequests().length).toBe(asked);
    const stored = await storedMessages(ticket.id);
    expect(stored.filter((m) => m.promptId !== null)).toEqual([]);
    // Its turn is over: a repeated turn, or the next one, does not answer it.
    const optOut = stored.find((m) => m.body === 'Baja')!;
    expect((await ticketOf(t.db, companyId, from))!.promptRepliedTo).toBe(optOut.id);

    await inbound(t.app, admin, connection.id, { from, body: '¿Tienen pizza sin gluten?' });
    const sent = await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 3,
      'the answer',
    );
    expect(sent[2]).toMatch(/: ¿Tienen pizza sin gluten\?$/);
    await ticketSettled(t.db, ticket.id);
    expect(fake.chatRequests().length).toBe(asked + 1);
    const question = fake
      .chatRequests()
      .at(-1)!
      .messages.filter((m) => m.role === 'user');
    expect(question.map((m) => m.content)).toEqual(['¿Tienen pizza sin gluten?']);
  });

  it('answering an opt-out word while the agent thinks gets the answer to the question alone', async () => {
    const { connection } = await agentConnection({ name: 'Agente pensativo' });
    const from = nextNumber();
    await campaignSent(t.app, admin, t.db, connection.id, [{ name: 'Tomás', number: from }]);
    fake.latencyMs = 400;
    const before = fake.chatRequests().length;
    await inbound(t.app, admin, connection.id, { from, body: '¿Hasta qué hora abren?' });
    await eventually(
      () => fake.chatRequests().length,
      (n) => n > before,
      'the model asked',
    );
    await inbound(t.app, admin, connection.id, { from, body: 'STOP' });
    const ticket = (await ticketOf(t.db, companyId, from))!;
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 3,
      'the confirmation and the answer',
    );
    await ticketSettled(t.db, ticket.id);
    const sent = await sentTo(connection, from);
    expect(sent.filter((b) => b.startsWith('Respuesta automática'))).toHaveLength(1);
    expect(sent).toContain('Listo, ya no te enviaremos mensajes de nuestras campañas.');
    // Every time the model was asked, the question was all the contact had said.
    for (const asked of fake.chatRequests().slice(before))
      expect(asked.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
        '¿Hasta qué hora abren?',
      ]);
    const optOut = (await storedMessages(ticket.id)).find((m) => m.body === 'STOP')!;
    expect((await ticketOf(t.db, companyId, from))!.promptRepliedTo).toBe(optOut.id);
  });
});

describe('an AI agent on a queue', () => {
  it('takes the conversations the queue bot puts in its queue', async () => {
    const prompt = await createPrompt({ name: 'Agente de soporte' });
    const made = await t.db
      .insert(queues)
      .values([
        { companyId, name: 'Soporte IA', color: '#0a0a0a', orderQueue: 1, promptId: prompt.id },
        { companyId, name: 'Caja', color: '#0b0b0b', orderQueue: 2 },
      ])
      .returning();
    const connection = await pairedSimulator(t.app, admin, {
      queueIds: made.map((q) => q.id),
      greetingMessage: 'Hola, elija: ',
    });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Buenas' });
    await eventually(
      () => sentTo(connection, from),
      (s) => s.length === 1,
      'the menu',
    );
    await inbound(t.app, admin, connection.id, { from, body: '1' });
    const sent = await eventually(
      () => sentTo(connection, from),
      (s) => s.some((b) => b.startsWith('Respuesta automática')),
      'the agent answers',
    );
    expect(sent.at(-1)).toContain('1');
    const ticket = (await ticketOf(t.db, companyId, from))!;
    expect(ticket).toMatchObject({ queueId: made[0].id, promptId: prompt.id, status: 'pending' });
    // Accepting it takes it from the agent: what the contact writes next is for the person.
    expect(
      (await inject(t.app, admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open' })).statusCode,
    ).toBe(200);
    const asked = fake.chatRequests().length;
    await inbound(t.app, admin, connection.id, { from, body: 'Gracias' });
    await eventually(
      async () => (await storedMessages(ticket.id)).some((m) => m.body === 'Gracias'),
      Boolean,
      'the message stored',
    );
    await settled(ticket.id);
    expect(fake.chatRequests().length).toBe(asked);
    expect((await ticketOf(t.db, companyId, from))!.promptId).toBeNull();
  });
});

describe('when the provider fails', () => {
  it.each([
    [429, 'ERR_AI_PROVIDER_UNAVAILABLE'],
    [401, 'ERR_AI_PROVIDER_AUTH'],
    [500, 'ERR_AI_PROVIDER_UNAVAILABLE'],
  ])(
    'a %s keeps the message, puts the ticket in the queue with a note, and shows admins %s',
    async (status, code) => {
      const [queue] = await t.db
        .insert(queues)
        .values({ companyId, name: `Respaldo ${status}`, color: `#fa${status}` })
        .returning();
      const { prompt, connection } = await agentConnection({
        name: `Agente que falla ${status}`,
        queueId: queue.id,
      });
      fake.failNext({ status }, { pathPart: '/chat/completions' });
      const from = nextNumber();
      await inbound(t.app, admin, connection.id, { from, body: 'Necesito ayuda con mi pedido' });
      const ticket = await eventually(
        () => ticketOf(t.db, companyId, from),
        (row) => row?.promptId === null,
        'the fallback',
      );
      expect(ticket).toMatchObject({ status: 'pending', userId: null, queueId: queue.id });
      expect((await storedMessages(ticket!.id)).map((m) => [m.fromMe, m.body])).toEqual([
        [false, 'Necesito ayuda con mi pedido'],
        [true, HANDOFF_DEFAULT],
      ]);
      expect((await notesOf(ticket!.id)).join(' ')).toContain('No pudo responder');
      // Recorded for the admins once the hand-off is written (after its transaction).
      const view = await eventually(
        async () => (await inject(t.app, admin, 'GET', `/prompt/${prompt.id}`)).json(),
        (answer) => answer.lastError !== null,
        'the error shown to admins',
      );
      expect(view.lastError).toMatchObject({ code, at: expect.any(String) });
      expect(JSON.stringify(view)).not.toContain(OPENAI_KEY);
      // The contact is told a person takes over, and is not left waiting in silence.
      await eventually(
        () => sentTo(connection, from),
        (s) => s.length === 1,
        'the hand-off message',
      );
      expect(await sentTo(connection, from)).toEqual([HANDOFF_DEFAULT]);
      // Once it answers again, the error is over.
      await inject(t.app, admin, 'PUT', `/tickets/${ticket!.id}`, { promptId: prompt.id });
      await eventually(
        () => sentTo(connection, from),
        (s) => s.length === 2,
        'the answer',
      );
      await eventually(
        async () => (await inject(t.app, admin, 'GET', `/prompt/${prompt.id}`)).json().lastError,
        (lastError) => lastError === null,
        'the error cleared',
      );
    },
  );

  it('a provider that never answers times out and falls back the same way', async () => {
    const { connection } = await agentConnection({ name: 'Agente sin respuesta' });
    fake.failNext({ status: 0 }, { pathPart: '/chat/completions' });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: '¿Hay alguien?' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.promptId === null,
      'the fallback after the timeout',
    );
    expect((await notesOf(ticket!.id)).join(' ')).toContain('No pudo responder');
  });

  it('a plan without AI agents gets no answer: the conversation waits for a person', async () => {
    const { connection } = await agentConnection({ name: 'Agente sin plan' });
    await t.db.update(plans).set({ useOpenAi: false }).where(eq(plans.id, planId));
    try {
      const from = nextNumber();
      const asked = fake.chatRequests().length;
      await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
      const ticket = await eventually(
        () => ticketOf(t.db, companyId, from),
        (row) => row?.promptId === null,
        'the fallback',
      );
      expect(ticket).toMatchObject({ status: 'pending', userId: null });
      expect(fake.chatRequests().length).toBe(asked);
      await ticketSettled(t.db, ticket!.id);
      expect(await sentTo(connection, from)).toEqual([HANDOFF_DEFAULT]);
    } finally {
      await t.db.update(plans).set({ useOpenAi: true }).where(eq(plans.id, planId));
    }
  });
});
