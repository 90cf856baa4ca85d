import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { PromptsUsage, ReplySuggestion, TicketNoteView, WhatsappView } from '@atendi/shared';
import { jobs, messages, queues, ticketNotes } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { inbound, pairedSimulator, setSetting, ticketOf } from '../../../test/inbox';
import { knowledgeDocument } from '../../../test/knowledge';
import { closeSockets, listenAs } from '../../../test/sockets';
import {
  OPENAI_KEY,
  startFakeOpenAi,
  type ChatBody,
  type FakeOpenAi,
} from '../../../test/fake-openai';

// Issue 40, the agents' co-pilot: a reply drafted from the conversation and the knowledge base
// (answered only: nothing stored or sent), a summary written as a note on request, and one written
// by a background job when a conversation changes hands. The model is the local OpenAI-compatible
// stand-in, reached by the real SDK over HTTP.

const COPILOT_MODEL = 'gpt-4.1-mini';
const POLICY =
  'Política de devoluciones: aceptamos devoluciones hasta 30 días después de la compra, con el ticket.';

let t: TestContext;
let fake: FakeOpenAi;
let numbers = 0;
const nextNumber = () => `5491190000${String((numbers += 1)).padStart(3, '0')}`;

type Company = {
  id: number;
  planId: number;
  admin: Session;
  connection: WhatsappView;
  queueIds: [number, number];
};

const companyWith = async (planLimits: Parameters<typeof makeCompany>[1] = {}) => {
  const made = await makeCompany(t.db, planLimits);
  const admin = await login(t.app, made.admin.email);
  const rows = await t.db
    .insert(queues)
    .values([
      { companyId: made.company.id, name: 'Ventas', color: '#00aa00' },
      { companyId: made.company.id, name: 'Soporte', color: '#0000aa' },
    ])
    .returning();
  return {
    id: made.company.id,
    planId: made.planId,
    admin,
    connection: await pairedSimulator(t.app, admin, {}),
    queueIds: [rows[0]!.id, rows[1]!.id] as [number, number],
  };
};

// A conversation of the company's: the contact's messages, stored.
const conversation = async (company: Company, texts: string[]) => {
  const from = nextNumber();
  for (const body of texts) {
    const res = await inbound(t.app, company.admin, company.connection.id, {
      from,
      name: 'Lucía Gómez',
      body,
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
  }
  const ticket = await eventually(
    () => ticketOf(t.db, company.id, from),
    (found) => Boolean(found),
    'the ticket',
  );
  await eventually(
    () => t.db.select().from(messages).where(eq(messages.ticketId, ticket!.id)),
    (rows) => rows.length === texts.length,
    'the messages stored',
  );
  return ticket!;
};

const isSuggestion = (body: ChatBody) =>
  typeof body.messages[0]?.content === 'string' &&
  body.messages[0].content.includes('customer service agent');
const isSummary = (body: ChatBody) =>
  typeof body.messages[0]?.content === 'string' &&
  body.messages[0].content.startsWith('Resume la conversación');
const userContent = (body: ChatBody) => String(body.messages.at(-1)?.content ?? '');

const SUMMARY =
  'La clienta Lucía pregunta por una devolución.\nSe le explicó la política de 30 días.\nQueda pendiente confirmar el número de ticket.';

const summaryNotes = async (ticketId: number) =>
  t.db
    .select()
    .from(ticketNotes)
    .where(and(eq(ticketNotes.ticketId, ticketId), eq(ticketNotes.botName, 'Resumen IA')))
    .orderBy(asc(ticketNotes.id));

const summaryJobs = (ticketId: number) =>
  t.db
    .select({ id: jobs.id, status: jobs.status })
    .from(jobs)
    .where(and(eq(jobs.queue, 'copilot.summary'), eq(jobs.ref, `ticket:${ticketId}`)));

// Once no summary job of the ticket waits or runs.
const summariesSettled = (ticketId: number) =>
  eventually(
    () => summaryJobs(ticketId),
    (rows) => rows.every((r) => r.status !== 'pending' && r.status !== 'running'),
    'no summary job left',
  );

const put = (session: Session, ticketId: number, body: object) =>
  inject(t.app, session, 'PUT', `/tickets/${ticketId}`, body);

let a: Company;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await createTestApp({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_MAX_RETRIES: '0',
    OPENAI_TIMEOUT_MS: '5000',
    OPENAI_COPILOT_MODEL: COPILOT_MODEL,
  });
  a = await companyWith();
  // The company's knowledge base: one small document, ingested.
  await knowledgeDocument(t.app, a.admin, 'devoluciones.txt', POLICY);
});
beforeEach(() => {
  fake.latencyMs = 0;
  fake.clearFailures();
  fake.respondWith((body) => {
    if (isSuggestion(body))
      return {
        content:
          '[es] ¡Hola Lucía! Sí, aceptamos devoluciones hasta 30 días después de la compra; solo necesitamos el ticket.',
      };
    if (isSummary(body)) return { content: SUMMARY };
    return undefined;
  });
});
afterAll(async () => {
  closeSockets();
  await t.close();
  await fake.close();
});

