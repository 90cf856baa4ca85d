import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ScheduleEvent, ScheduleView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { formatDate } from '../../lib/dates';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser } from '../../test/user-event';
import { formatTime } from './ticket-format';
import { bodyOf, listOf, makeMessage, makeTicket, messagesOf } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';
import { dateInput, readDateTime, setDate, shownDateTime } from '../../test/date-fields';

const HOUR = 60 * 60 * 1000;
const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;

const at = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

const makeSchedule = (overrides: Partial<ScheduleView> = {}): ScheduleView => ({
  id: 1,
  body: 'Recordatorio de su cita',
  contactId: ticket.contactId,
  contact: { id: ticket.contactId, name: ticket.contact.name, number: ticket.contact.number },
  sendAt: at(2 * HOUR),
  sentAt: null,
  status: 'PENDENTE',
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  userId: 1,
  user: { id: 1, name: 'Ana Admin' },
  ticketId: null,
  whatsappId: null,
  companyId: 1,
  createdAt: at(-HOUR),
  updatedAt: at(-HOUR),
  ...overrides,
});

const stubChat = (schedules: ScheduleView[], routes: Parameters<typeof stubApi>[0] = {}) =>
  stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    'GET /messages/7': () =>
      messagesOf(ticket, [makeMessage({ id: 1, ticketId: 7, body: 'Hola, ¿tienen envíos?' })]),
    'GET /schedules': () =>
      jsonResponse(200, { schedules, hasMore: false, count: schedules.length }),
    ...routes,
  });

const when = (iso: string) => `Programado para ${formatDate(iso)} ${formatTime(iso)}`;

const receiveSchedule = async (event: ScheduleEvent) => {
  const socket = getSocket() as unknown as FakeSocket;
  await act(async () => {
    socket.receive('company-1-schedule', event);
  });
};

