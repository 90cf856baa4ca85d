import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessageView } from '@atendi/shared';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import {
  listOf,
  makeMessage,
  makeTicket,
  messagesOf,
  receiveAppMessage,
  todayAt,
} from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

// Issue 40: what a voice note says, written by the company's AI provider, under its player in the
// chat (folded when long), and arriving live when the provider is done.

const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;

const voiceNote = (overrides: Partial<ChatMessageView> = {}) =>
  makeMessage({
    id: 1,
    ticketId: ticket.id,
    body: '',
    mediaType: 'audio',
    mediaUrl: 'http://localhost:8080/uploads/1/nota.ogg?expires=1&sig=x',
    mediaName: 'nota.ogg',
    ...overrides,
  });

const openChat = (messages: ChatMessageView[]) => {
  stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    [`GET /messages/${ticket.id}`]: () => messagesOf(ticket, messages, false),
  });
  renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
};

const bubble = (id: number) => screen.getByTestId(`message-${id}`);

describe('a voice note in the chat', () => {
  it('shows its transcript under the player, labelled, and none on other messages', async () => {
    openChat([
      voiceNote({ transcript: 'Hola, quería saber si el pedido 1234 ya salió.' }),
      makeMessage({ id: 2, body: 'Ya salió, llega hoy', fromMe: true, ack: 3 }),
    ]);
    const transcript = await screen.findByTestId('voice-transcript');
    expect(within(bubble(1)).getByTestId('voice-transcript')).toBe(transcript);
    expect(transcript.textContent).toBe(
      'TranscripciónHola, quería saber si el pedido 1234 ya salió.',
    );
    // Under the player, in the same bubble.
    const player = bubble(1).querySelector('audio')!;
    expect(player.compareDocumentPosition(transcript) & Node.DOCUMENT_POSITION_FOLLOWING).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    expect(within(bubble(2)).queryByTestId('voice-transcript')).toBeNull();
  });

  it('folds a long transcript until "show more" is chosen', async () => {
    const long = `${'Le cuento con detalle lo que pasó con la entrega de ayer. '.repeat(8)}Fin.`;
    openChat([voiceNote({ transcript: long })]);
    const user = setupUser();
    const more = await screen.findByRole('button', { name: 'Ver más' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    await user.click(more);
    const less = screen.getByRole('button', { name: 'Ver menos' });
    expect(less.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('voice-transcript').textContent).toContain('Fin.');
  });

  it('shows the transcript when it arrives live, and none for a deleted message', async () => {
    const message = voiceNote();
    openChat([message, voiceNote({ id: 3, isDeleted: true, transcript: 'Borrado' })]);
    await screen.findByTestId('message-1');
    expect(screen.queryByTestId('voice-transcript')).toBeNull();
    // The message as the API emits it once the provider is done: written later than the chat's copy.
    await receiveAppMessage(
      { ...message, transcript: 'Ya llegué a la puerta.', updatedAt: todayAt(9, 1) },
      ticket,
      'update',
    );
    expect((await within(bubble(1)).findByTestId('voice-transcript')).textContent).toContain(
      'Ya llegué a la puerta.',
    );
    expect(within(bubble(3)).queryByTestId('voice-transcript')).toBeNull();
  });
});
