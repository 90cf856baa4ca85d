import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, pairSimulator, POLL, type Outbound } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// Issue 39 in the browser, on the simulator's phone (the same channel events and session calls as
// Baileys and the Cloud API): a contact reacts to the agent's message and the agent sees it at once;
// the agent forwards the contact's photo to another contact, who gets it marked forwarded; a number
// drops and the admin sees the banner over the inbox.

// A 1×1 PNG, enough for the server to store and the browser to draw.
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const ROCIO = '5491155550510';
const TOMAS = '5491155550511';

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

describe('WhatsApp depth in the inbox', () => {
  it('reactions arrive live, a photo is forwarded, and a dropped number shows its banner', async () => {
    const client = apiClient(server.apiUrl);
    const root = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const connection = await client.call<{ id: number }>(root, 'POST', '/whatsapp', {
      name: 'Ventas',
      provider: 'simulator',
    });
    await pairSimulator(client, root, connection.id);
    const tomas = await client.call<{ id: number }>(root, 'POST', '/contacts', {
      name: 'Tomás',
      number: TOMAS,
    });

    // The browser's admin is another admin of the company: the super user's session drives the phone.
    await client.call(root, 'POST', '/users', {
      name: 'Supervisora',
      email: 'depth@test.local',
      password: 'Depth12345',
      profile: 'admin',
    });
    const page = await (await browser.newContext()).newPage();
    await logIn(page, server.webUrl, 'depth@test.local', 'Depth12345');
    await page.goto(`${server.webUrl}/tickets`);
    await page.getByRole('tab', { name: /En espera/ }).click();
    await client.call(root, 'POST', `/simulator/${connection.id}/inbound`, {
      from: ROCIO,
      name: 'Rocío',
      body: 'Así llegó la caja',
    });
    await client.call(root, 'POST', `/simulator/${connection.id}/inbound`, {
      from: ROCIO,
      name: 'Rocío',
      mediaType: 'image',
      fileName: 'caja.png',
      mediaBase64: PIXEL_PNG,
    });
    const row = page.getByRole('listitem').filter({ hasText: 'Rocío' });
    await row.getByRole('button', { name: 'Aceptar' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);

    // The agent answers; the contact reacts to the answer on their phone.
    const composer = page.getByRole('textbox', { name: 'Mensaje' });
    await composer.fill('Lo siento, le enviamos otra hoy mismo.');
    await composer.press('Enter');
    const [answer] = await eventually(
      () => client.call<Outbound[]>(root, 'GET', `/simulator/${connection.id}/outbound`),
      (sent) => sent.some((m) => m.to === ROCIO),
      'the answer on the phone',
      POLL,
    );
    await client.call(root, 'POST', `/simulator/${connection.id}/reaction`, {
      from: ROCIO,
      id: answer.id,
      emoji: '🙏',
    });
    await page.getByRole('list', { name: 'Reacciones' }).getByText('🙏').waitFor();

    // The photo goes to Tomás, forwarded.
    const photo = page.getByTestId(/^message-\d+$/).filter({ has: page.locator('img') });
    await photo.getByRole('button', { name: 'Opciones del mensaje' }).click();
    await page.getByRole('menuitem', { name: 'Reenviar' }).click();
    const bar = page.getByRole('region', { name: 'Reenviar mensajes' });
    await bar.getByRole('button', { name: 'Reenviar a…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reenviar 1 mensaje' });
    await dialog.getByRole('combobox', { name: 'Contacto' }).fill('Tom');
    await page.getByRole('option', { name: /Tomás/ }).click();
    await dialog.getByRole('button', { name: 'Reenviar' }).click();
    await page.getByText('Mensaje reenviado a Tomás.').waitFor();
    await page.getByRole('heading', { level: 2, name: 'Tomás' }).waitFor();
    await page.getByText('Reenviado').first().waitFor();
    const onPhone = await eventually(
      () =>
        client.call<(Outbound & { forwarded: boolean })[]>(
          root,
          'GET',
          `/simulator/${connection.id}/outbound`,
        ),
      (sent) => sent.some((m) => m.to === TOMAS),
      'the photo on Tomás’s phone',
      POLL,
    );
    expect(onPhone.filter((m) => m.to === TOMAS)).toEqual([
      expect.objectContaining({ mediaType: 'image', fileName: 'caja.png', forwarded: true }),
    ]);
    const tickets = await client.call<{ tickets: { contactId: number; status: string }[] }>(
      root,
      'GET',
      '/tickets?status=open&showAll=true',
    );
    expect(tickets.tickets.filter((t) => t.contactId === tomas.id)).toHaveLength(1);

    // The phone unlinks the number: the admin sees it over the inbox at once.
    await client.call(root, 'POST', `/simulator/${connection.id}/disconnect`);
    await page
      .getByText('La conexión Ventas está desconectada: los mensajes de sus clientes no llegan.')
      .waitFor();
    await page.context().close();
  });
});
