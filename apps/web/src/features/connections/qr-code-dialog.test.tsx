import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser, type User } from '../../test/user-event';
import { makeConnection, receiveSession, sessionOf } from './connections.fixtures';
import { ConnectionsPage } from './connections-page';

const waiting = makeConnection({ id: 2, name: 'Soporte', status: 'qrcode', qrcode: '' });

const openQrDialog = async (user: User) => {
  const row = (await screen.findByText('Soporte')).closest('tr')!;
  await user.click(within(row).getByRole('button', { name: 'Código QR' }));
  return screen.findByRole('dialog', { name: 'Código QR · Soporte' });
};

// The path of the QR's dark modules: it changes with the code.
const qrPathOf = (dialog: HTMLElement) =>
  within(dialog)
    .getByRole('img', { name: 'Código QR para vincular WhatsApp' })
    .querySelectorAll('path')[1]
    ?.getAttribute('d');

describe('QR code dialog', () => {
  it('waits for the code, shows each live code, and closes when the code is cleared', async () => {
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [waiting]),
      'GET /whatsapp/2': () => jsonResponse(200, waiting),
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openQrDialog(user);
    expect(within(dialog).getByText('Esperando el código QR')).toBeTruthy();

    await receiveSession(sessionOf(waiting, { qrcode: 'first-code' }));
    const qr = within(dialog).getByRole('img', { name: 'Código QR para vincular WhatsApp' });
    expect(qr.getAttribute('width')).toBe('256');
    const firstPath = qrPathOf(dialog);

    // Another connection's code changes nothing here.
    await receiveSession(sessionOf(makeConnection({ id: 7 }), { qrcode: 'other-code' }));
    expect(qrPathOf(dialog)).toBe(firstPath);

    await receiveSession(sessionOf(waiting, { qrcode: 'second-code' }));
    expect(qrPathOf(dialog)).not.toBe(firstPath);

    await receiveSession(sessionOf(waiting, { status: 'CONNECTED', qrcode: '' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Conectado')).toBeTruthy();
  });

  it('stays open while the session is still starting', async () => {
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [waiting]),
      'GET /whatsapp/2': () => jsonResponse(200, waiting),
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openQrDialog(user);
    await receiveSession(sessionOf(waiting, { status: 'OPENING', qrcode: '' }));
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(within(dialog).getByText('Esperando el código QR')).toBeTruthy();
  });

  it('asks for a pairing code with the phone number and shows it', async () => {
    let sent: unknown;
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [{ ...waiting, qrcode: 'a-code' }]),
      'GET /whatsapp/2': () => jsonResponse(200, { ...waiting, qrcode: 'a-code' }),
      'PUT /whatsappsession/2': (init) => {
        sent = JSON.parse(String(init.body));
        return jsonResponse(200, { message: 'Starting session.' });
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openQrDialog(user);
    expect(
      within(dialog).getByRole('img', { name: 'Código QR para vincular WhatsApp' }),
    ).toBeTruthy();
    await user.click(
      within(dialog).getByRole('button', { name: 'Usar un código de emparejamiento' }),
    );
    const phone = within(dialog).getByRole('textbox', { name: 'Número de teléfono' });
    await fill(user, phone, '12ab');
    await user.click(within(dialog).getByRole('button', { name: 'Pedir código' }));
    expect(
      await within(dialog).findByText('Use el número completo con código de país (8 a 15 dígitos)'),
    ).toBeTruthy();
    expect(sent).toBeUndefined();

    await user.clear(phone);
    await fill(user, phone, '+5215512345678');
    await user.click(within(dialog).getByRole('button', { name: 'Pedir código' }));
    await waitFor(() => expect(sent).toEqual({ phoneNumber: '+5215512345678' }));

    await receiveSession(sessionOf(waiting, { status: 'OPENING', qrcode: '' }));
    await receiveSession(
      sessionOf(waiting, { status: 'PAIRING', qrcode: '', pairingCode: 'ABCD-1234' }),
    );
    expect(within(dialog).getByText('ABCD-1234')).toBeTruthy();
    expect(
      within(dialog).queryByRole('img', { name: 'Código QR para vincular WhatsApp' }),
    ).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Usar el código QR' })).toBeTruthy();
  });

  it('tells a simulator connection to use its simulated phone, and opens it', async () => {
    const simulator = makeConnection({
      id: 5,
      name: 'Pruebas',
      provider: 'simulator',
      status: 'qrcode',
      qrcode: 'atendi-simulator:5:abc',
    });
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [simulator]),
      'GET /whatsapp/5': () => jsonResponse(200, simulator),
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const row = (await screen.findByText('Pruebas')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Código QR' }));
    const dialog = await screen.findByRole('dialog', { name: 'Código QR · Pruebas' });
    expect(
      within(dialog).getByText(
        'Esta conexión es el simulador: no se vincula con un teléfono real. Abra su teléfono simulado (el botón «Teléfono» de la conexión) y pulse «Escanear QR».',
      ),
    ).toBeTruthy();
    // Nothing about a real phone's WhatsApp, nor a pairing code for a real number.
    expect(within(dialog).queryByText(/Dispositivos vinculados/)).toBeNull();
    expect(
      within(dialog).queryByRole('button', { name: 'Usar un código de emparejamiento' }),
    ).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Abrir el teléfono simulado' }));
    const phone = await screen.findByRole('dialog', { name: 'Teléfono simulado · Pruebas' });
    expect(within(phone).getByRole('button', { name: 'Escanear QR' })).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Código QR · Pruebas' })).toBeNull(),
    );
  });

  it('gives a real phone’s steps to other connections', async () => {
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [{ ...waiting, qrcode: 'a-code' }]),
      'GET /whatsapp/2': () => jsonResponse(200, { ...waiting, qrcode: 'a-code' }),
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openQrDialog(user);
    expect(within(dialog).getByText(/Dispositivos vinculados/)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Abrir el teléfono simulado' })).toBeNull();
  });
});