describe('a reply suggestion', () => {
  it('drafts the agent’s reply from the conversation and the knowledge base, sending and storing nothing', async () => {
    const ticket = await conversation(a, ['Hola, buenas tardes', '¿Puedo hacer una devolución?']);
    const before = await t.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    const outboxBefore = await t.db.select().from(jobs).where(eq(jobs.queue, 'outbox'));
    const asked = fake.chatRequests().length;

    const res = await inject(t.app, a.admin, 'POST', `/tickets/${ticket.id}/suggestion`);
    expect(res.statusCode, res.body).toBe(200);
    const suggestion = res.json() as ReplySuggestion;
    expect(suggestion).toMatchObject({
      text: '¡Hola Lucía! Sí, aceptamos devoluciones hasta 30 días después de la compra; solo necesitamos el ticket.',
      language: 'es',
    });
    expect(suggestion.passages).toEqual([
      expect.objectContaining({ documentName: 'devoluciones', text: POLICY, page: null }),
    ]);

    // The model was given the conversation and the passage, with the co-pilot's model.
    const request = fake.chatRequests().slice(asked).find(isSuggestion)!;
    expect(request.model).toBe(COPILOT_MODEL);
    expect(request.messages[0]!.content).toContain('in the language the customer writes in');
    expect(userContent(request)).toContain(
      'Cliente: Hola, buenas tardes\nCliente: ¿Puedo hacer una devolución?',
    );
    expect(userContent(request)).toContain(POLICY);

    // Nothing stored, nothing on its way to the contact.
    const after = await t.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(after).toHaveLength(before.length);
    expect(await t.db.select().from(jobs).where(eq(jobs.queue, 'outbox'))).toHaveLength(
      outboxBefore.length,
    );
    expect(
      await t.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticket.id)),
    ).toEqual([]);
  });

  it('counts its tokens under “suggestion”', async () => {
    const made = await companyWith();
    const ticket = await conversation(made, ['Hi, do you ship to Chile?']);
    fake.respondWith(() => ({ content: '[en] Yes, we ship to Chile in 5 working days.' }));
    const res = await inject(t.app, made.admin, 'POST', `/tickets/${ticket.id}/suggestion`);
    expect(res.statusCode, res.body).toBe(200);
    // An empty knowledge base is no failure: no passage.
    expect(res.json()).toEqual({
      text: 'Yes, we ship to Chile in 5 working days.',
      language: 'en',
      passages: [],
    });
    const usage = (await inject(t.app, made.admin, 'GET', '/prompt/usage')).json() as PromptsUsage;
    expect(usage.tokensByFeature).toEqual([
      { feature: 'suggestion', calls: 1, tokens: expect.any(Number) },
    ]);
    expect(usage.tokensByFeature[0]!.tokens).toBeGreaterThan(0);
  });

  it('is refused once the plan’s tokens of the month are spent (403 ERR_AI_QUOTA_EXCEEDED)', async () => {
    const made = await companyWith({ planLimits: { aiTokens: 5 } });
    const ticket = await conversation(made, ['Hola', '¿Tienen stock del modelo X?']);
    const first = await inject(t.app, made.admin, 'POST', `/tickets/${ticket.id}/suggestion`);
    expect(first.statusCode, first.body).toBe(200);
    const asked = fake.chatRequests().length;
    const second = await inject(t.app, made.admin, 'POST', `/tickets/${ticket.id}/suggestion`);
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({ error: 'ERR_AI_QUOTA_EXCEEDED' });
    expect(fake.chatRequests()).toHaveLength(asked);
  });

  it('is refused on a plan without AI (403) and for another company’s ticket (404)', async () => {
    const noAi = await companyWith({ planLimits: { useOpenAi: false } });
    const own = await conversation(noAi, ['Hola']);
    const refused = await inject(t.app, noAi.admin, 'POST', `/tickets/${own.id}/suggestion`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });

    const foreign = await inject(t.app, a.admin, 'POST', `/tickets/${own.id}/suggestion`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    const foreignSummary = await inject(t.app, a.admin, 'POST', `/tickets/${own.id}/summary`);
    expect(foreignSummary.statusCode).toBe(404);
  });

  it('lets a user ask 20 times a minute, however many ask at once (429 past it)', async () => {
    const made = await companyWith();
    const ticket = await conversation(made, ['Hola, ¿hacen envíos?']);
    const asked = fake.chatRequests().length;
    const answers = await Promise.all(
      Array.from({ length: 23 }, () =>
        inject(t.app, made.admin, 'POST', `/tickets/${ticket.id}/suggestion`),
      ),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([...Array(20).fill(200), 429, 429, 429]);
    expect(answers.find((res) => res.statusCode === 429)!.json()).toMatchObject({
      error: 'ERR_TOO_MANY_REQUESTS',
    });
    // The refused ones never reached the model.
    expect(fake.chatRequests().slice(asked).filter(isSuggestion)).toHaveLength(20);
    // Another user of the company has their own minute.
    const other = await login(t.app, (await makeUser(t.db, made.id, 'admin')).email);
    const theirs = await inject(t.app, other, 'POST', `/tickets/${ticket.id}/suggestion`);
    expect(theirs.statusCode, theirs.body).toBe(200);
  });

  it('tells the provider’s failure as the API does, and needs a provider', async () => {
    const ticket = await conversation(a, ['¿Cuál es el horario?']);
    fake.failNext({ status: 500 }, { pathPart: '/chat/completions' });
    const failed = await inject(t.app, a.admin, 'POST', `/tickets/${ticket.id}/suggestion`);
    expect(failed.statusCode).toBe(424);
    expect(failed.json()).toMatchObject({ error: 'ERR_AI_PROVIDER_UNAVAILABLE' });

    const bare = await createTestApp({});
    try {
      const made = await makeCompany(bare.db);
      const admin = await login(bare.app, made.admin.email);
      const connection = await pairedSimulator(bare.app, admin, {});
      const from = nextNumber();
      await inbound(bare.app, admin, connection.id, { from, body: 'Hola' });
      const own = await eventually(
        () => ticketOf(bare.db, made.company.id, from),
        Boolean,
        'ticket',
      );
      const res = await inject(bare.app, admin, 'POST', `/tickets/${own!.id}/suggestion`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_AI_NOT_CONFIGURED' });
    } finally {
      await bare.close();
    }
  });
});

