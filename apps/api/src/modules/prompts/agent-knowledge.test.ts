import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PromptView, SandboxChatResponse } from '@atendi/shared';
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
  noteTexts,
  outbound,
  pairedSimulator,
  ticketOf,
  ticketSettled,
} from '../../../test/inbox';
import { knowledgeDocument } from '../../../test/knowledge';
import {
  citingModel,
  OPENAI_KEY,
  startFakeOpenAi,
  type ChatBody,
  type FakeOpenAi,
} from '../../../test/fake-openai';

// Issue 40, item 2: AI agents that answer from the company's knowledge base: the passages found go to
// the model numbered, the answer's citations become a note naming document and passage (and leave the
// customer's text), an agent finds nothing and hands over, an agent given some documents reads only
// those, another company's documents are never found, and the sandbox shows the passages used.

const SYSTEM =
  'Eres Sofía, la asistente virtual de Tienda Sol. Responde a {{name}} con amabilidad y brevedad.';
const RETURNS =
  'Política de devoluciones de Tienda Sol. Los clientes pueden devolver cualquier producto sin usar ' +
  'dentro de los 30 días posteriores a la compra, con el ticket. El reembolso se hace en el mismo ' +
  'medio de pago en un plazo de cinco días hábiles.';
const SHIPPING =
  'Envíos de Tienda Sol. Enviamos a todo el país con el correo nacional; el envío cuesta 4.500 pesos ' +
  'y es gratis en compras mayores a 60.000 pesos. La entrega demora de tres a seis días.';

let t: TestContext;
let fake: FakeOpenAi;
let admin: Session;
let companyId: number;
let numbers = 0;
const nextNumber = () => `5491176000${String((numbers += 1)).padStart(3, '0')}`;

const systemOf = (body: ChatBody) => {
  const content = body.messages.find((m) => m.role === 'system')?.content;
  return typeof content === 'string' ? content : '';
};

