import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TicketNoteView, TicketView } from '@atendi/shared';
import { OPENAI_KEY, startFakeOpenAi, type FakeOpenAi } from '../apps/api/test/fake-openai';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, type Outbound, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// The agents' co-pilot end to end (issue 40): an agent asks for a suggested reply, edits it and sends
// it; transferring the conversation to another queue leaves a summary in its notes, which the next
// agent reads. The model is the local OpenAI-compatible stand-in the API tests use.

let openai: FakeOpenAi;
let server: RunningServer;
let browser: Browser;

const DRAFT = 'Claro, puede devolverlo dentro de los 30 días con su ticket de compra.';
const SUMMARY =
  'La clienta Lucía quiere devolver un producto.\nSe le indicó el plazo de 30 días con ticket.\nPendiente: confirmar el número de pedido.';

beforeAll(async () => {
  openai = await startFakeOpenAi();
  openai.respondWith((body) => {
    const system = String(body.messages[0]?.content ?? '');
    if (system.includes('customer service agent')) return { content: `[es] ${DRAFT}` };
    if (system.startsWith('Resume la conversación')) return { content: SUMMARY };
    return undefined;
  });
  server = await startServer({ OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: OPENAI_KEY });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await openai?.close();
});

const CONTACT = '5491155550400';

describe('the agents’ co-pilot', () => {
  it('suggests a reply the agent edits and sends, and summarises a transfer as a note', async () => {
    const client = apiClient(server.apiUrl);
    const setup = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const sales = await client.call<{ id: number }>(setup, 'POST', '/queue', {
      name: 'Ventas',
      color: '#2e7d32',
      orderQueue: 1,
    });
    const support = await client.call<{ id: number }>(setup, 'POST', '/queue', {
      name: 'Soporte',
      color: '#1565c0',
      orderQueue: 2,
    });
    for (const [name, email, queueId] of [
      ['Agente Ventas', 'ventas@test.local', sales.id],
      ['Agente Soporte', 'soporte@test.local', support.id],
    ] as const)
      await client.call(setup, 'POST', '/users', {
        name,
        email,
        password: 'Agent12345',
        profile: 'user',
        queueIds: [queueId],
      });
    const connection = await client.call<{ id: number }>(setup, 'POST', '/whatsapp', {
      name: 'Principal',
      provider: 'simulator',
      greetingMessage: '¡Hola! Elija una opción:',
      queueIds: [sales.id, support.id],
    });
    await pairSimulator(client, setup, connection.id);
    const write = (body: string) =>
      client.call(setup, 'POST', `/simulator/${connection.id}/inbound`, {
        from: CONTACT,
        name: 'Lucía Fernández',
        body,
      });
    const received = () =>
      client.call<Outbound[]>(setup, 'GET', `/simulator/${connection.id}/outbound`);

    const open = async (email: string) => {
      const page = await (await browser.newContext()).newPage();
      await logIn(page, server.webUrl, email, 'Agent12345');
      await page.getByRole('tab', { name: /En espera/ }).click();
      return page;
    };
    const accept = async (page: Page) => {
      await page
        .getByRole('listitem')
        .filter({ hasText: 'Lucía Fernández' })
        .getByRole('button', { name: 'Aceptar' })
        .click();
      const composer = page.getByRole('textbox', { name: 'Mensaje' });
      await composer.waitFor();
      return composer;
    };

    const seller = await open('ventas@test.local');
    await write('Hola');
    await eventually(received, (rows) => rows.length >= 1, 'the greeting', POLL);
    await write('1');
    await write('¿Puedo devolver un producto que compré la semana pasada?');

    // The agent asks for a suggestion: it lands in the composer, and nothing goes to the phone.
    const composer = await accept(seller);
    const before = (await received()).length;
    await seller.getByRole('button', { name: 'Sugerir respuesta' }).click();
    await eventually(
      () => composer.inputValue(),
      (value) => value === DRAFT,
      'the draft',
      POLL,
    );
    expect((await received()).length).toBe(before);

    // Edited and sent as the agent's own message (signed with their name, as the composer does).
    await composer.press('End');
    await composer.pressSequentially(' ¡Saludos!');
    await composer.press('Enter');
    await eventually(
      received,
      (rows) => rows.some((r) => r.body === `*Agente Ventas:*\n${DRAFT} ¡Saludos!`),
      'the edited reply on the phone',
      POLL,
    );

    // Transferred to Soporte: a summary is written as the ticket's note.
    const uuid = new URL(seller.url()).pathname.split('/').pop()!;
    const ticket = await client.call<TicketView>(setup, 'GET', `/tickets/u/${uuid}`);
    await seller.getByRole('button', { name: 'Transferir' }).click();
    const dialog = seller.getByRole('dialog');
    await dialog.getByLabel('Cola').click();
    await seller.getByRole('option', { name: 'Soporte' }).click();
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await seller.waitForURL('**/tickets');
    const notes = await eventually(
      () =>
        client.call<TicketNoteView[]>(
          setup,
          'GET',
          `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`,
        ),
      (list) => list.some((note) => note.botName === 'Resumen IA'),
      'the summary note',
      { ...POLL, timeoutMs: 15_000 },
    );
    expect(notes.find((note) => note.botName === 'Resumen IA')!.note).toBe(SUMMARY);

    // The agent of Soporte takes it and reads the summary in the contact's notes.
    const helper = await open('soporte@test.local');
    await accept(helper);
    await helper.getByRole('button', { name: 'Datos del contacto' }).click();
    await helper
      .getByText('La clienta Lucía quiere devolver un producto.', { exact: false })
      .waitFor();
  });
});