describe('a summary on request', () => {
  it('writes one note signed “Resumen IA” with the model’s text, and answers it', async () => {
    const ticket = await conversation(a, ['Hola, compré unas zapatillas', 'Quiero devolverlas']);
    // A colleague with the conversation open hears that its notes changed.
    const heard = await listenAs<{ action: string; ticket?: { id: number }; changed?: string[] }>(
      t.app,
      a.admin,
      (socket) => socket.timeout(5000).emitWithAck('joinChatBox', ticket.id),
    );
    const res = await inject(t.app, a.admin, 'POST', `/tickets/${ticket.id}/summary`);
    expect(res.statusCode, res.body).toBe(201);
    await eventually(
      async () => heard,
      (events) =>
        events.some(
          ({ event, payload }) =>
            event === `company-${a.id}-ticket` &&
            payload.ticket?.id === ticket.id &&
            payload.changed?.includes('notes') === true,
        ),
      'the ticket’s update saying its notes changed',
    );
    const note = res.json() as TicketNoteView;
    expect(note).toMatchObject({ note: SUMMARY, botName: 'Resumen IA', userId: null, user: null });
    const request = fake.chatRequests().filter(isSummary).at(-1)!;
    expect(request.messages[0]!.content).toContain('Escribe en español');
    expect(userContent(request)).toContain('Cliente: Quiero devolverlas');
    // The notes list shows it.
    const list = await inject(
      t.app,
      a.admin,
      'GET',
      `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`,
    );
    expect((list.json() as TicketNoteView[]).map((n) => [n.note, n.botName])).toEqual([
      [SUMMARY, 'Resumen IA'],
    ]);
    const usage = (await inject(t.app, a.admin, 'GET', '/prompt/usage')).json() as PromptsUsage;
    expect(usage.tokensByFeature.find((f) => f.feature === 'summary')?.calls).toBeGreaterThan(0);
  });

  it('is refused for a user who may not see the ticket', async () => {
    const ticket = await conversation(a, ['Hola', '¿Siguen abiertos?']);
    await put(a.admin, ticket.id, { queueId: a.queueIds[0], userId: null });
    const outsider = await makeUser(t.db, a.id, 'user');
    const session = await login(t.app, outsider.email);
    const res = await inject(t.app, session, 'POST', `/tickets/${ticket.id}/summary`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    await summariesSettled(ticket.id);
  });
});

describe('a summary on hand-over', () => {
  it('is written as a note when a conversation is transferred to another queue', async () => {
    const ticket = await conversation(a, ['Hola', 'Necesito cambiar la talla']);
    const [sales, support] = a.queueIds;
    expect((await put(a.admin, ticket.id, { queueId: sales, userId: null })).statusCode).toBe(200);
    // Entering a first queue is no hand-over.
    await summariesSettled(ticket.id);
    expect(await summaryNotes(ticket.id)).toEqual([]);

    const moved = await put(a.admin, ticket.id, { queueId: support, userId: null });
    expect(moved.statusCode, moved.body).toBe(200);
    const notes = await eventually(
      () => summaryNotes(ticket.id),
      (rows) => rows.length === 1,
      'the summary note',
    );
    expect(notes[0]).toMatchObject({ note: SUMMARY, userId: null });
  });

  it('is written when an AI agent hands the conversation to a person', async () => {
    const made = await companyWith();
    const prompt = await inject(t.app, made.admin, 'POST', '/prompt', {
      name: 'Sofía',
      prompt: 'Eres Sofía, la asistente virtual de la tienda. Responde con amabilidad y brevedad.',
      model: 'gpt-4o-mini',
      maxTokens: 200,
      temperature: 0.5,
      maxMessages: 10,
    });
    expect(prompt.statusCode, prompt.body).toBe(201);
    const connection = await pairedSimulator(t.app, made.admin, { promptId: prompt.json().id });
    fake.respondWith((body) => {
      if (isSummary(body)) return { content: SUMMARY };
      if (body.tools?.some((tool) => tool.function.name === 'transfer_to_human'))
        return {
          content: null,
          toolCalls: [{ name: 'transfer_to_human', arguments: { reason: 'Pide una persona' } }],
        };
      return undefined;
    });
    const from = nextNumber();
    await inbound(t.app, made.admin, connection.id, { from, body: 'Quiero hablar con alguien' });
    const ticket = await eventually(() => ticketOf(t.db, made.id, from), Boolean, 'ticket');
    const notes = await eventually(
      () => summaryNotes(ticket!.id),
      (rows) => rows.length === 1,
      'the summary note',
    );
    expect(notes[0]!.note).toBe(SUMMARY);
    const after = await ticketOf(t.db, made.id, from);
    expect(after).toMatchObject({ promptId: null, status: 'pending' });
    // The model was given the agent's hand-off message too.
    const request = fake.chatRequests().filter(isSummary).at(-1)!;
    expect(userContent(request)).toContain('Cliente: Quiero hablar con alguien');
    expect(userContent(request)).toContain('Agente IA (Sofía)');
    await summariesSettled(ticket!.id);
    expect(await summaryNotes(ticket!.id)).toHaveLength(1);
  });

  it('gives transfers at once one summary: at most one job waits per ticket', async () => {
    const ticket = await conversation(a, ['Buenas', 'Mi pedido no llegó']);
    const [sales, support] = a.queueIds;
    await put(a.admin, ticket.id, { queueId: sales, userId: null });
    const agents = await Promise.all([makeUser(t.db, a.id, 'user'), makeUser(t.db, a.id, 'user')]);
    // A slow model: every change below lands while the first summary is still being written.
    fake.latencyMs = 800;
    const results = await Promise.all([
      put(a.admin, ticket.id, { queueId: support, userId: agents[0].id }),
      put(a.admin, ticket.id, { queueId: sales, userId: agents[1].id }),
      put(a.admin, ticket.id, { queueId: support, userId: agents[0].id }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const live = await t.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          eq(jobs.queue, 'copilot.summary'),
          eq(jobs.ref, `ticket:${ticket.id}`),
          inArray(jobs.status, ['pending', 'running']),
        ),
      );
    expect(live.length).toBeLessThanOrEqual(1);
    await eventually(
      () => summaryNotes(ticket.id),
      (rows) => rows.length >= 1,
      'the summary note',
    );
    await summariesSettled(ticket.id);
    expect(await summaryNotes(ticket.id)).toHaveLength(1);
    expect(await summaryJobs(ticket.id)).toHaveLength(1);
  });

  it('is not written when the company turned aiSummaries off, nor for a single message', async () => {
    const made = await companyWith();
    await setSetting(t.db, made.id, 'aiSummaries', 'disabled');
    const ticket = await conversation(made, ['Hola', 'Necesito ayuda']);
    const [sales, support] = made.queueIds;
    await put(made.admin, ticket.id, { queueId: sales, userId: null });
    await put(made.admin, ticket.id, { queueId: support, userId: null });
    expect(await summaryJobs(ticket.id)).toEqual([]);

    await setSetting(t.db, made.id, 'aiSummaries', 'enabled');
    const single = await conversation(made, ['Hola']);
    await put(made.admin, single.id, { queueId: sales, userId: null });
    await put(made.admin, single.id, { queueId: support, userId: null });
    await summariesSettled(single.id);
    expect(await summaryJobs(single.id)).toHaveLength(1);
    expect(await summaryNotes(single.id)).toEqual([]);
    expect(await summaryNotes(ticket.id)).toEqual([]);
  });

  it('fails for good, writing nothing, when the provider refuses the request; the transfer is done all the same', async () => {
    const ticket = await conversation(a, ['Hola', 'Consulta de facturación']);
    const [sales, support] = a.queueIds;
    await put(a.admin, ticket.id, { queueId: sales, userId: null });
    fake.failNext({ status: 400, message: 'unknown model' }, { pathPart: '/chat/completions' });
    const moved = await put(a.admin, ticket.id, { queueId: support, userId: null });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ queueId: support });
    await summariesSettled(ticket.id);
    expect(await summaryJobs(ticket.id)).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(await summaryNotes(ticket.id)).toEqual([]);
  });
});
