import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, type Outbound, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn, typeDate } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// The dashboard's figures for conversations made in the test (both languages, both themes), and the
// messages-API page's test forms sending through the real route to the simulated phone.

let server: RunningServer;
let browser: Browser;
let client: ReturnType<typeof apiClient>;
let token: string;
let connection: { id: number; token: string };

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  client = apiClient(server.apiUrl);
  // The browser logs in as the admin (which ends the admin's other sessions): the test's own calls
  // are a second admin's, who also serves the conversations.
  const admin = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  await client.call(admin, 'POST', '/users', {
    name: 'Operadora Sofía',
    email: 'sofia@test.local',
    password: 'Sofia12345',
    profile: 'admin',
  });
  token = await client.login('sofia@test.local', 'Sofia12345');
  connection = await client.call<{ id: number; token: string }>(token, 'POST', '/whatsapp', {
    name: 'Principal',
    provider: 'simulator',
  });
  await pairSimulator(client, token, connection.id);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type TicketList = { tickets: { id: number; contact: { number: string } }[] };

const ticketOf = (number: string, status: string) =>
  eventually(
    () =>
      client
        .call<TicketList>(token, 'GET', `/tickets?status=${status}&showAll=true`)
        .then((list) => list.tickets.find((ticket) => ticket.contact.number === number)),
    Boolean,
    `the ${status} ticket of ${number}`,
    POLL,
  ).then((ticket) => ticket!);

const counter = (page: Page, key: string) =>
  page.getByTestId(`dashboard-counter-${key}`).textContent();

const sentTo = (number: string) =>
  client
    .call<Outbound[]>(token, 'GET', `/simulator/${connection.id}/outbound`)
    .then((list) => list.filter((message) => message.to === number));

describe('dashboard', () => {
  it('shows figures that match the conversations of the day, in both languages and themes', async () => {
    // One conversation served and resolved, one still waiting.
    const served = '5491166660001';
    const waiting = '5491166660002';
    for (const from of [served, waiting])
      await client.call(token, 'POST', `/simulator/${connection.id}/inbound`, {
        from,
        body: 'Hola, tengo una consulta',
        name: 'Cliente',
      });
    const ticket = await ticketOf(served, 'pending');
    await ticketOf(waiting, 'pending');
    const me = await client.call<{ id: number; name: string }>(token, 'GET', '/auth/me');
    await client.call(token, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: me.id });
    await client.call(token, 'POST', `/messages/${ticket.id}`, { body: '¿En qué le ayudo?' });
    await client.call(token, 'PUT', `/tickets/${ticket.id}`, { status: 'closed' });

    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page, server.webUrl);
    await page.goto(`${server.webUrl}/`);
    await page.getByRole('heading', { name: 'Tablero' }).waitFor();
    // The month so far: both conversations started, one resolved, one waiting, none being served.
    await page.getByTestId('dashboard-counter-supportStarted').waitFor();
    expect(await counter(page, 'supportStarted')).toBe('2');
    expect(await counter(page, 'supportFinished')).toBe('1');
    expect(await counter(page, 'supportPending')).toBe('1');
    expect(await counter(page, 'supportHappening')).toBe('0');
    // Served within seconds: measured (a figure under a minute), not "no data".
    expect(await counter(page, 'avgSupportTime')).toMatch(/\bmin\b/);
    expect(await counter(page, 'avgFirstResponseTime')).toMatch(/\bmin\b/);
    const row = page.getByTestId(`dashboard-attendant-${me.id}`);
    expect(await row.textContent()).toContain(me.name);
    // Sofía works through the API only: no socket, not online.
    await row.getByText('Desconectado').waitFor();
    // The charts: the conversation the admin accepted, and the two started today.
    const perUser = page.getByRole('img', { name: 'Tickets por usuario' });
    await eventually(
      () => perUser.textContent(),
      (text) => Boolean(text?.includes(`${me.name}: 1`)),
      'the per-user chart',
      POLL,
    );
    const perDay = page.getByRole('img', { name: 'Tickets por día' });
    await eventually(
      () => perDay.textContent(),
      (text) => Boolean(text?.includes(': 2')),
      'the per-day chart',
      POLL,
    );

    // A date range with nothing in it: no resolved conversation, while the waiting one still waits.
    await typeDate(page, 'Fecha inicial', '01/01/2020');
    await typeDate(page, 'Fecha final', '31/01/2020');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await eventually(
      () => counter(page, 'supportFinished'),
      (text) => text === '0',
      'no resolved conversation in the range',
      POLL,
    );
    expect(await counter(page, 'supportPending')).toBe('1');
    // The last 7 days bring the day's figures back.
    await page.getByRole('combobox', { name: 'Período' }).click();
    await page.getByRole('option', { name: 'Últimos 7 días' }).click();
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await eventually(
      () => counter(page, 'supportFinished'),
      (text) => text === '1',
      'the resolved conversation back',
      POLL,
    );

    // English and the other theme: the same figures under English names.
    await page.getByTestId('account-menu').click();
    await page.getByTestId('lang-en').check();
    await page.mouse.click(600, 400);
    await page.getByRole('menu').waitFor({ state: 'detached' });
    const before = await page.locator('html').getAttribute('data-theme');
    await page.getByTestId('theme-toggle').click();
    await page.waitForFunction(
      (theme) => document.documentElement.dataset.theme === theme,
      before === 'dark' ? 'light' : 'dark',
    );
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('img', { name: 'Tickets per day' }).waitFor();
    await page.getByRole('img', { name: 'Tickets per user' }).waitFor();
    expect(await counter(page, 'supportFinished')).toBe('1');
    await page.getByTestId(`dashboard-attendant-${me.id}`).getByText('Offline').waitFor();
    await context.close();
  });
});

