import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { startServer, type RunningServer } from './support/server';

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

const connectionsLink = (page: Page) =>
  page.getByTestId('drawer').getByRole('link', { name: /^Conexiones/ });
const hasBadge = async (link: Locator) => (await link.getByText('!', { exact: true }).count()) > 0;
const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

describe('connections', () => {
  it('pairs a simulator connection by QR from the phone panel and disconnects it, live', async () => {
    // Two tabs of one browser (one session): the admin's screen and the "phone".
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page, server.webUrl);
    await connectionsLink(page).click();
    await page.getByRole('heading', { level: 1, name: 'Conexiones' }).waitFor();

    await page.getByRole('button', { name: 'Agregar WhatsApp' }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('textbox', { name: 'Nombre' }).fill('Demo');
    await form.getByRole('combobox', { name: 'Tipo de conexión' }).click();
    await page.getByRole('option', { name: 'Simulador (pruebas)' }).click();
    await form.getByRole('button', { name: 'Agregar', exact: true }).click();
    await form.waitFor({ state: 'detached' });

    // Pairing starts by itself: the row waits for a scan and the menu flags it.
    const row = rowOf(page, 'Demo');
    await row.getByText('Esperando lectura del QR').waitFor();
    await expect.poll(() => hasBadge(connectionsLink(page)), { timeout: 10_000 }).toBe(true);
    await row.getByRole('button', { name: 'Código QR' }).click();
    const qrDialog = page.getByRole('dialog', { name: 'Código QR · Demo' });
    await qrDialog.locator('svg').first().waitFor();

    // The phone, in the other tab, scans the code.
    const phonePage = await context.newPage();
    await phonePage.goto(`${server.webUrl}/connections`);
    await rowOf(phonePage, 'Demo').getByRole('button', { name: 'Teléfono' }).click();
    const phone = phonePage.getByRole('dialog', { name: 'Teléfono simulado · Demo' });
    await phone.getByRole('button', { name: 'Escanear QR' }).click();
    await phonePage.getByText('QR escaneado.').waitFor();

    // The admin's screen follows live: the QR dialog closes, the row is online, the flag clears.
    await qrDialog.waitFor({ state: 'detached' });
    await row.getByText('Conectado').waitFor();
    await expect.poll(() => hasBadge(connectionsLink(page)), { timeout: 10_000 }).toBe(false);
    await row.getByRole('button', { name: 'Desconectar' }).waitFor();

    await row.getByRole('button', { name: 'Desconectar' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Desconectar Demo?' });
    await confirm.getByRole('button', { name: 'Desconectar' }).click();
    await row.getByText('Desconectado').waitFor();
    await row.getByRole('button', { name: 'Intentar de nuevo' }).waitFor();
    await row.getByRole('button', { name: 'Nuevo QR' }).waitFor();
    expect(await row.getByRole('button', { name: 'Desconectar' }).count()).toBe(0);
    await expect.poll(() => hasBadge(connectionsLink(page)), { timeout: 10_000 }).toBe(true);
    await context.close();
  });
});
