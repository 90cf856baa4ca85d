import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessageView, TicketView, Transcript } from '@atendi/shared';
import { formatDate } from '../../lib/dates';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser } from '../../test/user-event';
import {
  bodyOf,
  dayAt,
  listOf,
  makeMessage,
  makeTicket,
  messagesOf,
  receiveAppMessage,
  todayAt,
} from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;

// The chat of `ticket` with message pages by number; extra routes (sends, status changes) beside.
const stubChat = (
  pages: Record<number, { messages: ChatMessageView[]; hasMore?: boolean }>,
  routes: Parameters<typeof stubApi>[0] = {},
  current: TicketView = ticket,
) =>
  stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, current),
    [`GET /messages/${ticket.id}`]: ({ url }) => {
      const page = pages[Number(url.searchParams.get('pageNumber'))];
      return messagesOf(current, page?.messages ?? [], page?.hasMore);
    },
    ...routes,
  });

const bubble = (id: number) => screen.getByTestId(`message-${id}`);

// Every POST /messages/7 body, as sent.
const recordSends = (answer: (body: Record<string, unknown>) => ChatMessageView) => {
  const sent: Record<string, unknown>[] = [];
  const route = (init: RequestInit) => {
    const body = bodyOf(init);
    sent.push(body);
    return jsonResponse(201, [answer(body)]);
  };
  return { sent, route };
};