describe('messages API page', () => {
  it('sends a text and a file through the picked connection, and the phone receives both', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page, server.webUrl);
    await page.goto(`${server.webUrl}/messages-api`);
    await page.getByRole('heading', { name: 'API de mensajes' }).waitFor();
    // The documentation's example is filled with this server's address.
    expect(await page.getByTestId('messages-api-curl-text').textContent()).toContain(
      `${server.apiUrl}/api/messages/send`,
    );

    const number = '5491166660003';
    const text = page.getByRole('form', { name: 'Enviar texto' });
    // The admin picks the connection; its token stays out of sight but its end.
    await text.getByRole('combobox', { name: 'Conexión' }).click();
    await page.getByRole('option', { name: 'Principal' }).click();
    await text.getByText(`Token: ••••${connection.token.slice(-4)}`).waitFor();
    await text.getByRole('textbox', { name: 'Número' }).fill(`+${number}`);
    await text.getByRole('textbox', { name: 'Mensaje' }).fill('Su pedido ya salió');
    await text.getByRole('button', { name: 'Enviar' }).click();
    await eventually(
      () => page.getByTestId('messages-api-result-text').textContent(),
      (answer) => Boolean(answer?.includes('201')),
      "the text send's answer",
      POLL,
    );
    const received = await eventually(
      () => sentTo(number),
      (list) => list.length === 1,
      'the text on the phone',
      POLL,
    );
    expect(received[0]!.body).toBe('Su pedido ya salió');

    const media = page.getByRole('form', { name: 'Enviar archivo' });
    await media.getByRole('combobox', { name: 'Conexión' }).click();
    await page.getByRole('option', { name: 'Principal' }).click();
    await media.getByRole('textbox', { name: 'Número' }).fill(number);
    await media.getByLabel('Archivo').setInputFiles({
      name: 'factura.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 factura'),
    });
    await media.getByRole('button', { name: 'Enviar' }).click();
    await eventually(
      () => page.getByTestId('messages-api-result-media').textContent(),
      (answer) => Boolean(answer?.includes('201')),
      "the file send's answer",
      POLL,
    );
    const both = await eventually(
      () => sentTo(number),
      (list) => list.length === 2,
      'the file on the phone',
      POLL,
    );
    expect(both[1]).toMatchObject({ mediaType: 'application', fileName: 'factura.pdf' });

    expect(new URL(page.url()).pathname).toBe('/messages-api');
    await context.close();
  });
});
