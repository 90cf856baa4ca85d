import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { submitLogin } from './support/pages';
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

const logIn = (page: Page, email: string, password: string) =>
  submitLogin(page, server.webUrl, email, password);

describe('companies administration', () => {
  it('a super user creates a company whose admin then logs in with the generated password', async () => {
    const context = await browser.newContext({
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL('**/tickets');

    await page.getByTestId('drawer').getByText('Configuraciones', { exact: true }).click();
    await page.waitForURL('**/settings');
    await page.getByRole('tab', { name: 'Empresas' }).click();
    const table = page.getByRole('table', { name: 'Empresas' });
    await table.getByRole('row').nth(1).waitFor();

    await page.getByRole('button', { name: 'Agregar empresa' }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('textbox', { name: 'Nombre' }).fill('Panadería Sol');
    await form.getByRole('textbox', { name: 'Correo electrónico' }).fill('Duena@Panaderia.test');
    await form.getByRole('combobox', { name: 'Plan' }).click();
    await page.getByRole('option', { name: 'Plus' }).click();
    await form.getByRole('button', { name: 'Guardar' }).click();

    const created = page.getByRole('dialog', { name: 'Empresa creada' });
    await created.waitFor();
    const password = (await created.getByTestId('admin-password').textContent()) ?? '';
    // SPEC §9: 8 characters from letters, digits and !@#$%^&*.
    expect(password).toMatch(/^[A-Za-z0-9!@#$%^&*]{8}$/);
    // The admin logs in with the company email (stored in lower case).
    const adminEmail = (await created.getByTestId('admin-email').textContent()) ?? '';
    expect(adminEmail).toBe('duena@panaderia.test');

    await created.getByRole('button', { name: 'Copiar contraseña' }).click();
    await page.getByText('Contraseña copiada.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await created.getByRole('button', { name: 'Cerrar' }).click();
    await created.waitFor({ state: 'detached' });

    const row = table.getByRole('row').filter({ hasText: 'Panadería Sol' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Plus');
    expect(await row.textContent()).toContain('Activa');

    await page.getByTestId('account-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL('**/login');

    await logIn(page, adminEmail, password);
    await page.waitForURL('**/tickets');
    await page.getByRole('heading', { name: 'Tickets' }).waitFor();
    await context.close();
  });

  it('a new company signs up and its admin, by their own name, lands on the getting-started checklist', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.webUrl}/signup`);
    await page.getByRole('textbox', { name: 'Nombre de la empresa' }).fill('Pizzería Don Mario');
    await page.getByRole('textbox', { name: 'Su nombre' }).fill('Mario Rossi');
    await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('mario@donmario.test');
    await page.getByLabel('Contraseña').fill('Pizzas2026');
    await page.getByRole('combobox', { name: 'Plan' }).waitFor();
    await page.getByRole('button', { name: 'Registrarse' }).click();

    await page.getByRole('heading', { name: 'Primeros pasos' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // The admin is a person: the dashboard lists them, not the company, among the agents.
    await expect
      .poll(() => page.getByRole('main').innerText(), { timeout: 10_000 })
      .toContain('Mario Rossi');
    await context.close();
  });
});
