import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReplySuggestion, TicketNoteView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser } from '../../test/user-event';
import { listOf, makeTicket, messagesOf, todayAt } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

// Issue 40, the agents' co-pilot in the chat: "Sugerir respuesta" puts the model's draft in the
// composer for the agent to edit (never sent by itself), and "Resumir conversación" adds the model's
// summary to the ticket's notes.

const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;

const DRAFT = '¡Hola! Sí, aceptamos devoluciones hasta 30 días después de la compra.';
const suggestion: ReplySuggestion = {
  text: DRAFT,
  language: 'es',
  passages: [
    { documentId: 1, documentName: 'Devoluciones', page: null, ordinal: 0, text: 'Política…' },
    { documentId: 2, documentName: 'Manual', page: 3, ordinal: 2, text: 'Envíos…' },
  ],
};

const summaryNote: TicketNoteView = {
  id: 40,
  note: 'La clienta pide devolver unas zapatillas; queda pendiente el número de ticket.',
  ticketId: ticket.id,
  contactId: ticket.contactId,
  userId: null,
  user: null,
  botName: 'Resumen IA',
  createdAt: todayAt(9),
  updatedAt: todayAt(9),
};

const stubChat = (routes: Parameters<typeof stubApi>[0] = {}) =>
  stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    [`GET /messages/${ticket.id}`]: () => messagesOf(ticket, []),
    'GET /quick-messages/list': () => jsonResponse(200, []),
    ...routes,
  });

const input = () => screen.getByRole('textbox', { name: 'Mensaje' }) as HTMLTextAreaElement;

const openChat = async (auth = makeAuth()) => {
  window.localStorage.setItem('signOption', 'false');
  const user = setupUser();
  renderPage(<TicketsPage />, chatPath, auth, { route: '/tickets/:ticketId?' });
  await screen.findByPlaceholderText('Escriba un mensaje');
  return user;
};

const sends = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock).filter((call) => call === `POST /messages/${ticket.id}`);

describe('suggest reply', () => {
  it('puts the draft in the empty composer, focused for editing, and sends nothing', async () => {
    const fetchMock = stubChat({
      [`POST /tickets/${ticket.id}/suggestion`]: () => jsonResponse(200, suggestion),
    });
    const user = await openChat();
    await user.click(screen.getByRole('button', { name: 'Sugerir respuesta' }));

    await waitFor(() => expect(input().value).toBe(DRAFT));
    expect(document.activeElement).toBe(input());
    // The documents it was written from, under the text.
    expect(screen.getByTestId('suggestion-sources').textContent).toBe(
      'Sugerencia basada en: Devoluciones, Manual',
    );
    expect(callsOf(fetchMock)).toContain(`POST /tickets/${ticket.id}/suggestion`);
    expect(sends(fetchMock)).toEqual([]);

    // The agent edits it and sends it as their own message.
    await user.type(input(), ' Saludos');
    expect(input().value).toBe(`${DRAFT} Saludos`);
    expect(sends(fetchMock)).toEqual([]);
  });

  it('adds the draft below what the agent already wrote', async () => {
    const fetchMock = stubChat({
      [`POST /tickets/${ticket.id}/suggestion`]: () => jsonResponse(200, suggestion),
    });
    const user = await openChat();
    await fill(user, input(), 'Hola Lucía');
    await user.click(screen.getByRole('button', { name: 'Sugerir respuesta' }));
    await waitFor(() => expect(input().value).toBe(`Hola Lucía\n\n${DRAFT}`));
    expect(sends(fetchMock)).toEqual([]);
  });

  it('tells the error in words and leaves the text as it was', async () => {
    stubChat({
      [`POST /tickets/${ticket.id}/suggestion`]: () =>
        jsonResponse(403, { error: 'ERR_AI_QUOTA_EXCEEDED', message: 'used up' }),
    });
    const user = await openChat();
    await fill(user, input(), 'Hola');
    await user.click(screen.getByRole('button', { name: 'Sugerir respuesta' }));
    expect(
      await screen.findByText(
        'El agente usó todos los mensajes de este mes que permite su plan: sus conversaciones pasan a una persona hasta el próximo mes.',
      ),
    ).toBeTruthy();
    expect(input().value).toBe('Hola');
  });

  it('is not offered where the plan has no AI', async () => {
    stubChat();
    await openChat(makeAuth({ plan: { useOpenAi: false } }));
    expect(screen.queryByRole('button', { name: 'Sugerir respuesta' })).toBeNull();
  });
});

describe('summarise conversation', () => {
  it('adds the summary to the notes from the actions menu', async () => {
    const fetchMock = stubChat({
      [`GET /contacts/${ticket.contactId}`]: () =>
        jsonResponse(200, { ...ticket.contact, extraInfo: [] }),
      'GET /ticket-notes/list': () => jsonResponse(200, []),
      'GET /tags/list': () => jsonResponse(200, []),
      [`POST /tickets/${ticket.id}/summary`]: () => jsonResponse(201, summaryNote),
    });
    const user = await openChat();
    await user.click(await screen.findByRole('button', { name: 'Datos del contacto' }));
    const drawer = await screen.findByRole('complementary', { name: 'Datos del contacto' });
    await waitFor(() =>
      expect(callsOf(fetchMock).some((call) => call.startsWith('GET /ticket-notes/list'))).toBe(
        true,
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Más acciones' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Resumir conversación' }));
    expect(await within(drawer).findByText(summaryNote.note)).toBeTruthy();
    expect(await screen.findByText('Resumen agregado a las notas')).toBeTruthy();
    expect(callsOf(fetchMock)).toContain(`POST /tickets/${ticket.id}/summary`);
  });

  it('shows a summary written in the background when the ticket says so', async () => {
    let notes: TicketNoteView[] = [];
    let noteReads = 0;
    stubChat({
      [`GET /contacts/${ticket.contactId}`]: () =>
        jsonResponse(200, { ...ticket.contact, extraInfo: [] }),
      'GET /ticket-notes/list': () => {
        noteReads += 1;
        return jsonResponse(200, notes);
      },
      'GET /tags/list': () => jsonResponse(200, []),
    });
    const user = await openChat();
    await user.click(await screen.findByRole('button', { name: 'Datos del contacto' }));
    const drawer = await screen.findByRole('complementary', { name: 'Datos del contacto' });
    await within(drawer).findByText('Todavía no hay notas.');
    // A transfer's summary is written by the API later; the ticket's update announces it (an
    // update that is not about notes, a message's, does not read them again).
    const readsBefore = noteReads;
    notes = [summaryNote];
    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-ticket', { action: 'update', ticket });
      socket.receive('company-1-ticket', { action: 'update', ticket, changed: ['read'] });
      socket.receive('company-1-ticket', { action: 'update', ticket, changed: ['notes'] });
    });
    expect(await within(drawer).findByText(summaryNote.note)).toBeTruthy();
    expect(noteReads - readsBefore).toBe(1);
  });

  it('is not in the menu where the plan has no AI', async () => {
    stubChat();
    const user = await openChat(makeAuth({ plan: { useOpenAi: false } }));
    await user.click(screen.getByRole('button', { name: 'Más acciones' }));
    await screen.findByRole('menuitem', { name: 'Descargar transcripción (PDF)' });
    expect(screen.queryByRole('menuitem', { name: 'Resumir conversación' })).toBeNull();
  });
});
