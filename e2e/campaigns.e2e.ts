import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import writeXlsxFile from 'write-excel-file/node';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, type Outbound, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn, typeDate } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// Campaigns as an admin sees them: a contact list imported from an .xlsx, the sending interval set, a
// campaign of two message variants sent to the simulated phones with its report moving live, and a
// second campaign stopped after its first message and restarted without anyone getting it twice.
// One flow in one browser page: the second test goes on from the first's list, settings and page.

let server: RunningServer;
let browser: Browser;
let client: ReturnType<typeof apiClient>;
let admin: string;
let connectionId: number;
let page: Page;

// Numbers of this run (57 300 …: Colombian mobiles; the simulator refuses 800… and fails lookups of
// 808…, so none starts like that). The fourth is the sheet's bad row.
const stamp = String(Date.now() % 100000).padStart(5, '0');
const numberOf = (n: number) => `57300${stamp}0${n}`;
const contacts = [
  { name: 'Ana Lucía Pérez', firstName: 'Ana', number: numberOf(1) },
  { name: 'Bruno Díaz', firstName: 'Bruno', number: numberOf(2) },
  { name: 'Carla Gómez', firstName: 'Carla', number: numberOf(3) },
];
const badNumber = numberOf(4);
const listName = 'Clientes de la feria';

// Metrics on: the flow watches the campaigns' sending jobs as an operator's Prometheus would.
const METRICS_TOKEN = 'e2e-campaigns-metrics-token';

