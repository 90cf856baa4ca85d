import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { PromptView, PromptsUsage, WhatsappView } from '@atendi/shared';
import { aiTokens, aiUsage, companies, plans, prompts, queues, tickets } from '../../db/schema';
import { monthIn } from '../../platform/time-zones';
import {
  SUPER_EMAIL,
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import {
  inbound,
  noteTexts,
  outbound,
  pairedSimulator,
  setSetting,
  ticketOf,
  ticketSettled,
} from '../../../test/inbox';
import { OPENAI_KEY, startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai';
import { agentWorker } from './agent';
import { aiQuotaOf, countAnswer } from './ai-usage';

// SPEC §9 plan quotas of AI agents: the agents a plan allows, refused one more even when created at
// once; the answers each may send a month, counted as they are written and never past the quota even
// when turns answer at once, after which the conversation goes to a person with a note; and the use
// shown to the company (GET /prompt/usage) and to super users (the companies list).

const SYSTEM =
  'Eres Sofía, la asistente virtual de Pizzería Roma. Responde a {{name}} con amabilidad y brevedad.';
const HANDOFF = 'Le paso con una persona del equipo';
const QUOTA_NOTE = /^Se agotaron los (\d+) mensajes que el plan permite al agente de IA este mes/;

let t: TestContext;
let fake: FakeOpenAi;
let numbers = 0;
const nextNumber = () => `5491180000${String((numbers += 1)).padStart(3, '0')}`;

const promptBody = (extra: object = {}) => ({
  name: 'Sofía de Pizzería',
  prompt: SYSTEM,
  model: 'gpt-4o-mini',
  maxTokens: 200,
  temperature: 0.5,
  maxMessages: 10,
  ...extra,
});

// A company of its own, on a plan with these limits, and its admin's session.
const companyOn = async (planLimits: Partial<typeof plans.$inferInsert>) => {
  const made = await makeCompany(t.db, { planLimits });
  // The model is asked only for the agents' turns here: the co-pilot's summary of a hand-over has its
  // own tests (modules/copilot).
  await setSetting(t.db, made.company.id, 'aiSummaries', 'disabled');
  return { ...made, session: await login(t.app, made.admin.email) };
};

const createPrompt = async (session: Session, extra: object = {}) => {
  const res = await inject(t.app, session, 'POST', '/prompt', promptBody(extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as PromptView;
};

const usageOf = async (session: Session) => {
  const res = await inject(t.app, session, 'GET', '/prompt/usage');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PromptsUsage;
};

const answersTo = async (session: Session, connection: WhatsappView, to: string) =>
  (await outbound(t.app, session, connection.id))
    .filter((m) => m.to === to && m.body.startsWith('Respuesta automática'))
    .map((m) => m.body);

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await createTestApp({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_MAX_RETRIES: '0',
    OPENAI_TIMEOUT_MS: '5000',
  });
});
beforeEach(() => {
  fake.latencyMs = 0;
  fake.clearFailures();
  fake.respondWith(undefined);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('the AI agents a plan allows', () => {
  it('refuses one more than the plan allows with 403 ERR_PLAN_LIMIT_AI_AGENTS, until one is deleted', async () => {
    const { company, session } = await companyOn({ aiAgents: 2 });
    const first = await createPrompt(session, { name: 'Agente uno' });
    await createPrompt(session, { name: 'Agente dos' });
    const refused = await inject(t.app, session, 'POST', '/prompt', promptBody());
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'ERR_PLAN_LIMIT_AI_AGENTS',
      message: 'The plan allows at most 2 AI agents',
    });
    expect(await t.db.select().from(prompts).where(eq(prompts.companyId, company.id))).toHaveLength(
      2,
    );
    // Changing an agent is not creating one.
    const edit = await inject(t.app, session, 'PUT', `/prompt/${first.id}`, { maxTokens: 300 });
    expect(edit.statusCode).toBe(200);
    await inject(t.app, session, 'DELETE', `/prompt/${first.id}`);
    await createPrompt(session, { name: 'Agente tres' });
  });

  it('treats 0 as unlimited, as the other plan limits do', async () => {
    const { session } = await companyOn({ aiAgents: 0 });
    for (const name of ['Agente uno', 'Agente dos', 'Agente tres', 'Agente cuatro'])
      await createPrompt(session, { name });
  });

  it('lets exactly one of three agents created at once take the Plus plan’s one place', async () => {
    const { company, admin } = await makeCompany(t.db, { planId: 2 });
    const session = await login(t.app, admin.email);
    const results = await Promise.all(
      ['Agente A', 'Agente B', 'Agente C'].map((name) =>
        inject(t.app, session, 'POST', '/prompt', promptBody({ name })),
      ),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 403, 403]);
    expect(results.filter((res) => res.statusCode === 403).map((res) => res.json().error)).toEqual([
      'ERR_PLAN_LIMIT_AI_AGENTS',
      'ERR_PLAN_LIMIT_AI_AGENTS',
    ]);
    expect(await t.db.select().from(prompts).where(eq(prompts.companyId, company.id))).toHaveLength(
      1,
    );
  });
});

describe('the answers an agent may send a month', () => {
  it('answers twice with a quota of 2; the third message goes to a person with a note, the model not asked', async () => {
    const { company, session } = await companyOn({ aiMessages: 2 });
    const [queue] = await t.db
      .insert(queues)
      .values({ companyId: company.id, name: 'Atención', color: '#123456' })
      .returning();
    const prompt = await createPrompt(session, { queueId: queue.id });
    const connection = await pairedSimulator(t.app, session, { promptId: prompt.id });
    const from = nextNumber();
    for (const [i, body] of ['Hola', '¿Tienen pizza napolitana?'].entries()) {
      await inbound(t.app, session, connection.id, { from, name: 'Ana Pérez', body });
      await eventually(
        () => answersTo(session, connection, from),
        (answers) => answers.length === i + 1,
        `answer ${i + 1}`,
      );
    }
    expect((await usageOf(session)).prompts).toEqual([{ promptId: prompt.id, messages: 2 }]);

    const asked = fake.chatRequests().length;
    await inbound(t.app, session, connection.id, { from, body: 'Quiero dos' });
    const ticket = await eventually(
      () => ticketOf(t.db, company.id, from),
      (row) => row?.promptId === null,
      'the hand-over',
    );
    // The conversation waits for a person in the agent's queue, the contact is told so, and the
    // model was not asked.
    expect(ticket).toMatchObject({ status: 'pending', userId: null, queueId: queue.id });
    await ticketSettled(t.db, ticket!.id);
    expect(fake.chatRequests().length).toBe(asked);
    const received = (await outbound(t.app, session, connection.id)).filter((m) => m.to === from);
    expect(received.map((m) => m.body).at(-1)).toBe(HANDOFF);
    expect(await answersTo(session, connection, from)).toHaveLength(2);
    const notes = await inject(
      t.app,
      session,
      'GET',
      `/ticket-notes/list?ticketId=${ticket!.id}&contactId=${ticket!.contactId}`,
    );
    expect(notes.json()).toEqual([
      expect.objectContaining({
        note: `Se agotaron los 2 mensajes que el plan permite al agente de IA este mes (${monthIn(new Date(), company.timeZone ?? t.config.timeZone)}); la conversación espera a una persona.`,
        botName: 'Sofía de Pizzería',
        userId: null,
      }),
    ]);
    // Admins see why on the agent's row.
    const view = await eventually(
      async () => (await inject(t.app, session, 'GET', `/prompt/${prompt.id}`)).json(),
      (answer) => answer.lastError !== null,
      'the reason shown to admins',
    );
    expect(view.lastError).toMatchObject({ code: 'ERR_AI_QUOTA_EXCEEDED' });

    // A new conversation goes to a person at once too.
    const other = nextNumber();
    await inbound(t.app, session, connection.id, { from: other, body: 'Hola' });
    const second = await eventually(
      () => ticketOf(t.db, company.id, other),
      (row) => row?.promptId === null,
      'the second hand-over',
    );
    expect(QUOTA_NOTE.exec((await noteTexts(t.db, second!.id))[0])?.[1]).toBe('2');
    expect(fake.chatRequests().length).toBe(asked);
    expect((await usageOf(session)).prompts).toEqual([{ promptId: prompt.id, messages: 2 }]);
  });

  it('counts only answers: a hand-off without text and the hand-off message are not counted', async () => {
    const { session } = await companyOn({ aiMessages: 1 });
    const prompt = await createPrompt(session);
    const connection = await pairedSimulator(t.app, session, { promptId: prompt.id });
    fake.respondWith(() => ({
      content: null,
      toolCalls: [{ name: 'transfer_to_human', arguments: { reason: 'Pidió una persona' } }],
    }));
    const from = nextNumber();
    await inbound(t.app, session, connection.id, { from, body: 'Quiero una persona' });
    await eventually(
      async () => (await outbound(t.app, session, connection.id)).filter((m) => m.to === from),
      (sent) => sent.length === 1,
      'the hand-off message',
    );
    expect((await usageOf(session)).prompts).toEqual([]);
  });

  it('starts again each calendar month of the company’s time zone', async () => {
    const { company, session } = await companyOn({ aiMessages: 1 });
    await t.db
      .update(companies)
      .set({ timeZone: 'America/Argentina/Buenos_Aires' })
      .where(eq(companies.id, company.id));
    // 02:00 on the 1st of July in UTC is still June in Buenos Aires (UTC−3).
    const quota = await aiQuotaOf(t.app.deps, company.id, new Date('2025-07-01T02:00:00Z'));
    expect(quota).toEqual({ month: '2025-06', limit: 1 });
    // A company that never chose a zone has the platform's.
    const { company: zoneless } = await companyOn({ aiMessages: 7 });
    expect(await aiQuotaOf(t.app.deps, zoneless.id, new Date('2025-07-01T02:00:00Z'))).toEqual({
      month: monthIn(new Date('2025-07-01T02:00:00Z'), t.config.timeZone),
      limit: 7,
    });

    // Last month's answers used the quota up; this month's are the agent's again.
    const prompt = await createPrompt(session);
    const lastMonth = monthIn(
      new Date(Date.now() - 32 * 24 * 3600_000),
      'America/Argentina/Buenos_Aires',
    );
    await t.db
      .insert(aiUsage)
      .values({ companyId: company.id, promptId: prompt.id, month: lastMonth, messages: 1 });
    const connection = await pairedSimulator(t.app, session, { promptId: prompt.id });
    const from = nextNumber();
    await inbound(t.app, session, connection.id, { from, body: 'Hola' });
    await eventually(
      () => answersTo(session, connection, from),
      (answers) => answers.length === 1,
      'the answer',
    );
    const usage = await usageOf(session);
    expect(usage).toMatchObject({
      month: monthIn(new Date(), 'America/Argentina/Buenos_Aires'),
      timeZone: 'America/Argentina/Buenos_Aires',
      messages: 1,
    });
    expect(usage.month).not.toBe(lastMonth);
  });
});

describe('answers written at once', () => {
  it('never pass the quota: ten counts at once against 4 leave exactly 4', async () => {
    const { company, session } = await companyOn({ aiMessages: 4 });
    const prompt = await createPrompt(session);
    const quota = await aiQuotaOf(t.app.deps, company.id);
    const counted = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.db.transaction((tx) => countAnswer(tx, { id: prompt.id, companyId: company.id }, quota)),
      ),
    );
    expect(counted.filter(Boolean)).toHaveLength(4);
    const [row] = await t.db.select().from(aiUsage).where(eq(aiUsage.promptId, prompt.id));
    expect(row).toMatchObject({ month: quota.month, messages: 4 });
  });

  it('five conversations answered at once with 3 answers left: 3 answered, 2 go to a person', async () => {
    const { company, session } = await companyOn({ aiMessages: 3 });
    const prompt = await createPrompt(session);
    const connection = await pairedSimulator(t.app, session, { promptId: prompt.id });
    // The model takes its time: every turn has looked at the quota (3 left) before any answer is
    // written, so the quota is decided when the answers are.
    fake.latencyMs = 600;
    const contacts = Array.from({ length: 5 }, nextNumber);
    const asked = fake.chatRequests().length;
    await Promise.all(
      contacts.map((from) => inbound(t.app, session, connection.id, { from, body: 'Hola' })),
    );
    const ticketIds = (
      await t.db
        .select({ id: tickets.id })
        .from(tickets)
        .where(and(eq(tickets.companyId, company.id), eq(tickets.whatsappId, connection.id)))
    ).map((row) => row.id);
    expect(ticketIds).toHaveLength(5);
    // The five turns at once, as five API nodes would take them (this node's queue takes its own too:
    // a turn already answered is not answered again).
    const worker = agentWorker(t.app.deps, t.app.log);
    await Promise.all(
      ticketIds.map((ticketId) =>
        worker.handle({ payload: { ticketId } } as Parameters<typeof worker.handle>[0]),
      ),
    );
    for (const id of ticketIds) await ticketSettled(t.db, id);

    const answered = (
      await Promise.all(contacts.map((from) => answersTo(session, connection, from)))
    ).filter((answers) => answers.length > 0);
    expect(answered.map((answers) => answers.length)).toEqual([1, 1, 1]);
    const rows = await t.db
      .select({ promptId: tickets.promptId, id: tickets.id })
      .from(tickets)
      .where(inArray(tickets.id, ticketIds));
    const handedOver = rows.filter((row) => row.promptId === null);
    expect(handedOver).toHaveLength(2);
    for (const { id } of handedOver) expect((await noteTexts(t.db, id))[0]).toMatch(QUOTA_NOTE);
    // The model answered more than 3 times: the answers past the quota were not sent.
    expect(fake.chatRequests().length - asked).toBeGreaterThanOrEqual(5);
    expect((await usageOf(session)).prompts).toEqual([{ promptId: prompt.id, messages: 3 }]);
  });
});

