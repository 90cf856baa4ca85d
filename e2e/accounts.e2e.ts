import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { apiClient } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn, submitLogin } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// Issue 37: the accounts' security as a person goes through it in the browser.

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

// What the authenticator app shows for a secret, `steps` periods of 30 s from now.
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

describe('two-step verification', () => {
  it('an admin enrols an app, logs out, and logs in again with its code', async () => {
    // An admin of their own, so the other files' super user keeps signing in with a password.
    const client = apiClient(server.apiUrl);
    const root = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const email = 'dos-pasos@test.local';
    const password = 'DosPasos123';
    await client.call(root, 'POST', '/users', {
      name: 'Dos Pasos',
      email,
      password,
      profile: 'admin',
    });

    const page: Page = await (await browser.newContext()).newPage();
    await logIn(page, server.webUrl, email, password);
    await page.getByTestId('account-menu').click();
    await page.getByTestId('two-factor').click();
    await page.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.replace(/\s/g, '');
    await page.getByRole('textbox', { name: 'Código de la app' }).fill(codeOf(secret));
    await page.getByRole('button', { name: 'Activar', exact: true }).click();
    await page.getByRole('list', { name: 'Códigos de recuperación' }).waitFor();
    await page.getByRole('button', { name: 'Ya los guardé, continuar' }).click();

    await page.getByTestId('account-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL('**/login');

    await submitLogin(page, server.webUrl, email, password);
    const code = page.getByRole('textbox', { name: 'Código' });
    await code.waitFor();
    // The code used to enrol is spent: the next period's one signs in.
    await code.fill(codeOf(secret, 1));
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.waitForURL('**/tickets');
    await page.getByRole('heading', { name: 'Tickets' }).waitFor();
    await page.context().close();
  });
});
