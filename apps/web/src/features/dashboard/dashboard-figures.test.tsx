import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSocket } from '../../api/socket';
import { i18n } from '../../i18n/i18n';
import { unknownApiCalls } from '../../test/api-routes';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { dateInput, setDate } from '../../test/date-fields';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import {
  dashboardRoutes,
  makeDashboardView,
  makeTicketsDay,
  makeTicketsUsers,
} from './dashboard.fixtures';
import { DashboardPage } from './dashboard-page';

// The getting-started checklist's lists, answered as a company that finished it (no card).
const checklistRoutes = {
  'GET /queue': () => jsonResponse(200, [{ id: 1 }]),
  'GET /users/list': () => jsonResponse(200, [{ id: 1 }, { id: 2 }]),
  'GET /tickets': () => jsonResponse(200, { tickets: [{ id: 1 }], count: 1, hasMore: false }),
};

// The calls go out together, in no set order.
const dashboardCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock)
    .filter((call) => call.startsWith('GET /dashboard'))
    .sort();

const counter = (key: string) => screen.findByTestId(`dashboard-counter-${key}`);
const chart = (name: string) => screen.findByRole('img', { name });
const toastText = (text: string) => screen.findByText(text, { selector: '.Toastify *' });

describe('dashboard figures', () => {
  beforeEach(() => {
    // Saturday 15 March 2025, 10:00 on the browser's clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 15, 10, 0));
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows an admin the counters, the attendants and both charts of the month so far', async () => {
    const fetchMock = stubApi({ ...checklistRoutes, ...dashboardRoutes() });
    renderPage(<DashboardPage />, '/', makeAuth());

    expect((await counter('supportHappening')).textContent).toBe('4');
    expect((await counter('supportPending')).textContent).toBe('2');
    expect((await counter('supportFinished')).textContent).toBe('12.345');
    expect((await counter('supportStarted')).textContent).toBe('0');
    expect((await counter('avgSupportTime')).textContent).toBe('12 min');
    expect((await counter('avgWaitTime')).textContent).toBe('1 h 05 min');
    expect((await counter('avgFirstResponseTime')).textContent).toBe('< 1 min');
    expect((await counter('avgResolutionTime')).textContent).toBe('—');
    // Each card is named by its title and says what it measures.
    const support = screen.getByRole('group', { name: 'Tiempo medio de atención' });
    expect(
      within(support).getByText('Promedio desde que se aceptó hasta que se resolvió'),
    ).toBeTruthy();
    expect(screen.getByTestId('dashboard-period').textContent).toBe(
      'Cifras del 01/03/2025 al 15/03/2025 (zona horaria America/Mexico_City)',
    );

    const table = screen.getByRole('table', { name: 'Agentes' });
    const ana = within(table).getByRole('row', { name: /Ana Admin/ });
    expect(within(ana).getByRole('img', { name: 'Valoración 2,5 de 3' })).toBeTruthy();
    expect(within(ana).getByText('2 d 3 h')).toBeTruthy();
    expect(within(ana).getByText('8')).toBeTruthy();
    expect(within(ana).getByText('En línea')).toBeTruthy();
    const bruno = within(table).getByRole('row', { name: /Bruno Agente/ });
    expect(within(bruno).getByRole('img', { name: 'Sin valoraciones' })).toBeTruthy();
    expect(within(bruno).getByText('Desconectado')).toBeTruthy();
    expect(within(bruno).getByText('—')).toBeTruthy();

    const perUser = await chart('Tickets por usuario');
    expect(
      within(perUser)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Ana Admin: 5', 'Bruno Agente: 3']);
    const perDay = await chart('Tickets por día');
    expect(
      within(perDay)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['14/03/2025: 3', '15/03/2025: 1']);

    // SPEC §9: from the first of the month to today, period none.
    expect(dashboardCalls(fetchMock)).toEqual([
      'GET /dashboard/report?date_from=2025-03-01&date_to=2025-03-15&groupBy=queue',
      'GET /dashboard/ticketsDay?initialDate=2025-03-01&finalDate=2025-03-15',
      'GET /dashboard/ticketsUsers?initialDate=2025-03-01&finalDate=2025-03-15',
      'GET /dashboard?date_from=2025-03-01&date_to=2025-03-15',
    ]);
    expect(screen.getByRole('combobox', { name: 'Período' }).textContent).toBe('Ninguno');
    // As SPEC §9 writes dates, like the figures' caption beside them.
    expect(dateInput('Fecha inicial').value).toBe('01/03/2025');
    expect(dateInput('Fecha final').value).toBe('15/03/2025');
    // The dashboard routes are the API's (apps/api/src/modules/dashboard).
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('follows the attendants’ presence live', async () => {
    stubApi({ ...checklistRoutes, ...dashboardRoutes() });
    renderPage(<DashboardPage />, '/', makeAuth());
    const table = await screen.findByRole('table', { name: 'Agentes' });
    const bruno = within(table).getByRole('row', { name: /Bruno Agente/ });
    expect(within(bruno).getByText('Desconectado')).toBeTruthy();

    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-presence', {
        action: 'update',
        userId: 2,
        presence: 'away',
        availability: 'online',
      });
    });
    expect(await within(bruno).findByText('Ausente')).toBeTruthy();
    expect(bruno.querySelector('[data-presence="away"]')).toBeTruthy();
    const ana = within(table).getByRole('row', { name: /Ana Admin/ });
    expect(within(ana).getByText('En línea')).toBeTruthy();
  });

  it('asks for the last days of a chosen period, and the charts for those calendar days', async () => {
    const fetchMock = stubApi({ ...checklistRoutes, ...dashboardRoutes() });
    const user = setupUser();
    renderPage(<DashboardPage />, '/', makeAuth());
    await counter('supportHappening');

    await user.click(screen.getByRole('combobox', { name: 'Período' }));
    await user.click(await screen.findByRole('option', { name: 'Últimos 7 días' }));
    // The period wins: the dates no longer count.
    expect(dateInput('Fecha inicial').disabled).toBe(true);
    expect(dateInput('Fecha final').disabled).toBe(true);
    fetchMock.mockClear();
    await user.click(screen.getByRole('button', { name: 'Filtrar' }));

    await waitFor(() =>
      expect(dashboardCalls(fetchMock)).toEqual([
        'GET /dashboard/report?days=7&groupBy=queue',
        'GET /dashboard/ticketsDay?initialDate=2025-03-09&finalDate=2025-03-15',
        'GET /dashboard/ticketsUsers?initialDate=2025-03-09&finalDate=2025-03-15',
        'GET /dashboard?days=7',
      ]),
    );

    // Back to no period: the month so far is still cached and shows without asking again.
    await user.click(screen.getByRole('combobox', { name: 'Período' }));
    await user.click(await screen.findByRole('option', { name: 'Ninguno' }));
    fetchMock.mockClear();
    await user.click(screen.getByRole('button', { name: 'Filtrar' }));
    expect((await counter('supportHappening')).textContent).toBe('4');
    expect(dashboardCalls(fetchMock)).toEqual([]);
  });

  it('asks for a chosen date range, and shows the hours of a single day', async () => {
    const fetchMock = stubApi({
      ...checklistRoutes,
      ...dashboardRoutes({
        ticketsDay: makeTicketsDay(
          [
            { label: '09:00', total: 2 },
            { label: '10:00', total: 0 },
          ],
          'hour',
        ),
      }),
    });
    const user = setupUser();
    renderPage(<DashboardPage />, '/', makeAuth());
    await counter('supportHappening');

    fetchMock.mockClear();
    setDate('Fecha inicial', '10/02/2025');
    setDate('Fecha final', '10/02/2025');
    await user.click(screen.getByRole('button', { name: 'Filtrar' }));

    await waitFor(() =>
      expect(dashboardCalls(fetchMock)).toEqual([
        'GET /dashboard/report?date_from=2025-02-10&date_to=2025-02-10&groupBy=queue',
        'GET /dashboard/ticketsDay?initialDate=2025-02-10&finalDate=2025-02-10',
        'GET /dashboard/ticketsUsers?initialDate=2025-02-10&finalDate=2025-02-10',
        'GET /dashboard?date_from=2025-02-10&date_to=2025-02-10',
      ]),
    );
    const perDay = await chart('Tickets por día');
    expect(
      within(perDay)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['09:00: 2', '10:00: 0']);
  });

  it('says "select a filter" when neither a period nor both dates are given', async () => {
    const fetchMock = stubApi({ ...checklistRoutes, ...dashboardRoutes() });
    const user = setupUser();
    renderPage(<DashboardPage />, '/', makeAuth());
    await counter('supportHappening');

    fetchMock.mockClear();
    setDate('Fecha inicial', '');
    await user.click(screen.getByRole('button', { name: 'Filtrar' }));

    expect(await toastText('Seleccione un filtro')).toBeTruthy();
    expect(dashboardCalls(fetchMock)).toEqual([]);
  });

  it('refuses a range whose end comes before its start', async () => {
    const fetchMock = stubApi({ ...checklistRoutes, ...dashboardRoutes() });
    const user = setupUser();
    renderPage(<DashboardPage />, '/', makeAuth());
    await counter('supportHappening');

    fetchMock.mockClear();
    setDate('Fecha inicial', '10/03/2025');
    setDate('Fecha final', '02/03/2025');
    await user.click(screen.getByRole('button', { name: 'Filtrar' }));

    expect(await toastText('La fecha final es anterior a la fecha inicial')).toBeTruthy();
    expect(dashboardCalls(fetchMock)).toEqual([]);
  });

  it('says so when the period has nothing to draw, and when there are no attendants', async () => {
    stubApi({
      ...checklistRoutes,
      ...dashboardRoutes({
        view: makeDashboardView({ attendants: [] }),
        ticketsUsers: makeTicketsUsers([]),
        ticketsDay: makeTicketsDay([{ label: '2025-03-15', total: 0 }]),
      }),
    });
    renderPage(<DashboardPage />, '/', makeAuth());

    expect(await screen.findByText('No hay agentes para mostrar.')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('Sin datos en el período')).toHaveLength(2));
    expect(screen.queryByRole('img', { name: 'Tickets por usuario' })).toBeNull();
  });

  it('toasts each chart that fails and keeps the rest of the page', async () => {
    const failure = () =>
      jsonResponse(500, { error: 'ERR_INTERNAL_SERVER_ERROR', message: 'Boom' });
    stubApi({
      ...checklistRoutes,
      ...dashboardRoutes(),
      'GET /dashboard/ticketsUsers': failure,
      'GET /dashboard/ticketsDay': failure,
    });
    renderPage(<DashboardPage />, '/', makeAuth());

    expect(await toastText('No se pudo cargar el gráfico de usuarios')).toBeTruthy();
    expect(await toastText('No se pudo cargar el gráfico por fecha')).toBeTruthy();
    expect((await counter('supportHappening')).textContent).toBe('4');
    expect(screen.getAllByText('No se pudo cargar el gráfico.')).toHaveLength(2);
  });

  it('toasts the server’s message when the counters fail, and offers to try again', async () => {
    let fails = true;
    stubApi({
      ...checklistRoutes,
      ...dashboardRoutes(),
      'GET /dashboard': () =>
        fails
          ? jsonResponse(503, { error: 'ERR_DASHBOARD_BUSY', message: 'Demasiadas consultas' })
          : jsonResponse(200, makeDashboardView()),
    });
    const user = setupUser();
    renderPage(<DashboardPage />, '/', makeAuth());

    expect(await toastText('Demasiadas consultas')).toBeTruthy();
    expect(screen.queryByTestId('dashboard-counter-supportHappening')).toBeNull();
    // The charts do not depend on the counters.
    expect(await chart('Tickets por usuario')).toBeTruthy();

    fails = false;
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect((await counter('supportHappening')).textContent).toBe('4');
  });

  it('shows agents a welcome and never asks for the figures', async () => {
    const fetchMock = stubApi({ ...checklistRoutes, ...dashboardRoutes() });
    renderPage(
      <DashboardPage />,
      '/',
      makeAuth({ user: { profile: 'user', name: 'Bruno Agente' } }),
    );

    expect(await screen.findByText('Hola, Bruno Agente')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Tablero' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir a Tickets' }).getAttribute('href')).toBe(
      '/tickets',
    );
    expect(screen.queryByRole('form', { name: 'Filtro del tablero' })).toBeNull();
    expect(screen.queryByTestId('dashboard-counter-supportHappening')).toBeNull();
    expect(dashboardCalls(fetchMock)).toEqual([]);
  });

  it('reads in English with English numbers', async () => {
    stubApi({ ...checklistRoutes, ...dashboardRoutes() });
    await i18n.changeLanguage('en');
    renderPage(<DashboardPage />, '/', makeAuth());

    expect((await counter('supportFinished')).textContent).toBe('12,345');
    expect(screen.getByRole('group', { name: 'Average wait time' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Rated 2.5 out of 3' })).toBeTruthy();
    expect(await chart('Tickets per user')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Filter' })).toBeTruthy();
  });
});
