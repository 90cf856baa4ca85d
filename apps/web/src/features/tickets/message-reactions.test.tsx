import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChatMessageView, MessageReactionView, ReplyWindow } from '@atendi/shared';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser, type User } from '../../test/user-event';
import {
  bodyOf,
  listOf,
  makeMessage,
  makeTicket,
  messagesOf,
  receiveAppMessage,
  todayAt,
} from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

// The real picker draws hundreds of emoji; one button stands in for it.
vi.mock('emoji-picker-react', () => ({
  default: ({ onEmojiClick }: { onEmojiClick: (data: { emoji: string }) => void }) => (
    <button type="button" onClick={() => onEmojiClick({ emoji: '🎉' })}>
      pick 🎉
    </button>
  ),
}));

const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;

const reaction = (overrides: Partial<MessageReactionView> = {}): MessageReactionView => ({
  emoji: '👍',
  fromMe: false,
  name: 'María López',
  at: todayAt(9, 30),
  ...overrides,
});

// The chat of `ticket` with these messages; every PUT /messages/{id}/reaction body is kept and
// answered with the message carrying the company's reaction as asked (Ana Admin chose it).
const stubReactions = (
  messages: ChatMessageView[],
  answer?: (body: Record<string, unknown>) => Response,
  replyWindow: ReplyWindow | null = null,
) => {
  const reacted: { id: number; body: Record<string, unknown> }[] = [];
  const routes = Object.fromEntries(
    messages.map((message) => [
      `PUT /messages/${message.id}/reaction`,
      (init: RequestInit) => {
        const body = bodyOf(init);
        reacted.push({ id: message.id, body });
        if (answer) return answer(body);
        const others = message.reactions.filter((one) => !one.fromMe);
        const emoji = String(body.emoji);
        return jsonResponse(200, {
          ...message,
          reactions: emoji
            ? [...others, reaction({ emoji, fromMe: true, name: 'Ana Admin', at: todayAt(10) })]
            : others,
        });
      },
    ]),
  );
  stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    [`GET /messages/${ticket.id}`]: () => messagesOf(ticket, messages, false, replyWindow),
    ...routes,
  });
  return reacted;
};

const bubble = (id: number) => screen.getByTestId(`message-${id}`);

// The reactions under a message as they read: each pill's text and who it names.
const reactionsOf = (id: number) =>
  within(within(bubble(id)).getByRole('list', { name: 'Reacciones' }))
    .getAllByRole('listitem')
    .map((item) => [item.textContent, item.getAttribute('aria-label')]);

const openMenu = async (user: User, id: number) => {
  await user.click(within(bubble(id)).getByRole('button', { name: 'Opciones del mensaje' }));
  return screen.findByRole('menu');
};

