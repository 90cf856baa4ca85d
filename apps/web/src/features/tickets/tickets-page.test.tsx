import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TicketView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { formatDate } from '../../lib/dates';
import type { FakeSocket } from '../../test/fake-socket';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import {
  dayAt,
  listOf,
  makeContact,
  makeTicket,
  messagesOf,
  receiveTicket,
  todayAt,
} from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const withContact = (id: number, name: string, overrides: Partial<TicketView> = {}) =>
  makeTicket({ id, contact: makeContact({ id, name }), ...overrides });

const waiting = { status: 'pending', userId: null, user: null } as const;

// GET /tickets answered per status; every request's query is kept to check.
const stubInbox = (
  lists: Partial<Record<string, () => Response>>,
  routes: Parameters<typeof stubApi>[0] = {},
) => {
  const queries: Record<string, string>[] = [];
  const fetchMock = stubApi({
    'GET /tickets': ({ url }) => {
      queries.push(Object.fromEntries(url.searchParams));
      return lists[url.searchParams.get('status') ?? 'all']?.() ?? listOf([]);
    },
    ...routes,
  });
  return { fetchMock, queries };
};

const rowOf = async (list: HTMLElement, name: string) =>
  (await within(list).findByText(name)).closest('li')!;

const namesIn = (list: HTMLElement) =>
  within(list)
    .queryAllByRole('listitem')
    .map((item) => item.querySelector('p')?.textContent);

