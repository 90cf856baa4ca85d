import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { REPLY_WINDOW_MS, type ChatMessageView, type ReplyWindow } from '@atendi/shared';
import { unknownApiCalls } from '../../test/api-routes';
import {
  callsOf,
  jsonResponse,
  makeAuth,
  makeTemplate,
  stubApi,
  templateListOf,
} from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser } from '../../test/user-event';
import { formatTime } from './ticket-format';
import {
  bodyOf,
  listOf,
  makeMessage,
  makeTicket,
  messagesOf,
  receiveAppMessage,
} from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;
const HOUR_MS = 60 * 60 * 1000;

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR_MS).toISOString();
// The window of a contact who last wrote `hours` ago.
const lastWroteAgo = (hours: number): ReplyWindow => ({
  open: hours < 24,
  closesAt: new Date(Date.now() - hours * HOUR_MS + REPLY_WINDOW_MS).toISOString(),
});

const orderReady = makeTemplate({
  id: 1,
  whatsappId: ticket.whatsappId,
  name: 'pedido_listo',
  headerFormat: 'TEXT',
  headerText: 'Pedido {{1}}',
  bodyText: 'Hola {{1}}, su pedido {{2}} está listo.',
});
const followUp = makeTemplate({
  id: 2,
  whatsappId: ticket.whatsappId,
  name: 'seguimiento',
  bodyText: 'Hola, ¿seguimos en contacto?',
});
// A file header is for campaigns; a pending template cannot be sent at all.
const catalogue = makeTemplate({
  id: 3,
  whatsappId: ticket.whatsappId,
  name: 'catalogo',
  headerFormat: 'IMAGE',
  bodyText: 'Vea el catálogo',
});
const pending = makeTemplate({
  id: 4,
  whatsappId: ticket.whatsappId,
  name: 'promo',
  status: 'PENDING',
});

// The open chat of `ticket` with the given window; sends are recorded.
const stubChat = (
  replyWindow: ReplyWindow | null,
  routes: Parameters<typeof stubApi>[0] = {},
  messages: ChatMessageView[] = [makeMessage({ id: 1, ticketId: ticket.id, body: 'Hola' })],
) =>
  stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    [`GET /messages/${ticket.id}`]: () => messagesOf(ticket, messages, false, replyWindow),
    [`GET /whatsapp/${ticket.whatsappId}/templates`]: () =>
      templateListOf([orderReady, catalogue, pending, followUp]),
    ...routes,
  });

const openChat = async () => {
  window.localStorage.setItem('signOption', 'false');
  const user = setupUser();
  renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
  await screen.findByTestId('message-1');
  return user;
};

const textBox = () => screen.queryByRole('textbox', { name: 'Mensaje' });
const templateButton = () => screen.queryByRole('button', { name: 'Enviar plantilla' });
// The banner in place of the text box.
const banner = () => templateButton()?.closest('[role="status"]') ?? null;

const CLOSED_TEXT =
  'Han pasado más de 24 horas desde el último mensaje del contacto: WhatsApp solo permite enviar una plantilla aprobada.';

const describedBy = (field: HTMLElement) =>
  document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

