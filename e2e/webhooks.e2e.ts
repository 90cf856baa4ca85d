import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { startWebhookReceiver, type WebhookReceiver } from '../apps/api/test/webhook-receiver';
import { apiClient, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// Issue 38's outbound webhooks end to end: a company admin registers an endpoint on a local receiver
// (the same one the API tests use, which checks every request with the Standard Webhooks verifier, as
// a company's system would), sends it the test event, resolves a conversation in the inbox, and sees
// the signed ticket.resolved arrive and its delivery in the endpoint's log.

let receiver: WebhookReceiver;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // The receiver listens on this machine: the operator lets loopback through, as one would for a
  // system on their own network (company-supplied URLs are refused there otherwise).
  server = await startServer({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.close();
});

describe('outbound webhooks', () => {
  it('an admin registers an endpoint, tests it, resolves a conversation and it arrives signed', async () => {
    // The browser's admin is a company admin of their own; the super user's session drives the phone.
    const client = apiClient(server.apiUrl);
    const root = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    await client.call(root, 'POST', '/users', {
      name: 'Integraciones',
      email: 'webhooks@test.local',
      password: 'Webhooks123',
      profile: 'admin',
    });
    const connection = await client.call<{ id: number }>(root, 'POST', '/whatsapp', {
      name: 'Webhooks',
      provider: 'simulator',
    });
    await pairSimulator(client, root, connection.id);

    const page = await (await browser.newContext()).newPage();
    await logIn(page, server.webUrl, 'webhooks@test.local', 'Webhooks123');
    await page.goto(`${server.webUrl}/settings?tab=webhooks`);
    await page.getByRole('button', { name: 'Agregar endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Nuevo endpoint' });
    await form.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
    await form.getByRole('textbox', { name: 'Descripción' }).fill('CRM');
    await form.getByRole('checkbox', { name: 'Ticket resuelto', exact: true }).check();
    await form.getByRole('button', { name: 'Crear endpoint' }).click();
    // The secret, shown once the endpoint is made: the receiver verifies every delivery with it.
    const shown = page.getByRole('textbox', { name: 'Secreto de firma' });
    await shown.waitFor();
    const secret = await shown.inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.setSecret(secret);
    await page.getByRole('button', { name: 'Listo' }).click();
    await shown.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Enviar evento de prueba CRM' }).click();
    await page.getByText(/^Evento de prueba entregado: HTTP 200 en \d+ ms\.$/).waitFor();
    expect(receiver.types()).toEqual(['webhook.test']);
    expect(receiver.received[0].verified).toBe(true);

    // A contact writes; the admin takes the conversation and resolves it, as an agent would.
    await page.goto(`${server.webUrl}/tickets`);
    await page.getByRole('tab', { name: /En espera/ }).click();
    await client.call(root, 'POST', `/simulator/${connection.id}/inbound`, {
      from: '5491155550400',
      name: 'Marta',
      body: 'Hola, quiero cambiar mi pedido.',
    });
    const row = page.getByRole('listitem').filter({ hasText: 'Marta' });
    await row.getByText('Hola, quiero cambiar mi pedido.').waitFor();
    await row.getByRole('button', { name: 'Aceptar' }).click();
    // The open conversation's address names it by its uuid.
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    const uuid = new URL(page.url()).pathname.split('/').pop();
    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.getByRole('button', { name: 'Reabrir' }).waitFor();

    const resolved = await eventually(
      () => receiver.received.find((request) => request.payload?.type === 'ticket.resolved'),
      Boolean,
      'ticket.resolved at the receiver',
      POLL,
    );
    expect(resolved!.verified).toBe(true);
    expect(resolved!.headers['webhook-id']).toMatch(/^msg_/);
    expect(resolved!.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(resolved!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(resolved!.payload.data.ticket).toMatchObject({ uuid, status: 'closed' });
    // Only what the endpoint chose: the ticket's creation and acceptance were not sent.
    expect(receiver.types()).toEqual(['webhook.test', 'ticket.resolved']);

    // The endpoint's log shows it delivered (read again by the page while it is still pending).
    await page.goto(`${server.webUrl}/settings?tab=webhooks`);
    await page.getByRole('button', { name: 'Entregas CRM' }).click();
    const log = page.getByRole('dialog', { name: 'Entregas de CRM' });
    const delivery = log
      .getByRole('table', { name: 'Entregas' })
      .getByRole('row')
      .filter({ hasText: 'ticket.resolved' });
    await delivery.getByText('Entregada', { exact: true }).waitFor();
    await page.context().close();
  });
});
