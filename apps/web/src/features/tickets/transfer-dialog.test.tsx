import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TicketView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser, type User } from '../../test/user-event';
import { bodyOf, listOf, makeTicket, messagesOf } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;

const carlos = {
  id: 5,
  name: 'Carlos Pérez',
  online: true,
  presence: 'online',
  queues: [{ id: 2, name: 'Soporte', color: '#1565c0' }],
};
const beatriz = { id: 6, name: 'Beatriz Carmona', online: false, presence: 'offline', queues: [] };

// The open chat of `ticket`, the dialog's lists, and every PUT /tickets/7 body.
const stubTransfer = () => {
  const puts: Record<string, unknown>[] = [];
  const fetchMock = stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    'GET /messages/7': () => messagesOf(ticket, []),
    'GET /queue': () =>
      jsonResponse(200, [
        { id: 1, name: 'Ventas', color: '#2e7d32' },
        { id: 2, name: 'Soporte', color: '#1565c0' },
        { id: 3, name: 'Cobranza', color: '#6a1b9a' },
      ]),
    'GET /whatsapp': () =>
      jsonResponse(200, [
        { id: 1, name: 'Línea principal' },
        { id: 2, name: 'Línea de soporte' },
      ]),
    'GET /users': () => jsonResponse(200, { users: [carlos], hasMore: false, count: 1 }),
    // What everyone else picks from (GET /users is for those who manage users).
    'GET /users/list': () =>
      jsonResponse(200, [
        { ...carlos, email: 'carlos@example.com', profile: 'user', presence: 'away' },
        { ...beatriz, email: 'beatriz@example.com', profile: 'user' },
      ]),
    'PUT /tickets/7': (init) => {
      const body = bodyOf(init);
      puts.push(body);
      const updated: TicketView = {
        ...ticket,
        status: body.status as TicketView['status'],
        userId: (body.userId as number | null) ?? null,
        user: body.userId ? { id: 5, name: 'Carlos Pérez' } : null,
      };
      return jsonResponse(200, updated);
    },
  });
  return { fetchMock, puts };
};

const openTransfer = async (user: User) => {
  await screen.findByText('Resolver');
  await user.click(screen.getByRole('button', { name: 'Transferir' }));
  return screen.findByRole('dialog');
};

