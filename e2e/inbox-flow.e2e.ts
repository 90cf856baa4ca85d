import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, type Outbound, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// The whole inbox in two browsers: an agent of one queue and an admin, with a simulated phone.

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const CONTACT = '5491155550200';

describe('inbox, end to end', () => {
  it('routes by the greeting, is served, transferred, resolved and rated, and opens again', async () => {
    const client = apiClient(server.apiUrl);
    const setup = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const sales = await client.call<{ id: number }>(setup, 'POST', '/queue', {
      name: 'Ventas',
      color: '#2e7d32',
      greetingMessage: 'Ventas: ¿en qué le ayudamos?',
      orderQueue: 1,
    });
    const support = await client.call<{ id: number }>(setup, 'POST', '/queue', {
      name: 'Soporte',
      color: '#1565c0',
      orderQueue: 2,
    });
    await client.call(setup, 'POST', '/users', {
      name: 'Agente Ventas',
      email: 'agent@test.local',
      password: 'Agent12345',
      profile: 'user',
      queueIds: [sales.id],
    });
    await client.call(setup, 'POST', '/users', {
      name: 'Teléfono',
      email: 'phone2@test.local',
      password: 'Phone12345',
      profile: 'admin',
    });
    const phone = await client.login('phone2@test.local', 'Phone12345');
    await client.call(phone, 'PUT', '/settings/userRating', { value: 'enabled' });
    await client.call(phone, 'POST', '/quick-messages', {
      shortcode: 'gracias',
      message: '¡Gracias por su paciencia!',
      geral: true,
    });
    const connection = await client.call<{ id: number }>(phone, 'POST', '/whatsapp', {
      name: 'Principal',
      provider: 'simulator',
      greetingMessage: '¡Hola! Elija una opción:',
      queueIds: [sales.id, support.id],
    });
    await pairSimulator(client, phone, connection.id);
    const write = (body: string) =>
      client.call(phone, 'POST', `/simulator/${connection.id}/inbound`, {
        from: CONTACT,
        name: 'Lucía Fernández',
        body,
      });
    const received = () =>
      client.call<Outbound[]>(phone, 'GET', `/simulator/${connection.id}/outbound`);
    const waitReceived = (count: number) =>
      eventually(received, (rows) => rows.length >= count, `${count} messages on the phone`, {
        ...POLL,
        timeoutMs: 15_000,
      });

    const agentContext = await browser.newContext();
    const adminContext = await browser.newContext();
    const agent = await agentContext.newPage();
    const admin = await adminContext.newPage();
    await logIn(agent, server.webUrl, 'agent@test.local', 'Agent12345');
    await logIn(admin, server.webUrl);
    const waitingTab = (page: Page) => page.getByRole('tab', { name: /En espera/ });
    await waitingTab(agent).click();
    await waitingTab(admin).click();
    // The admin serves no queue: "show all" lets them see every queue's waiting tickets.
    await admin.getByLabel('Ver todos').check();

    // Two queues: the greeting lists them and the reply picks one.
    await write('Hola, quiero comprar');
    expect((await waitReceived(1))[0].body).toBe(
      '¡Hola! Elija una opción:\n\n*1* - Ventas\n*2* - Soporte',
    );
    await write('1');
    expect((await waitReceived(2))[1].body).toBe('Ventas: ¿en qué le ayudamos?');

    // The agent of Ventas sees it live as waiting, and accepts it.
    const agentRow = agent.getByRole('listitem').filter({ hasText: 'Lucía Fernández' });
    await agentRow.getByRole('button', { name: 'Aceptar' }).click();
    const composer = agent.getByRole('textbox', { name: 'Mensaje' });
    await composer.waitFor();

    // Text.
    await composer.fill('Con gusto le ayudo.');
    await composer.press('Enter');
    await eventually(
      received,
      (rows) => rows.some((r) => r.body.includes('Con gusto le ayudo.')),
      'the reply on the phone',
      POLL,
    );

    // An emoji from the picker.
    await agent.getByRole('button', { name: 'Emojis' }).click();
    await agent.locator('button.epr-emoji').first().click();
    await agent.keyboard.press('Escape');
    const withEmoji = await composer.inputValue();
    expect(withEmoji.trim().length).toBeGreaterThan(0);
    await composer.press('Enter');
    await eventually(
      received,
      (rows) => rows.some((r) => r.body.includes(withEmoji.trim())),
      'the emoji on the phone',
      POLL,
    );

    // A file.
    await agent.getByTestId('composer-file-input').setInputFiles({
      name: 'catalogo.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n% catálogo de prueba\n'),
    });
    await agent
      .getByRole('region', { name: 'Archivos adjuntos' })
      .getByText('catalogo.pdf')
      .waitFor();
    await agent.getByRole('button', { name: 'Enviar' }).click();
    await eventually(
      received,
      (rows) => rows.some((r) => r.fileName === 'catalogo.pdf'),
      'the file on the phone',
      POLL,
    );

    // A quick answer.
    await composer.fill('/gra');
    await agent.getByRole('option', { name: /gracias/ }).click();
    expect(await composer.inputValue()).toContain('¡Gracias por su paciencia!');
    await composer.press('Enter');
    const sent = await eventually(
      received,
      (rows) => rows.some((r) => r.body.includes('¡Gracias por su paciencia!')),
      'the quick answer on the phone',
      POLL,
    );

    // The phone reads everything: the ticks turn to read live. (Once the chat shows every send
    // recorded: a receipt for a send the platform has not recorded yet finds no message to mark.)
    const ours = sent.filter((r) => r.to === CONTACT).slice(2);
    expect(ours).toHaveLength(4);
    await eventually(
      () => agent.getByTitle('Pendiente de envío').count(),
      (n) => n === 0,
      'every send recorded',
      POLL,
    );
    for (const message of ours)
      await client.call(phone, 'POST', `/simulator/${connection.id}/ack`, {
        id: message.id,
        ack: 4,
      });
    await eventually(
      () => agent.getByTitle('Leído').count(),
      (n) => n >= 4,
      'the read ticks',
      POLL,
    );

    // The agent hands it to Soporte: it leaves the agent and waits in Soporte for the admin.
    await agent.getByRole('button', { name: 'Transferir' }).click();
    const dialog = agent.getByRole('dialog');
    await dialog.getByLabel('Cola').click();
    await agent.getByRole('option', { name: 'Soporte' }).click();
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await agent.waitForURL('**/tickets');

    const adminRow = admin.getByRole('listitem').filter({ hasText: 'Lucía Fernández' });
    await adminRow.getByText('Soporte').waitFor();
    await adminRow.getByRole('button', { name: 'Aceptar' }).click();
    await admin.getByRole('button', { name: 'Resolver' }).click();
    await admin.getByRole('button', { name: 'Reabrir' }).waitFor();

    // Resolved: the rating question goes out and the contact's "3" is thanked (no new conversation).
    const question = await eventually(
      received,
      (rows) => rows.some((r) => r.body.includes('*3* - Muy satisfecho')),
      'the rating question',
      POLL,
    );
    const countAfterQuestion = question.length;
    await write('3');
    const thanked = await waitReceived(countAfterQuestion + 1);
    expect(thanked[countAfterQuestion].body).toBe('¡Gracias por tu evaluación!');

    // Writing again is a new conversation: it waits again, and the greeting lists the queues.
    await admin.goto(`${server.webUrl}/tickets`);
    await waitingTab(admin).click();
    await write('Tengo otra consulta');
    // The row may already show the bot's menu as its last message: the contact is what identifies it.
    await admin
      .getByRole('list', { name: 'En espera' })
      .getByRole('listitem')
      .filter({ hasText: 'Lucía Fernández' })
      .waitFor();
    const last = await waitReceived(countAfterQuestion + 2);
    expect(last[countAfterQuestion + 1].body).toContain('*2* - Soporte');

    await agentContext.close();
    await adminContext.close();
  });
});
