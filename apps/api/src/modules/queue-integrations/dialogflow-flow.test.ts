import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { IntegrationView, WhatsappView } from '@atendi/shared';
import { integrationDeliveries, queueIntegrations } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import {
  DEFAULT_INTENTS,
  makeServiceAccountKey,
  startFakeDialogflow,
  type FakeDialogflow,
} from '../../../test/fake-dialogflow';
import { eventually } from '../../../test/eventually';
import {
  inbound,
  noteTexts,
  pairedSimulator,
  receivedBy,
  ticketOf,
  untilReceived,
} from '../../../test/inbox';
import { closeDialogflowClients } from './dialogflow-adapter';

// Dialogflow ES agents conversing with contacts, through Google's client against a local stand-in that
// checks the service account's signed JWT as Google does; and the settings' session test.

const PROJECT = 'tienda-bot';
let t: TestContext;
let admin: Session;
let outsider: Session;
let companyId: number;
let dialogflow: FakeDialogflow;
let account: ReturnType<typeof makeServiceAccountKey>;
let numbers = 0;
const nextNumber = () => `5491160000${String((numbers += 1)).padStart(3, '0')}`;

const integration = async (fields: Record<string, unknown> = {}) => {
  const res = await inject(t.app, admin, 'POST', '/queueIntegration', {
    name: `Dialogflow ${Math.random().toString(36).slice(2, 8)}`,
    type: 'dialogflow',
    projectName: PROJECT,
    language: 'es',
    jsonContent: account.json,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as IntegrationView;
};

const textsTo = async (connection: WhatsappView, to: string) =>
  (await receivedBy(t.app, admin, connection.id, to)).map((m) => m.body);
const until = (connection: WhatsappView, to: string, count: number, what: string) =>
  untilReceived(t.app, admin, connection.id, to, count, what);
const notesOf = (ticketId: number) => noteTexts(t.db, ticketId);
const deliveriesOf = (integrationId: number) =>
  t.db
    .select()
    .from(integrationDeliveries)
    .where(eq(integrationDeliveries.integrationId, integrationId))
    .orderBy(asc(integrationDeliveries.id));

beforeAll(async () => {
  dialogflow = await startFakeDialogflow({ projects: [PROJECT], intents: DEFAULT_INTENTS });
  account = makeServiceAccountKey(dialogflow.tokenUri, PROJECT);
  dialogflow.trustKey(account.publicKey, account.key.client_email);
  t = await createTestApp({
    INTEGRATION_RETRY_BASE_MS: '20',
    INTEGRATION_TIMEOUT_MS: '3000',
    DIALOGFLOW_API_ENDPOINT: dialogflow.endpoint,
  });
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
  outsider = await login(t.app, (await makeCompany(t.db)).admin.email);
});
afterAll(async () => {
  await t.close();
  await closeDialogflowClients();
  await dialogflow.close();
});

describe('dialogflow integrations', () => {
  it("answer each message with the intent's texts, in one session per ticket", async () => {
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, name: 'Sol', body: 'Hola' });
    await until(connection, from, 2, 'the welcome');
    await inbound(t.app, admin, connection.id, { from, body: '¿Qué horario tienen?' });
    await until(connection, from, 3, 'the hours');
    expect(await textsTo(connection, from)).toEqual([
      '¡Hola! Soy el asistente virtual.',
      '¿En qué te puedo ayudar?',
      'Atendemos de lunes a viernes de 9 a 18 h.',
    ]);
    const ticket = (await ticketOf(t.db, companyId, from))!;
    const asked = dialogflow.requests.filter((r) => r.session === ticket.uuid);
    expect(asked.map((r) => [r.project, r.text, r.languageCode])).toEqual([
      [PROJECT, 'Hola', 'es'],
      [PROJECT, '¿Qué horario tienen?', 'es'],
    ]);
    expect(ticket).toMatchObject({ useIntegration: true, integrationId: flow.id });
    expect((await deliveriesOf(flow.id)).map((d) => [d.event, d.ok])).toEqual([
      ['dialogflow.detectIntent', true],
      ['dialogflow.detectIntent', true],
    ]);
  });

  it('hand the conversation to people at an end-of-conversation or a handoff intent', async () => {
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Muchas gracias, chau' });
    const ended = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the end of the conversation',
    );
    await until(connection, from, 1, 'the goodbye');
    expect(await textsTo(connection, from)).toEqual(['¡Gracias por escribirnos!']);
    expect(ended).toMatchObject({ status: 'pending', integrationId: null });
    expect((await notesOf(ended!.id)).join(' ')).toContain('fin de la conversación');

    const other = nextNumber();
    await inbound(t.app, admin, connection.id, { from: other, body: 'Quiero un asesor' });
    const handed = await eventually(
      () => ticketOf(t.db, companyId, other),
      (row) => row?.useIntegration === false,
      'the handoff',
    );
    await until(connection, other, 1, 'the handoff text');
    expect(await textsTo(connection, other)).toEqual(['Te paso con una persona del equipo.']);
    expect((await notesOf(handed!.id)).join(' ')).toContain('pidió una persona');
  });

  it('retry while Dialogflow is unavailable, then hand the conversation to a person', async () => {
    const flow = await integration();
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    dialogflow.failNext({ status: 503 }, 5);
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
    const ticket = await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the fallback',
      { timeoutMs: 20_000 },
    );
    expect((await deliveriesOf(flow.id)).map((d) => [d.attempt, d.ok])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, false],
    ]);
    expect((await notesOf(ticket!.id)).join(' ')).toContain('no respondió');
    expect(await textsTo(connection, from)).toEqual([]);
  });

  it('give up at once on a key Google refuses, and show the error', async () => {
    const stranger = makeServiceAccountKey(dialogflow.tokenUri, PROJECT, 'intruso@x.iam.test');
    const flow = await integration({ jsonContent: stranger.json });
    const connection = await pairedSimulator(t.app, admin, { integrationId: flow.id });
    const from = nextNumber();
    await inbound(t.app, admin, connection.id, { from, body: 'Hola' });
    await eventually(
      () => ticketOf(t.db, companyId, from),
      (row) => row?.useIntegration === false,
      'the fallback',
    );
    expect(await deliveriesOf(flow.id)).toHaveLength(1);
    const [row] = await t.db
      .select()
      .from(queueIntegrations)
      .where(eq(queueIntegrations.id, flow.id));
    expect(row.lastErrorMessage).toBeTruthy();
    expect(row.lastErrorMessage).not.toContain('PRIVATE KEY');
  });

  it('test a session with the settings given, or with the stored key', async () => {
    const res = await inject(t.app, admin, 'POST', '/queueIntegration/testSession', {
      projectName: PROJECT,
      jsonContent: account.json,
      language: 'es',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      intent: 'Default Welcome Intent',
      texts: ['¡Hola! Soy el asistente virtual.', '¿En qué te puedo ayudar?'],
    });
    expect(dialogflow.requests.at(-1)).toMatchObject({ text: 'Hola', languageCode: 'es' });

    const flow = await integration();
    const stored = await inject(t.app, admin, 'POST', '/queueIntegration/testSession', {
      projectName: PROJECT,
      language: 'pt-BR',
      integrationId: flow.id,
    });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(dialogflow.requests.at(-1)).toMatchObject({ text: 'Olá', languageCode: 'pt-BR' });

    const refusals = [
      [
        { projectName: 'otro-proyecto', jsonContent: account.json },
        400,
        'ERR_DIALOGFLOW_NOT_FOUND',
      ],
      [
        { projectName: PROJECT, jsonContent: makeServiceAccountKey('x', PROJECT).json },
        400,
        'ERR_DIALOGFLOW_AUTH',
      ],
      [{ projectName: PROJECT, jsonContent: '{"nope":1}' }, 400, 'ERR_VALIDATION'],
      [{ projectName: PROJECT }, 400, 'ERR_VALIDATION'],
    ] as const;
    for (const [body, status, error] of refusals) {
      const refused = await inject(t.app, admin, 'POST', '/queueIntegration/testSession', {
        language: 'es',
        ...body,
      });
      expect([refused.statusCode, refused.json().error], JSON.stringify(body)).toEqual([
        status,
        error,
      ]);
    }
    dialogflow.failNext({ status: 503 }, 1);
    const down = await inject(t.app, admin, 'POST', '/queueIntegration/testSession', {
      projectName: PROJECT,
      jsonContent: account.json,
      language: 'es',
    });
    expect([down.statusCode, down.json().error]).toEqual([424, 'ERR_DIALOGFLOW_UNAVAILABLE']);

    // Another company's stored key is not reachable.
    const foreign = await inject(t.app, outsider, 'POST', '/queueIntegration/testSession', {
      projectName: PROJECT,
      language: 'es',
      integrationId: flow.id,
    });
    expect(foreign.statusCode).toBe(404);
    const noPlan = await makeCompany(t.db, { planLimits: { useIntegrations: false } });
    const refusedPlan = await inject(
      t.app,
      await login(t.app, noPlan.admin.email),
      'POST',
      '/queueIntegration/testSession',
      { projectName: PROJECT, jsonContent: account.json, language: 'es' },
    );
    expect(refusedPlan.statusCode).toBe(403);
  });
});
