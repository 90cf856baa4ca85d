import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import writeXlsxFile from 'write-excel-file/node';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, type Outbound, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// The tools around the inbox: contacts import and export, the kanban board in two browsers, and a
// scheduled message going out through the durable sending job.

let server: RunningServer;
let browser: Browser;
let client: ReturnType<typeof apiClient>;
let admin: string;
let connectionId: number;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  client = apiClient(server.apiUrl);
  // The browsers log in as ADMIN_EMAIL, and a login ends the account's other sessions: the test's
  // own API calls go through an admin account of their own.
  const setup = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  await client.call(setup, 'POST', '/users', {
    name: 'Herramientas API',
    email: 'tools-api@test.local',
    password: 'ToolsApi12345',
    profile: 'admin',
  });
  admin = await client.login('tools-api@test.local', 'ToolsApi12345');
  const connection = await client.call<{ id: number }>(admin, 'POST', '/whatsapp', {
    name: 'Principal',
    provider: 'simulator',
  });
  connectionId = connection.id;
  await pairSimulator(client, admin, connectionId);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const newPage = async (email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<Page> => {
  const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await logIn(page, server.webUrl, email, password);
  return page;
};

// A contact writes in: their ticket waits in the inbox.
const writeIn = async (from: string, name: string, body: string) => {
  await client.call(admin, 'POST', `/simulator/${connectionId}/inbound`, { from, name, body });
  return eventually(
    () =>
      client.call<{ tickets: { id: number; uuid: string; contact: { number: string } }[] }>(
        admin,
        'GET',
        `/tickets?status=pending&showAll=true&searchParam=${from}`,
      ),
    ({ tickets }) => tickets.some((t) => t.contact.number === from),
    `the ticket of ${from}`,
    POLL,
  ).then(({ tickets }) => tickets.find((t) => t.contact.number === from)!);
};

describe('workspace tools, end to end', () => {
  it('imports an .xlsx of contacts listing its bad row, and exports them as CSV', async () => {
    const sheet = await writeXlsxFile([
      ['Nombre', 'Número', 'Email'],
      ['Carla Import', '+54 9 11 4444-0001', 'carla@example.com'],
      ['X', '5491144440002', ''],
      ['Diego Import', '5491144440003', ''],
    ]).toBuffer();
    const page = await newPage();
    await page.goto(`${server.webUrl}/contacts`);
    await page.getByRole('button', { name: 'Importar' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Importar contactos' });
    await importDialog.getByTestId('import-file').setInputFiles({
      name: 'contactos.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: sheet,
    });
    await importDialog.getByText('contactos.xlsx: 3 filas de contactos.').waitFor();
    await importDialog.getByRole('button', { name: 'Importar' }).click();
    await importDialog.getByText('2 contactos importados').waitFor();
    await importDialog.getByText('1 fila con errores').waitFor();
    // The bad row by its row number in the sheet (the header is row 1), with what is wrong.
    const refused = importDialog.getByRole('table', { name: 'Filas no importadas' });
    expect(await refused.locator('tbody tr td').allTextContents()).toEqual([
      '3',
      'X',
      '5491144440002',
      'Nombre: Debe tener entre 2 y 50 caracteres',
    ]);
    await importDialog.getByRole('button', { name: 'Cerrar' }).click();
    // The new contacts show in the table, their numbers as people write them.
    const table = page.getByRole('table', { name: 'Contactos' });
    await table
      .getByRole('row')
      .filter({ hasText: 'Carla Import' })
      .getByText('+54 9 11 4444 0001')
      .waitFor();
    await table.getByText('Diego Import').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar CSV' }).click(),
    ]);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('name;number;email');
    expect(lines).toContain('Carla Import;5491144440001;carla@example.com');
    expect(lines).toContain('Diego Import;5491144440003;');
    expect(csv).not.toContain('5491144440002');
  });

  it('moves a kanban card between lanes and a second browser sees it move', async () => {
    await client.call(admin, 'POST', '/tags', { name: 'Presupuesto', color: '#ef6c00', kanban: 1 });
    const won = await client.call<{ id: number }>(admin, 'POST', '/tags', {
      name: 'Ganado',
      color: '#2e7d32',
      kanban: 1,
    });
    const ticket = await writeIn('5491133330001', 'Kanban Kim', 'Quiero un presupuesto');
    await client.call(admin, 'POST', '/users', {
      name: 'Segunda Admin',
      email: 'second@test.local',
      password: 'Second12345',
      profile: 'admin',
    });

    const mover = await newPage();
    const watcher = await newPage('second@test.local', 'Second12345');
    await mover.goto(`${server.webUrl}/kanban`);
    await watcher.goto(`${server.webUrl}/kanban`);
    const card = (page: Page, lane: string) =>
      page.getByTestId(`kanban-lane-${lane}`).getByTestId(`kanban-card-${ticket.id}`);
    await card(mover, 'open').waitFor();
    await card(watcher, 'open').waitFor();

    // Dragged with the pointer from the open lane to "Ganado".
    const from = await card(mover, 'open').boundingBox();
    const to = await mover.getByTestId(`kanban-lane-${won.id}`).boundingBox();
    await mover.mouse.move(from!.x + from!.width / 2, from!.y + 20);
    await mover.mouse.down();
    for (let step = 1; step <= 10; step += 1)
      await mover.mouse.move(
        from!.x +
          from!.width / 2 +
          ((to!.x + to!.width / 2 - from!.x - from!.width / 2) * step) / 10,
        from!.y + 20 + ((to!.y + 80 - from!.y - 20) * step) / 10,
      );
    await mover.mouse.up();
    await card(mover, String(won.id)).waitFor();
    await card(watcher, String(won.id)).waitFor();
    expect(await card(watcher, 'open').count()).toBe(0);
    await eventually(
      () => client.call<{ tags: { id: number }[] }>(admin, 'GET', `/tickets/${ticket.id}`),
      ({ tags }) => tags.length === 1 && tags[0].id === won.id,
      'the tag moved',
      POLL,
    );

    // The card's button opens the conversation.
    await card(watcher, String(won.id)).getByRole('link', { name: 'Ver ticket' }).click();
    await watcher.waitForURL(`**/tickets/${ticket.uuid}`);
  });

  it('sends a message scheduled two seconds ahead to the phone and into the ticket', async () => {
    const number = '5491133330002';
    const ticket = await writeIn(number, 'Agenda Ana', 'Avíseme mañana');
    const page = await newPage();
    await page.goto(`${server.webUrl}/tickets/${ticket.uuid}`);
    const contact = await client.call<{ contacts: { id: number; number: string }[] }>(
      admin,
      'GET',
      `/contacts?searchParam=${number}`,
    );
    await client.call(admin, 'POST', '/schedules', {
      body: 'Hola {{firstName}}, le recordamos su cita.',
      contactId: contact.contacts[0].id,
      sendAt: new Date(Date.now() + 2000).toISOString(),
    });

    const sent = await eventually(
      () => client.call<Outbound[]>(admin, 'GET', `/simulator/${connectionId}/outbound`),
      (rows) => rows.some((row) => row.to === number),
      'the scheduled message on the phone',
      { ...POLL, timeoutMs: 20_000 },
    );
    expect(sent.filter((row) => row.to === number).map((row) => row.body)).toEqual([
      'Hola Agenda, le recordamos su cita.',
    ]);
    // In the chat (the inbox's waiting list beside it previews it too).
    await page
      .locator('[data-testid^="message-"]')
      .getByText('Hola Agenda, le recordamos su cita.')
      .waitFor();
    const [schedule] = (
      await client.call<{ schedules: { status: string; sentAt: string | null }[] }>(
        admin,
        'GET',
        `/schedules?contactId=${contact.contacts[0].id}`,
      )
    ).schedules;
    expect(schedule.status).toBe('ENVIADA');
    expect(schedule.sentAt).not.toBeNull();
  });
});
