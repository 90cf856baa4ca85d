import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsOf, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { listOf, makeContact, makeMessage, makeTicket, messagesOf } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const waiting = makeTicket({
  id: 3,
  status: 'pending',
  userId: null,
  user: null,
  contact: makeContact({ id: 3, name: 'Lucía Gómez' }),
});

const stubWaiting = () =>
  stubApi({
    'GET /tickets': ({ url }) =>
      listOf(url.searchParams.get('status') === 'pending' ? [waiting] : []),
    'GET /messages/3': () =>
      messagesOf(waiting, [
        makeMessage({ id: 1, ticketId: 3, body: '¿Hay alguien?' }),
        makeMessage({ id: 2, ticketId: 3, body: 'Gracias, espero', fromMe: true, ack: 3 }),
      ]),
  });

describe('ticket peek', () => {
  it('lets an admin read a waiting ticket’s messages without accepting it', async () => {
    const fetchMock = stubWaiting();
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    await user.click(await screen.findByRole('tab', { name: /^En espera/ }));
    const row = (await screen.findByText('Lucía Gómez')).closest('li')!;
    await user.click(within(row).getByRole('button', { name: 'Ver mensajes' }));

    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('¿Hay alguien?')).toBeTruthy();
    expect(within(dialog).getByText('Gracias, espero')).toBeTruthy();
    expect(within(dialog).getByText('Solo lectura: el ticket sigue en espera.')).toBeTruthy();
    // Read-only: no composer, no message menu.
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Opciones del mensaje' })).toBeNull();
    expect(callsOf(fetchMock).some((call) => call.startsWith('PUT'))).toBe(false);
    // A look, not a read: the ticket keeps its unread badge.
    expect(callsOf(fetchMock)).toContain('GET /messages/3?pageNumber=1&markRead=false');

    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(row).getByRole('button', { name: 'Aceptar' })).toBeTruthy();
  });

  it('is not offered to agents', async () => {
    stubWaiting();
    const user = setupUser();
    renderPage(<TicketsPage />, '/tickets', makeAuth({ user: { profile: 'user' } }), {
      route: '/tickets/:ticketId?',
    });

    await user.click(await screen.findByRole('tab', { name: /^En espera/ }));
    const row = (await screen.findByText('Lucía Gómez')).closest('li')!;
    expect(within(row).getByRole('button', { name: 'Aceptar' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Ver mensajes' })).toBeNull();
  });
});
