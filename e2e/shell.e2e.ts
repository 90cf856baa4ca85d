import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { socketConnected, submitLogin } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let stopped = false;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  if (!stopped) await server?.stop();
});

const logIn = (page: Page, password = ADMIN_PASSWORD) =>
  submitLogin(page, server.webUrl, ADMIN_EMAIL, password);

describe('web shell', () => {
  it('shows the error box for a wrong password, then logs the super user in', async () => {
    const page = await browser.newPage();
    await logIn(page, 'wrong-password');
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/incorrect|incorrectos/i);

    await logIn(page);
    await page.waitForURL('**/tickets');
    await page.getByRole('heading', { name: 'Tickets' }).waitFor();
    // The drawer shows the version of the app and the version the server reports.
    expect(await page.getByTestId('drawer').textContent()).toContain('6.0.0');
    await page.close();
  });

  it('keeps the chosen language and theme after a reload, and logs out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page);
    await page.waitForURL('**/tickets');

    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await page.getByTestId('account-menu').click();
    await page.getByTestId('lang-en').check();
    // Close the menu as a person would, by clicking outside it.
    await page.mouse.click(600, 400);
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.getByTestId('drawer').getByText('Contacts', { exact: true }).waitFor();

    const before = await page.locator('html').getAttribute('data-theme');
    await page.getByTestId('theme-toggle').click();
    const after = before === 'dark' ? 'light' : 'dark';
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, after);

    await page.reload();
    await page.getByRole('heading', { name: 'Tickets' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('html').getAttribute('data-theme')).toBe(after);
    // Still logged in after the reload: the session came back from the refresh cookie.
    expect(new URL(page.url()).pathname).toBe('/tickets');

    await page.getByTestId('account-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL('**/login');
    await page.goto(`${server.webUrl}/tickets`);
    await page.waitForURL('**/login');
    await context.close();
  });

  it('a second login of the same account sends the first browser back to the login page', async () => {
    const first = await browser.newContext();
    const second = await browser.newContext();
    const a = await first.newPage();
    // The first browser's live socket is connected before the second login.
    const connected = socketConnected(a);
    await logIn(a);
    await a.waitForURL('**/tickets');
    await connected;

    const b = await second.newPage();
    await logIn(b);
    await b.waitForURL('**/tickets');

    await a.getByText(/accesada en otro lugar|used elsewhere/i).waitFor({ timeout: 10_000 });
    await a.waitForURL('**/login', { timeout: 15_000 });
    await first.close();
    await second.close();
  });

  it('shuts down cleanly on SIGTERM', async () => {
    stopped = true;
    await expect(server.stop()).resolves.toBeUndefined();
  });
});
