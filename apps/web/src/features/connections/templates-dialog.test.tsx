import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { unknownApiCalls } from '../../test/api-routes';
import {
  callsOf,
  jsonResponse,
  makeAuth,
  makeTemplate,
  stubApi,
  templateListOf,
} from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { makeConnection } from './connections.fixtures';
import { ConnectionsPage } from './connections-page';

const cloud = makeConnection({
  id: 4,
  name: 'Meta',
  provider: 'cloud',
  cloudPhoneNumberId: '1234567890',
  hasCloudAccessToken: true,
});

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

const openTemplates = async () => {
  const user = setupUser();
  renderPage(<ConnectionsPage />, '/connections', makeAuth());
  await user.click(within(await rowOf('Meta')).getByRole('button', { name: 'Plantillas de Meta' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Plantillas · Meta' }) };
};

const waitForTable = async (dialog: HTMLElement) => {
  await within(dialog).findByRole('table', { name: 'Plantillas' });
  return dialog;
};

const templateRows = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('table', { name: 'Plantillas' }))
    .getAllByRole('row')
    .slice(1);

describe('connection templates', () => {
  it('offers the templates only on Cloud API connections, to those who edit connections', async () => {
    stubApi({
      'GET /whatsapp': () =>
        jsonResponse(200, [cloud, makeConnection({ id: 1, name: 'Ventas', provider: 'beta' })]),
    });
    const { unmount } = renderPage(<ConnectionsPage />, '/connections', makeAuth());
    expect(
      within(await rowOf('Meta')).getByRole('button', { name: 'Plantillas de Meta' }),
    ).toBeTruthy();
    expect(
      within(await rowOf('Ventas')).queryByRole('button', { name: 'Plantillas de Ventas' }),
    ).toBeNull();
    unmount();

    renderPage(<ConnectionsPage />, '/connections', makeAuth({ user: { profile: 'user' } }));
    expect(
      within(await rowOf('Meta')).queryByRole('button', { name: 'Plantillas de Meta' }),
    ).toBeNull();
  });

  it('lists the templates with their language, category, status and text', async () => {
    const fetchMock = stubApi({
      'GET /whatsapp': () => jsonResponse(200, [cloud]),
      'GET /whatsapp/4/templates': () =>
        templateListOf(
          [
            makeTemplate({
              id: 1,
              name: 'bienvenida',
              headerFormat: 'TEXT',
              headerText: 'Hola',
              footerText: 'Atendi',
              buttons: ['Ver pedido'],
            }),
            makeTemplate({
              id: 2,
              name: 'catalogo',
              language: 'en_US',
              category: 'UTILITY',
              status: 'PENDING',
              headerFormat: 'IMAGE',
              bodyText: 'Our new catalogue',
            }),
            makeTemplate({ id: 3, name: 'oferta', status: 'REJECTED', bodyText: 'Oferta' }),
            makeTemplate({ id: 4, name: 'vieja', status: 'DELETED', bodyText: 'Vieja' }),
          ],
          '2025-03-05T18:30:00',
        ),
    });
    const { dialog } = await openTemplates();

    const [first, second, third, fourth] = templateRows(await waitForTable(dialog));
    expect(within(first).getByText('bienvenida')).toBeTruthy();
    expect(within(first).getByText('es_MX')).toBeTruthy();
    expect(within(first).getByText('Marketing')).toBeTruthy();
    expect(within(first).getByText('Aprobada')).toBeTruthy();
    // The text with its parameters as they are, the header in bold and the footer in italics.
    const preview = within(first).getByRole('figure', { name: 'Vista previa' });
    expect(preview.textContent).toContain('Hola {{1}}, su pedido {{2}} está listo.');
    expect(within(preview).getByText('Hola').tagName).toBe('STRONG');
    expect(within(preview).getByText('Atendi').tagName).toBe('EM');
    expect(within(preview).getByText('Ver pedido')).toBeTruthy();

    expect(within(second).getByText('Utilidad')).toBeTruthy();
    expect(within(second).getByText('Pendiente')).toBeTruthy();
    expect(within(second).getByText('Encabezado: imagen')).toBeTruthy();
    expect(within(third).getByText('Rechazada')).toBeTruthy();
    expect(within(fourth).getByText('Eliminada')).toBeTruthy();
    expect(within(dialog).getByText('Última sincronización: 05/03/25 18:30')).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.includes('/sync'))).toBe(false);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('reads the templates again at each opening, each status a coloured chip', async () => {
    // Meta pauses, rejects or disables templates at any time (its webhooks tell the server).
    let first = 'APPROVED';
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [cloud]),
      'GET /whatsapp/4/templates': () =>
        templateListOf([
          makeTemplate({ id: 1, name: 'bienvenida', status: first }),
          makeTemplate({ id: 2, name: 'catalogo', status: 'PENDING' }),
          makeTemplate({ id: 3, name: 'oferta', status: 'DISABLED' }),
          makeTemplate({ id: 4, name: 'vieja', status: 'ARCHIVED' }),
        ]),
    });
    const { user, dialog } = await openTemplates();
    await waitForTable(dialog);
    const chipOf = (row: HTMLElement) => {
      const chip = row.querySelector('.MuiChip-root')!;
      return [chip.textContent, /MuiChip-color(\w+)/.exec(chip.className)?.[1]];
    };
    expect(templateRows(dialog).map(chipOf)).toEqual([
      ['Aprobada', 'Success'],
      ['Pendiente', 'Warning'],
      ['Desactivada', 'Error'],
      // A status this app does not know yet, as Meta names it.
      ['ARCHIVED', 'Default'],
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    first = 'PAUSED';
    await user.click(
      within(await rowOf('Meta')).getByRole('button', { name: 'Plantillas de Meta' }),
    );
    const reopened = await screen.findByRole('dialog', { name: 'Plantillas · Meta' });
    await waitFor(() => expect(chipOf(templateRows(reopened)[0]!)).toEqual(['Pausada', 'Warning']));
  });

  it('syncs the templates from the account, showing progress', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = stubApi({
      'GET /whatsapp': () => jsonResponse(200, [cloud]),
      'GET /whatsapp/4/templates': () => templateListOf([]),
      'POST /whatsapp/4/templates/sync': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    const { user, dialog } = await openTemplates();
    expect(
      await within(dialog).findByText(
        'No hay plantillas. Sincronice para leerlas de su cuenta de WhatsApp Business.',
      ),
    ).toBeTruthy();
    expect(
      within(dialog).getByText('Las plantillas de esta conexión aún no se sincronizaron.'),
    ).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Sincronizar' }));
    const busy = await within(dialog).findByRole('button', { name: 'Sincronizando…' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    answer(
      templateListOf(
        [makeTemplate({ id: 7, name: 'recordatorio' })],
        new Date(2025, 2, 6, 10, 15).toISOString(),
      ),
    );

    expect(await screen.findByText('Se sincronizó 1 plantilla.')).toBeTruthy();
    expect(within(dialog).getByText('recordatorio')).toBeTruthy();
    expect(within(dialog).getByText('Última sincronización: 06/03/25 10:15')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Sincronizar' })).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('POST /whatsapp/4/templates/sync');
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('tells to set the Business Account id when the sync is refused for it, and opens its field', async () => {
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [cloud]),
      'GET /whatsapp/4': () => jsonResponse(200, cloud),
      'GET /queue': () => jsonResponse(200, []),
      'GET /whatsapp/4/templates': () => templateListOf([]),
      'POST /whatsapp/4/templates/sync': () =>
        jsonResponse(400, {
          error: 'ERR_VALIDATION',
          message: 'Set the WhatsApp Business Account id of the connection to read its templates',
          fields: { cloudBusinessAccountId: ['Required'] },
        }),
    });
    const { user, dialog } = await openTemplates();
    await user.click(await within(dialog).findByRole('button', { name: 'Sincronizar' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(
      'Indique el ID de la cuenta de WhatsApp Business en la conexión (pestaña Cloud API) para leer sus plantillas.',
    );
    await user.click(within(alert).getByRole('button', { name: 'Editar la conexión' }));

    const form = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    expect(within(form).getByRole('tab', { name: 'Cloud API', selected: true })).toBeTruthy();
    expect(
      within(form).getByRole('textbox', { name: 'ID de la cuenta de WhatsApp Business' }),
    ).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Plantillas · Meta' })).toBeNull(),
    );
  });

  it("shows the server's reason when Meta refuses the sync", async () => {
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [cloud]),
      'GET /whatsapp/4/templates': () =>
        templateListOf([makeTemplate({ name: 'bienvenida' })], '2025-03-05T18:30:00'),
      'POST /whatsapp/4/templates/sync': () =>
        jsonResponse(400, { error: 'ERR_WAPP_NOT_INITIALIZED', message: 'Graph refused' }),
    });
    const { user, dialog } = await openTemplates();
    await within(dialog).findByText('bienvenida');
    await user.click(within(dialog).getByRole('button', { name: 'Sincronizar' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(
      'Esta sesión de WhatsApp no está inicializada. Verifique la página de conexiones.',
    );
    expect(within(alert).queryByRole('button')).toBeNull();
    // The copy already kept stays listed.
    expect(within(dialog).getByText('bienvenida')).toBeTruthy();
  });
});