const createPrompt = async (session: Session, extra: object = {}) => {
  const res = await inject(t.app, session, 'POST', '/prompt', {
    name: 'Sofía de Tienda Sol',
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

let returns: { id: number };
let shipping: { id: number };

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await createTestApp({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_MAX_RETRIES: '0',
  });
  const made = await makeCompany(t.db);
  companyId = made.company.id;
  admin = await login(t.app, made.admin.email);
  returns = await knowledgeDocument(t.app, admin, 'devoluciones.txt', RETURNS);
  shipping = await knowledgeDocument(t.app, admin, 'envios.txt', SHIPPING);
  fake.respondWith(citingModel);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('an AI agent with knowledge', () => {
  it('answers from the passage found, without the citation marks, and cites it in a note', async () => {
    const prompt = await createPrompt(admin, { knowledge: 'all' });
    expect(prompt).toMatchObject({ knowledge: 'all', knowledgeDocuments: [] });
    const connection = await pairedSimulator(t.app, admin, { promptId: prompt.id });
    const from = nextNumber();
    const asked = fake.chatRequests().length;
    await inbound(t.app, admin, connection.id, {
      from,
      body: '¿Cuántos días tengo para devolver un producto?',
    });
    const sent = await eventually(
      async () => (await outbound(t.app, admin, connection.id)).filter((m) => m.to === from),
      (messages) => messages.length === 1,
      'the answer',
    );
    expect(sent[0].body).toMatch(/^Según nuestra política, política de devoluciones/);
    expect(sent[0].body).not.toContain('[1]');
    // The model was given the returns passage, numbered.
    const request = fake.chatRequests().slice(asked)[0];
    expect(systemOf(request)).toContain(`[1] (devoluciones)\n${RETURNS}`);
    const ticket = await ticketOf(t.db, companyId, from);
    await ticketSettled(t.db, ticket!.id);
    const [note] = await noteTexts(t.db, ticket!.id);
    expect(note).toMatch(
      /^Respondió con la base de conocimiento:\n\[1\] devoluciones, fragmento 1: «Política de devoluciones/,
    );
    // The agent still has the conversation.
    expect(ticket).toMatchObject({ promptId: prompt.id, userId: null });
  });

  it('hands over to a person when nothing relevant is found, saying so in the note', async () => {
    const prompt = await createPrompt(admin, { knowledge: 'all' });
    const connection = await pairedSimulator(t.app, admin, { promptId: prompt.id });
    const from = nextNumber();
    const asked = fake.chatRequests().length;
    await inbound(t.app, admin, connection.id, { from, body: '¿Reparan bicicletas eléctricas?' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.promptId === null,
      'the hand-over',
    );
    await ticketSettled(t.db, ticket!.id);
    const request = fake.chatRequests().slice(asked)[0];
    expect(systemOf(request)).toContain('The company’s knowledge base has nothing relevant');
    expect(systemOf(request)).not.toContain('[1] (');
    const notes = await noteTexts(t.db, ticket!.id);
    expect(notes).toEqual([
      'Transfirió la conversación a una persona. Motivo: Sin información No encontró información relevante en la base de conocimiento.',
    ]);
  });

  it('reads only the documents it was given', async () => {
    const prompt = await createPrompt(admin, {
      knowledge: 'selected',
      knowledgeDocumentIds: [shipping.id],
    });
    expect(prompt.knowledgeDocuments).toEqual([{ id: shipping.id, name: 'envios' }]);
    const sandbox = await inject(t.app, admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: '¿Cuántos días tengo para devolver un producto?' }],
    });
    expect(sandbox.statusCode, sandbox.body).toBe(200);
    const found = (sandbox.json() as SandboxChatResponse).knowledge!.passages;
    expect(found.map((p) => p.documentId)).not.toContain(returns.id);

    // Given both, the returns passage is found again.
    const both = await inject(t.app, admin, 'PUT', `/prompt/${prompt.id}`, {
      knowledgeDocumentIds: [shipping.id, returns.id],
    });
    expect(both.json().knowledgeDocuments.map((d: { name: string }) => d.name)).toEqual([
      'devoluciones',
      'envios',
    ]);
    const again = await inject(t.app, admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: '¿Cuántos días tengo para devolver un producto?' }],
    });
    expect((again.json() as SandboxChatResponse).knowledge!.passages[0].documentId).toBe(
      returns.id,
    );
  });

  it('shows in the sandbox the passages it was given and the one it cited', async () => {
    const prompt = await createPrompt(admin, { knowledge: 'all' });
    const res = await inject(t.app, admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: '¿Cuánto cuesta el envío a Córdoba?' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as SandboxChatResponse;
    expect(answer.text).toMatch(/^Según nuestra política, envíos de tienda sol/);
    expect(answer.text).not.toContain('[1]');
    expect(answer.knowledge!.passages[0]).toMatchObject({
      number: 1,
      documentId: shipping.id,
      documentName: 'envios',
      ordinal: 0,
      text: SHIPPING,
      cited: true,
    });
    expect(answer.knowledge!.passages.slice(1).every((p) => !p.cited)).toBe(true);
    // An agent without knowledge searches nothing.
    const plain = await createPrompt(admin);
    const without = await inject(t.app, admin, 'POST', `/prompt/${plain.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: '¿Cuánto cuesta el envío a Córdoba?' }],
    });
    expect(without.json().knowledge).toBeNull();
  });

  it('never finds another company’s documents, nor can name them', async () => {
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const refused = await inject(t.app, otherAdmin, 'POST', '/prompt', {
      name: 'Agente ajeno',
      prompt: SYSTEM,
      model: 'gpt-4o-mini',
      maxTokens: 200,
      temperature: 0.5,
      maxMessages: 10,
      knowledge: 'all',
      knowledgeDocumentIds: [returns.id],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { knowledgeDocumentIds: ['ERR_NOT_FOUND'] },
    });
    const prompt = await createPrompt(otherAdmin, { knowledge: 'all' });
    const res = await inject(t.app, otherAdmin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: '¿Cuántos días tengo para devolver un producto?' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().knowledge).toEqual({ passages: [] });
  });

  it('forgets a deleted document, and then reads nothing rather than every document', async () => {
    const doc = await knowledgeDocument(t.app, admin, 'garantia.txt', 'Garantía de un año.');
    const prompt = await createPrompt(admin, {
      knowledge: 'selected',
      knowledgeDocumentIds: [doc.id],
    });
    expect(prompt.knowledgeDocuments).toHaveLength(1);
    const gone = await inject(t.app, admin, 'DELETE', `/knowledge/documents/${doc.id}`);
    expect(gone.statusCode, gone.body).toBe(204);
    const after = await inject(t.app, admin, 'GET', `/prompt/${prompt.id}`);
    expect(after.json()).toMatchObject({ knowledge: 'selected', knowledgeDocuments: [] });
    const res = await inject(t.app, admin, 'POST', `/prompt/${prompt.id}/sandbox-chat`, {
      turns: [{ role: 'user', content: '¿Cuántos días tengo para devolver un producto?' }],
    });
    expect(res.json().knowledge).toEqual({ passages: [] });
  });
});
