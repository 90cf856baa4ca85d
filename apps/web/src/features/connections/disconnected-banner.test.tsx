import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { makeConnection, receiveSession, sessionOf } from './connections.fixtures';
import { DisconnectedBanner } from './disconnected-banner';

const ventas = makeConnection({ id: 1, name: 'Ventas', status: 'CONNECTED' });
const pagos = makeConnection({ id: 3, name: 'Pagos', status: 'DISCONNECTED' });

const banner = () => screen.queryByTestId('disconnected-banner');

// Renders the banner alone, as over any page but the connections one.
const renderBanner = async (profile: 'admin' | 'user' = 'admin') => {
  const fetchMock = stubApi({ 'GET /whatsapp': () => jsonResponse(200, [ventas, pagos]) });
  const view = renderPage(<DisconnectedBanner />, '/tickets', makeAuth({ user: { profile } }), {
    route: '*',
  });
  return { fetchMock, view };
};

// A moment for an answer already on its way to reach the screen.
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const listArrived = async (fetchMock: ReturnType<typeof stubApi>) => {
  await waitFor(() => expect(callsOf(fetchMock)).toContain('GET /whatsapp?session=0'));
  await settle();
};

describe('disconnected connections banner', () => {
  afterEach(() => {
    window.sessionStorage.clear();
  });

  it('tells an admin which connection is disconnected, with the way to the connections page', async () => {
    await renderBanner();

    const alert = await screen.findByTestId('disconnected-banner');
    expect(alert.textContent).toContain(
      'La conexión Pagos está desconectada: los mensajes de sus clientes no llegan.',
    );
    expect(within(alert).getByRole('link', { name: 'Ver conexiones' }).getAttribute('href')).toBe(
      '/connections',
    );
  });

  it('shows nothing to a user without the connections permission, and asks nothing', async () => {
    const { fetchMock } = await renderBanner('user');

    await settle();
    expect(banner()).toBeNull();
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /whatsapp'))).toBe(false);
  });

  it('stays closed for the session once dismissed, and shows again when another connection drops', async () => {
    const user = setupUser();
    const { view } = await renderBanner();

    const alert = await screen.findByTestId('disconnected-banner');
    await user.click(within(alert).getByRole('button', { name: 'Ocultar el aviso' }));
    expect(banner()).toBeNull();

    // Still closed on the next page of the same browser session.
    view.unmount();
    const { fetchMock } = await renderBanner();
    await listArrived(fetchMock);
    expect(banner()).toBeNull();

    await receiveSession(sessionOf(ventas, { status: 'DISCONNECTED' }));
    expect((await screen.findByTestId('disconnected-banner')).textContent).toContain(
      '2 conexiones están desconectadas: los mensajes de sus clientes no llegan.',
    );
  });

  it('goes away once the connection is back', async () => {
    await renderBanner();
    await screen.findByTestId('disconnected-banner');

    await receiveSession(sessionOf(pagos, { status: 'CONNECTED' }));
    expect(banner()).toBeNull();
  });

  it('sits over the app pages in the layout, but not on the connections page', async () => {
    const fetchMock = stubApi({ 'GET /whatsapp': () => jsonResponse(200, [ventas, pagos]) });
    const { unmount } = renderApp('/tickets', makeAuth());
    expect(await screen.findByTestId('disconnected-banner')).toBeTruthy();
    // The list the drawer's '!' reads: one request for both.
    expect(callsOf(fetchMock).filter((call) => call.startsWith('GET /whatsapp'))).toEqual([
      'GET /whatsapp?session=0',
    ]);
    unmount();

    renderApp('/connections', makeAuth());
    await screen.findByRole('heading', { level: 1, name: 'Conexiones' });
    await screen.findByText('Pagos');
    expect(banner()).toBeNull();
  });
});
