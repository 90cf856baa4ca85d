import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { applyWhatsappEvent } from '../../api/queries/connections';
import { makeConnection, receiveSession, receiveWhatsapp, sessionOf } from './connections.fixtures';
import { ConnectionsPage } from './connections-page';

// Waits for the connection's row by its name, a cheap query while the list loads.
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

const buttonNames = (row: HTMLElement) =>
  within(row)
    .queryAllByRole('button')
    .map((button) => button.textContent || button.getAttribute('aria-label'));

describe('connections page', () => {
  it('shows each connection as a card on a phone, its session buttons and actions at hand', async () => {
    window.innerWidth = 390;
    stubApi({
      'GET /whatsapp': () =>
        jsonResponse(200, [
          makeConnection({ id: 1, name: 'Ventas', status: 'CONNECTED', isDefault: true }),
          makeConnection({ id: 2, name: 'Soporte', status: 'qrcode' }),
        ]),
    });
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const list = await screen.findByRole('list', { name: 'Conexiones' });
    const card = (await within(list).findByText('Ventas')).closest('li')!;
    expect(within(card).getByText('Conectado')).toBeTruthy();
    expect(within(card).getByText('Estado')).toBeTruthy();
    expect(buttonNames(card)).toEqual([
      'Desconectar',
      'Historial de Ventas',
      'Editar la conexión Ventas',
      'Eliminar la conexión Ventas',
    ]);
    expect(screen.queryByRole('table', { name: 'Conexiones' })).toBeNull();
  });

  it('lists status, last update and default flag, with the session buttons each status offers', async () => {
    const fetchMock = stubApi({
      'GET /whatsapp': () =>
        jsonResponse(200, [
          makeConnection({ id: 1, name: 'Ventas', status: 'CONNECTED', isDefault: true }),
          makeConnection({ id: 2, name: 'Soporte', status: 'qrcode' }),
          makeConnection({ id: 3, name: 'Pagos', status: 'DISCONNECTED' }),
          makeConnection({ id: 4, name: 'Marketing', status: 'OPENING' }),
          makeConnection({ id: 5, name: 'Cobranza', status: 'TIMEOUT' }),
        ]),
    });
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const connected = await rowOf('Ventas');
    expect(screen.getByRole('heading', { level: 1, name: 'Conexiones' })).toBeTruthy();
    expect(within(connected).getByText('Conectado')).toBeTruthy();
    expect(within(connected).getByText('04/03/25 09:05')).toBeTruthy();
    expect(within(connected).getByRole('img', { name: 'Conexión predeterminada' })).toBeTruthy();
    expect(buttonNames(connected)).toEqual([
      'Desconectar',
      'Historial de Ventas',
      'Editar la conexión Ventas',
      'Eliminar la conexión Ventas',
    ]);

    const waitingQr = await rowOf('Soporte');
    expect(within(waitingQr).getByText('Esperando lectura del QR')).toBeTruthy();
    expect(within(waitingQr).queryByRole('img', { name: 'Conexión predeterminada' })).toBeNull();
    expect(buttonNames(waitingQr).slice(0, 1)).toEqual(['Código QR']);

    expect(buttonNames(await rowOf('Pagos')).slice(0, 2)).toEqual([
      'Intentar de nuevo',
      'Nuevo QR',
    ]);
    const opening = within(await rowOf('Marketing')).getByRole('button', { name: 'Conectando' });
    expect(opening.hasAttribute('disabled')).toBe(true);
    expect(buttonNames(await rowOf('Cobranza')).slice(0, 1)).toEqual(['Desconectar']);

    expect(screen.getByRole('button', { name: 'Agregar WhatsApp' })).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('GET /whatsapp?session=0');
  });

  it('shows a user without the permissions the list but no buttons', async () => {
    stubApi({
      'GET /whatsapp': () =>
        jsonResponse(200, [
          makeConnection({ id: 1, name: 'Ventas', status: 'DISCONNECTED' }),
          makeConnection({ id: 2, name: 'Pruebas', status: 'qrcode', provider: 'simulator' }),
        ]),
    });
    renderPage(<ConnectionsPage />, '/connections', makeAuth({ user: { profile: 'user' } }));

    const row = await rowOf('Ventas');
    expect(within(row).getByText('Desconectado')).toBeTruthy();
    expect(buttonNames(row)).toEqual([]);
    expect(buttonNames(await rowOf('Pruebas'))).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Agregar WhatsApp' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Sesión' })).toBeNull();
  });

  it('retries a session, and asks for a new QR then shows the QR dialog', async () => {
    const sessionCalls: string[] = [];
    stubApi({
      'GET /whatsapp': () =>
        jsonResponse(200, [makeConnection({ id: 3, name: 'Pagos', status: 'DISCONNECTED' })]),
      'GET /whatsapp/3': () =>
        jsonResponse(200, makeConnection({ id: 3, name: 'Pagos', status: 'OPENING' })),
      'POST /whatsappsession/3': () => {
        sessionCalls.push('POST');
        return jsonResponse(200, { message: 'Starting session.' });
      },
      'PUT /whatsappsession/3': (init) => {
        sessionCalls.push(`PUT ${String(init.body ?? '')}`);
        return jsonResponse(200, { message: 'Starting session.' });
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const row = await rowOf('Pagos');
    await user.click(within(row).getByRole('button', { name: 'Intentar de nuevo' }));
    await waitFor(() => expect(sessionCalls).toEqual(['POST']));
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Nuevo QR' }));
    const dialog = await screen.findByRole('dialog', { name: 'Código QR · Pagos' });
    expect(within(dialog).getByText('Esperando el código QR')).toBeTruthy();
    // A plain new QR sends no body; a pairing code sends the phone number.
    expect(sessionCalls).toEqual(['POST', 'PUT ']);
  });

  it('asks before disconnecting and then sends DELETE', async () => {
    const deleted: number[] = [];
    let ventas = makeConnection({ id: 1, name: 'Ventas', status: 'CONNECTED' });
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [ventas]),
      'DELETE /whatsappsession/1': () => {
        deleted.push(1);
        ventas = { ...ventas, status: 'DISCONNECTED' };
        return jsonResponse(200, { message: 'Session disconnected.' });
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const row = await rowOf('Ventas');
    await user.click(within(row).getByRole('button', { name: 'Desconectar' }));
    const confirm = await screen.findByRole('dialog', { name: '¿Desconectar Ventas?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toEqual([]);

    await user.click(within(row).getByRole('button', { name: 'Desconectar' }));
    const again = await screen.findByRole('dialog', { name: '¿Desconectar Ventas?' });
    await user.click(within(again).getByRole('button', { name: 'Desconectar' }));

    expect(await screen.findByText('Sesión desconectada.')).toBeTruthy();
    expect(deleted).toEqual([1]);
    expect(await within(row).findByText('Desconectado')).toBeTruthy();
    expect(await within(row).findByRole('button', { name: 'Nuevo QR' })).toBeTruthy();
  });

  it('deletes a connection after confirmation', async () => {
    let deleted = false;
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [makeConnection({ id: 1, name: 'Ventas' })]),
      'DELETE /whatsapp/1': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    await user.click(
      within(await rowOf('Ventas')).getByRole('button', { name: 'Eliminar la conexión Ventas' }),
    );
    const confirm = await screen.findByRole('dialog', { name: '¿Eliminar la conexión Ventas?' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Conexión eliminada.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Ventas')).toBeNull());
  });

  it('explains that a connection with tickets cannot be deleted', async () => {
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [makeConnection({ id: 1, name: 'Ventas' })]),
      'DELETE /whatsapp/1': () =>
        jsonResponse(409, { error: 'ERR_WAPP_IN_USE', message: 'Connection has tickets' }),
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    await user.click(
      within(await rowOf('Ventas')).getByRole('button', { name: 'Eliminar la conexión Ventas' }),
    );
    const confirm = await screen.findByRole('dialog', { name: '¿Eliminar la conexión Ventas?' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText(i18n.t('errors.ERR_WAPP_IN_USE'))).toBeTruthy();
    expect(screen.getByText('Ventas')).toBeTruthy();
  });

  it('applies live connection and session events to the list', async () => {
    const ventas = makeConnection({ id: 1, name: 'Ventas', status: 'CONNECTED' });
    stubApi({ 'GET /whatsapp': () => jsonResponse(200, [ventas]) });
    renderPage(<ConnectionsPage />, '/connections', makeAuth());
    const row = await rowOf('Ventas');

    await receiveSession(
      sessionOf(ventas, { status: 'TIMEOUT', updatedAt: '2025-03-05T18:30:00' }),
    );
    expect(within(row).getByText('Sin respuesta del teléfono')).toBeTruthy();
    expect(within(row).getByText('05/03/25 18:30')).toBeTruthy();

    await receiveWhatsapp({
      action: 'create',
      whatsapp: makeConnection({ id: 2, name: 'Soporte', status: 'qrcode' }),
    });
    expect(within(await rowOf('Soporte')).getByRole('button', { name: 'Código QR' })).toBeTruthy();

    await receiveWhatsapp({ action: 'update', whatsapp: { ...ventas, name: 'Ventas VIP' } });
    expect(await screen.findByText('Ventas VIP')).toBeTruthy();

    await receiveWhatsapp({ action: 'delete', whatsappId: 2 });
    await waitFor(() => expect(screen.queryByText('Soporte')).toBeNull());
  });

  it("shows Meta's quality rating and messaging limit of Cloud API numbers, following them live", async () => {
    const meta = makeConnection({
      id: 4,
      name: 'Meta',
      provider: 'cloud',
      cloudPhoneNumberId: '1234567890',
      hasCloudAccessToken: true,
      cloudQualityRating: 'GREEN',
      cloudMessagingLimit: 'TIER_250',
    });
    const fresh = makeConnection({ id: 5, name: 'Meta nueva', provider: 'cloud' });
    stubApi({
      'GET /whatsapp': () =>
        jsonResponse(200, [meta, fresh, makeConnection({ id: 1, name: 'Ventas' })]),
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const row = await rowOf('Meta');
    const qualityOf = (text: string) =>
      within(row).getByText(text).closest('.MuiChip-root')!.className;
    expect(qualityOf('Calidad alta')).toContain('MuiChip-colorSuccess');
    const limit = within(row).getByText('Límite: 250 conversaciones/24 h');
    // Nothing before Meta said, nor on a WhatsApp Web number.
    expect(within(await rowOf('Meta nueva')).queryByText(/Calidad|Límite/)).toBeNull();
    expect(within(await rowOf('Ventas')).queryByText(/Calidad|Límite/)).toBeNull();

    await user.hover(limit);
    expect((await screen.findByRole('tooltip')).textContent).toContain(
      'cuántas conversaciones puede iniciar este número con clientes distintos en 24 horas',
    );
    await user.unhover(limit);

    await receiveSession(
      sessionOf(meta, { cloudQualityRating: 'YELLOW', cloudMessagingLimit: 'TIER_1K' }),
    );
    expect(qualityOf('Calidad media')).toContain('MuiChip-colorWarning');
    expect(within(row).getByText('Límite: 1.000 conversaciones/24 h')).toBeTruthy();

    await receiveSession(
      sessionOf(meta, { cloudQualityRating: 'RED', cloudMessagingLimit: 'TIER_UNLIMITED' }),
    );
    expect(qualityOf('Calidad baja')).toContain('MuiChip-colorError');
    expect(within(row).getByText('Límite: ilimitado')).toBeTruthy();

    await receiveSession(
      sessionOf(meta, { cloudQualityRating: 'UNKNOWN', cloudMessagingLimit: 'TIER_100K' }),
    );
    expect(qualityOf('Calidad desconocida')).toContain('MuiChip-colorDefault');
    expect(within(row).getByText('Límite: 100.000 conversaciones/24 h')).toBeTruthy();

    // Meta's first word on the new number.
    await receiveSession(sessionOf(fresh, { cloudMessagingLimit: 'TIER_50' }));
    const freshRow = await rowOf('Meta nueva');
    expect(within(freshRow).getByText('Límite: 50 conversaciones/24 h')).toBeTruthy();
    expect(within(freshRow).queryByText(/Calidad/)).toBeNull();
  });

  it('keeps the API and verify tokens it read when a live update (no secrets) leaves them out', () => {
    const ventas = makeConnection({
      id: 1,
      name: 'Ventas',
      token: 'tok-123',
      cloudVerifyToken: 'verify-123',
    });
    const [updated] = applyWhatsappEvent([ventas], {
      action: 'update',
      whatsapp: { ...ventas, name: 'Ventas VIP', token: null, cloudVerifyToken: null },
    })!;
    expect(updated).toMatchObject({
      name: 'Ventas VIP',
      token: 'tok-123',
      cloudVerifyToken: 'verify-123',
    });
  });
});
