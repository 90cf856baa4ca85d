import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
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

// The "phone" is driven through the simulator's API, with a session of its own: a second admin, since
// logging in again as the browser's user would end the browser's session.
const client = () => apiClient(server.apiUrl);
const api = <T = unknown>(token: string, method: string, path: string, body?: unknown) =>
  client().call<T>(token, method, path, body);
const apiLogin = (email: string, password: string) => client().login(email, password);

// The browser notifications a context's pages show, recorded as { title, body }: their Notification is
// a stand-in with permission granted, since a headless browser's own appear nowhere a test can look.
const recordNotifications = (context: BrowserContext) =>
  context.addInitScript(() => {
    const shown: { title: string; body?: string }[] = [];
    class RecordedNotification {
      static permission = 'granted';
      static requestPermission = () => Promise.resolve('granted');
      onclick: (() => void) | null = null;
      constructor(title: string, options?: { body?: string }) {
        shown.push({ title, body: options?.body });
      }
      close() {}
    }
    Object.assign(window, { Notification: RecordedNotification, shownNotifications: shown });
  });
const notificationShown = (page: Page, title: string, body: string) =>
  page.waitForFunction(
    ([title, body]) =>
      (
        window as unknown as { shownNotifications: { title: string; body?: string }[] }
      ).shownNotifications.some((n) => n.title === title && n.body === body),
    [title, body],
  );

