import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  citingModel,
  OPENAI_KEY,
  startFakeOpenAi,
  type FakeOpenAi,
} from '../apps/api/test/fake-openai';
import { eventually } from '../apps/api/test/eventually';
import { makePdf } from '../apps/api/test/documents';
import { apiClient, type Outbound, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// AI agents end to end: the product reaches a local OpenAI-compatible server (the same stand-in the
// API tests use) through the real SDK. An admin creates an agent, tries it in the sandbox, puts it on a
// queue; a simulated contact is answered by it and then asks for a person, and the agent of the queue
// it named sees the conversation arrive in the waiting list. An agent given an uploaded PDF answers
// from it in the sandbox and shows the passage it cited.

let openai: FakeOpenAi;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  openai = await startFakeOpenAi();
  server = await startServer({ OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: OPENAI_KEY });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await openai?.close();
});

const CONTACT = '5491155550300';
const INSTRUCTIONS =
  'Eres Sofía, la asistente de Pizzería Roma. Saluda a {{firstName}}, toma pedidos y pasa la ' +
  'conversación a una persona cuando el cliente lo pida.';

describe('AI agents', () => {
  it('are created, tried in the sandbox, answer a contact and hand it to a person', async () => {
    const client = apiClient(server.apiUrl);
    const setup = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const sales = await client.call<{ id: number }>(setup, 'POST', '/queue', {
      name: 'Pedidos',
      color: '#ef6c00',
      orderQueue: 1,
    });
    const support = await client.call<{ id: number }>(setup, 'POST', '/queue', {
      name: 'Soporte',
      color: '#1565c0',
      orderQueue: 2,
    });
    await client.call(setup, 'POST', '/users', {
      name: 'Agente Soporte',
      email: 'soporte@test.local',
      password: 'Soporte12345',
      profile: 'user',
      queueIds: [support.id],
    });

    // One login per account (a new one ends the others): the browser's admin is not the API's.
    await client.call(setup, 'POST', '/users', {
      name: 'Dueña',
      email: 'owner@test.local',
      password: 'Owner12345',
      profile: 'admin',
    });

    // The admin creates the agent, handing conversations to Soporte when it cannot help.
    const admin = await (await browser.newContext()).newPage();
    await logIn(admin, server.webUrl, 'owner@test.local', 'Owner12345');
    await admin.goto(`${server.webUrl}/prompts`);
    await admin.getByRole('button', { name: 'Agregar agente' }).click();
    const form = admin.getByRole('dialog', { name: 'Agregar agente de IA' });
    await form.getByRole('textbox', { name: 'Nombre' }).fill('Sofía de Pizzería');
    await form.getByRole('textbox', { name: 'Instrucciones (prompt)' }).fill(INSTRUCTIONS);
    await form.getByRole('combobox', { name: 'Modelo' }).fill('gpt-4o-mini');
    await form.getByRole('combobox', { name: 'Cola' }).click();
    await admin.getByRole('option', { name: 'Soporte' }).click();
    await form.getByRole('button', { name: 'Agregar', exact: true }).click();
    const row = admin.getByRole('row').filter({ hasText: 'Sofía de Pizzería' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Soporte');

    // The sandbox: a customer's conversation, its mood and the data it holds.
    await row.getByRole('button', { name: 'Abrir el sandbox de Sofía de Pizzería' }).click();
    const sandbox = admin.getByRole('dialog', { name: /Sandbox/ });
    const message = sandbox.getByRole('textbox', { name: 'Mensaje' });
    await message.fill('Hola, me llamo Ana y quiero 2 pizzas.');
    // Enter only adds a line; Ctrl+Enter sends.
    await message.press('Enter');
    expect(await sandbox.getByText('El agente está respondiendo…').count()).toBe(0);
    await message.press('Control+Enter');
    await sandbox.getByText(/Respuesta automática \(2 mensajes\): Hola, me llamo Ana/).waitFor();
    await sandbox.getByText('En progreso').waitFor();
    await message.fill('Mi dirección es Calle Sol 12. Excelente servicio, gracias');
    await message.press('Control+Enter');
    await sandbox.getByText('Positivo').waitFor();
    await sandbox.getByText('Final', { exact: true }).waitFor();
    const products = sandbox.getByRole('table', { name: 'Productos del pedido' });
    await products.getByRole('cell', { name: 'pizzas' }).waitFor();
    expect(await products.getByRole('cell', { name: '2', exact: true }).count()).toBe(1);
    expect(await sandbox.textContent()).toContain('Calle Sol 12');
    await sandbox.getByText(/Uso real: \d+ de entrada/).waitFor();
    await sandbox.getByRole('button', { name: 'Cerrar' }).click();

    // The agent answers the contacts of Pedidos.
    const prompts = await client.call<{ prompts: { id: number; name: string }[] }>(
      setup,
      'GET',
      '/prompt',
    );
    const agentId = prompts.prompts.find((p) => p.name === 'Sofía de Pizzería')!.id;
    await client.call(setup, 'PUT', `/queue/${sales.id}`, { promptId: agentId });
    const connection = await client.call<{ id: number }>(setup, 'POST', '/whatsapp', {
      name: 'Pizzería',
      provider: 'simulator',
      greetingMessage: 'Bienvenido a Pizzería Roma. Elija:',
      queueIds: [sales.id, support.id],
    });
    await pairSimulator(client, setup, connection.id);
    const write = (body: string) =>
      client.call(setup, 'POST', `/simulator/${connection.id}/inbound`, {
        from: CONTACT,
        name: 'Martín Díaz',
        body,
      });
    const received = () =>
      client.call<Outbound[]>(setup, 'GET', `/simulator/${connection.id}/outbound`);

    // The Soporte agent watches the waiting list: nothing of Pedidos is theirs.
    const person = await (await browser.newContext()).newPage();
    await logIn(person, server.webUrl, 'soporte@test.local', 'Soporte12345');
    await person.getByRole('tab', { name: /En espera/ }).click();

    await write('Hola');
    await eventually(received, (rows) => rows.length >= 1, 'the greeting', {
      ...POLL,
      timeoutMs: 15_000,
    });
    await write('1');
    await write('¿Tienen pizza napolitana?');
    const answered = await eventually(
      received,
      (rows) => rows.some((r) => r.body.includes('¿Tienen pizza napolitana?')),
      "the agent's answer",
      { ...POLL, timeoutMs: 15_000 },
    );
    expect(answered.at(-1)?.body).toMatch(/^Respuesta automática/);

    // The admin sees the agent's answers in the ticket, marked as the AI's.
    await admin.goto(`${server.webUrl}/tickets`);
    await admin.getByRole('tab', { name: /En espera/ }).click();
    await admin.getByLabel('Ver todos').check();
    // A waiting ticket is only peeked at (it must be accepted to be opened).
    await admin
      .getByRole('listitem')
      .filter({ hasText: 'Martín Díaz' })
      .getByRole('button', { name: 'Ver mensajes' })
      .click();
    const peek = admin.getByRole('dialog');
    await peek.getByText(/Respuesta automática .*¿Tienen pizza napolitana\?/).waitFor();
    expect(
      await peek.getByRole('img', { name: 'Respuesta del agente de IA' }).count(),
    ).toBeGreaterThan(0);
    await peek.getByRole('button', { name: 'Cerrar' }).click();
    expect(await person.getByRole('listitem').filter({ hasText: 'Martín Díaz' }).count()).toBe(0);

    // The contact asks for a person: the agent hands the ticket to Soporte, where it waits.
    await write('Quiero hablar con una persona de soporte');
    await person.getByRole('listitem').filter({ hasText: 'Martín Díaz' }).waitFor();
    // The agent's turns are the requests that offer it the hand-over tool (the co-pilot's summary of
    // the hand-over is asked for too).
    const turns = () => openai.chatRequests().filter((body) => body.tools?.length).length;
    const asked = turns();
    await write('¿Hola?');
    await person.getByRole('listitem').filter({ hasText: '¿Hola?' }).waitFor();
    // The agent said nothing more once it handed the conversation over.
    expect(turns()).toBe(asked);
  });

  it('answer in the sandbox from an uploaded PDF, citing the passage', async () => {
    const client = apiClient(server.apiUrl);
    const setup = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    await client.call(setup, 'POST', '/users', {
      name: 'Encargada de conocimiento',
      email: 'kb@test.local',
      password: 'Conocer12345',
      profile: 'admin',
    });
    // The answer is only on the PDF's second page (the first is long enough to be a passage of its own).
    const menu = Array.from(
      { length: 12 },
      (_, i) =>
        `La pizza número ${i + 1} de la carta lleva mozzarella, tomate y albahaca fresca de la huerta.`,
    ).join(' ');
    const pdf = await makePdf([
      `Pizzería Roma. Carta de la casa.\n\n${menu}`,
      'Política de reembolsos: los pedidos que lleguen fríos se reembolsan completos si el cliente ' +
        'avisa dentro de los 45 minutos posteriores a la entrega.',
    ]);
    openai.respondWith(citingModel);
    try {
      const admin = await (await browser.newContext()).newPage();
      await logIn(admin, server.webUrl, 'kb@test.local', 'Conocer12345');
      await admin.goto(`${server.webUrl}/knowledge`);
      await admin.getByTestId('knowledge-upload-input').setInputFiles({
        name: 'politicas.pdf',
        mimeType: 'application/pdf',
        buffer: pdf,
      });
      const document = admin.getByRole('row').filter({ hasText: 'politicas' });
      await document.getByText('Listo').waitFor({ timeout: 20_000 });

      await admin.goto(`${server.webUrl}/prompts`);
      await admin.getByRole('button', { name: 'Agregar agente' }).click();
      const form = admin.getByRole('dialog', { name: 'Agregar agente de IA' });
      await form.getByRole('textbox', { name: 'Nombre' }).fill('Sofía con políticas');
      await form.getByRole('textbox', { name: 'Instrucciones (prompt)' }).fill(INSTRUCTIONS);
      await form.getByRole('combobox', { name: 'Modelo' }).fill('gpt-4o-mini');
      await form.getByRole('combobox', { name: 'Base de conocimiento' }).click();
      await admin.getByRole('option', { name: 'Documentos elegidos' }).click();
      await form.getByRole('combobox', { name: 'Documentos' }).click();
      await admin.getByRole('option', { name: 'politicas' }).click();
      await form.getByRole('button', { name: 'Agregar', exact: true }).click();
      const row = admin.getByRole('row').filter({ hasText: 'Sofía con políticas' });
      await row.waitFor();

      await row.getByRole('button', { name: 'Abrir el sandbox de Sofía con políticas' }).click();
      const sandbox = admin.getByRole('dialog', { name: /Sandbox/ });
      const message = sandbox.getByRole('textbox', { name: 'Mensaje' });
      await message.fill('Mi pedido llegó frío, ¿me reembolsan?');
      await message.press('Control+Enter');
      // The answer, without its citation mark; the passage it cited, with its page.
      const answer = sandbox.getByText(/^Según nuestra política, /);
      await answer.waitFor();
      expect(await answer.textContent()).not.toContain('[1]');
      const cited = sandbox.getByRole('listitem', { name: 'politicas' }).first();
      await cited.getByText('Citado').waitFor();
      expect(await cited.textContent()).toContain('pág. 2');
      expect(await cited.textContent()).toContain('45 minutos');
    } finally {
      openai.respondWith(undefined);
    }
  });
});
