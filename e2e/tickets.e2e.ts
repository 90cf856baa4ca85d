import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

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

// The "phone" is driven through the simulator's API, with a session of its own: a second admin, since
// logging in again as the browser's user would end the browser's session.
const client = () => apiClient(server.apiUrl);
const api = <T = unknown>(token: string, method: string, path: string, body?: unknown) =>
  client().call<T>(token, method, path, body);
const apiLogin = (email: string, password: string) => client().login(email, password);

describe('inbox', () => {
  it('a contact writes, the ticket shows up waiting, the agent accepts, replies and resolves', async () => {
    const setup = await apiLogin(ADMIN_EMAIL, ADMIN_PASSWORD);
    await api(setup, 'POST', '/users', {
      name: 'Teléfono',
      email: 'phone@test.local',
      password: 'Phone12345',
      profile: 'admin',
    });
    const phone = await apiLogin('phone@test.local', 'Phone12345');
    const connection = await api<{ id: number }>(phone, 'POST', '/whatsapp', {
      name: 'Inbox',
      provider: 'simulator',
    });
    await pairSimulator(client(), phone, connection.id);

    const page = await browser.newPage();
    await logIn(page, server.webUrl);
    await page.getByRole('tab', { name: /En espera/ }).click();

    await api(phone, 'POST', `/simulator/${connection.id}/inbound`, {
      from: '5491155550100',
      name: 'Lucía',
      body: 'Hola, ¿tienen stock?',
    });
    const row = page.getByRole('listitem').filter({ hasText: 'Lucía' });
    await row.getByText('Hola, ¿tienen stock?').waitFor();
    await row.getByRole('button', { name: 'Aceptar' }).click();

    await page.getByText('Hola, ¿tienen stock?').last().waitFor();
    const composer = page.getByRole('textbox', { name: 'Mensaje' });
    await composer.fill('Sí, tenemos 3 unidades.');
    await composer.press('Enter');

    const sent = await eventually(
      () =>
        client().call<{ id: string; body: string }[]>(
          phone,
          'GET',
          `/simulator/${connection.id}/outbound`,
        ),
      (rows) => rows.length > 0,
      'the reply on the phone',
      POLL,
    );
    expect(sent[0].body).toContain('Sí, tenemos 3 unidades.');
    // The phone reads it once the chat shows it sent, as a person would: a receipt for a send the
    // platform has not recorded yet finds no message to mark.
    await page.getByTitle('Enviado').waitFor();
    await api(phone, 'POST', `/simulator/${connection.id}/ack`, { id: sent[0].id, ack: 4 });
    await page.getByTitle('Leído').waitFor();

    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.getByRole('button', { name: 'Reabrir' }).waitFor();
  });
});