describe('inbox', () => {
  it('a contact writes, the ticket shows up waiting, the agent accepts, replies and resolves', async () => {
    const setup = await apiLogin(ADMIN_EMAIL, ADMIN_PASSWORD);
    await api(setup, 'POST', '/users', {
      name: 'Teléfono',
      email: 'phone@test.local',
      password: 'Phone12345',
      profile: 'admin',
    });
    const phone = await apiLogin('phone@test.local', 'Phone12345');
    const connection = await api<{ id: number }>(phone, 'POST', '/whatsapp', {
      name: 'Inbox',
      provider: 'simulator',
    });
    await pairSimulator(client(), phone, connection.id);

    const page = await browser.newPage();
    await logIn(page, server.webUrl);
    await page.getByRole('tab', { name: /En espera/ }).click();

    await api(phone, 'POST', `/simulator/${connection.id}/inbound`, {
      from: '5491155550100',
      name: 'Lucía',
      body: 'Hola, ¿tienen stock?',
    });
    const row = page.getByRole('listitem').filter({ hasText: 'Lucía' });
    await row.getByText('Hola, ¿tienen stock?').waitFor();
    await row.getByRole('button', { name: 'Aceptar' }).click();

    await page.getByText('Hola, ¿tienen stock?').last().waitFor();
    const composer = page.getByRole('textbox', { name: 'Mensaje' });
    await composer.fill('Sí, tenemos 3 unidades.');
    await composer.press('Enter');

    const sent = await eventually(
      () =>
        client().call<{ id: string; body: string }[]>(
          phone,
          'GET',
          `/simulator/${connection.id}/outbound`,
        ),
      (rows) => rows.length > 0,
      'the reply on the phone',
      POLL,
    );
    expect(sent[0].body).toContain('Sí, tenemos 3 unidades.');
    // The phone reads it once the chat shows it sent, as a person would: a receipt for a send the
    // platform has not recorded yet finds no message to mark.
    await page.getByTitle('Enviado').waitFor();
    await api(phone, 'POST', `/simulator/${connection.id}/ack`, { id: sent[0].id, ack: 4 });
    await page.getByTitle('Leído').waitFor();

    // The conversation taken away as a PDF (issue 38).
    await page.getByRole('button', { name: 'Más acciones' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Descargar transcripción (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^ticket-\d+\.pdf$/);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.getByRole('button', { name: 'Reabrir' }).waitFor();
  });

  it('assigns a waiting conversation to the online agent with room, with its SLA countdown, and to the other once that one is offline', async () => {
    const setup = await apiLogin(ADMIN_EMAIL, ADMIN_PASSWORD);
    const queue = await api<{ id: number }>(setup, 'POST', '/queue', {
      name: 'Turnos',
      color: '#6a1b9a',
      routing: 'round_robin',
      // Around the clock (no hours), so the countdown reads 30 minutes whatever the day.
      schedules: [],
      slaFirstResponseMinutes: 30,
    });
    const agent = (name: string, email: string) =>
      api<{ id: number }>(setup, 'POST', '/users', {
        name,
        email,
        password: 'Agent12345',
        profile: 'user',
        queueIds: [queue.id],
        maxTickets: 3,
      });
    const ana = await agent('Ana Turnos', 'ana@test.local');
    const beto = await agent('Beto Turnos', 'beto@test.local');
    // One queue and no greeting: a contact's first message puts the conversation straight in it.
    const connection = await api<{ id: number }>(setup, 'POST', '/whatsapp', {
      name: 'Turnos',
      provider: 'simulator',
      queueIds: [queue.id],
    });
    await pairSimulator(client(), setup, connection.id);
    const write = (from: string, name: string) =>
      api(setup, 'POST', `/simulator/${connection.id}/inbound`, { from, name, body: 'Hola' });
    const presenceOf = (userId: number, presence: string) =>
      eventually(
        () => api<{ presence: string }>(setup, 'GET', `/users/${userId}`),
        (user) => user.presence === presence,
        `user ${userId} ${presence}`,
        POLL,
      );
    const serving = (page: Page, contact: string) =>
      page
        .getByRole('list', { name: 'Atendiendo' })
        .getByRole('listitem')
        .filter({ hasText: contact });
    // Both browsers open the login page at once; each agent signs in when the story needs them.
    const loginPage = async () => {
      const context = await browser.newContext();
      await recordNotifications(context);
      const page = await context.newPage();
      await page.goto(`${server.webUrl}/login`);
      return page;
    };
    const signIn = async (page: Page, email: string) => {
      await page.fill('input[name="email"]', email);
      await page.fill('input[name="password"]', 'Agent12345');
      await page.click('button[type="submit"]');
      await page.waitForURL('**/tickets');
      // The inbox opens on "En espera" when its first load finds conversations waiting and none
      // served, and a routed conversation waits for an instant: the agent picks the list to watch.
      await page.getByRole('tab', { name: /En espera/ }).click();
      await page.getByRole('tab', { name: /Atendiendo/ }).click();
    };
    const [anaPage, betoPage] = await Promise.all([loginPage(), loginPage()]);

    // Only Ana is online: the first conversation is hers, with a notification.
    await signIn(anaPage, 'ana@test.local');
    await presenceOf(ana.id, 'online');
    await write('5491155550301', 'Carla Ruiz');
    await serving(anaPage, 'Carla Ruiz').waitFor();
    await notificationShown(anaPage, 'Conversación asignada', 'Carla Ruiz');
    // Its first answer is due within the queue's 30 minutes, counting down in the row.
    await serving(anaPage, 'Carla Ruiz')
      .getByLabel(/^Primera respuesta: (29|30) min$/)
      .waitFor();

    // Beto comes online: by turns the next one is his, and the one after would be Ana's.
    await signIn(betoPage, 'beto@test.local');
    await presenceOf(beto.id, 'online');
    await write('5491155550302', 'Diego Paz');
    await serving(betoPage, 'Diego Paz').waitFor();
    await notificationShown(betoPage, 'Conversación asignada', 'Diego Paz');

    // Ana goes offline: her turn passes to Beto.
    await anaPage.getByRole('button', { name: 'Mi cuenta' }).click();
    await anaPage.getByRole('menuitemradio', { name: 'Desconectado' }).click();
    await presenceOf(ana.id, 'offline');
    await write('5491155550303', 'Elena Sosa');
    await serving(betoPage, 'Elena Sosa').waitFor();
    expect(await serving(anaPage, 'Elena Sosa').count()).toBe(0);
    await anaPage.context().close();
    await betoPage.context().close();
  });
});
