import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSocket } from '../../api/socket';
import { unknownApiCalls } from '../../test/api-routes';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { dashboardRoutes } from './dashboard.fixtures';
import { DashboardPage } from './dashboard-page';

type Company = {
  queues: { id: number; name: string; color: string }[];
  connections: { id: number; name: string; status: string }[];
  users: { id: number; name: string }[];
  tickets: { id: number }[];
};

const newCompany = (): Company => ({
  queues: [],
  connections: [],
  users: [{ id: 1, name: 'Ana Admin' }],
  tickets: [],
});

const doneCompany = (): Company => ({
  queues: [{ id: 1, name: 'Ventas', color: '#43a047' }],
  connections: [{ id: 1, name: 'Simulador', status: 'CONNECTED' }],
  users: [
    { id: 1, name: 'Ana Admin' },
    { id: 2, name: 'Bruno Agente' },
  ],
  tickets: [{ id: 1 }],
});

// The four lists the checklist reads, answered from `company` as it is at each request, and the
// dashboard's figures below it.
const stubCompany = (company: Company) =>
  stubApi({
    ...dashboardRoutes(),
    'GET /queue': () => jsonResponse(200, company.queues),
    'GET /whatsapp': () => jsonResponse(200, company.connections),
    'GET /users/list': () => jsonResponse(200, company.users),
    'GET /tickets': () =>
      jsonResponse(200, {
        tickets: company.tickets,
        count: company.tickets.length,
        hasMore: false,
      }),
  });

const card = () => screen.queryByRole('region', { name: 'Primeros pasos' });
// "Hecho" or "Pendiente": the step's icon names it.
const stateOf = (step: string) =>
  within(screen.getByTestId(`getting-started-${step}`)).getByRole('img').textContent;
// The drawer badge and the bell ask for connections and unread tickets on every page anyway.
const CHECKLIST_CALLS = ['GET /queue', 'GET /users/list', 'GET /tickets?showAll=true&pageNumber=1'];
const checklistCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock).filter((call) => CHECKLIST_CALLS.includes(call));

describe('getting-started checklist', () => {
  it('ticks each step from the company’s data and links to where it is done', async () => {
    const company = newCompany();
    company.queues.push({ id: 1, name: 'Ventas', color: '#43a047' });
    company.connections.push({ id: 1, name: 'Simulador', status: 'qrcode' });
    const fetchMock = stubCompany(company);
    renderPage(<DashboardPage />, '/', makeAuth());

    await screen.findByText('1 de 4 pasos hechos: complételos para empezar a atender.');
    expect(card()).toBeTruthy();
    // Above the dashboard.
    expect(
      card()!.compareDocumentPosition(screen.getByRole('heading', { level: 1, name: 'Tablero' })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(['queue', 'connection', 'agent', 'testMessage'].map(stateOf)).toEqual([
      'Hecho',
      'Pendiente',
      'Pendiente',
      'Pendiente',
    ]);
    const links = within(card()!)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual([
      ['Crear cola', '/queues'],
      ['Conectar número', '/connections'],
      ['Invitar agente', '/users'],
      ['Abrir el simulador', '/connections'],
    ]);
    expect(
      within(card()!).getByText(
        'En Conexiones, el botón «Teléfono» del simulador escribe como un contacto: su mensaje abre el primer ticket.',
      ),
    ).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('GET /tickets?showAll=true&pageNumber=1');
    expect(callsOf(fetchMock)).toContain('GET /whatsapp?session=0');

    // The number gets connected and an agent is invited elsewhere: the steps tick live.
    company.connections[0]!.status = 'CONNECTED';
    company.users.push({ id: 2, name: 'Bruno Agente' });
    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-whatsappSession', { action: 'update', session: {} });
      socket.receive('company-1-user', { action: 'create', user: {} });
    });
    await waitFor(() => expect(stateOf('connection')).toBe('Hecho'));
    await waitFor(() => expect(stateOf('agent')).toBe('Hecho'));
    expect(
      screen.getByText('3 de 4 pasos hechos: complételos para empezar a atender.'),
    ).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('is hidden once every step is done, and then stops asking', async () => {
    const fetchMock = stubCompany(doneCompany());
    renderPage(<DashboardPage />, '/', makeAuth());
    await screen.findByRole('heading', { level: 1, name: 'Tablero' });
    await waitFor(() => expect(checklistCalls(fetchMock)).toHaveLength(3));
    // Finished is remembered once the answers are in; the card never showed.
    await waitFor(() => expect(window.localStorage.getItem('gettingStartedClosed')).toBe('1'));
    expect(card()).toBeNull();

    cleanup();
    fetchMock.mockClear();
    renderPage(<DashboardPage />, '/', makeAuth());
    await screen.findByRole('heading', { level: 1, name: 'Tablero' });
    expect(card()).toBeNull();
    expect(checklistCalls(fetchMock)).toEqual([]);
  });

  it('stays closed for the company whose admin closed it', async () => {
    const fetchMock = stubCompany(newCompany());
    const user = setupUser();
    renderPage(<DashboardPage />, '/', makeAuth());
    await screen.findByText('0 de 4 pasos hechos: complételos para empezar a atender.');
    await user.click(within(card()!).getByRole('button', { name: 'Ocultar primeros pasos' }));
    expect(card()).toBeNull();

    cleanup();
    fetchMock.mockClear();
    renderPage(<DashboardPage />, '/', makeAuth());
    await screen.findByRole('heading', { level: 1, name: 'Tablero' });
    expect(card()).toBeNull();
    expect(checklistCalls(fetchMock)).toEqual([]);

    // Another company's admin on the same browser still sees it.
    cleanup();
    const other = makeAuth({ user: { id: 7, companyId: 2 } });
    other.user.company.id = 2;
    renderPage(<DashboardPage />, '/', other);
    expect(await screen.findByRole('region', { name: 'Primeros pasos' })).toBeTruthy();
  });

  it('is not shown to agents, who are not asked for the lists', async () => {
    const fetchMock = stubCompany(newCompany());
    renderPage(<DashboardPage />, '/', makeAuth({ user: { profile: 'user' } }));
    await screen.findByText('Sus conversaciones le esperan en Tickets.');
    expect(card()).toBeNull();
    expect(checklistCalls(fetchMock)).toEqual([]);
  });
});