describe('transfer dialog', () => {
  it('hands the ticket to a searched user, in one of their queues, then goes to the list', async () => {
    const { fetchMock, puts } = stubTransfer();
    // The search's debounce is the subject: its time is faked.
    const user = setupUserOnFakeClock();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    const dialog = await openTransfer(user);
    const field = within(dialog).getByRole('combobox', { name: 'Usuario' });
    await user.type(field, 'Ca');
    // Past the 500 ms debounce, two characters still ask nothing.
    await advanceClock(SEARCH_DEBOUNCE_MS);
    expect(callsOf(fetchMock).filter((call) => call.startsWith('GET /users'))).toEqual([]);
    await user.type(field, 'r');
    await user.click(await screen.findByRole('option', { name: 'Carlos Pérez' }));
    expect(callsOf(fetchMock)).toContain('GET /users?searchParam=Car&pageNumber=1');

    // Carlos serves Soporte only: his one queue replaces Ventas, and it is all there is to choose.
    await user.click(within(dialog).getByRole('combobox', { name: 'Cola' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Sin cola', 'Soporte']);
    await user.click(screen.getByRole('option', { name: 'Soporte' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Conexión' }));
    await user.click(await screen.findByRole('option', { name: 'Línea de soporte' }));

    await user.click(within(dialog).getByRole('button', { name: 'Transferir' }));
    expect(await screen.findByText('Ticket transferido.')).toBeTruthy();
    expect(puts).toEqual([{ userId: 5, queueId: 2, whatsappId: 2, status: 'open' }]);
    expect(await screen.findByText('Seleccione un ticket para comenzar a conversar.')).toBeTruthy();
  });

  it('sends the ticket back to waiting when no user is chosen', async () => {
    const { puts } = stubTransfer();
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    const dialog = await openTransfer(user);
    // Beside the list, a card over the chat.
    expect(dialog.className).not.toContain('MuiDialog-paperFullScreen');
    await user.click(within(dialog).getByRole('combobox', { name: 'Cola' }));
    await user.click(await screen.findByRole('option', { name: 'Cobranza' }));
    await user.click(within(dialog).getByRole('button', { name: 'Transferir' }));

    await waitFor(() =>
      expect(puts).toEqual([{ userId: null, queueId: 3, whatsappId: 1, status: 'pending' }]),
    );
    expect(await screen.findByText('Seleccione un ticket para comenzar a conversar.')).toBeTruthy();
  });

  it('on a phone, opens from the sheet of more actions and takes the whole screen', async () => {
    window.innerWidth = 390;
    const { puts } = stubTransfer();
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    // The header keeps its main action; the rest open in a sheet at the bottom, near the thumb.
    await screen.findByRole('button', { name: 'Resolver' });
    await user.click(screen.getByRole('button', { name: 'Más acciones' }));
    const menu = await screen.findByRole('menu', { name: 'Más acciones' });
    expect(menu.closest('.MuiDrawer-anchorBottom')).not.toBeNull();
    await user.click(within(menu).getByRole('menuitem', { name: 'Transferir' }));

    const dialog = await screen.findByRole('dialog');
    expect(dialog.className).toContain('MuiDialog-paperFullScreen');
    await user.click(within(dialog).getByRole('combobox', { name: 'Cola' }));
    await user.click(await screen.findByRole('option', { name: 'Soporte' }));
    await user.click(within(dialog).getByRole('button', { name: 'Transferir' }));
    await waitFor(() =>
      expect(puts).toEqual([{ userId: null, queueId: 2, whatsappId: 1, status: 'pending' }]),
    );
  });

  it("shows each person's presence beside their name, live", async () => {
    stubTransfer();
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    const dialog = await openTransfer(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Usuario' }), 'Car');
    const option = await screen.findByRole('option', { name: 'Carlos Pérez' });
    expect(screen.getByRole('option', { name: 'Carlos Pérez', description: 'En línea' })).toBe(
      option,
    );
    expect(within(option).getByText('En línea')).toBeTruthy();
    expect(option.querySelector('[data-presence]')?.getAttribute('data-presence')).toBe('online');

    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-presence', {
        action: 'update',
        userId: 5,
        presence: 'away',
        availability: 'away',
      });
    });
    expect(
      await screen.findByRole('option', { name: 'Carlos Pérez', description: 'Ausente' }),
    ).toBeTruthy();
    const shown = screen.getByRole('option', { name: 'Carlos Pérez' });
    expect(shown.querySelector('[data-presence]')?.getAttribute('data-presence')).toBe('away');
  });

  it('shows the presence of the short list to an agent, live', async () => {
    const { fetchMock } = stubTransfer();
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth({ user: { profile: 'user' } }), {
      route: '/tickets/:ticketId?',
    });

    const dialog = await openTransfer(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Usuario' }), 'Car');
    expect(
      await screen.findByRole('option', { name: 'Carlos Pérez', description: 'Ausente' }),
    ).toBeTruthy();
    expect(
      screen.getByRole('option', { name: 'Beatriz Carmona', description: 'Desconectado' }),
    ).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('GET /users/list');

    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-presence', {
        action: 'update',
        userId: 6,
        presence: 'online',
        availability: 'online',
      });
    });
    expect(
      await screen.findByRole('option', { name: 'Beatriz Carmona', description: 'En línea' }),
    ).toBeTruthy();
    expect(
      screen.getByRole('option', { name: 'Carlos Pérez', description: 'Ausente' }),
    ).toBeTruthy();
  });
});