describe('ticket chat', () => {
  it('shows the conversation with day separators, acks, edits, deletions, quotes and media', async () => {
    const question = makeMessage({ id: 1, body: '¿Tienen talla M?', createdAt: dayAt(1, 18, 30) });
    stubChat({
      1: {
        messages: [
          question,
          makeMessage({ id: 2, body: 'Sí, claro', fromMe: true, ack: 4, quotedMsg: question }),
          makeMessage({ id: 3, body: 'En camino', fromMe: true, ack: 0, createdAt: todayAt(9, 1) }),
          makeMessage({ id: 4, body: 'Recibido', fromMe: true, ack: 1, createdAt: todayAt(9, 2) }),
          makeMessage({ id: 5, body: 'Gracias', fromMe: true, ack: 3, isEdited: true }),
          makeMessage({ id: 6, body: 'Ups', isDeleted: true, createdAt: todayAt(9, 4) }),
          makeMessage({
            id: 8,
            body: '',
            mediaType: 'image',
            mediaUrl: 'https://files.test/foto.jpg',
            mediaName: 'foto.jpg',
            createdAt: todayAt(9, 6),
          }),
          makeMessage({
            id: 9,
            body: '',
            mediaType: 'application',
            mediaUrl: 'https://files.test/factura.pdf',
            mediaName: 'factura.pdf',
            createdAt: todayAt(9, 7),
          }),
          makeMessage({
            id: 10,
            body: '',
            mediaType: 'image',
            mediaError: 'ERR_STORAGE_QUOTA_EXCEEDED',
            createdAt: todayAt(9, 8),
          }),
        ],
      },
    });
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    expect(
      within(await screen.findByTestId('message-1')).getByText('¿Tienen talla M?'),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'María López' })).toBeTruthy();
    const separators = within(screen.getByTestId('messages-scroll'))
      .getAllByRole('separator')
      .map((node) => node.textContent);
    expect(separators).toEqual([formatDate(dayAt(1, 12)), formatDate(todayAt(12))]);
    expect(within(bubble(1)).getByText('18:30')).toBeTruthy();

    expect(within(bubble(2)).getByRole('img', { name: 'Leído' })).toBeTruthy();
    expect(
      within(within(bubble(2)).getByTestId('quoted-message')).getByText('¿Tienen talla M?'),
    ).toBeTruthy();
    expect(within(bubble(3)).getByRole('img', { name: 'Pendiente de envío' })).toBeTruthy();
    expect(within(bubble(4)).getByRole('img', { name: 'Enviado' })).toBeTruthy();
    expect(within(bubble(5)).getByRole('img', { name: 'Entregado' })).toBeTruthy();
    expect(within(bubble(5)).getByText('Editado')).toBeTruthy();
    expect(within(bubble(6)).getByText('Mensaje eliminado')).toBeTruthy();
    expect(within(bubble(1)).queryByRole('img')).toBeNull();
    expect(within(bubble(8)).getByRole('img', { name: 'foto.jpg' })).toHaveProperty(
      'src',
      'https://files.test/foto.jpg',
    );
    expect(within(bubble(9)).getByRole('link', { name: 'factura.pdf' })).toHaveProperty(
      'href',
      'https://files.test/factura.pdf',
    );
    // A received file the company's full storage could not keep: the message says so.
    expect(within(bubble(10)).getByTestId('media-not-stored').textContent).toBe(
      'No se guardó el archivo (Imagen): el almacenamiento de la empresa está lleno.',
    );
  });

  it('marks the answers an AI agent wrote', async () => {
    stubChat({
      1: {
        messages: [
          makeMessage({ id: 1, body: 'Quiero dos pizzas' }),
          makeMessage({ id: 2, body: '¡Claro! ¿De qué sabor?', fromMe: true, ack: 3, promptId: 5 }),
          makeMessage({ id: 3, body: 'Le atiende Ana', fromMe: true, ack: 3 }),
        ],
      },
    });
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('¡Claro! ¿De qué sabor?');
    expect(within(bubble(2)).getByRole('img', { name: 'Respuesta del agente de IA' })).toBeTruthy();
    expect(within(bubble(1)).queryByRole('img', { name: 'Respuesta del agente de IA' })).toBeNull();
    expect(within(bubble(3)).queryByRole('img', { name: 'Respuesta del agente de IA' })).toBeNull();
  });

  it('draws WhatsApp formatting as elements, keeping lines, links and markup as plain text', async () => {
    const signed = makeMessage({
      id: 1,
      body: '*Ana Admin:*\nTu pedido _A-12_ ~llega hoy~ sale `mañana`:\n```código 2*3*4```\nhttps://shop.test/mi_pedido_1 <img src=x onerror=alert(1)> 2*3*4',
      fromMe: true,
      ack: 4,
    });
    stubChat({ 1: { messages: [signed] } });
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    const text = (await screen.findByText('Ana Admin:')).closest('div')!;
    expect(text.textContent).toBe(
      'Ana Admin:\nTu pedido A-12 llega hoy sale mañana:\ncódigo 2*3*4\nhttps://shop.test/mi_pedido_1 <img src=x onerror=alert(1)> 2*3*4',
    );
    const tagged = (tag: string) =>
      Array.from(text.querySelectorAll(tag)).map((node) => node.textContent);
    expect(tagged('strong')).toEqual(['Ana Admin:']);
    expect(tagged('em')).toEqual(['A-12']);
    expect(tagged('s')).toEqual(['llega hoy']);
    expect(tagged('code')).toEqual(['mañana', 'código 2*3*4']);
    expect(bubble(1).querySelector('img')).toBeNull();
  });

  it('loads older messages when scrolled to the top', async () => {
    const fetchMock = stubChat({
      1: { messages: [makeMessage({ id: 20, body: 'Lo más reciente' })], hasMore: true },
      2: { messages: [makeMessage({ id: 10, body: 'Mensaje viejo', createdAt: dayAt(3, 10) })] },
    });
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    await screen.findByText('Lo más reciente');

    fireEvent.scroll(screen.getByTestId('messages-scroll'), { target: { scrollTop: 0 } });
    expect(await screen.findByText('Mensaje viejo')).toBeTruthy();
    const pagesAsked = fetchMock.mock.calls
      .map(([url]) => new URL(String(url)))
      .filter((url) => url.pathname === '/messages/7')
      .map((url) => url.searchParams.get('pageNumber'));
    expect(pagesAsked).toEqual(['1', '2']);
    expect(
      within(screen.getByTestId('messages-scroll')).getAllByRole('separator')[0].textContent,
    ).toBe(formatDate(dayAt(3, 10)));
  });

  it('sends on Enter with the signature, ignores blank text, and remembers the sign choice', async () => {
    let nextId = 100;
    const { sent, route } = recordSends((body) =>
      makeMessage({ id: nextId++, body: String(body.body), fromMe: true, createdAt: todayAt(10) }),
    );
    stubChat({ 1: { messages: [] } }, { [`POST /messages/${ticket.id}`]: route });
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByPlaceholderText('Escriba un mensaje');
    const input = screen.getByRole('textbox', { name: 'Mensaje' });
    await fill(user, input, '   ');
    await user.keyboard('{Enter}');
    expect(sent).toEqual([]);

    await user.clear(input);
    await fill(user, input, 'Buenos días');
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    await fill(user, input, 'Le ayudo');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sent).toEqual([{ body: '*Ana Admin:*\nBuenos días\nLe ayudo' }]));
    expect(
      await within(await screen.findByTestId('message-100')).findByText('Ana Admin:'),
    ).toBeTruthy();
    expect(input).toHaveProperty('value', '');

    await user.click(screen.getByRole('switch', { name: 'Firmar' }));
    expect(window.localStorage.getItem('signOption')).toBe('false');
    await fill(user, input, 'Sin firma');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(sent[1]).toEqual({ body: 'Sin firma' }));
  });

  it('replies to a message with quotedMsg, and the reply can be dropped', async () => {
    const { sent, route } = recordSends((body) =>
      makeMessage({ id: 50, body: String(body.body), fromMe: true, createdAt: todayAt(10) }),
    );
    stubChat(
      { 1: { messages: [makeMessage({ id: 3, body: '¿Cuánto cuesta?' })] } },
      { [`POST /messages/${ticket.id}`]: route },
    );
    window.localStorage.setItem('signOption', 'false');
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('¿Cuánto cuesta?');
    const reply = async () => {
      await user.click(within(bubble(3)).getByRole('button', { name: 'Opciones del mensaje' }));
      await user.click(await screen.findByText('Responder'));
    };
    await reply();
    await user.click(screen.getByRole('button', { name: 'Cancelar respuesta' }));
    expect(screen.getAllByText('¿Cuánto cuesta?')).toHaveLength(1);

    await reply();
    expect(screen.getAllByText('¿Cuánto cuesta?')).toHaveLength(2);
    await fill(user, screen.getByRole('textbox', { name: 'Mensaje' }), '$200');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sent).toEqual([{ body: '$200', quotedMsg: 3 }]));
    expect(screen.queryByRole('button', { name: 'Cancelar respuesta' })).toBeNull();
  });

  it('appends live messages to the open chat and applies their ack updates', async () => {
    stubChat({ 1: { messages: [makeMessage({ id: 1, body: 'Hola' })] } });
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    await screen.findByText('Hola');

    const answer = makeMessage({ id: 2, ticketId: 7, body: 'Buen día', fromMe: true, ack: 1 });
    await receiveAppMessage(answer, ticket);
    expect(within(bubble(2)).getByRole('img', { name: 'Enviado' })).toBeTruthy();
    await receiveAppMessage({ ...answer, ack: 4 }, ticket, 'update');
    expect(within(bubble(2)).getByRole('img', { name: 'Leído' })).toBeTruthy();
    // Another ticket's message stays out of this chat.
    await receiveAppMessage(makeMessage({ id: 3, ticketId: 99, body: 'Otro chat' }), ticket);
    expect(screen.queryByText('Otro chat')).toBeNull();
  });

  it('offers to retry a message that failed to send', async () => {
    const failed = makeMessage({
      id: 4,
      body: 'No salió',
      fromMe: true,
      error: 'ERR_SENDING_WAPP_MSG',
    });
    const retried: number[] = [];
    stubChat(
      { 1: { messages: [failed] } },
      {
        'POST /messages/4/retry': () => {
          retried.push(4);
          return jsonResponse(200, { ...failed, error: null });
        },
      },
    );
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    expect(
      await within(await screen.findByTestId('message-4')).findByText('No se pudo enviar'),
    ).toBeTruthy();
    await user.click(within(bubble(4)).getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(within(bubble(4)).queryByText('No se pudo enviar')).toBeNull());
    expect(retried).toEqual([4]);
  });

  it("names the contact in the header with its number as people write it, and a group's as it is", async () => {
    stubChat({ 1: { messages: [] } });
    const view = renderPage(<TicketsPage />, chatPath, makeAuth(), {
      route: '/tickets/:ticketId?',
    });
    const header = (await screen.findByRole('heading', { level: 2, name: 'María López' })).closest(
      'header',
    )!;
    expect(await within(header).findByText(/^\+52 55 1234 5678 · Ventas/)).toBeTruthy();
    view.unmount();

    const group = makeTicket({
      id: 7,
      isGroup: true,
      contact: {
        ...ticket.contact,
        name: 'Ventas Norte',
        number: '120363025246125486@g.us',
        isGroup: true,
      },
    });
    stubChat({ 1: { messages: [] } }, {}, group);
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    const groupHeader = (
      await screen.findByRole('heading', { level: 2, name: 'Ventas Norte' })
    ).closest('header')!;
    expect(within(groupHeader).getByText(/^120363025246125486@g\.us · Ventas/)).toBeTruthy();
  });

  it('says "Acceso no permitido" and returns to the list for a ticket outside my queues', async () => {
    stubApi({
      'GET /tickets': () => listOf([]),
      [`GET /tickets/u/${ticket.uuid}`]: () =>
        jsonResponse(403, { error: 'ERR_NO_PERMISSION', message: 'Not your queue' }),
    });
    renderPage(<TicketsPage />, chatPath, makeAuth({ user: { profile: 'user' } }), {
      route: '/tickets/:ticketId?',
    });

    expect(await screen.findByText('Acceso no permitido')).toBeTruthy();
    expect(await screen.findByText('Seleccione un ticket para comenzar a conversar.')).toBeTruthy();
  });

  it('resolves an open ticket and offers to reopen it; returning one goes back to the list', async () => {
    const puts: unknown[] = [];
    stubChat(
      { 1: { messages: [] } },
      {
        'PUT /tickets/7': (init) => {
          const body = bodyOf(init);
          puts.push(body);
          const status = body.status as TicketView['status'];
          return jsonResponse(200, {
            ...ticket,
            status,
            ...(status === 'pending' && { userId: null, user: null }),
          });
        },
      },
    );
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Devolver');
    await user.click(screen.getByRole('button', { name: 'Resolver' }));
    await screen.findByText('Reabrir');
    expect(screen.queryByRole('textbox', { name: 'Mensaje' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Reabrir' }));
    await screen.findByText('Devolver');
    await user.click(screen.getByRole('button', { name: 'Devolver' }));
    expect(await screen.findByText('Seleccione un ticket para comenzar a conversar.')).toBeTruthy();
    expect(puts).toEqual([{ status: 'closed' }, { status: 'open' }, { status: 'pending' }]);
  });

  it('shows a resolved ticket without composer, and admins delete it after confirming', async () => {
    let deleted = false;
    stubChat(
      { 1: { messages: [] } },
      {
        'DELETE /tickets/7': () => {
          deleted = true;
          return new Response(null, { status: 204 });
        },
      },
      { ...ticket, status: 'closed' },
    );
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Reabrir');
    expect(screen.queryByRole('textbox', { name: 'Mensaje' })).toBeNull();
    expect(
      screen.getByText('Este ticket está resuelto. Reábralo para volver a escribir.'),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Eliminar ticket' }));
    const confirm = (await screen.findByText('¿Eliminar este ticket?')).closest<HTMLElement>(
      '[role="dialog"]',
    )!;
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Ticket eliminado.')).toBeTruthy();
    expect(deleted).toBe(true);
  });

  describe('transcript downloads', () => {
    const createObjectURL = URL.createObjectURL;
    const revokeObjectURL = URL.revokeObjectURL;
    afterEach(() => {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
      vi.restoreAllMocks();
    });

    const bytesOf = (blob: Blob) =>
      new Promise<Uint8Array>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
        reader.readAsArrayBuffer(blob);
      });

    // Every file handed to the browser's downloads: its name and what it holds.
    const recordSaves = () => {
      const blobs: Blob[] = [];
      URL.createObjectURL = vi.fn((object: Blob | MediaSource) => {
        blobs.push(object as Blob);
        return `blob:${blobs.length}`;
      });
      URL.revokeObjectURL = vi.fn();
      const saved: { name: string; blob: Blob }[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        saved.push({ name: this.download, blob: blobs[Number(this.href.split(':')[1]) - 1]! });
      });
      return saved;
    };

    const transcript: Transcript = {
      ticket: {
        id: 7,
        uuid: ticket.uuid,
        status: 'open',
        createdAt: '2025-03-10T12:00:00.000Z',
        contact: { id: 1, name: 'Ana', number: '5491100000000' },
        connection: { id: 1, name: 'Ventas' },
        queue: null,
        user: null,
      },
      timeZone: 'America/Argentina/Buenos_Aires',
      conversations: [],
      messages: [],
      notes: [],
      exportedAt: '2025-03-10T13:00:00.000Z',
    };
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0xff, 0x00, 0xe2, 0x0a]);

    it('downloads the transcript as PDF and as JSON from the menu, with the session token', async () => {
      const saved = recordSaves();
      const authorizations: Record<string, string | null> = {};
      const fetchMock = stubChat(
        { 1: { messages: [] } },
        {
          'GET /tickets/7/transcript.pdf': (init) => {
            authorizations.pdf = new Headers(init.headers).get('Authorization');
            return new Response(pdf, {
              status: 200,
              headers: {
                'Content-Type': 'application/pdf',
                'Content-Disposition': 'attachment; filename="ticket-7.pdf"',
              },
            });
          },
          'GET /tickets/7/transcript.json': (init) => {
            authorizations.json = new Headers(init.headers).get('Authorization');
            return jsonResponse(200, transcript);
          },
        },
      );
      const auth = makeAuth();
      const user = setupUser();
      renderPage(<TicketsPage />, chatPath, auth, { route: '/tickets/:ticketId?' });

      await user.click(await screen.findByRole('button', { name: 'Más acciones' }));
      await user.click(
        await screen.findByRole('menuitem', { name: 'Descargar transcripción (PDF)' }),
      );
      await waitFor(() => expect(saved.map(({ name }) => name)).toEqual(['ticket-7.pdf']));
      // The server's bytes as they came, not read as text.
      expect(await bytesOf(saved[0]!.blob)).toEqual(pdf);

      await user.click(screen.getByRole('button', { name: 'Más acciones' }));
      await user.click(
        await screen.findByRole('menuitem', { name: 'Descargar transcripción (JSON)' }),
      );
      await waitFor(() =>
        expect(saved.map(({ name }) => name)).toEqual(['ticket-7.pdf', 'ticket-7.json']),
      );
      expect(await saved[1]!.blob.text()).toBe(JSON.stringify(transcript, null, 2));

      expect(callsOf(fetchMock)).toEqual(
        expect.arrayContaining(['GET /tickets/7/transcript.pdf', 'GET /tickets/7/transcript.json']),
      );
      expect(authorizations).toEqual({
        pdf: `Bearer ${auth.token}`,
        json: `Bearer ${auth.token}`,
      });
      expect(unknownApiCalls(fetchMock)).toEqual([]);
    });

    it('says why a transcript could not be downloaded', async () => {
      const saved = recordSaves();
      stubChat(
        { 1: { messages: [] } },
        {
          'GET /tickets/7/transcript.pdf': () =>
            jsonResponse(500, { error: 'ERR_INTERNAL', message: 'Algo salió mal' }),
        },
      );
      const user = setupUser();
      renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

      await user.click(await screen.findByRole('button', { name: 'Más acciones' }));
      await user.click(
        await screen.findByRole('menuitem', { name: 'Descargar transcripción (PDF)' }),
      );
      expect(await screen.findByText('Algo salió mal')).toBeTruthy();
      expect(saved).toEqual([]);
    });
  });
});
