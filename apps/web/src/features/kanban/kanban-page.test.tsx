import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TagOption, TicketEvent, TicketView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { KanbanPage } from './kanban-page';

const urgent: TagOption = { id: 7, name: 'Urgente', color: '#ff0000', kanban: 1 };
const followUp: TagOption = { id: 8, name: 'Seguimiento', color: '#0000ff', kanban: 1 };

const makeTicket = (id: number, name: string, overrides: Partial<TicketView> = {}): TicketView => ({
  id,
  uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  status: 'pending',
  queueId: 1,
  queue: { id: 1, name: 'Ventas', color: '#2e7d32' },
  userId: null,
  user: null,
  contactId: id,
  contact: {
    id,
    name,
    number: `54911000000${id}`,
    email: '',
    profilePicUrl: '',
    urlPicture: '',
    isGroup: false,
    whatsappId: 1,
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
  },
  whatsappId: 1,
  whatsapp: { id: 1, name: 'Línea', status: 'CONNECTED' },
  isGroup: false,
  chatbot: false,
  lastMessage: `Mensaje de ${name}`,
  lastContactMessage: `Mensaje de ${name}`,
  unreadMessages: 0,
  useIntegration: false,
  promptId: null,
  integrationId: null,
  tags: [],
  slaDueAt: null,
  slaKind: null,
  version: 0,
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: `2025-03-01T10:0${id}:00.000Z`,
  ...overrides,
});
const tagOf = ({ id, name, color }: TagOption) => ({ id, name, color });

const maria = makeTicket(1, 'María López');
const lucia = makeTicket(2, 'Lucía Gómez', { tags: [tagOf(urgent)] });
// A plain (non-kanban) tag leaves the ticket in the 'open' lane.
const raul = makeTicket(3, 'Raúl Díaz', {
  tags: [{ id: 99, name: 'VIP', color: '#888888' }],
  lastMessage: '*Pedido:* _listo_',
});

const boardRoutes = (tickets: TicketView[]) => ({
  'GET /tags/kanban': () => jsonResponse(200, { lista: [followUp, urgent] }),
  'GET /ticket/kanban': () => jsonResponse(200, { tickets }),
});

const lane = (key: number | 'open') => screen.getByTestId(`kanban-lane-${key}`);
const namesIn = (key: number | 'open') =>
  within(lane(key))
    .queryAllByRole('article')
    .map((card) => card.getAttribute('aria-label'));
// Delivers a server event inside act, which also runs TanStack Query's batched notifications (a
// microtask in tests, see test/setup.ts) so that the screen shows the result.
const receive = (event: TicketEvent) =>
  act(async () => {
    (getSocket() as unknown as FakeSocket).receive('company-1-ticket', event);
  });

