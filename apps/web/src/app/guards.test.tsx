import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsOf, makeAuth, stubApi } from '../test/fixtures';
import { renderApp } from '../test/render-app';
import { PERMISSION_REDIRECT_MS } from './guards';

// The shell's own requests (version, settings, the drawer's connections).
const stubShellApi = () => stubApi({});

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('route guards', () => {
  it('sends a visitor without a session to the login page', async () => {
    renderApp('/tickets', null);
    expect(await heading('Iniciar sesión')).toBeTruthy();
  });

  it('sends a logged-in visitor of a public route to the dashboard', async () => {
    stubShellApi();
    renderApp('/login', makeAuth());
    expect(await heading('Tablero')).toBeTruthy();
  });

  it('redirects private routes to /restricted-access while the company is not active', async () => {
    stubShellApi();
    renderApp('/tickets', makeAuth({ companyStatus: 'overdue' }));
    expect(await heading('Acceso restringido')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Renovar suscripción' }).getAttribute('href')).toBe(
      '/subscriptions',
    );
  });

  it('keeps the subscription pages usable while the company is not active', async () => {
    stubShellApi();
    renderApp('/subscriptions', makeAuth({ companyStatus: 'suspended' }));
    expect(await heading('Suscripciones')).toBeTruthy();
  });

  it('toasts and sends home after 1 s when the plan lacks the page feature', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    stubShellApi();
    renderApp('/prompts', makeAuth({ plan: { useOpenAi: false } }));

    expect(
      await screen.findByText('¡Esta empresa no tiene permiso para acceder a esta página!'),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'Agentes de IA' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(PERMISSION_REDIRECT_MS));
    expect(await heading('Tablero')).toBeTruthy();
  });

  it('refuses the schedules page without the plan feature, asking nothing', async () => {
    const fetchMock = stubShellApi();
    renderApp('/schedules', makeAuth({ plan: { useSchedules: false } }));

    expect(
      await screen.findByText('¡Esta empresa no tiene permiso para acceder a esta página!'),
    ).toBeTruthy();
    expect(screen.queryByTestId('schedules-calendar')).toBeNull();
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /schedules'))).toBe(false);
  });

  it('shows no board to a company whose plan has no kanban', async () => {
    stubShellApi();
    renderApp('/kanban', makeAuth({ plan: { useKanban: false } }));
    expect(
      await screen.findByText('¡Esta empresa no tiene permiso para acceder a esta página!'),
    ).toBeTruthy();
    expect(screen.queryByTestId('kanban-lane-open')).toBeNull();
  });

  it('opens a plan page when the plan has the feature', async () => {
    stubShellApi();
    renderApp('/prompts', makeAuth({ plan: { useOpenAi: true } }));
    expect(await heading('Agentes de IA')).toBeTruthy();
  });

  it('lets only super users into announcements', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    stubShellApi();
    renderApp('/announcements', makeAuth({ user: { super: false } }));
    expect(
      await screen.findByText('Solo los superusuarios pueden acceder a esta página.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Agregar anuncio' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(PERMISSION_REDIRECT_MS));
    expect(await heading('Tablero')).toBeTruthy();
  });

  it('shows announcements to a super user', async () => {
    stubShellApi();
    renderApp('/announcements', makeAuth({ user: { super: true } }));
    expect(await heading('Anuncios')).toBeTruthy();
  });

  it('has campaign routes only while the local cshow flag exists', async () => {
    stubShellApi();
    // A plan without campaigns does not set the flag, so the route does not exist.
    renderApp('/campaigns', makeAuth({ plan: { useCampaigns: false } }));
    expect(await heading('Página no encontrada')).toBeTruthy();
  });

  it('opens the campaigns page when the flag exists and the plan allows it', async () => {
    stubShellApi();
    window.localStorage.setItem('cshow', 'true');
    renderApp('/campaigns', makeAuth());
    expect(await heading('Campañas')).toBeTruthy();
  });
});
