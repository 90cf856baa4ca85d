import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  startFakeStripe,
  STRIPE_KEY,
  WEBHOOK_SECRET,
  type FakeStripe,
} from '../apps/api/test/fake-stripe';
import { apiClient } from './support/api';
import { launchBrowser } from './support/browser';
import { submitLogin } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// The money path end to end: the product talks to a local Stripe (the same stand-in the API tests
// use) through the real SDK, and the stand-in's hosted checkout page sends the signed webhooks Stripe
// would when "Pagar" is pressed.

let stripe: FakeStripe;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  stripe = await startFakeStripe();
  server = await startServer({
    STRIPE_SECRET_KEY: STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  });
  stripe.webhookUrl = `${server.apiUrl}/subscriptions/webhook`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stripe?.close();
});

describe('billing', () => {
  it('a company past its due date pays on the hosted checkout and is let back in without logging in again', async () => {
    const api = apiClient(server.apiUrl);
    const operator = await api.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const plans = await api.call<{ id: number; name: string }[]>(operator, 'GET', '/plans/all');
    const basic = plans.find((p) => p.name === 'Basic')!;
    await api.call(operator, 'POST', `/plans/${basic.id}/price`);
    const yesterday = new Date(Date.now() - 24 * 3600_000).toISOString();
    const company = await api.call<{ id: number; email: string; adminPassword: string }>(
      operator,
      'POST',
      '/companies',
      {
        name: 'Ferretería Norte',
        email: 'pagos@ferreteria.test',
        planId: basic.id,
        dueDate: yesterday,
      },
    );

    const context = await browser.newContext();
    const page = await context.newPage();
    await submitLogin(page, server.webUrl, company.email, company.adminPassword);
    // SPEC §2: after login a company that is not active goes to its subscriptions…
    await page.waitForURL('**/subscriptions');
    // …and any other page sends it to the restricted-access page.
    await page.goto(`${server.webUrl}/tickets`);
    await page.waitForURL('**/restricted-access');
    // The page load restored the session before the texts were here: its due-date toast still says
    // what it warns about.
    await page.getByRole('alert').filter({ hasText: 'Su suscripción venció el' }).waitFor();
    await page.getByRole('link', { name: 'Renovar suscripción' }).click();
    await page.waitForURL('**/subscriptions');
    await page.getByRole('link', { name: 'Suscribirse' }).click();
    await page.waitForURL('**/subscribe');

    // Basic is the company's plan: marked so, and paid as such rather than as a new subscription.
    const basicCard = page.getByRole('region', { name: 'Basic' });
    await basicCard.getByText('Plan actual', { exact: true }).waitFor();
    await basicCard.getByRole('button', { name: 'Pagar mi plan actual' }).click();
    const dialog = page.getByRole('dialog', { name: 'Contratar plan' });
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Marta');
    await dialog.getByRole('textbox', { name: 'Apellido' }).fill('Gómez');
    await dialog.getByRole('textbox', { name: 'Dirección' }).fill('Calle 10 # 20-30');
    await dialog.getByRole('textbox', { name: 'Ciudad' }).fill('Medellín');
    await dialog.getByRole('textbox', { name: 'Estado o provincia' }).fill('Antioquia');
    await dialog.getByRole('textbox', { name: 'Código postal' }).fill('050021');
    await dialog.getByRole('combobox', { name: 'País' }).fill('Colombia');
    await page.getByRole('option', { name: 'Colombia' }).click();
    await dialog.getByRole('button', { name: 'Siguiente' }).click();
    await dialog.getByTestId('checkout-price').waitFor();
    expect(await dialog.getByTestId('checkout-price').textContent()).toContain('Basic');
    await dialog.getByRole('button', { name: 'Siguiente' }).click();
    const review = dialog.getByTestId('checkout-review');
    await review.waitFor();
    expect(await review.textContent()).toContain('Marta Gómez');
    await dialog.getByRole('button', { name: 'Suscribirse' }).click();

    // The provider's hosted page (the local stand-in): card data is typed there, never in our pages.
    await page.waitForURL(`${stripe.url}/checkout/**`);
    const session = [...stripe.objects.values()].find((o) => o.object === 'checkout.session')!;
    expect(session).toMatchObject({
      client_reference_id: String(company.id),
      metadata: { companyId: String(company.id), planId: String(basic.id) },
    });
    await page.getByRole('button', { name: 'Pagar' }).click();

    // Back on /success; the signed webhooks make the company active and the page says so live.
    await page.waitForURL('**/success?session_id=*');
    await page.getByText('Suscripción activa').waitFor();
    await page.getByRole('link', { name: 'Ir a los tickets' }).click();
    await page.waitForURL('**/tickets');
    await page.getByRole('heading', { name: 'Tickets' }).waitFor();

    await page.goto(`${server.webUrl}/subscriptions`);
    await page.getByTestId('current-subscription').waitFor();
    expect(await page.getByTestId('current-subscription').textContent()).toContain('Basic');
    // "Vencimiento" and "Se renueva el" are one date: the end of the period paid for.
    const renewsOn = /Se renueva el (\d{2}\/\d{2}\/\d{4})/.exec(
      (await page.getByTestId('current-subscription').textContent()) ?? '',
    )?.[1];
    expect(renewsOn).toBeTruthy();
    expect(await page.getByTestId('company-status').textContent()).toContain(
      `Vencimiento${renewsOn}`,
    );
    await page.getByRole('link', { name: 'Ver factura' }).waitFor();
    await context.close();
  });
});