describe('scheduled messages in the chat', () => {
  it("shows the contact's schedules still ahead after the messages, soonest first", async () => {
    const later = makeSchedule({ id: 1, body: 'Su pedido sale mañana', sendAt: at(5 * HOUR) });
    const sooner = makeSchedule({ id: 2, body: 'Le llamamos en una hora', sendAt: at(HOUR) });
    const fetchMock = stubChat([
      later,
      sooner,
      makeSchedule({ id: 3, body: 'Ya enviado', status: 'ENVIADA', sendAt: at(-HOUR) }),
      makeSchedule({ id: 4, body: 'Atrasado', sendAt: at(-5 * 60 * 1000) }),
      makeSchedule({ id: 5, body: 'Falló', status: 'ERRO', sendAt: at(-HOUR) }),
    ]);
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    const section = await screen.findByRole('region', { name: 'Mensajes programados' });
    await within(section).findByText('Su pedido sale mañana');
    const bubbles = within(section).getAllByTestId(/^schedule-/);
    expect(bubbles.map((b) => b.dataset.testid)).toEqual(['schedule-2', 'schedule-1']);
    expect(within(bubbles[0]).getByText(when(sooner.sendAt))).toBeTruthy();
    expect(screen.queryByText('Ya enviado')).toBeNull();
    expect(screen.queryByText('Atrasado')).toBeNull();
    expect(screen.queryByText('Falló')).toBeNull();
    // After the conversation, inside the same scroll.
    const scroll = screen.getByTestId('messages-scroll');
    const message = within(scroll).getByText('Hola, ¿tienen envíos?');
    expect(
      message.compareDocumentPosition(bubbles[0]) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(callsOf(fetchMock)).toContain(
      `GET /schedules?contactId=${ticket.contactId}&schedulePageNumber=1`,
    );
  });

  it('deletes a schedule after confirmation', async () => {
    const deleted: string[] = [];
    stubChat([makeSchedule({ id: 9, body: 'Recordatorio de pago' })], {
      'DELETE /schedules/9': ({ url }) => {
        deleted.push(url.pathname);
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    const bubble = await screen.findByTestId('schedule-9');
    await user.click(within(bubble).getByRole('button', { name: 'Eliminar mensaje programado' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('¿Eliminar este mensaje programado?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Mensaje programado eliminado.')).toBeTruthy();
    expect(deleted).toEqual(['/schedules/9']);
    await waitFor(() => expect(screen.queryByTestId('schedule-9')).toBeNull());
  });

  it('follows live schedule events of the company for this contact only', async () => {
    stubChat([makeSchedule({ id: 1, body: 'Primero del día' })]);
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
    await screen.findByTestId('schedule-1');

    await receiveSchedule({
      action: 'create',
      schedule: makeSchedule({ id: 2, body: 'Creado por un colega', sendAt: at(3 * HOUR) }),
    });
    expect(await screen.findByText('Creado por un colega')).toBeTruthy();
    await receiveSchedule({
      action: 'create',
      schedule: makeSchedule({ id: 3, body: 'De otro contacto', contactId: 99 }),
    });
    // Sent: no longer ahead, so it leaves the chat (the message itself arrives as a message).
    await receiveSchedule({
      action: 'update',
      schedule: makeSchedule({ id: 1, status: 'ENVIADA', sentAt: at(0), sendAt: at(-1000) }),
    });
    await receiveSchedule({ action: 'delete', scheduleId: 2 });

    await waitFor(() => expect(screen.queryByText('Primero del día')).toBeNull());
    expect(screen.queryByText('Creado por un colega')).toBeNull();
    expect(screen.queryByText('De otro contacto')).toBeNull();
  });
});

describe('schedule dialog', () => {
  it('schedules a message for the ticket’s contact, an hour ahead unless changed', async () => {
    const posts: Record<string, unknown>[] = [];
    stubChat([], {
      'POST /schedules': (init) => {
        const body = bodyOf(init);
        posts.push(body);
        return jsonResponse(
          201,
          makeSchedule({ id: 21, body: String(body.body), sendAt: String(body.sendAt) }),
        );
      },
    });
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await user.click(await screen.findByRole('button', { name: 'Programar mensaje' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Contacto')).toHaveProperty('value', 'María López');
    expect(within(dialog).getByLabelText('Contacto')).toHaveProperty('disabled', true);
    const proposed = readDateTime(dateInput('Fecha de envío', within(dialog)).value).getTime();
    expect(Math.abs(proposed - (Date.now() + HOUR))).toBeLessThan(2 * 60 * 1000);

    // SPEC §5: at least 5 characters.
    await fill(user, within(dialog).getByLabelText('Mensaje'), 'Hola');
    await user.click(within(dialog).getByRole('button', { name: 'Programar' }));
    expect(await within(dialog).findByText('Mensaje Muy Corto')).toBeTruthy();
    expect(posts).toEqual([]);

    await fill(user, within(dialog).getByLabelText('Mensaje'), ' {{firstName}}, su pedido salió');
    const chosen = new Date(Date.now() + 26 * HOUR);
    chosen.setSeconds(0, 0);
    setDate('Fecha de envío', shownDateTime(chosen), within(dialog));
    await user.click(within(dialog).getByRole('button', { name: 'Programar' }));

    expect(await screen.findByText('Mensaje programado.')).toBeTruthy();
    expect(posts).toEqual([
      {
        body: 'Hola {{firstName}}, su pedido salió',
        contactId: ticket.contactId,
        sendAt: chosen.toISOString(),
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // It shows at once in the chat, before any live event.
    expect(await screen.findByText(when(chosen.toISOString()))).toBeTruthy();
  });

  it('refuses a send time already past without calling the API', async () => {
    const fetchMock = stubChat([]);
    const user = setupUser();
    renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });

    await user.click(await screen.findByRole('button', { name: 'Programar mensaje' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByLabelText('Mensaje'), 'Buenos días, le escribimos');
    setDate('Fecha de envío', shownDateTime(new Date(Date.now() - HOUR)), within(dialog));
    await user.click(within(dialog).getByRole('button', { name: 'Programar' }));
    expect(await within(dialog).findByText('Elija una fecha futura')).toBeTruthy();
    expect(callsOf(fetchMock).filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('is not offered, and nothing is asked for, when the plan has no schedules', async () => {
    const fetchMock = stubChat([makeSchedule()]);
    renderPage(<TicketsPage />, chatPath, makeAuth({ plan: { useSchedules: false } }), {
      route: '/tickets/:ticketId?',
    });

    await screen.findByText('Hola, ¿tienen envíos?');
    expect(screen.queryByRole('button', { name: 'Programar mensaje' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Mensajes programados' })).toBeNull();
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /schedules'))).toBe(false);
  });
});
