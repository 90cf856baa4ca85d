import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeAuth, mockApi } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const stubShellApi = (settings: { key: string; value: string }[] = []) => {
  const fetchMock = vi.fn(
    mockApi({
      'GET /version': () => jsonResponse(200, { version: '2.4.1' }),
      'GET /settings/': () => jsonResponse(200, settings),
    }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
};

const drawer = async () => within(await screen.findByTestId('drawer'));

describe('side drawer', () => {
  it('hides the Administration items from a user profile', async () => {
    const fetchMock = stubShellApi();
    renderApp('/tickets', makeAuth({ user: { profile: 'user' } }));
    const menu = await drawer();

    expect(menu.getByRole('link', { name: 'Tickets' })).toBeTruthy();
    expect(menu.getByRole('link', { name: 'Contactos' })).toBeTruthy();
    expect(menu.queryByText('Administración')).toBeNull();
    expect(menu.queryByRole('link', { name: 'Conexiones' })).toBeNull();
    expect(menu.queryByRole('link', { name: 'Usuarios' })).toBeNull();
    expect(menu.queryByRole('link', { name: 'Tablero' })).toBeNull();
    // Settings are admin-only on the server; the shell must not even ask.
    const paths = fetchMock.mock.calls.map(([url]) => new URL(String(url)).pathname);
    expect(paths).not.toContain('/settings/');
  });

  it('shows the Administration items to an admin', async () => {
    stubShellApi();
    renderApp('/tickets', makeAuth({ user: { profile: 'admin' } }));
    const menu = await drawer();

    expect(menu.getByText('Administración')).toBeTruthy();
    for (const name of [
      'Tablero',
      'Conexiones',
      'Colas y chatbot',
      'Usuarios',
      'Configuraciones',
    ]) {
      expect(menu.getByRole('link', { name })).toBeTruthy();
    }
    expect(menu.getByRole('link', { name: 'Tablero' }).getAttribute('href')).toBe('/');
    expect(menu.getByRole('button', { name: 'Campañas' })).toBeTruthy();
    // Announcements belong to super users only.
    expect(menu.queryByRole('link', { name: 'Anuncios' })).toBeNull();
  });

  it('follows the plan flags', async () => {
    stubShellApi();
    renderApp(
      '/tickets',
      makeAuth({
        plan: {
          useKanban: false,
          useOpenAi: false,
          useIntegrations: false,
          useExternalApi: false,
          useCampaigns: false,
        },
      }),
    );
    const menu = await drawer();

    expect(menu.getByRole('link', { name: 'Conexiones' })).toBeTruthy();
    for (const name of ['Kanban', 'Agentes de IA', 'Integraciones', 'API de mensajes']) {
      expect(menu.queryByRole('link', { name })).toBeNull();
    }
    expect(menu.queryByRole('button', { name: 'Campañas' })).toBeNull();
  });

  it('shows campaigns when the company setting enables them', async () => {
    stubShellApi([{ key: 'campaignsEnabled', value: 'true' }]);
    renderApp('/tickets', makeAuth({ plan: { useCampaigns: false } }));
    const menu = await drawer();
    expect(await menu.findByRole('button', { name: 'Campañas' })).toBeTruthy();
  });

  it('shows announcements to a super user', async () => {
    stubShellApi();
    renderApp('/tickets', makeAuth({ user: { super: true } }));
    const menu = await drawer();
    expect(menu.getByRole('link', { name: 'Anuncios' })).toBeTruthy();
  });

  it('shows the app version and the server version in the footer', async () => {
    stubShellApi();
    renderApp('/tickets', makeAuth());
    const menu = await drawer();
    expect(menu.getByText('v6.0.0')).toBeTruthy();
    expect(await menu.findByText('Servidor 2.4.1')).toBeTruthy();
  });

  it('starts collapsed when the initialSideMenu setting says closed', async () => {
    stubShellApi([{ key: 'initialSideMenu', value: 'closed' }]);
    renderApp('/tickets', makeAuth({ settings: [{ key: 'initialSideMenu', value: 'closed' }] }));
    const toggle = await screen.findByTestId('drawer-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('starts open on a wide screen', async () => {
    stubShellApi();
    renderApp('/tickets', makeAuth());
    const toggle = await screen.findByTestId('drawer-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });
});