describe('message reactions', () => {
  it('shows the reactions under each message, grouped by emoji, naming who chose them', async () => {
    stubReactions([
      makeMessage({
        id: 1,
        body: '¿Nos vemos mañana?',
        reactions: [
          reaction({ emoji: '❤️', name: 'María López' }),
          reaction({ emoji: '👍', name: 'Pedro Ruiz' }),
          reaction({ emoji: '❤️', fromMe: true, name: 'Ana Admin' }),
        ],
      }),
      // Chosen on the company's phone itself: nobody of the platform is named.
      makeMessage({
        id: 2,
        body: 'Sí, a las 10',
        fromMe: true,
        ack: 3,
        reactions: [reaction({ emoji: '🙏', fromMe: true, name: null })],
      }),
      makeMessage({ id: 3, body: 'Perfecto' }),
    ]);
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('¿Nos vemos mañana?');
    expect(reactionsOf(1)).toEqual([
      ['❤️2', 'María López, Ana Admin'],
      ['👍', 'Pedro Ruiz'],
    ]);
    expect(reactionsOf(2)).toEqual([['🙏', 'Usted']]);
    expect(within(bubble(3)).queryByRole('list', { name: 'Reacciones' })).toBeNull();

    await user.hover(within(bubble(1)).getByText('👍'));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Pedro Ruiz');
  });

  it('reacts from the message menu, and choosing the same emoji again takes it back', async () => {
    const reacted = stubReactions([makeMessage({ id: 1, body: 'Llegó mi pedido' })]);
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Llegó mi pedido');
    let menu = await openMenu(user, 1);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.getAttribute('aria-label') ?? item.textContent),
    ).toEqual([
      'Reaccionar con 👍',
      'Reaccionar con ❤️',
      'Reaccionar con 😂',
      'Reaccionar con 😮',
      'Reaccionar con 😢',
      'Reaccionar con 🙏',
      'Más reacciones',
      'Responder',
      'Reenviar',
    ]);
    await user.click(within(menu).getByRole('menuitem', { name: 'Reaccionar con ❤️' }));
    await waitFor(() => expect(reactionsOf(1)).toEqual([['❤️', 'Ana Admin']]));

    menu = await openMenu(user, 1);
    await user.click(within(menu).getByRole('menuitem', { name: 'Quitar la reacción ❤️' }));
    await waitFor(() =>
      expect(within(bubble(1)).queryByRole('list', { name: 'Reacciones' })).toBeNull(),
    );
    expect(reacted).toEqual([
      { id: 1, body: { emoji: '❤️' } },
      { id: 1, body: { emoji: '' } },
    ]);
  });

  it('opens the whole emoji picker from "more reactions"', async () => {
    stubReactions([makeMessage({ id: 1, body: '¡Ya tengo trabajo!' })]);
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('¡Ya tengo trabajo!');
    const menu = await openMenu(user, 1);
    await user.click(within(menu).getByRole('menuitem', { name: 'Más reacciones' }));
    // The picker's frame opens where the menu was (its emoji load on first use; choosing one reacts
    // as the quick row does, through the same call).
    expect(await screen.findByLabelText('Elegir una reacción')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('offers no reaction on a deleted message nor on one of ours WhatsApp has not taken yet', async () => {
    stubReactions([
      makeMessage({ id: 1, body: 'Borrado', fromMe: true, ack: 3, isDeleted: true }),
      makeMessage({ id: 2, body: 'Saliendo', fromMe: true, ack: 0, createdAt: todayAt(9, 1) }),
    ]);
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Saliendo');
    // A deleted message has nothing left to do.
    expect(within(bubble(1)).queryByRole('button', { name: 'Opciones del mensaje' })).toBeNull();
    const menu = await openMenu(user, 2);
    expect(within(menu).getByRole('menuitem', { name: 'Responder' })).toBeTruthy();
    expect(within(menu).queryByRole('menuitem', { name: /Reaccionar con/ })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Más reacciones' })).toBeNull();
  });

  it('says why WhatsApp refused the reaction, and a closed window turns the composer to templates', async () => {
    // A Cloud API chat whose window the chat still believes open.
    const closesAt = new Date(Date.now() - 60_000).toISOString();
    stubReactions(
      [makeMessage({ id: 1, body: 'Hola' })],
      () =>
        jsonResponse(409, {
          error: 'ERR_WAPP_WINDOW_CLOSED',
          message: 'The contact has not written in the last 24 hours',
          details: { closesAt },
        }),
      { open: true, closesAt: new Date(Date.now() + 3_600_000).toISOString() },
    );
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Hola');
    const menu = await openMenu(user, 1);
    await user.click(within(menu).getByRole('menuitem', { name: 'Reaccionar con 👍' }));
    // The toast, and the composer's banner in place of the text box.
    await waitFor(() =>
      expect(
        screen.getAllByText(
          'Han pasado más de 24 horas desde el último mensaje del contacto: WhatsApp solo permite enviar una plantilla aprobada.',
        ),
      ).toHaveLength(2),
    );
    expect(screen.getByRole('button', { name: 'Enviar plantilla' })).toBeTruthy();
    expect(within(bubble(1)).queryByRole('list', { name: 'Reacciones' })).toBeNull();
  });

  it('shows the reactions a live update brings', async () => {
    const message = makeMessage({
      id: 1,
      ticketId: ticket.id,
      body: 'Gracias por todo',
      fromMe: true,
      ack: 4,
    });
    stubReactions([message]);
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Gracias por todo');
    await receiveAppMessage(
      { ...message, reactions: [reaction({ emoji: '❤️', name: 'María López' })] },
      ticket,
      'update',
    );
    expect(reactionsOf(1)).toEqual([['❤️', 'María López']]);
    // Taken back on the phone: the next update has none.
    await receiveAppMessage(message, ticket, 'update');
    expect(within(bubble(1)).queryByRole('list', { name: 'Reacciones' })).toBeNull();
  });
});