describe('tickets page', () => {
  it('lists the tickets being served and waiting with their counts, and the resolved ones', async () => {
    const { queries } = stubInbox({
      open: () =>
        listOf([
          withContact(1, 'María López', { unreadMessages: 2 }),
          withContact(2, 'Pedro Ruiz', {
            updatedAt: dayAt(1, 10),
            queue: null,
            queueId: null,
            lastMessage: '*Pedro Ruiz:*\nEl _pedido_ ~12~ llegó',
          }),
        ]),
      pending: () => listOf([withContact(3, 'Lucía Gómez', waiting)], true),
      closed: () => listOf([withContact(4, 'Raúl Díaz', { status: 'closed' })]),
    });
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    // Waiting by text is cheap; role queries walk the whole shell on every retry.
    await screen.findByText('María López');
    const open = screen.getByRole('list', { name: 'Atendiendo' });
    const maria = await rowOf(open, 'María López');
    expect(within(maria).getByText('Hola, ¿tienen envíos?')).toBeTruthy();
    expect(within(maria).getByText('09:05')).toBeTruthy();
    expect(within(maria).getByTitle('2 mensajes sin leer').textContent).toBe('2');
    expect(within(maria).getByText('Ventas')).toBeTruthy();
    expect(within(maria).getByText('Línea principal')).toBeTruthy();
    const pedro = await rowOf(open, 'Pedro Ruiz');
    expect(within(pedro).getByText('Sin cola')).toBeTruthy();
    // The preview drops WhatsApp's marks (the chat draws them).
    expect(
      within(pedro).getByText('Pedro Ruiz: El pedido 12 llegó', {
        normalizer: (text) => text.replace(/\s+/g, ' '),
      }),
    ).toBeTruthy();
    expect(within(pedro).getByText(formatDate(dayAt(1, 10)))).toBeTruthy();

    const servingTab = screen.getByRole('tab', { name: /^Atendiendo/ });
    const waitingTab = screen.getByRole('tab', { name: /^En espera/ });
    expect(within(servingTab).getByText('2')).toBeTruthy();
    expect(await within(waitingTab).findByText('1+')).toBeTruthy();
    // SPEC §6: the show-all switch starts on for admins.
    expect(screen.getByRole('switch', { name: 'Ver todos' })).toHaveProperty('checked', true);
    expect(queries.find((query) => query.status === 'open')).toMatchObject({
      showAll: 'true',
      pageNumber: '1',
    });

    await user.click(screen.getByRole('tab', { name: 'Resueltos' }));
    const closed = await screen.findByRole('list', { name: 'Resueltos' });
    expect(await within(closed).findByText('Raúl Díaz')).toBeTruthy();
    expect(queries.find((query) => query.status === 'closed')).toMatchObject({ showAll: 'true' });
  });

  it('opens on the waiting list when conversations wait and the agent serves none', async () => {
    stubInbox({ pending: () => listOf([withContact(3, 'Lucía Gómez', waiting)]) });
    const view = renderPage(<TicketsPage />, '/tickets', makeAuth(), {
      route: '/tickets/:ticketId?',
    });
    const pending = await screen.findByRole('list', { name: 'En espera' });
    expect(await within(pending).findByText('Lucía Gómez')).toBeTruthy();
    expect(screen.getByRole('tab', { name: /^En espera/ })).toHaveProperty('ariaSelected', 'true');
    view.unmount();

    // Serving someone: the inbox opens on them, even with others waiting.
    stubInbox({
      open: () => listOf([withContact(1, 'María López')]),
      pending: () => listOf([withContact(3, 'Lucía Gómez', waiting)]),
    });
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });
    expect(
      await within(await screen.findByRole('list', { name: 'Atendiendo' })).findByText(
        'María López',
      ),
    ).toBeTruthy();
    expect(
      await within(screen.getByRole('tab', { name: /^En espera/ })).findByText('1'),
    ).toBeTruthy();
    expect(screen.getByRole('tab', { name: /^Atendiendo/ })).toHaveProperty('ariaSelected', 'true');
  });

  it('marks the waiting conversations a bot is answering', async () => {
    stubInbox({
      pending: () =>
        listOf([
          withContact(5, 'Flujo Typebot', { ...waiting, useIntegration: true, integrationId: 3 }),
          withContact(6, 'Agente IA', { ...waiting, promptId: 2 }),
          withContact(7, 'Para una persona', { ...waiting, useIntegration: false }),
        ]),
    });
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });
    await user.click(await screen.findByRole('tab', { name: /^En espera/ }));
    const list = await screen.findByRole('list', { name: 'En espera' });
    const bot = 'Un bot (integración o agente de IA) atiende esta conversación';
    expect(within(await rowOf(list, 'Flujo Typebot')).queryByLabelText(bot)).toBeTruthy();
    expect(within(await rowOf(list, 'Agente IA')).queryByLabelText(bot)).toBeTruthy();
    expect(within(await rowOf(list, 'Para una persona')).queryByLabelText(bot)).toBeNull();
  });

  it('applies live ticket updates: new at the top, moved between lists, deleted away', async () => {
    stubInbox({
      open: () => listOf([withContact(1, 'María López')]),
      pending: () => listOf([withContact(2, 'Lucía Gómez', waiting)]),
    });
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });
    await screen.findByText('María López');
    const open = screen.getByRole('list', { name: 'Atendiendo' });

    const socket = getSocket() as unknown as FakeSocket;
    await act(async () => socket.receive('connect'));
    expect(socket.emitted).toEqual(
      expect.arrayContaining([
        ['joinTickets', 'open'],
        ['joinTickets', 'pending'],
        ['joinTickets', 'closed'],
        ['joinNotification'],
      ]),
    );

    await receiveTicket({
      action: 'update',
      ticket: withContact(3, 'Nuevo Cliente', { updatedAt: todayAt(9, 30) }),
    });
    expect(namesIn(open)).toEqual(['Nuevo Cliente', 'María López']);

    // Someone accepted Lucía's ticket: it leaves the waiting list and tops the served one.
    await receiveTicket({
      action: 'update',
      ticket: withContact(2, 'Lucía Gómez', { userId: 5, updatedAt: todayAt(9, 45) }),
    });
    expect(namesIn(open)).toEqual(['Lucía Gómez', 'Nuevo Cliente', 'María López']);
    expect(within(screen.getByRole('tab', { name: /^Atendiendo/ })).getByText('3')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'En espera' })).toBeTruthy();

    await receiveTicket({ action: 'delete', ticketId: 1 });
    expect(namesIn(open)).toEqual(['Lucía Gómez', 'Nuevo Cliente']);
  });

  it('shows each conversation’s SLA time left or breached, and sorts by urgency on request', async () => {
    const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    const late = withContact(1, 'María López', {
      slaDueAt: inMinutes(-3),
      slaKind: 'firstResponse',
      updatedAt: todayAt(8),
    });
    const soon = withContact(2, 'Lucía Gómez', {
      slaDueAt: inMinutes(12.5),
      slaKind: 'resolution',
      updatedAt: todayAt(9),
    });
    const { queries } = stubInbox({
      open: () => listOf([soon, late]),
    });
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });
    const open = screen.getByRole('list', { name: 'Atendiendo' });
    const lucia = await rowOf(open, 'Lucía Gómez');
    expect(within(lucia).getByLabelText('Resolución: 12 min')).toBeTruthy();
    const maria = await rowOf(open, 'María López');
    expect(within(maria).getByLabelText('Primera respuesta: Vencido hace 3 min')).toBeTruthy();

    const sort = screen.getByRole('button', { name: 'Más urgentes primero' });
    expect(sort.getAttribute('aria-pressed')).toBe('false');
    await user.click(sort);
    await waitFor(() =>
      expect(queries.some((q) => q.status === 'open' && q.sortBy === 'urgency')).toBe(true),
    );
    expect(sort.getAttribute('aria-pressed')).toBe('true');
    // Live: a conversation due sooner goes above one due later, whatever its recency.
    await receiveTicket({
      action: 'update',
      ticket: withContact(3, 'Nuevo Cliente', {
        slaDueAt: inMinutes(5),
        slaKind: 'firstResponse',
        updatedAt: todayAt(7),
      }),
    });
    await waitFor(() =>
      expect(namesIn(open)).toEqual(['Nuevo Cliente', 'Lucía Gómez', 'María López']),
    );
  });

  it('loads the lists again once the rooms are joined, so a ticket that arrived before is shown', async () => {
    let waitingNow = [withContact(2, 'Lucía Gómez', waiting)];
    stubInbox({ pending: () => listOf(waitingNow) });
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });
    await setupUser().click(await screen.findByRole('tab', { name: /En espera/ }));
    const pending = await screen.findByRole('list', { name: 'En espera' });
    await within(pending).findByText('Lucía Gómez');

    // A contact wrote between the first load and the join: no event reached this page.
    waitingNow = [withContact(4, 'Pedro Sanz', waiting), ...waitingNow];
    const socket = getSocket() as unknown as FakeSocket;
    await act(async () => socket.receive('connect'));
    expect(within(pending).queryByText('Pedro Sanz')).toBeNull();
    await act(async () => socket.acknowledge());
    expect(await within(pending).findByText('Pedro Sanz')).toBeTruthy();
  });

  it('accepts a waiting ticket instead of opening it, then shows its chat', async () => {
    const lucia = withContact(2, 'Lucía Gómez', waiting);
    const accepted: TicketView = {
      ...lucia,
      status: 'open',
      userId: 1,
      user: { id: 1, name: 'Ana' },
    };
    const puts: unknown[] = [];
    stubInbox(
      { pending: () => listOf([lucia]) },
      {
        'PUT /tickets/2': (init) => {
          puts.push(JSON.parse(String(init.body)));
          return jsonResponse(200, accepted);
        },
        [`GET /tickets/u/${lucia.uuid}`]: () => jsonResponse(200, accepted),
        'GET /messages/2': () => messagesOf(accepted, []),
      },
    );
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    await user.click(await screen.findByRole('tab', { name: /^En espera/ }));
    const pending = await screen.findByRole('list', { name: 'En espera' });
    const row = await rowOf(pending, 'Lucía Gómez');
    await user.click(within(row).getByText('Lucía Gómez'));
    expect(screen.getByText('Seleccione un ticket para comenzar a conversar.')).toBeTruthy();

    await user.click(within(row).getByRole('button', { name: 'Aceptar' }));
    // Waiting by text is cheap; role queries walk the whole shell on every retry.
    await screen.findByText('Resolver');
    expect(screen.getByRole('button', { name: 'Resolver' })).toBeTruthy();
    expect(puts).toEqual([{ status: 'open' }]);
    expect(screen.getByRole('heading', { level: 2, name: 'Lucía Gómez' })).toBeTruthy();
    const served = screen.getByRole('list', { name: 'Atendiendo' });
    expect(namesIn(served)).toEqual(['Lucía Gómez']);
  });

  it('searches every status with the lowercased text, and an emptied search returns to the open tab', async () => {
    const { queries } = stubInbox({
      all: () => listOf([withContact(4, 'Raúl Díaz', { status: 'closed' })]),
    });
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth({ user: { profile: 'user', queues: [] } }), {
      route: '/tickets/:ticketId?',
    });

    await screen.findByText('No está atendiendo ningún ticket.');
    expect(screen.queryByRole('switch', { name: 'Ver todos' })).toBeNull();
    expect(queries.find((query) => query.status === 'open')).toMatchObject({ showAll: 'false' });

    await user.click(screen.getByRole('tab', { name: 'Búsqueda' }));
    const field = screen.getByRole('searchbox', { name: 'Buscar tickets' });
    await user.type(field, 'RAÚL');
    await screen.findByText('Raúl Díaz');
    const found = screen.getByRole('list', { name: 'Resultados de la búsqueda' });
    expect(within(found).getByText('Raúl Díaz')).toBeTruthy();
    const searches = queries.filter((query) => query.searchParam);
    expect(searches).toEqual([{ searchParam: 'raúl', showAll: 'true', pageNumber: '1' }]);

    await user.clear(field);
    await screen.findByText('No está atendiendo ningún ticket.');
    expect(screen.getByRole('tab', { name: 'Abiertos', selected: true })).toBeTruthy();
  });

  it('filters the search by tags and, for admins, by users, with or without text', async () => {
    const vip = { id: 7, name: 'VIP', color: '#d32f2f', kanban: 0 };
    const tagged = withContact(5, 'Sofía Vera', { status: 'closed', tags: [vip] });
    const { queries } = stubInbox(
      { all: () => listOf([tagged]) },
      {
        'GET /tags/list': () => jsonResponse(200, [vip]),
        'GET /users/list': () => jsonResponse(200, [{ id: 5, name: 'Carlos' }]),
      },
    );
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });
    await user.click(await screen.findByRole('tab', { name: 'Búsqueda' }));

    await user.click(screen.getByRole('combobox', { name: 'Etiquetas' }));
    await user.click(await screen.findByRole('option', { name: 'VIP' }));
    const found = await screen.findByRole('list', { name: 'Resultados de la búsqueda' });
    expect(await within(found).findByText('Sofía Vera')).toBeTruthy();
    expect(queries.at(-1)).toMatchObject({ tags: '[7]', showAll: 'true' });
    expect(queries.at(-1)?.searchParam ?? '').toBe('');

    await user.click(screen.getByRole('combobox', { name: 'Usuarios' }));
    await user.click(await screen.findByRole('option', { name: 'Carlos' }));
    await waitFor(() => expect(queries.at(-1)).toMatchObject({ tags: '[7]', users: '[5]' }));
  });

  it('closes an open ticket from the list, ending its bots and AI', async () => {
    const maria = withContact(1, 'María López', { useIntegration: true, integrationId: 4 });
    const puts: unknown[] = [];
    stubInbox(
      { open: () => listOf([maria, withContact(2, 'Pedro Ruiz')]) },
      {
        'PUT /tickets/1': (init) => {
          puts.push(JSON.parse(String(init.body)));
          return jsonResponse(200, {
            ...maria,
            status: 'closed',
            useIntegration: false,
            integrationId: null,
          });
        },
      },
    );
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    const open = screen.getByRole('list', { name: 'Atendiendo' });
    const row = await rowOf(open, 'María López');
    await user.click(within(row).getByRole('button', { name: 'Cerrar ticket' }));
    await waitFor(() => expect(namesIn(open)).toEqual(['Pedro Ruiz']));
    expect(puts).toEqual([
      { status: 'closed', useIntegration: false, promptId: null, integrationId: null },
    ]);
    // Closing from the list does not open the chat.
    expect(screen.getByText('Seleccione un ticket para comenzar a conversar.')).toBeTruthy();
  });

  it('shows the list or the chat on a narrow screen, with a way back', async () => {
    window.innerWidth = 400;
    const maria = withContact(1, 'María López');
    stubInbox(
      { open: () => listOf([maria]) },
      {
        [`GET /tickets/u/${maria.uuid}`]: () => jsonResponse(200, maria),
        'GET /messages/1': () => messagesOf(maria, []),
      },
    );
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    await user.click(await screen.findByText('María López'));
    expect(screen.queryByText('Seleccione un ticket para comenzar a conversar.')).toBeNull();

    await screen.findByText('María López');
    expect(screen.getByRole('heading', { level: 2, name: 'María López' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Atendiendo' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Volver a la lista' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Atendiendo' })).toBeTruthy());
    expect(screen.queryByRole('heading', { level: 2 })).toBeNull();
  });
});
