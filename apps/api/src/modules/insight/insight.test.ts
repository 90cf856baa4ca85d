import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type {
  InsightRuleView,
  PromptsUsage,
  TagOption,
  TicketInsightResponse,
  TicketView,
  WhatsappView,
} from '@atendi/shared';
import { insightRules, jobs, ticketNotes } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { inbound, pairedSimulator, ticketOf, ticketSettled } from '../../../test/inbox';
import { OPENAI_KEY, startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai';
import { analyseTicket } from './insight';

// Live insight: a company's live conversations read by the model (the local OpenAI-compatible
// stand-in, through the real SDK), what it found shown on the ticket, and the rules that tag tickets
// or move their kanban cards from it.

let t: TestContext;
let fake: FakeOpenAi;
let admin: Session;
let companyId: number;
let connection: WhatsappView;
let numbers = 0;
const nextNumber = () => `5491180000${String((numbers += 1)).padStart(3, '0')}`;

const call = async (
  session: Session,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: object,
) => inject(t.app, session, method, url, body);

const setLiveInsight = async (session: Session, value: 'enabled' | 'disabled') => {
  const res = await call(session, 'PUT', '/settings/liveInsight', { value });
  expect(res.statusCode, res.body).toBe(200);
};

const createTag = async (session: Session, name: string, kanban = 0) => {
  const res = await call(session, 'POST', '/tags', { name, color: '#aa0000', kanban });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TagOption;
};

const createRule = async (session: Session, body: object) => {
  const res = await call(session, 'POST', '/insight-rules', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as InsightRuleView;
};

const insightOf = async (session: Session, ticketId: number) =>
  ((await call(session, 'GET', `/tickets/${ticketId}/insight`)).json() as TicketInsightResponse)
    .insight;

const tagNames = async (ticketId: number) =>
  ((await call(admin, 'GET', `/tickets/${ticketId}`)).json() as TicketView).tags
    .map((tag) => tag.name)
    .sort();

const insightNotes = async (ticketId: number) =>
  (
    await t.db
      .select()
      .from(ticketNotes)
      .where(and(eq(ticketNotes.ticketId, ticketId), eq(ticketNotes.botName, 'Insight IA')))
  ).map((n) => n.note);

const analysisRequests = () =>
  fake.chatRequests().filter((body) => body.response_format?.type === 'json_schema');

// A contact writes; answers the ticket once its analysis is stored.
const writes = async (from: string, body: string) => {
  const res = await inbound(t.app, admin, connection.id, { from, body });
  expect(res.statusCode, res.body).toBe(200);
  const ticket = await eventually(
    () => ticketOf(t.db, companyId, from),
    (found) => Boolean(found),
    'the ticket',
  );
  return ticket!;
};

const analysed = async (ticketId: number, what = 'an analysis') => {
  await ticketSettled(t.db, ticketId);
  return eventually(
    () => insightOf(admin, ticketId),
    (insight) => insight !== null,
    what,
  );
};

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await createTestApp({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_MAX_RETRIES: '0',
    OPENAI_TIMEOUT_MS: '2000',
    INSIGHT_DELAY_MS: '300',
  });
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  connection = await pairedSimulator(t.app, admin, {});
});
beforeEach(async () => {
  fake.latencyMs = 0;
  fake.clearFailures();
  await setLiveInsight(admin, 'enabled');
  // Each test's rules are its own.
  await t.db.delete(insightRules).where(eq(insightRules.companyId, companyId));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('live insight on a conversation', () => {
  it("reads a contact's conversation: sentiment and data on the ticket, tokens counted under 'insight'", async () => {
    const from = nextNumber();
    const ticket = await writes(from, 'Hola, me llamo Ana y quiero 2 pizzas. Excelente servicio');
    const insight = await analysed(ticket.id);
    expect(insight).toMatchObject({
      ticketId: ticket.id,
      sentiment: 'positivo',
      structured: {
        datos_cliente: { nombre: 'Ana' },
        datos_pedido: { productos: [{ nombre: 'pizzas', cantidad: 2 }] },
      },
    });
    // The model asked is OPENAI_INSIGHT_MODEL's default, with the strict JSON schema of the sandbox.
    expect(analysisRequests().at(-1)).toMatchObject({
      model: 'gpt-4o-mini',
      response_format: { json_schema: { strict: true } },
    });
    const usage = (await call(admin, 'GET', '/prompt/usage')).json() as PromptsUsage;
    const insightTokens = usage.tokensByFeature.find((f) => f.feature === 'insight');
    expect(insightTokens?.calls).toBeGreaterThanOrEqual(1);
    expect(insightTokens?.tokens).toBeGreaterThan(0);

    // A later message is read with the earlier ones, and replaces the analysis.
    await writes(from, 'Esto es terrible, llegó frío');
    const later = await eventually(
      () => insightOf(admin, ticket.id),
      (found) => found?.sentiment === 'negativo',
      'the newer analysis',
    );
    expect(later!.messageId).toBeGreaterThan(insight!.messageId);
    expect(later!.structured.datos_cliente.nombre).toBe('Ana');
  });

  it('with the setting off, the provider is not asked and nothing is queued', async () => {
    await setLiveInsight(admin, 'disabled');
    const before = analysisRequests().length;
    const from = nextNumber();
    const ticket = await writes(from, 'Esto es terrible');
    await ticketSettled(t.db, ticket.id);
    const queued = await t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.queue, 'insight.analyse'), eq(jobs.key, `ticket:${ticket.id}`)));
    expect(queued).toEqual([]);
    expect(analysisRequests().length).toBe(before);
    expect(await insightOf(admin, ticket.id)).toBeNull();
  });

  it('reads a burst of messages once, with all of them', async () => {
    // The first message's analysis waits INSIGHT_DELAY_MS: the rest of the burst joins it. Here the
    // delay is long enough that a busy machine still stores the burst within it.
    const delay = t.config.openAi.insightDelayMs;
    t.config.openAi.insightDelayMs = 4000;
    const from = nextNumber();
    const before = analysisRequests().length;
    try {
      const first = await writes(from, 'uno');
      const rest = await Promise.all(
        ['dos', 'tres', 'cuatro'].map((body) =>
          inbound(t.app, admin, connection.id, { from, body }),
        ),
      );
      expect(rest.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      await analysed(first.id);
      await ticketSettled(t.db, first.id);
    } finally {
      t.config.openAi.insightDelayMs = delay;
    }
    const asked = analysisRequests().slice(before);
    expect(asked).toHaveLength(1);
    expect(
      asked[0]!.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .sort(),
    ).toEqual(['cuatro', 'dos', 'tres', 'uno']);
  });
});

