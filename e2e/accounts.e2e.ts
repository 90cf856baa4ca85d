import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { startLocalOidc } from '../apps/api/test/local-oidc';
import { apiClient } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn, submitLogin } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// Issue 37: the accounts' security as a person goes through it in the browser.

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // The local OpenID provider of the SSO flow listens on 127.0.0.1.
  server = await startServer({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' });
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

describe('one session per device', () => {
  it('an agent keeps the desktop and the phone signed in together, and ends the phone from the desktop', async () => {
    const client = apiClient(server.apiUrl);
    const root = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    await client.call(root, 'PUT', '/settings/singleSession', { value: 'device' });
    const email = 'dos-equipos@test.local';
    const password = 'DosEquipos123';
    await client.call(root, 'POST', '/users', {
      name: 'Dos Equipos',
      email,
      password,
      profile: 'user',
    });

    const desktop = await (
      await browser.newContext({
        userAgent:
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      })
    ).newPage();
    const phone = await (
      await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        userAgent:
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      })
    ).newPage();
    await logIn(desktop, server.webUrl, email, password);
    await logIn(phone, server.webUrl, email, password);

    // The desktop was not signed out by the phone: its sessions list both, this one first.
    await desktop.getByTestId('account-menu').click();
    await desktop.getByTestId('sessions').click();
    const list = desktop.getByRole('list', { name: 'Sesiones' });
    await list.getByText('Chrome en Windows (esta sesión)').waitFor();
    await list.getByText('Chrome en Android').waitFor();

    // Ended from the desktop, the phone is back at the login page.
    await list.getByRole('button', { name: 'Cerrar la sesión de Chrome en Android' }).click();
    await phone.waitForURL('**/login');
    await phone.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
    await list.getByText('Chrome en Android').waitFor({ state: 'detached' });
    expect(await list.getByRole('listitem').count()).toBe(1);
    await desktop.context().close();
    await phone.context().close();
  });
});

describe('single sign-on', () => {
  it('a person of the company’s domain signs in through the provider’s pages', async () => {
    const provider = await startLocalOidc({ redirectUris: [`${server.apiUrl}/auth/sso/callback`] });
    try {
      const client = apiClient(server.apiUrl);
      const root = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
      const { companyId } = await client.call<{ companyId: number }>(root, 'GET', '/auth/me');
      await client.call(root, 'PUT', `/companies/${companyId}/sso`, {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        domains: ['sso-e2e.test'],
        createUsers: true,
      });
      const email = 'rosa@sso-e2e.test';
      provider.accounts.set('rosa', { email, email_verified: true, name: 'Rosa Díaz' });

      const page: Page = await (await browser.newContext()).newPage();
      await page.goto(`${server.webUrl}/login`);
      await page.fill('input[name="email"]', email);
      await page.getByRole('button', { name: 'Entrar con SSO' }).click();
      // The provider's own sign-in page, on its own origin.
      await page.waitForURL(`${provider.issuer}/**`);
      await page.fill('input[name="login"]', 'rosa');
      await page.fill('input[name="password"]', 'any');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.waitForURL('**/tickets');
      await page.getByRole('heading', { name: 'Tickets' }).waitFor();
      await page.getByTestId('account-menu').click();
      await page.getByText('Rosa Díaz').waitFor();
      await page.context().close();
    } finally {
      await provider.close();
    }
  });
});

describe('API tokens', () => {
  it('an admin makes a token in the browser and a system calls the API with it', async () => {
    const page: Page = await (await browser.newContext()).newPage();
    await logIn(page, server.webUrl);
    await page.goto(`${server.webUrl}/settings?tab=api`);
    await page.getByRole('button', { name: 'Nuevo token' }).click();
    await page.getByRole('textbox', { name: 'Nombre' }).fill('CRM');
    await page.getByRole('checkbox', { name: 'Leer Contactos' }).check();
    await page.getByRole('button', { name: 'Crear token' }).click();
    const shown = page.getByRole('textbox', { name: 'Token' });
    await shown.waitFor();
    const token = await shown.inputValue();

    const call = (method: string, path: string, body?: object) =>
      fetch(`${server.apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const read = await call('GET', '/contacts');
    expect(read.status).toBe(200);
    const write = await call('POST', '/contacts', { name: 'Ana', number: '5491122223333' });
    expect(write.status).toBe(403);
    expect(((await write.json()) as { error: string }).error).toBe('ERR_API_TOKEN_SCOPE');
    await page.context().close();
  });
});