describe('composer outside the 24-hour window', () => {
  it('offers only an approved template, with its values and preview, and sends it', async () => {
    const sent: Record<string, unknown>[] = [];
    const fetchMock = stubChat(lastWroteAgo(30), {
      [`POST /messages/${ticket.id}/template`]: (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(201, [
          makeMessage({
            id: 50,
            ticketId: ticket.id,
            fromMe: true,
            body: '*Pedido A-100*\n\nHola María, su pedido B-200 está listo.',
            createdAt: new Date().toISOString(),
          }),
        ]);
      },
    });
    const user = await openChat();

    await waitFor(() => expect(banner()?.textContent).toContain(CLOSED_TEXT));
    expect(textBox()).toBeNull();

    await user.click(templateButton()!);
    const dialog = await screen.findByRole('dialog', { name: 'Enviar plantilla' });
    const select = await within(dialog).findByRole('combobox', { name: 'Plantilla' });
    await user.click(select);
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Elija una plantilla', 'pedido_listo (es_MX)', 'seguimiento (es_MX)']);
    await user.click(screen.getByRole('option', { name: 'pedido_listo (es_MX)' }));

    // One empty box per parameter: nothing is guessed.
    const header = within(dialog).getByRole('textbox', { name: 'Encabezado {{1}}' });
    const first = within(dialog).getByRole('textbox', { name: '{{1}}' });
    const second = within(dialog).getByRole('textbox', { name: '{{2}}' });
    for (const field of [header, first, second]) expect(field).toHaveProperty('value', '');
    const preview = within(dialog).getByRole('figure', { name: 'Vista previa' });
    expect(preview.textContent).toContain('Hola {{1}}, su pedido {{2}} está listo.');

    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(describedBy(second)).toBe('Escriba el valor de este parámetro'));
    expect(describedBy(header)).toBe('Escriba el valor de este parámetro');
    expect(describedBy(first)).toBe('Escriba el valor de este parámetro');
    expect(sent).toEqual([]);

    await fill(user, header, 'A-100');
    await fill(user, first, 'María');
    await fill(user, second, 'B-200');
    expect(within(preview).getByText('Pedido A-100').tagName).toBe('STRONG');
    expect(preview.textContent).toContain('Hola María, su pedido B-200 está listo.');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));

    expect(await screen.findByText('Plantilla enviada.')).toBeTruthy();
    expect(sent).toEqual([
      { templateId: 1, params: { header: ['A-100'], body: ['María', 'B-200'] } },
    ]);
    expect(await screen.findByTestId('message-50')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Still closed: only the contact's answer opens the window.
    expect(banner()).toBeTruthy();
    expect(callsOf(fetchMock)).toContain(`GET /whatsapp/${ticket.whatsappId}/templates`);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows the fields the API refused on their inputs', async () => {
    stubChat(lastWroteAgo(30), {
      [`POST /messages/${ticket.id}/template`]: () =>
        jsonResponse(400, {
          error: 'ERR_VALIDATION',
          message: 'The template cannot be sent as it is',
          fields: {
            templateId: ['The template is PAUSED: only approved templates can be sent'],
            'templateParams.body.1': ['Campo Obligatorio'],
          },
        }),
    });
    const user = await openChat();
    await user.click(await screen.findByRole('button', { name: 'Enviar plantilla' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar plantilla' });
    await user.click(await within(dialog).findByRole('combobox', { name: 'Plantilla' }));
    await user.click(await screen.findByRole('option', { name: 'pedido_listo (es_MX)' }));
    await fill(user, within(dialog).getByRole('textbox', { name: 'Encabezado {{1}}' }), 'A-100');
    await fill(user, within(dialog).getByRole('textbox', { name: '{{1}}' }), 'María');
    await fill(user, within(dialog).getByRole('textbox', { name: '{{2}}' }), 'B-200');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));

    const second = within(dialog).getByRole('textbox', { name: '{{2}}' });
    await waitFor(() => expect(describedBy(second)).toBe('Escriba el valor de este parámetro'));
    expect(describedBy(within(dialog).getByRole('combobox', { name: 'Plantilla' }))).toBe(
      'Esta plantilla no se puede enviar: elija otra plantilla aprobada',
    );
    expect(screen.getByRole('dialog', { name: 'Enviar plantilla' })).toBeTruthy();
  });

  it('tells when the contact never wrote to this number', async () => {
    stubChat({ open: false, closesAt: null });
    await openChat();
    await waitFor(() =>
      expect(banner()?.textContent).toContain(
        'El contacto aún no escribió a este número: WhatsApp solo permite iniciar la conversación con una plantilla aprobada.',
      ),
    );
    expect(textBox()).toBeNull();
  });

  it('opens the window when the contact writes, live', async () => {
    stubChat(lastWroteAgo(30));
    await openChat();
    await waitFor(() => expect(banner()).toBeTruthy());

    // Another ticket's message, or the agent's own, opens nothing.
    await receiveAppMessage(
      makeMessage({ id: 60, ticketId: 99, fromMe: false, createdAt: new Date().toISOString() }),
      makeTicket({ id: 99 }),
    );
    await receiveAppMessage(
      makeMessage({
        id: 61,
        ticketId: ticket.id,
        fromMe: true,
        createdAt: new Date().toISOString(),
      }),
      ticket,
    );
    expect(banner()).toBeTruthy();

    await receiveAppMessage(
      makeMessage({
        id: 62,
        ticketId: ticket.id,
        fromMe: false,
        body: 'Hola de nuevo',
        createdAt: new Date().toISOString(),
      }),
      ticket,
    );
    expect(await screen.findByRole('textbox', { name: 'Mensaje' })).toBeTruthy();
    expect(banner()).toBeNull();
    // A whole day ahead: no closing hint.
    expect(screen.queryByText(/cierra a las/)).toBeNull();
  });

  it('switches to the banner when a free-form send is refused, keeping what was typed', async () => {
    const closesAt = new Date(Date.now() - 60_000).toISOString();
    const fetchMock = stubChat(lastWroteAgo(20), {
      [`POST /messages/${ticket.id}`]: () =>
        jsonResponse(409, {
          error: 'ERR_WAPP_WINDOW_CLOSED',
          message: 'The contact has not written in the last 24 hours',
          details: { closesAt },
        }),
    });
    const user = await openChat();
    const field = (await screen.findByRole('textbox', { name: 'Mensaje' })) as HTMLTextAreaElement;
    await fill(user, field, '¿Sigue interesado?');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(banner()?.textContent).toContain(CLOSED_TEXT));
    expect(textBox()).toBeNull();
    expect(callsOf(fetchMock)).toContain(`POST /messages/${ticket.id}`);

    // The contact answers: the box is back with the text.
    await receiveAppMessage(
      makeMessage({
        id: 70,
        ticketId: ticket.id,
        fromMe: false,
        createdAt: new Date().toISOString(),
      }),
      ticket,
    );
    const again = (await screen.findByRole('textbox', { name: 'Mensaje' })) as HTMLTextAreaElement;
    expect(again.value).toBe('¿Sigue interesado?');
  });

  it('says when the window closes once less than an hour remains', async () => {
    const closesAt = hoursFromNow(0.5);
    stubChat({ open: true, closesAt });
    await openChat();
    expect(
      await screen.findByText(
        `La ventana de 24 horas para responder libremente cierra a las ${formatTime(closesAt)}.`,
      ),
    ).toBeTruthy();
    expect(textBox()).toBeTruthy();
    expect(templateButton()).toBeNull();
  });
});

describe('composer as the window closes', () => {
  it('turns into the banner at the moment the window closes', async () => {
    // The clock is the subject: it is faked, and moved past the closing time at once.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    stubChat({ open: true, closesAt: hoursFromNow(0.5) });
    await openChat();
    expect(await screen.findByRole('textbox', { name: 'Mensaje' })).toBeTruthy();
    expect(screen.getByText(/cierra a las/)).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(0.5 * HOUR_MS));
    expect(banner()?.textContent).toContain(CLOSED_TEXT);
    expect(textBox()).toBeNull();
  });
});

describe('composer on other connections', () => {
  it('has no window: no banner, no hint, the text box as always', async () => {
    stubChat(null);
    await openChat();
    expect(await screen.findByRole('textbox', { name: 'Mensaje' })).toBeTruthy();
    expect(templateButton()).toBeNull();
    expect(screen.queryByText(/cierra a las/)).toBeNull();

    // The contact writing changes nothing either.
    await receiveAppMessage(
      makeMessage({
        id: 80,
        ticketId: ticket.id,
        fromMe: false,
        createdAt: new Date().toISOString(),
      }),
      ticket,
    );
    expect(templateButton()).toBeNull();
    expect(textBox()).toBeTruthy();
  });
});