describe('the use shown', () => {
  it('GET /prompt/usage: this month’s answers, each agent’s, the agents and the plan’s quotas', async () => {
    const { company, session } = await companyOn({
      aiAgents: 3,
      aiMessages: 2000,
      aiTokens: 50_000,
    });
    const one = await createPrompt(session, { name: 'Agente uno' });
    const two = await createPrompt(session, { name: 'Agente dos' });
    const gone = await createPrompt(session, { name: 'Agente borrado' });
    const { month } = await aiQuotaOf(t.app.deps, company.id);
    await t.db.insert(aiUsage).values([
      { companyId: company.id, promptId: one.id, month, messages: 1234 },
      { companyId: company.id, promptId: two.id, month, messages: 2000 },
      { companyId: company.id, promptId: gone.id, month, messages: 10 },
      { companyId: company.id, promptId: one.id, month: '2000-01', messages: 99 },
    ]);
    await t.db.insert(aiTokens).values([
      {
        companyId: company.id,
        month,
        feature: 'agent',
        calls: 3,
        promptTokens: 900,
        completionTokens: 300,
      },
      { companyId: company.id, month, feature: 'embedding', calls: 2, promptTokens: 40 },
      { companyId: company.id, month: '2000-01', feature: 'agent', calls: 1, promptTokens: 7 },
    ]);
    await inject(t.app, session, 'DELETE', `/prompt/${gone.id}`);
    expect(await usageOf(session)).toEqual({
      month,
      timeZone: t.config.timeZone,
      // A deleted agent's answers still count in the company's month.
      messages: 3244,
      agents: 2,
      exhaustedAgents: 1,
      agentsLimit: 3,
      messagesLimit: 2000,
      // Tokens: this month's, every feature.
      tokens: 1240,
      tokensLimit: 50_000,
      tokensByFeature: [
        { feature: 'agent', calls: 3, tokens: 1200 },
        { feature: 'embedding', calls: 2, tokens: 40 },
      ],
      prompts: [
        { promptId: one.id, messages: 1234 },
        { promptId: two.id, messages: 2000 },
      ],
    });
    // Another company's use is its own.
    const other = await companyOn({});
    expect(await usageOf(other.session)).toMatchObject({ messages: 0, agents: 0, prompts: [] });
  });

  it('shows super users every company’s use this month on the companies list', async () => {
    const { company, session } = await companyOn({ aiAgents: 1, aiMessages: 500 });
    const prompt = await createPrompt(session);
    const { month } = await aiQuotaOf(t.app.deps, company.id);
    await t.db
      .insert(aiUsage)
      .values({ companyId: company.id, promptId: prompt.id, month, messages: 42 });
    const root = await login(t.app, SUPER_EMAIL);
    const res = await inject(
      t.app,
      root,
      'GET',
      `/companies?searchParam=${encodeURIComponent(company.name)}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().companies).toEqual([
      expect.objectContaining({
        id: company.id,
        aiUsage: {
          month,
          messages: 42,
          agents: 1,
          exhaustedAgents: 0,
          agentsLimit: 1,
          messagesLimit: 500,
          tokens: 0,
          tokensLimit: 0,
          tokensByFeature: [],
        },
      }),
    ]);
    // The company reads its own too.
    const own = await inject(t.app, session, 'GET', `/companies/${company.id}`);
    expect(own.json().aiUsage).toMatchObject({ messages: 42, agents: 1 });
  });

  it('is the admins’, on plans with AI agents', async () => {
    const { company, session } = await companyOn({ useOpenAi: false });
    const refused = await inject(t.app, session, 'GET', '/prompt/usage');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    await t.db.update(plans).set({ useOpenAi: true }).where(eq(plans.id, company.planId));
    const agent = await login(t.app, (await makeUser(t.db, company.id, 'user')).email);
    expect((await inject(t.app, agent, 'GET', '/prompt/usage')).statusCode).toBe(403);
  });
});

describe('the tokens every use of AI spends (issue 40)', () => {
  const sandbox = (session: Session, promptId: number, content: string) =>
    inject(t.app, session, 'POST', `/prompt/${promptId}/sandbox-chat`, {
      turns: [{ role: 'user', content }],
    });

  it('records what the provider counted, per feature, for calls made at once too', async () => {
    const { session } = await companyOn({ aiTokens: 1_000_000 });
    const prompt = await createPrompt(session);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => sandbox(session, prompt.id, `Pregunta número ${i}`)),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(6).fill(200));
    // Each chat is two calls (the answer, then the analysis): the provider's counts, all of them.
    const counted = answers.reduce((sum, res) => sum + res.json().tokens.usage.total, 0);
    expect(counted).toBeGreaterThan(0);
    const usage = await usageOf(session);
    expect(usage).toMatchObject({
      tokens: counted,
      tokensLimit: 1_000_000,
      tokensByFeature: [{ feature: 'sandbox', calls: 12, tokens: counted }],
    });
  });

  it('stops asking the provider once the plan’s tokens of the month are spent', async () => {
    const { company, session } = await companyOn({ aiTokens: 10 });
    const prompt = await createPrompt(session);
    const first = await sandbox(session, prompt.id, 'Hola, ¿abren hoy?');
    expect(first.statusCode, first.body).toBe(200);
    expect((await usageOf(session)).tokens).toBeGreaterThanOrEqual(10);

    const asked = fake.chatRequests().length;
    const refused = await sandbox(session, prompt.id, 'Y mañana?');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      error: 'ERR_AI_QUOTA_EXCEEDED',
      details: { limit: 10, kind: 'tokens' },
    });
    // A customer's conversation goes to a person, with a note saying why.
    const connection = await pairedSimulator(t.app, session, { promptId: prompt.id });
    const from = nextNumber();
    await inbound(t.app, session, connection.id, { from, body: 'Hola' });
    const ticket = await eventually(
      () => ticketOf(t.db, company.id, from),
      (row) => row?.promptId === null,
      'the hand-over',
    );
    await ticketSettled(t.db, ticket!.id);
    expect((await noteTexts(t.db, ticket!.id))[0]).toMatch(
      /^Se agotaron los 10 tokens de IA que el plan permite este mes/,
    );
    expect(fake.chatRequests().length).toBe(asked);
    // A plan with more tokens asks again.
    await t.db.update(plans).set({ aiTokens: 0 }).where(eq(plans.id, company.planId));
    expect((await sandbox(session, prompt.id, 'Y mañana?')).statusCode).toBe(200);
  });
});
