import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessageView } from '@atendi/shared';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser, type User } from '../../test/user-event';
import {
  bodyOf,
  listOf,
  makeContact,
  makeMessage,
  makeTicket,
  messagesOf,
  todayAt,
} from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;

const lucia = { id: 12, name: 'Lucía Gómez', number: '5215500001111' };
const target = makeTicket({ id: 30, contactId: 12, contact: makeContact({ ...lucia }) });

const chat = [
  makeMessage({ id: 1, ticketId: 7, body: 'Mi pedido es el A-12', createdAt: todayAt(9, 0) }),
  makeMessage({
    id: 2,
    ticketId: 7,
    body: 'Borrado',
    fromMe: true,
    ack: 3,
    isDeleted: true,
    createdAt: todayAt(9, 1),
  }),
  makeMessage({ id: 3, ticketId: 7, body: 'Llega el martes', createdAt: todayAt(9, 2) }),
];

// The chat, the contact search and the target's conversation; every POST /messages/forward body is
// kept. The forwarded copies are new messages of the target ticket, marked forwarded.
const stubForward = (answer?: () => Response) => {
  const posted: Record<string, unknown>[] = [];
  let forwarded: ChatMessageView[] = [];
  stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    [`GET /messages/${ticket.id}`]: () => messagesOf(ticket, chat),
    'GET /contacts': () => jsonResponse(200, { contacts: [lucia], hasMore: false, count: 1 }),
    'POST /messages/forward': (init) => {
      const body = bodyOf(init);
      posted.push(body);
      if (answer) return answer();
      forwarded = (body.messageIds as number[]).map((id, index) => ({
        ...chat.find((message) => message.id === id)!,
        id: 100 + index,
        ticketId: target.id,
        fromMe: true,
        ack: 2,
        isForwarded: true,
        createdAt: todayAt(10, index),
      }));
      return jsonResponse(201, { ticket: target, messages: forwarded });
    },
    [`GET /tickets/u/${target.uuid}`]: () => jsonResponse(200, target),
    [`GET /messages/${target.id}`]: () => messagesOf(target, forwarded),
  });
  return posted;
};

const bubble = (id: number) => screen.getByTestId(`message-${id}`);
const checkboxOf = (id: number) =>
  within(bubble(id)).getByRole('checkbox', { name: 'Seleccionar este mensaje' });

// Forward from the menu of one message, which starts the selection with it.
const startForward = async (user: User, id: number) => {
  await user.click(within(bubble(id)).getByRole('button', { name: 'Opciones del mensaje' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Reenviar' }));
  return screen.findByRole('region', { name: 'Reenviar mensajes' });
};

const forwardTo = async (user: User, bar: HTMLElement) => {
  await user.click(within(bar).getByRole('button', { name: 'Reenviar a…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reenviar 2 mensajes' });
  await user.type(within(dialog).getByRole('combobox', { name: 'Contacto' }), 'Luc');
  await user.click(await screen.findByRole('option', { name: /Lucía Gómez/ }));
  await user.click(within(dialog).getByRole('button', { name: 'Reenviar' }));
  return dialog;
};

describe('forwarding messages', () => {
  it('forwards the checked messages in the chat’s order and opens the conversation they went to', async () => {
    const posted = stubForward();
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Llega el martes');
    // Started on the newer message; the older one checked after it.
    const bar = await startForward(user, 3);
    expect(within(bar).getByRole('status').textContent).toBe('1 mensaje seleccionado');
    expect(checkboxOf(3)).toHaveProperty('checked', true);
    // The composer waits while messages are chosen.
    expect(screen.queryByRole('textbox', { name: 'Mensaje' })).toBeNull();
    await user.click(checkboxOf(1));
    expect(within(bar).getByRole('status').textContent).toBe('2 mensajes seleccionados');

    await forwardTo(user, bar);
    expect(await screen.findByText('Mensajes reenviados a Lucía Gómez.')).toBeTruthy();
    expect(posted).toEqual([{ messageIds: [1, 3], contactId: 12 }]);

    // Lucía's conversation opens with the copies, each marked forwarded.
    expect(await screen.findByRole('heading', { level: 2, name: 'Lucía Gómez' })).toBeTruthy();
    await waitFor(() => expect(within(bubble(100)).getByText('Reenviado')).toBeTruthy());
    expect(within(bubble(101)).getByText('Llega el martes')).toBeTruthy();
    expect(within(bubble(101)).getByText('Reenviado')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Reenviar mensajes' })).toBeNull();
  });

  it('cannot check a deleted message, and cancelling brings the composer back', async () => {
    stubForward();
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Llega el martes');
    const bar = await startForward(user, 1);
    expect(checkboxOf(2)).toHaveProperty('disabled', true);
    expect(checkboxOf(3)).toHaveProperty('checked', false);
    // A click anywhere on a message checks it, and again unchecks it.
    await user.click(bubble(3));
    expect(checkboxOf(3)).toHaveProperty('checked', true);
    await user.click(checkboxOf(1));
    expect(within(bar).getByRole('status').textContent).toBe('1 mensaje seleccionado');
    await user.click(checkboxOf(3));
    expect(within(bar).getByRole('status').textContent).toBe('0 mensajes seleccionados');
    expect(within(bar).getByRole('button', { name: 'Reenviar a…' })).toHaveProperty(
      'disabled',
      true,
    );

    await user.click(within(bar).getByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByRole('textbox', { name: 'Mensaje' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Seleccionar este mensaje' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Reenviar mensajes' })).toBeNull();
  });

  it('names who holds the contact’s conversation when someone else does', async () => {
    const posted = stubForward(() =>
      jsonResponse(409, {
        error: 'ERR_OTHER_OPEN_TICKET',
        message: 'The contact already has an open ticket on this connection',
        details: {
          ticket: { id: 9, uuid: target.uuid, status: 'open' },
          user: { name: 'Pedro Ruiz' },
          queue: { name: 'Soporte' },
        },
      }),
    );
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Llega el martes');
    const bar = await startForward(user, 1);
    await user.click(checkboxOf(3));
    const dialog = await forwardTo(user, bar);

    expect(
      await screen.findByText(
        'El contacto ya tiene un ticket abierto, atendido por Pedro Ruiz en la cola Soporte.',
      ),
    ).toBeTruthy();
    expect(posted).toEqual([{ messageIds: [1, 3], contactId: 12 }]);
    // Still here to choose someone else; closed, the messages are still checked.
    expect(screen.getByRole('dialog', { name: 'Reenviar 2 mensajes' })).toBe(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(bar).getByRole('status').textContent).toBe('2 mensajes seleccionados');
  });
});