describe('kanban page', () => {
  it('shows the open lane, then one lane per kanban tag in its colour, each with its tickets', async () => {
    const fetchMock = stubApi(boardRoutes([maria, lucia, raul]));
    renderPage(<KanbanPage />, '/kanban', makeAuth());

    expect(await screen.findByText('Lucía Gómez')).toBeTruthy();
    const lanes = screen
      .getAllByTestId(/^kanban-lane-(open|\d+)$/)
      .map((region) => region.getAttribute('aria-label'));
    expect(lanes).toEqual(['Abierto', 'Seguimiento', 'Urgente']);
    const header = within(lane(7)).getByTestId('kanban-lane-header');
    expect(getComputedStyle(header).backgroundColor).toBe('rgb(255, 0, 0)');
    expect(
      getComputedStyle(within(lane(8)).getByTestId('kanban-lane-header')).backgroundColor,
    ).toBe('rgb(0, 0, 255)');

    expect(namesIn('open')).toEqual(['María López', 'Raúl Díaz']);
    expect(namesIn(7)).toEqual(['Lucía Gómez']);
    expect(namesIn(8)).toEqual([]);
    expect(within(lane('open')).getByLabelText('2 tickets')).toBeTruthy();
    expect(within(lane(8)).getByText('Sin tickets')).toBeTruthy();
    expect(screen.queryByText(/Las columnas del tablero son las etiquetas/)).toBeNull();

    const card = screen.getByTestId('kanban-card-2');
    expect(within(card).getByText('549110000002')).toBeTruthy();
    expect(within(card).getByText('Mensaje de Lucía Gómez')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Ver ticket' }).getAttribute('href')).toBe(
      `/tickets/${lucia.uuid}`,
    );
    // The one-line preview shows the words without WhatsApp's marks.
    expect(within(screen.getByTestId('kanban-card-3')).getByText('Pedido: listo')).toBeTruthy();
    // An admin's board asks for every ticket.
    expect(callsOf(fetchMock)).toContain('GET /ticket/kanban?showAll=true');
  });

  it('says where its columns come from while no tag is on the board', async () => {
    stubApi({
      'GET /tags/kanban': () => jsonResponse(200, { lista: [] }),
      'GET /ticket/kanban': () => jsonResponse(200, { tickets: [maria] }),
    });
    renderPage(<KanbanPage />, '/kanban', makeAuth());
    expect(
      await screen.findByText(/Las columnas del tablero son las etiquetas con Kanban activado/),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir a Etiquetas' }).getAttribute('href')).toBe('/tags');
  });

  it('asks only for a user’s own queues', async () => {
    const fetchMock = stubApi(boardRoutes([maria]));
    renderPage(
      <KanbanPage />,
      '/kanban',
      makeAuth({
        user: {
          profile: 'user',
          queues: [
            { id: 1, name: 'Ventas', color: '#2e7d32' },
            { id: 4, name: 'Soporte', color: '#1565c0' },
          ],
        },
      }),
    );
    await screen.findByText('María López');
    expect(callsOf(fetchMock)).toContain(
      `GET /ticket/kanban?queueIds=${encodeURIComponent('[1,4]')}`,
    );
  });

  it('moves a card through "Mover a…": takes the tags off, adds the lane’s, in that order', async () => {
    const calls: string[] = [];
    let addTag = () => undefined as void;
    const tagAdded = new Promise<void>((resolve) => (addTag = resolve));
    stubApi({
      ...boardRoutes([maria, lucia]),
      'DELETE /ticket-tags/1': () => {
        calls.push('DELETE /ticket-tags/1');
        return new Response(null, { status: 204 });
      },
      'PUT /ticket-tags/1/8': async () => {
        calls.push('PUT /ticket-tags/1/8');
        await tagAdded;
        return jsonResponse(200, { ...maria, tags: [tagOf(followUp)] });
      },
      'DELETE /ticket-tags/2': () => {
        calls.push('DELETE /ticket-tags/2');
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<KanbanPage />, '/kanban', makeAuth());
    await screen.findByText('María López');

    await user.click(
      within(screen.getByTestId('kanban-card-1')).getByRole('button', { name: 'Mover a…' }),
    );
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Seguimiento', 'Urgente']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Seguimiento' }));
    // At once, before the server answers.
    expect(namesIn(8)).toEqual(['María López']);
    expect(namesIn('open')).toEqual([]);
    await waitFor(() => expect(calls).toEqual(['DELETE /ticket-tags/1', 'PUT /ticket-tags/1/8']));
    // The echo of the first call (no tags yet) does not send the card back to 'open'.
    await receive({ action: 'update', ticket: { ...maria, tags: [], lastMessage: 'Gracias' } });
    expect(namesIn(8)).toEqual(['María López']);
    expect(within(screen.getByTestId('kanban-card-1')).getByText('Gracias')).toBeTruthy();
    await act(async () => addTag());
    await waitFor(() =>
      expect(
        within(screen.getByTestId('kanban-card-1')).getByRole('button', { name: 'Mover a…' }),
      ).toHaveProperty('disabled', false),
    );
    expect(namesIn(8)).toEqual(['María López']);

    // Back to 'open': only the tags come off.
    await user.click(
      within(screen.getByTestId('kanban-card-2')).getByRole('button', { name: 'Mover a…' }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Abierto' }));
    await waitFor(() => expect(namesIn('open')).toEqual(['Lucía Gómez']));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2]).toBe('DELETE /ticket-tags/2');
    expect(namesIn(7)).toEqual([]);
  });

  it('leaves a card where the server holds it when only adding the new tag fails', async () => {
    stubApi({
      ...boardRoutes([lucia]),
      'DELETE /ticket-tags/2': () => new Response(null, { status: 204 }),
      'PUT /ticket-tags/2/8': () =>
        jsonResponse(404, { error: 'ERR_NOT_FOUND', message: 'Tag not found' }),
    });
    const user = setupUser();
    renderPage(<KanbanPage />, '/kanban', makeAuth());
    await screen.findByText('Lucía Gómez');

    await user.click(
      within(screen.getByTestId('kanban-card-2')).getByRole('button', { name: 'Mover a…' }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Seguimiento' }));
    expect(await screen.findByText('No se encontró el registro.')).toBeTruthy();
    await waitFor(() => expect(namesIn('open')).toEqual(['Lucía Gómez']));
    expect(namesIn(7)).toEqual([]);
    expect(namesIn(8)).toEqual([]);
  });

  it('puts a card back and says why when the move fails', async () => {
    stubApi({
      ...boardRoutes([lucia]),
      'DELETE /ticket-tags/2': () =>
        jsonResponse(403, { error: 'ERR_NO_PERMISSION', message: 'Not your queue' }),
    });
    const user = setupUser();
    renderPage(<KanbanPage />, '/kanban', makeAuth());
    await screen.findByText('Lucía Gómez');

    await user.click(
      within(screen.getByTestId('kanban-card-2')).getByRole('button', { name: 'Mover a…' }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Seguimiento' }));
    expect(await screen.findByText('No tiene permiso para acceder a este recurso.')).toBeTruthy();
    await waitFor(() => expect(namesIn(7)).toEqual(['Lucía Gómez']));
    expect(namesIn(8)).toEqual([]);
  });

  it('follows live updates: a retagged card changes lane, a new one appears, a closed one leaves', async () => {
    stubApi(boardRoutes([maria, lucia]));
    renderPage(<KanbanPage />, '/kanban', makeAuth());
    await screen.findByText('María López');
    const socket = getSocket() as unknown as FakeSocket;
    await act(async () => socket.receive('connect'));
    expect(socket.emitted).toEqual(
      expect.arrayContaining([
        ['joinTickets', 'open'],
        ['joinTickets', 'pending'],
      ]),
    );

    await receive({ action: 'update', ticket: { ...maria, tags: [tagOf(urgent)] } });
    expect(namesIn('open')).toEqual([]);
    expect(namesIn(7)).toEqual(['Lucía Gómez', 'María López']);

    await receive({
      action: 'update',
      ticket: makeTicket(5, 'Nuevo Cliente', { updatedAt: '2025-03-01T11:00:00.000Z' }),
    });
    expect(namesIn('open')).toEqual(['Nuevo Cliente']);

    await receive({ action: 'update', ticket: { ...lucia, status: 'closed' } });
    expect(namesIn(7)).toEqual(['María López']);
    await receive({ action: 'delete', ticketId: 5 });
    expect(namesIn('open')).toEqual([]);
    expect(screen.queryByTestId('kanban-card-5')).toBeNull();
  });
});
