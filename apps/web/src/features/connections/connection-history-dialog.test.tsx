import { act, screen, waitFor, within } from '@testing-library/react';
import type { ConnectionHistory } from '@atendi/shared';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { makeConnection, receiveSession, sessionOf } from './connections.fixtures';
import { ConnectionsPage } from './connections-page';

type Entry = ConnectionHistory['entries'][number];

const pagos = makeConnection({ id: 3, name: 'Pagos', status: 'DISCONNECTED' });

const entry = (overrides: Partial<Entry>): Entry => ({
  id: 1,
  status: 'CONNECTED',
  previous: 'OPENING',
  cause: null,
  detail: '',
  at: '2025-03-04T09:05:00',
  ...overrides,
});

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

const openHistory = async () => {
  const user = setupUser();
  renderPage(<ConnectionsPage />, '/connections', makeAuth());
  await user.click(
    within(await rowOf('Pagos')).getByRole('button', { name: 'Historial de Pagos' }),
  );
  return { user, dialog: await screen.findByRole('dialog', { name: 'Historial · Pagos' }) };
};

const itemsOf = async (dialog: HTMLElement, name = 'Cambios de estado') =>
  within(await within(dialog).findByRole('list', { name })).getAllByRole('listitem');

describe('connection history', () => {
  it('lists the status changes newest first, with where they came from and why', async () => {
    const fetchMock = stubApi({
      'GET /whatsapp': () => jsonResponse(200, [pagos]),
      'GET /whatsapp/3/history': () =>
        jsonResponse(200, {
          entries: [
            entry({
              id: 3,
              status: 'DISCONNECTED',
              previous: 'CONNECTED',
              cause: 'logged_out',
              detail: 'Stream Errored (conflict) 401',
              at: '2025-03-05T18:40:00',
            }),
            entry({
              id: 2,
              status: 'CONNECTED',
              previous: 'qrcode',
              at: '2025-03-04T09:07:00',
            }),
            entry({
              id: 1,
              status: 'qrcode',
              previous: null,
              cause: 'qr_timeout',
              at: '2025-03-04T09:05:00',
            }),
          ],
        }),
    });
    const { dialog } = await openHistory();

    const [dropped, connected, first] = await itemsOf(dialog);
    expect(dropped!.textContent).toContain('05/03/2025 18:40');
    expect(within(dropped!).getByText('Desconectado')).toBeTruthy();
    expect(within(dropped!).getByText('desde Conectado')).toBeTruthy();
    expect(
      within(dropped!).getByText('El teléfono cerró la sesión: escanee un código QR nuevo'),
    ).toBeTruthy();
    expect(within(dropped!).getByText('Stream Errored (conflict) 401')).toBeTruthy();

    expect(connected!.textContent).toContain('04/03/2025 09:07');
    expect(within(connected!).getByText('Conectado')).toBeTruthy();
    expect(within(connected!).getByText('desde Esperando lectura del QR')).toBeTruthy();

    expect(within(first!).getByText('Esperando lectura del QR')).toBeTruthy();
    expect(within(first!).queryByText(/^desde /)).toBeNull();
    expect(within(first!).getByText('Nadie escaneó el código QR a tiempo')).toBeTruthy();

    expect(callsOf(fetchMock)).toContain('GET /whatsapp/3/history');
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('names every cause in words, in English too', async () => {
    const causes = [
      'logged_out',
      'replaced',
      'banned',
      'network',
      'qr_timeout',
      'unauthorized',
      'not_configured',
    ] as const;
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [pagos]),
      'GET /whatsapp/3/history': () =>
        jsonResponse(200, {
          entries: causes.map((cause, index) =>
            entry({ id: index + 1, status: 'DISCONNECTED', cause }),
          ),
        }),
    });
    const { dialog } = await openHistory();

    const texts = (await itemsOf(dialog)).map((item) => item.textContent);
    for (const [index, text] of [
      'El teléfono cerró la sesión: escanee un código QR nuevo',
      'Otro dispositivo tomó la sesión',
      'WhatsApp no deja entrar al número (bloqueado o restringido)',
      'No se pudo llegar a WhatsApp',
      'Nadie escaneó el código QR a tiempo',
      'Meta rechazó el token de acceso',
      'Faltan los datos de la Cloud API',
    ].entries()) {
      expect(texts[index]).toContain(text);
    }

    await act(() => i18n.changeLanguage('en'));
    const english = (
      await itemsOf(within(document.body).getByRole('dialog'), 'Status changes')
    ).map((item) => item.textContent);
    expect(english[0]).toContain('The phone logged out: scan a new QR code');
    expect(english[0]).toContain('Disconnected');
    expect(english[6]).toContain('The Cloud API details are missing');
  });

  it('says when there is nothing yet, and reads again when the status changes', async () => {
    let entries: Entry[] = [];
    const fetchMock = stubApi({
      'GET /whatsapp': () => jsonResponse(200, [pagos]),
      'GET /whatsapp/3/history': () => jsonResponse(200, { entries }),
    });
    const { dialog } = await openHistory();

    expect(
      await within(dialog).findByText(
        'Aún no hay cambios de estado registrados para esta conexión.',
      ),
    ).toBeTruthy();

    entries = [entry({ id: 9, status: 'OPENING', previous: 'DISCONNECTED' })];
    await receiveSession(sessionOf(pagos, { status: 'OPENING' }));
    const [item] = await itemsOf(dialog);
    expect(within(item!).getByText('desde Desconectado')).toBeTruthy();
    await waitFor(() =>
      expect(callsOf(fetchMock).filter((call) => call === 'GET /whatsapp/3/history')).toHaveLength(
        2,
      ),
    );
  });

  it('is not offered to a user without the session permissions', async () => {
    stubApi({ 'GET /whatsapp': () => jsonResponse(200, [pagos]) });
    renderPage(<ConnectionsPage />, '/connections', makeAuth({ user: { profile: 'user' } }));

    expect(
      within(await rowOf('Pagos')).queryByRole('button', { name: 'Historial de Pagos' }),
    ).toBeNull();
  });
});