beforeAll(async () => {
  server = await startServer({ METRICS_TOKEN });
  browser = await launchBrowser();
  client = apiClient(server.apiUrl);
  // The browser logs in as ADMIN_EMAIL, and a login ends the account's other sessions: the test's own
  // API calls go through an admin account of their own.
  const setup = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  await client.call(setup, 'POST', '/users', {
    name: 'Campañas API',
    email: 'campaigns-api@test.local',
    password: 'CampaignsApi12345',
    profile: 'admin',
  });
  admin = await client.login('campaigns-api@test.local', 'CampaignsApi12345');
  // The company's first connection, so its default: it sends the campaigns and looks the list's
  // numbers up on WhatsApp.
  const connection = await client.call<{ id: number }>(admin, 'POST', '/whatsapp', {
    name: 'Principal',
    provider: 'simulator',
  });
  connectionId = connection.id;
  await pairSimulator(client, admin, connectionId);
  page = await (await browser.newContext()).newPage();
  await logIn(page, server.webUrl);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const outbound = () => client.call<Outbound[]>(admin, 'GET', `/simulator/${connectionId}/outbound`);

// How many of the campaigns' sending jobs wait or run, as the node's metrics tell.
const sendingJobs = async () => {
  const res = await fetch(`${server.apiUrl}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const lines = (await res.text()).split('\n');
  return ['atendi_jobs_pending', 'atendi_jobs_running']
    .flatMap((name) =>
      lines.filter(
        (line) => line.startsWith(`${name}{`) && line.includes('queue="campaign.dispatch"'),
      ),
    )
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
};

// The variants as written in the dialog, and as each contact must receive them.
const variants = (first: string, second: string) => ({
  written: [first, second],
  bodiesFor: (firstName: string) =>
    [first, second].map((text) => text.replaceAll('{{firstName}}', firstName)),
});
const offer = variants(
  'Hola {{firstName}}, esta semana tiene 20 % de descuento.',
  '{{firstName}}, su descuento de la feria lo espera.',
);
const reminder = variants(
  'Recordatorio para {{firstName}}: su turno es mañana.',
  '{{firstName}}, no olvide su turno de mañana.',
);
const isReminder = (message: Outbound) => message.body.includes('turno');

// The minute before the browser's now, as the date field shows it: due at once.
const aMinuteAgo = () =>
  page.evaluate(() => {
    const date = new Date(Date.now() - 60_000);
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
  });

// Moves through the app as a user does, by the side menu's Campaigns group (no page reload).
const openFromMenu = async (label: string, path: string) => {
  const menu = page.getByRole('navigation', { name: 'Navegación principal' });
  const link = menu.getByRole('link', { name: label, exact: true });
  if (!(await link.isVisible()))
    await menu.getByRole('button', { name: 'Campañas', exact: true }).click();
  await link.click();
  await page.waitForURL(`**${path}`);
};

const choose = async (combobox: RegExp, option: string) => {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

// Fills the new-campaign dialog on /campaigns (the list, the connection, two variants, due now),
// saves it and closes it; answers its row.
const createCampaign = async (name: string, messages: string[]) => {
  await page.getByRole('button', { name: 'Nueva campaña' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Nombre' }).fill(name);
  await choose(/^Lista de contactos/, listName);
  await choose(/^Conexión/, 'Principal');
  await typeDate(dialog, 'Fecha de envío', await aMinuteAgo());
  for (const [index, text] of messages.entries()) {
    await dialog.getByRole('tab', { name: `Mensaje ${index + 1}`, exact: true }).click();
    await dialog.getByRole('textbox', { name: `Mensaje ${index + 1}`, exact: true }).fill(text);
  }
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await page.getByText('Campaña guardada.').waitFor();
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await dialog.waitFor({ state: 'detached' });
  return page.getByRole('table', { name: 'Campañas' }).getByRole('row').filter({ hasText: name });
};

describe('campaigns, end to end', () => {
  it('imports a list, sends a two-variant campaign to it and shows the report moving live', async () => {
    // A list made on its page, filled from an .xlsx with a bad row.
    await openFromMenu('Listas de contactos', '/contact-lists');
    await page.getByRole('button', { name: 'Agregar lista' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Nombre' }).fill(listName);
    await page.getByRole('dialog').getByRole('button', { name: 'Agregar' }).click();
    await page.getByText('Lista de contactos guardada.').waitFor();
    await page.getByRole('button', { name: `Abrir contactos de ${listName}` }).click();
    await page.waitForURL('**/contact-lists/*/contacts');
    await page.getByRole('heading', { name: listName }).waitFor();

    const sheet = await writeXlsxFile([
      ['Nombre', 'Número', 'Email'],
      [contacts[0]!.name, `+${contacts[0]!.number}`, 'ana@example.com'],
      [contacts[1]!.name, contacts[1]!.number, ''],
      ['X', badNumber, ''],
      [contacts[2]!.name, contacts[2]!.number, 'carla@example.com'],
    ]).toBuffer();
    await page.getByRole('button', { name: 'Importar' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Importar contactos' });
    await importDialog.getByTestId('import-file').setInputFiles({
      name: 'feria.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: sheet,
    });
    await importDialog.getByText('feria.xlsx: 4 filas de contactos.').waitFor();
    await importDialog.getByText(`Se importarán a la lista ${listName}. ¿Continuar?`).waitFor();
    await importDialog.getByRole('button', { name: 'Importar' }).click();
    await importDialog.getByText('3 contactos importados').waitFor();
    await importDialog.getByText('La lista tiene ahora 3 contactos.', { exact: false }).waitFor();
    await importDialog.getByText('1 fila con errores').waitFor();
    await importDialog.getByText('1 fila no importada').waitFor();
    // The bad row by its row number in the sheet (the header is row 1), with what is wrong.
    const refused = importDialog.getByRole('table', { name: 'Filas no importadas' });
    const refusedRows = refused.locator('tbody tr');
    expect(await refusedRows.count()).toBe(1);
    expect(await refusedRows.locator('td').allTextContents()).toEqual([
      '4',
      'X',
      badNumber,
      'Nombre: Debe tener entre 2 y 50 caracteres',
    ]);
    await importDialog.getByRole('button', { name: 'Cerrar' }).click();
    await importDialog.waitFor({ state: 'detached' });
    // The three contacts in the table, each found on WhatsApp by the check that follows an import.
    const items = page.getByRole('table', { name: 'Contactos de la lista' });
    for (const contact of contacts)
      await items
        .getByRole('row')
        .filter({ hasText: contact.name })
        .getByRole('img', { name: 'WhatsApp válido' })
        .waitFor();
    expect(await items.getByText(badNumber).count()).toBe(0);

    // Campaign settings: 5 s between messages, no longer pause.
    await openFromMenu('Configuración de campañas', '/campaigns-config');
    await choose(/^Intervalo entre mensajes/, '5 segundos');
    await choose(/^Intervalo mayor/, 'No usar');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Configuración guardada').waitFor();

    // The campaign, due a minute ago, starts at once.
    await openFromMenu('Listado', '/campaigns');
    const row = await createCampaign('Oferta de la feria', offer.written);
    await row.getByRole('button', { name: 'Informe de Oferta de la feria' }).click();
    await page.waitForURL('**/campaign/*/report');

    // The progress bar moves up while the page stays the same document (socket updates, no reload).
    const bar = page.getByRole('progressbar', { name: 'Progreso de la campaña' });
    await bar.waitFor();
    await page.evaluate(() => {
      (window as unknown as { sameDocument?: boolean }).sameDocument = true;
    });
    const seen: number[] = [];
    await eventually(
      async () => Number(await bar.getAttribute('aria-valuenow')),
      (value) => {
        if (seen.at(-1) !== value) seen.push(value);
        return value === 100;
      },
      'the progress bar at 100',
      { ...POLL, timeoutMs: 30_000 },
    );
    expect(seen[0]).toBeLessThan(100);
    expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await page.getByText('3 de 3 enviados').waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
    ).toBe(true);

    // Each valid number got one message, one of the variants with its first name; the bad row's
    // number got nothing.
    const sent = await outbound();
    for (const contact of contacts) {
      const bodies = sent.filter((m) => m.to === contact.number).map((m) => m.body);
      expect(bodies).toHaveLength(1);
      expect(offer.bodiesFor(contact.firstName)).toContain(bodies[0]);
    }
    expect(sent.filter((m) => m.to === badNumber)).toEqual([]);
    expect(sent).toHaveLength(3);
  }, 90_000);

  it('stops a campaign after its first message and restarts it without sending anyone two', async () => {
    await page.getByRole('link', { name: 'Volver a las campañas' }).click();
    await page.waitForURL('**/campaigns');
    const name = 'Recordatorio de turnos';
    const row = await createCampaign(name, reminder.written);
    const reminders = async () => (await outbound()).filter(isReminder);

    // The first message went out: stop the campaign before the next one.
    await eventually(reminders, (list) => list.length >= 1, 'the first reminder', {
      ...POLL,
      timeoutMs: 20_000,
    });
    await row.getByRole('button', { name: `Detener ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: `¿Detener la campaña ${name}?` });
    await confirm.getByRole('button', { name: 'Detener' }).click();
    await page.getByText('Campaña detenida.').waitFor();
    await row.getByText('Cancelada', { exact: true }).waitFor();
    expect(await reminders()).toHaveLength(1);
    // Its sending job runs again after the 5-s interval, finds it stopped and ends: nothing more
    // arrives.
    await eventually(
      sendingJobs,
      (jobs) => jobs === 0,
      "the stopped campaign's sending job to end",
      {
        ...POLL,
        timeoutMs: 20_000,
      },
    );
    expect(await reminders()).toHaveLength(1);
    await row.getByText('Cancelada', { exact: true }).waitFor();

    // Restarted, it sends to the contacts still missing and finishes.
    await row.getByRole('button', { name: `Reanudar ${name}` }).click();
    await page.getByText('Campaña reanudada.').waitFor();
    await row.getByText('Finalizada', { exact: true }).waitFor();
    const sent = await outbound();
    for (const contact of contacts) {
      const bodies = sent
        .filter((m) => m.to === contact.number && isReminder(m))
        .map((m) => m.body);
      expect(bodies).toHaveLength(1);
      expect(reminder.bodiesFor(contact.firstName)).toContain(bodies[0]);
    }
    expect(sent.filter(isReminder)).toHaveLength(3);
    expect(sent.filter((m) => m.to === badNumber)).toEqual([]);
    // The first campaign finished too, on the same page.
    await page
      .getByRole('table', { name: 'Campañas' })
      .getByRole('row')
      .filter({ hasText: 'Oferta de la feria' })
      .getByText('Finalizada', { exact: true })
      .waitFor();
  }, 90_000);
});