describe('insight rules', () => {
  it('a rule "negative → tag Riesgo" tags the ticket once, and a note signed Insight IA says so', async () => {
    const riesgo = await createTag(admin, 'Riesgo');
    await createRule(admin, {
      name: 'Cliente molesto',
      condition: { sentiments: ['negativo'] },
      action: { type: 'tag', tagId: riesgo.id },
    });
    const from = nextNumber();
    const ticket = await writes(from, 'Hola, buenas');
    await analysed(ticket.id);
    expect(await tagNames(ticket.id)).not.toContain('Riesgo');
    await writes(from, 'El pedido es pésimo, estoy muy molesto');
    await eventually(
      () => tagNames(ticket.id),
      (names) => names.includes('Riesgo'),
      'the Riesgo tag',
    );
    const notes = await insightNotes(ticket.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Cliente molesto');
    expect(notes[0]).toContain('Riesgo');
    // Still negative: the tag is there already, so nothing more happens.
    await writes(from, 'Sigue siendo horrible');
    await ticketSettled(t.db, ticket.id);
    await eventually(
      () => insightOf(admin, ticket.id),
      (insight) => insight !== null && insight.messageId > 0,
      'the third analysis',
    );
    expect(await insightNotes(ticket.id)).toHaveLength(1);
  });

  it("a lane rule moves the ticket's kanban card: the lane's tag replaces the other lanes'", async () => {
    const nuevo = await createTag(admin, 'Nuevo', 1);
    const urgente = await createTag(admin, 'Urgente', 1);
    const vip = await createTag(admin, 'VIP');
    await createRule(admin, {
      name: 'Molestos a urgente',
      condition: { sentiments: ['negativo'] },
      action: { type: 'lane', tagId: urgente.id },
    });
    const from = nextNumber();
    const ticket = await writes(from, 'Hola');
    await analysed(ticket.id);
    for (const tag of [nuevo, vip])
      expect((await call(admin, 'PUT', `/ticket-tags/${ticket.id}/${tag.id}`)).statusCode).toBe(
        200,
      );
    await writes(from, 'Muy malo todo, quiero poner una queja');
    await eventually(
      () => tagNames(ticket.id),
      (names) => names.includes('Urgente'),
      'the card in Urgente',
    );
    expect(await tagNames(ticket.id)).toEqual(['Urgente', 'VIP']);
    expect((await insightNotes(ticket.id)).join(' ')).toContain('columna «Urgente»');
  });

  it('a rule on the order total tags big orders only, when the conversation is over', async () => {
    const grande = await createTag(admin, 'Pedido grande');
    await createRule(admin, {
      name: 'Pedidos grandes',
      condition: { sentiments: [], finalOnly: true, minOrderTotal: 1000 },
      action: { type: 'tag', tagId: grande.id },
    });
    const small = await writes(nextNumber(), 'Quiero 2 empanadas, total 300. Gracias, eso es todo');
    const big = await writes(nextNumber(), 'Quiero 20 pizzas, total 5000. Gracias, eso es todo');
    await analysed(small.id);
    await eventually(
      () => tagNames(big.id),
      (names) => names.includes('Pedido grande'),
      'the big order tagged',
    );
    expect(await insightOf(admin, big.id)).toMatchObject({
      final: true,
      structured: { datos_pedido: { total: 5000 } },
    });
    expect(await tagNames(small.id)).not.toContain('Pedido grande');
  });

  it('two analyses of the same conversation at once give one tag and one note', async () => {
    const alerta = await createTag(admin, 'Alerta');
    await createRule(admin, {
      name: 'Alerta por queja',
      condition: { sentiments: ['negativo'] },
      action: { type: 'tag', tagId: alerta.id },
    });
    const from = nextNumber();
    const ticket = await writes(from, 'Tengo una queja, el servicio es terrible');
    // Both in flight together (the model takes its time), before the queued one falls due.
    fake.latencyMs = 150;
    const before = analysisRequests().length;
    await Promise.all([
      analyseTicket(t.app.deps, t.app.log, ticket.id),
      analyseTicket(t.app.deps, t.app.log, ticket.id),
    ]);
    expect(analysisRequests().length - before).toBeGreaterThanOrEqual(2);
    await ticketSettled(t.db, ticket.id);
    expect(await tagNames(ticket.id)).toContain('Alerta');
    expect(await insightNotes(ticket.id)).toHaveLength(1);
  });
});

describe('insight rules API', () => {
  let other: Session;
  beforeAll(async () => {
    const company = await makeCompany(t.db);
    other = await login(t.app, company.admin.email);
  });

  it('lists, changes and deletes the company’s rules', async () => {
    const tag = await createTag(admin, 'Revisar');
    const rule = await createRule(admin, {
      name: 'Neutrales',
      condition: { sentiments: ['neutral', 'neutral'] },
      action: { type: 'tag', tagId: tag.id },
    });
    expect(rule).toMatchObject({
      enabled: true,
      condition: { sentiments: ['neutral'], finalOnly: false, minOrderTotal: null },
    });
    const changed = await call(admin, 'PUT', `/insight-rules/${rule.id}`, {
      name: 'Neutrales (pausada)',
      enabled: false,
      condition: { sentiments: ['neutral'], finalOnly: true },
      action: { type: 'tag', tagId: tag.id },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Neutrales (pausada)', enabled: false });
    const listed = (await call(admin, 'GET', '/insight-rules')).json() as InsightRuleView[];
    expect(listed.find((r) => r.id === rule.id)?.condition.finalOnly).toBe(true);
    expect((await call(other, 'GET', '/insight-rules')).json()).toEqual([]);
    expect((await call(admin, 'DELETE', `/insight-rules/${rule.id}`)).statusCode).toBe(204);
    expect((await call(admin, 'DELETE', `/insight-rules/${rule.id}`)).statusCode).toBe(404);
  });

  it("refuses a rule without a condition, an unknown sentiment, another company's tag, or a lane that is not one", async () => {
    const tag = await createTag(admin, 'Solo etiqueta');
    const foreign = await createTag(other, 'Ajena');
    const refused = async (body: object) => {
      const res = await call(admin, 'POST', '/insight-rules', { name: 'Mala', ...body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    };
    await refused({ action: { type: 'tag', tagId: tag.id } });
    await refused({
      condition: { sentiments: ['alegre'] },
      action: { type: 'tag', tagId: tag.id },
    });
    await refused({
      condition: { sentiments: ['negativo'] },
      action: { type: 'tag', tagId: foreign.id },
    });
    await refused({
      condition: { sentiments: ['negativo'] },
      action: { type: 'lane', tagId: tag.id },
    });
  });

  it("another company's rule and ticket are not found", async () => {
    const tag = await createTag(admin, 'Privada');
    const rule = await createRule(admin, {
      name: 'Privada',
      condition: { sentiments: ['positivo'] },
      action: { type: 'tag', tagId: tag.id },
    });
    const body = {
      name: 'Robada',
      condition: { sentiments: ['positivo'] },
      action: { type: 'tag', tagId: tag.id },
    };
    expect((await call(other, 'PUT', `/insight-rules/${rule.id}`, body)).statusCode).toBe(404);
    expect((await call(other, 'DELETE', `/insight-rules/${rule.id}`)).statusCode).toBe(404);
    const ticket = await writes(nextNumber(), 'Hola, gracias');
    await analysed(ticket.id);
    const res = await call(other, 'GET', `/tickets/${ticket.id}/insight`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('sentiment');
    // The rule is still the company's, unchanged.
    const listed = (await call(admin, 'GET', '/insight-rules')).json() as InsightRuleView[];
    expect(listed.find((r) => r.id === rule.id)?.name).toBe('Privada');
  });
});
