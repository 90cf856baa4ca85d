import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { logIn as logInAs, socketConnected } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.stop();
});

// A 1×1 PNG, enough for the server to store and the browser to draw.
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const TITLE = 'Mantenimiento programado';
const TEXT =
  'El sábado de 22:00 a 23:00 la plataforma no estará disponible.\nGracias por su paciencia.';

// A separate browser context is a separate browser: its own storage, cookies and socket.
const newBrowserPage = async () => {
  const context = await browser.newContext();
  contexts.push(context);
  return context.newPage();
};

const logIn = (page: Page, email: string, password: string) =>
  logInAs(page, server.webUrl, email, password);

const signUpCompany = async () => {
  const suffix = Date.now().toString(36);
  const account = { email: `admin-${suffix}@otra.test`, password: 'Secreta123' };
  const response = await fetch(`${server.apiUrl}/companies/cadastro`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: `Otra Empresa ${suffix}`,
      phone: '551234567890',
      ...account,
    }),
  });
  expect(response.status).toBe(201);
  return account;
};

const announcementCount = (page: Page) =>
  page.getByTestId('announcements-button').getAttribute('data-count').then(Number);

describe('announcements', () => {
  it('an announcement created by the super user reaches another company live', async () => {
    const operator = await newBrowserPage();
    await logIn(operator, ADMIN_EMAIL, ADMIN_PASSWORD);

    const account = await signUpCompany();
    const customer = await newBrowserPage();
    // The first list loaded and the live socket connected before anything is announced.
    const listed = customer.waitForResponse(
      (res) => new URL(res.url()).pathname === '/announcements',
    );
    const connected = socketConnected(customer);
    await logIn(customer, account.email, account.password);
    await customer.getByTestId('announcements-button').waitFor();
    await Promise.all([listed, connected]);
    const before = await announcementCount(customer);

    await operator.goto(`${server.webUrl}/announcements`);
    await operator.getByRole('heading', { level: 1, name: 'Anuncios' }).waitFor();
    await operator.getByRole('button', { name: 'Agregar anuncio' }).click();
    const dialog = operator.getByRole('dialog', { name: 'Nuevo anuncio' });
    await dialog.getByRole('textbox', { name: 'Título' }).fill(TITLE);
    await dialog.getByRole('textbox', { name: 'Texto' }).fill(TEXT);
    await dialog.getByRole('combobox', { name: 'Prioridad' }).click();
    await operator.getByRole('option', { name: 'Alta' }).click();
    await dialog
      .getByTestId('announcement-file-input')
      .setInputFiles({ name: 'aviso.png', mimeType: 'image/png', buffer: PIXEL_PNG });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await operator.getByText('Anuncio creado.').waitFor();
    const row = operator
      .getByTestId('announcements-table')
      .getByRole('row', { name: /Mantenimiento/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('aviso.png');

    // The other company, without reloading: the badge grows and the list shows it.
    await customer.waitForFunction(
      (expected) =>
        document
          .querySelector('[data-testid="announcements-button"]')
          ?.getAttribute('data-count') === String(expected),
      before + 1,
      { timeout: 10_000 },
    );
    expect(await customer.getByTestId('announcements-badge').textContent()).toBe(
      String(before + 1),
    );
    await customer.getByTestId('announcements-button').click();
    const popover = customer.getByTestId('announcements-popover');
    const item = popover.getByRole('button', { name: new RegExp(TITLE) });
    await item.waitFor();
    expect(await item.getByRole('img', { name: 'Alta' }).count()).toBe(1);

    await item.click();
    const viewer = customer.getByRole('dialog', { name: TITLE });
    await viewer.waitFor();
    const text = viewer.getByTestId('announcement-viewer-text');
    expect(await text.innerText()).toBe(TEXT);
    // The image uploaded after the record was saved arrives too, and loads.
    const image = viewer.getByRole('img', { name: 'aviso.png' });
    await image.waitFor();
    await customer.waitForFunction(
      (element) =>
        element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
      await image.elementHandle(),
      { timeout: 10_000 },
    );
    expect(new URL(customer.url()).pathname).toBe('/tickets');
  });
});
