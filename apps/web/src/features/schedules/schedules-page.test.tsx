import { act, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ScheduleView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { i18n } from '../../i18n/i18n';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import type { FakeSocket } from '../../test/fake-socket';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser } from '../../test/user-event';
import { SchedulesCalendar } from './schedules-calendar';
import { SchedulesPage } from './schedules-page';
import { dateInput, readDateTime, setDate, shownDateTime } from '../../test/date-fields';

const HOUR_MS = 60 * 60 * 1000;

// Today at the given local hour: always inside the calendar's first month.
const todayAt = (hour: number) => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate(), hour, 0).toISOString();
};

let nextId = 1;
const makeSchedule = (overrides: Partial<ScheduleView> = {}): ScheduleView => {
  const id = overrides.id ?? nextId++;
  return {
    id,
    body: `Recordatorio ${id}`,
    contactId: 10,
    contact: { id: 10, name: 'Lucía Gómez', number: '5491100000010' },
    sendAt: todayAt(10),
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
    createdAt: '2025-03-10T12:00:00.000Z',
    updatedAt: '2025-03-10T12:00:00.000Z',
    ...overrides,
  };
};

const pageOf = (schedules: ScheduleView[], hasMore = false, count = schedules.length) =>
  jsonResponse(200, { schedules, hasMore, count });

const requestsOf = (fetchMock: { mock: { calls: unknown[][] } }) =>
  fetchMock.mock.calls.map(([url, init]) => {
    const parsed = new URL(String(url));
    const body = (init as RequestInit).body;
    return {
      method: (init as RequestInit).method ?? 'GET',
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      body: typeof body === 'string' ? (JSON.parse(body) as Record<string, unknown>) : undefined,
    };
  });

const calendar = () => within(screen.getByTestId('schedules-calendar'));
const eventTexts = () =>
  calendar()
    .queryAllByTestId('schedule-event')
    .map((event) => event.textContent);
const todayCell = () =>
  calendar().getByRole('gridcell', { name: new Date().toLocaleDateString('es') });

describe('schedules page', () => {
  it('shows each schedule on its day titled with the contact, and the count in the title', async () => {
    stubApi({
      'GET /schedules': () =>
        pageOf([
          makeSchedule({ sendAt: todayAt(15) }),
          makeSchedule({
            sendAt: todayAt(9),
            contact: { id: 11, name: 'Pedro Ruiz', number: '5491100000011' },
          }),
        ]),
    });
    renderPage(<SchedulesPage />, '/schedules', makeAuth());

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Agendamientos (2)' }),
    ).toBeTruthy();
    await calendar().findAllByTestId('schedule-event');
    // Ordered by send time inside the day cell.
    expect(
      within(todayCell())
        .getAllByTestId('schedule-event')
        .map((event) => event.textContent),
    ).toEqual(['09:00 Pedro Ruiz', '15:00 Lucía Gómez']);
  });

  it('loads every page of schedules for the calendar', async () => {
    stubApi({
      'GET /schedules': ({ url }) =>
        url.searchParams.get('pageNumber') === '2'
          ? pageOf([makeSchedule({ contact: { id: 3, name: 'Segunda', number: '3' } })], false, 2)
          : pageOf([makeSchedule({ contact: { id: 2, name: 'Primera', number: '2' } })], true, 2),
    });
    renderPage(<SchedulesPage />, '/schedules', makeAuth());
    await waitFor(() => expect(eventTexts()).toEqual(['10:00 Primera', '10:00 Segunda']));
  });

  it('titles the month as each language writes it', async () => {
    render(
      <SchedulesCalendar
        schedules={[]}
        onEdit={vi.fn()}
        onDelete={vi.fn()}
        initialDate={new Date(2026, 10, 15)}
      />,
    );
    const title = screen.getByRole('heading', { level: 2 });
    expect(title.textContent).toBe('Noviembre de 2026');
    // Nothing styles it into "Noviembre De 2026" again.
    expect(getComputedStyle(title).textTransform).not.toBe('capitalize');
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('November 2026');
  });

  it('on a phone, counts each day’s schedules and lists the chosen day’s with the contact’s whole name', async () => {
    window.innerWidth = 375;
    const onEdit = vi.fn();
    const marta = makeSchedule({
      sendAt: new Date(2026, 10, 15, 12, 0).toISOString(),
      contact: { id: 12, name: 'Marta Díaz', number: '5491100000012' },
    });
    const pedro = makeSchedule({
      sendAt: new Date(2026, 10, 15, 9, 30).toISOString(),
      contact: { id: 11, name: 'Pedro Ruiz', number: '5491100000011' },
    });
    const user = setupUser();
    render(
      <SchedulesCalendar
        schedules={[marta, pedro]}
        onEdit={onEdit}
        onDelete={vi.fn()}
        initialDate={new Date(2026, 10, 15)}
      />,
    );
    const day = new Date(2026, 10, 15).toLocaleDateString('es');
    expect(screen.getByRole('gridcell', { name: `${day}: 2 agendamientos` })).toBeTruthy();
    const agenda = screen.getByRole('region', { name: 'domingo, 15 de noviembre' });
    expect(
      within(agenda)
        .getAllByTestId('schedule-event')
        .map((event) => event.textContent),
    ).toEqual(['09:30 Pedro Ruiz', '12:00 Marta Díaz']);
    await user.click(
      within(agenda).getByRole('button', { name: 'Editar el agendamiento de Marta Díaz' }),
    );
    expect(onEdit).toHaveBeenCalledWith(marta);

    await user.click(
      screen.getByRole('gridcell', { name: new Date(2026, 10, 16).toLocaleDateString('es') }),
    );
    expect(screen.getByText('Nada programado este día.')).toBeTruthy();
  });

  it('switches to a week and moves between weeks', async () => {
    stubApi({ 'GET /schedules': () => pageOf([makeSchedule()]) });
    const user = setupUser();
    renderPage(<SchedulesPage />, '/schedules', makeAuth());
    await screen.findByTestId('schedules-calendar');
    await waitFor(() => expect(eventTexts()).toEqual(['10:00 Lucía Gómez']));
    expect(calendar().getAllByRole('gridcell')).toHaveLength(42);

    await user.click(calendar().getByRole('button', { name: 'Semana' }));
    expect(calendar().getAllByRole('gridcell')).toHaveLength(7);
    expect(within(todayCell()).getByText('10:00 Lucía Gómez')).toBeTruthy();

    await user.click(calendar().getByRole('button', { name: 'Siguiente' }));
    expect(eventTexts()).toEqual([]);
    await user.click(calendar().getByRole('button', { name: 'Hoy' }));
    expect(eventTexts()).toEqual(['10:00 Lucía Gómez']);
  });

  it('opens the add dialog for the contact in ?contactId= and creates the schedule', async () => {
    let list = [] as ScheduleView[];
    const fetchMock = stubApi({
      'GET /schedules': () => pageOf(list),
      'GET /contacts/7': () =>
        jsonResponse(200, { id: 7, name: 'Marta Díaz', number: '5491100000007' }),
      'POST /schedules': (init) => {
        const input = JSON.parse(String(init.body)) as { body: string; sendAt: string };
        const created = makeSchedule({
          id: 90,
          body: input.body,
          sendAt: todayAt(12),
          contactId: 7,
          contact: { id: 7, name: 'Marta Díaz', number: '5491100000007' },
        });
        list = [created];
        return jsonResponse(201, created);
      },
    });
    const user = setupUser();
    renderPage(<SchedulesPage />, '/schedules?contactId=7', makeAuth());

    const dialog = within(await screen.findByRole('dialog', { name: 'Nuevo agendamiento' }));
    expect((dialog.getByRole('combobox', { name: 'Contacto' }) as HTMLInputElement).value).toBe(
      'Marta Díaz - 5491100000007',
    );
    // SPEC §9: one hour from now by default.
    const sendAt = dateInput(/Fecha de envío/, dialog).value;
    const proposed = readDateTime(sendAt).getTime() - Date.now();
    expect(proposed).toBeGreaterThan(HOUR_MS - 2 * 60 * 1000);
    expect(proposed).toBeLessThanOrEqual(HOUR_MS);

    await fill(user, dialog.getByRole('textbox', { name: 'Mensaje' }), 'Hola');
    await user.click(dialog.getByRole('button', { name: 'Agregar' }));
    expect(await dialog.findByText('Mensaje Muy Corto')).toBeTruthy();

    await fill(
      user,
      dialog.getByRole('textbox', { name: 'Mensaje' }),
      ' Marta, su turno es mañana',
    );
    await user.click(dialog.getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Agendamiento guardado.')).toBeTruthy();
    const post = requestsOf(fetchMock).find((call) => call.method === 'POST');
    expect(post?.path).toBe('/schedules');
    expect(post?.body).toMatchObject({
      contactId: 7,
      body: 'Hola Marta, su turno es mañana',
      sendAt: readDateTime(sendAt).toISOString(),
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(eventTexts()).toEqual(['12:00 Marta Díaz']));
    expect(screen.getByRole('heading', { level: 1, name: 'Agendamientos (1)' })).toBeTruthy();
  });

  it('requires a contact, searched from 3 typed characters', async () => {
    const fetchMock = stubApi({
      'GET /schedules': () => pageOf([]),
      'GET /contacts': ({ url }) =>
        jsonResponse(200, {
          contacts:
            url.searchParams.get('searchParam') === 'Mar'
              ? [{ id: 7, name: 'Marta Díaz', number: '5491100000007' }]
              : [],
          hasMore: false,
          count: 1,
        }),
    });
    const user = setupUser();
    renderPage(<SchedulesPage />, '/schedules', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Nuevo agendamiento' }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByRole('textbox', { name: 'Mensaje' }), 'Recordatorio de pago');
    await user.click(dialog.getByRole('button', { name: 'Agregar' }));
    expect(await dialog.findByText('Campo Obligatorio')).toBeTruthy();

    const contact = dialog.getByRole('combobox', { name: 'Contacto' });
    await user.type(contact, 'Ma');
    expect(await screen.findByText('Escriba al menos 3 caracteres')).toBeTruthy();
    await user.type(contact, 'r');
    await user.click(await screen.findByRole('option', { name: 'Marta Díaz - 5491100000007' }));
    const searched = requestsOf(fetchMock)
      .filter((call) => call.path === '/contacts')
      .map((call) => call.query.searchParam);
    expect(searched).toEqual(['Mar']);
  });

  it('edits a schedule clicked in the calendar', async () => {
    const existing = makeSchedule({ id: 5, body: 'Pagar factura', sendAt: todayAt(11) });
    let list = [existing];
    const fetchMock = stubApi({
      'GET /schedules': () => pageOf(list),
      'PUT /schedules/5': (init) => {
        const input = JSON.parse(String(init.body)) as { body: string };
        list = [{ ...existing, body: input.body }];
        return jsonResponse(200, list[0]);
      },
    });
    const user = setupUser();
    renderPage(<SchedulesPage />, '/schedules', makeAuth());

    await screen.findByTestId('schedules-calendar');
    await user.click(await calendar().findByRole('button', { name: '11:00 Lucía Gómez' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar agendamiento' }));
    expect((dialog.getByRole('combobox', { name: 'Contacto' }) as HTMLInputElement).value).toBe(
      'Lucía Gómez - 5491100000010',
    );
    const body = dialog.getByRole('textbox', { name: 'Mensaje' });
    expect((body as HTMLInputElement).value).toBe('Pagar factura');
    // Put the send time ahead so the form accepts it whatever the hour of the test run.
    const later = new Date(Date.now() + 2 * HOUR_MS);
    setDate(/Fecha de envío/, shownDateTime(later), dialog);
    await refill(user, body, 'Pagar la factura de marzo');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Agendamiento guardado.')).toBeTruthy();
    const put = requestsOf(fetchMock).find((call) => call.method === 'PUT');
    expect(put?.body).toMatchObject({ contactId: 10, body: 'Pagar la factura de marzo' });
    expect(new Date(String(put?.body?.sendAt)).getTime()).toBeGreaterThan(Date.now() + HOUR_MS);
  });

  it('deletes a schedule after confirmation', async () => {
    let list = [makeSchedule({ id: 6 })];
    let isDeleted = false;
    stubApi({
      'GET /schedules': () => pageOf(list),
      'DELETE /schedules/6': () => {
        isDeleted = true;
        list = [];
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<SchedulesPage />, '/schedules', makeAuth());

    await screen.findByTestId('schedules-calendar');
    await user.click(
      await calendar().findByRole('button', { name: 'Eliminar el agendamiento de Lucía Gómez' }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: '¿Eliminar agendamiento?' }));
    expect(dialog.getByText(/Se eliminará el agendamiento de Lucía Gómez/)).toBeTruthy();
    expect(isDeleted).toBe(false);
    await user.click(dialog.getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Agendamiento eliminado.')).toBeTruthy();
    expect(isDeleted).toBe(true);
    await waitFor(() => expect(eventTexts()).toEqual([]));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Agendamientos (0)' }),
    ).toBeTruthy();
  });

  it('searches after the user stops typing for half a second', async () => {
    const fetchMock = stubApi({
      'GET /schedules': ({ url }) =>
        url.searchParams.get('searchParam') === 'Pedro'
          ? pageOf([
              makeSchedule({ contact: { id: 11, name: 'Pedro Ruiz', number: '5491100000011' } }),
            ])
          : pageOf([makeSchedule(), makeSchedule()]),
    });
    const user = setupUserOnFakeClock();
    renderPage(<SchedulesPage />, '/schedules', makeAuth());
    await screen.findByRole('heading', { level: 1, name: 'Agendamientos (2)' });

    await user.type(screen.getByRole('searchbox', { name: 'Buscar agendamientos…' }), 'Pedro');
    await advanceClock(SEARCH_DEBOUNCE_MS);
    await waitFor(() => expect(eventTexts()).toEqual(['10:00 Pedro Ruiz']));
    expect(screen.getByRole('heading', { level: 1, name: 'Agendamientos (1)' })).toBeTruthy();
    const searches = requestsOf(fetchMock)
      .filter((call) => call.path === '/schedules' && call.query.searchParam)
      .map((call) => call.query.searchParam);
    expect(searches).toEqual(['Pedro']);
  });

  it('shows schedules another user saves, as the server announces them', async () => {
    let list = [makeSchedule()];
    stubApi({ 'GET /schedules': () => pageOf(list) });
    renderPage(<SchedulesPage />, '/schedules', makeAuth());
    await screen.findByRole('heading', { level: 1, name: 'Agendamientos (1)' });

    const added = makeSchedule({
      sendAt: todayAt(16),
      contact: { id: 12, name: 'Sofía Luna', number: '5491100000012' },
    });
    list = [...list, added];
    await act(async () => {
      (getSocket() as unknown as FakeSocket).receive('company-1-schedule', {
        action: 'create',
        schedule: added,
      });
    });
    await waitFor(() => expect(eventTexts()).toEqual(['10:00 Lucía Gómez', '16:00 Sofía Luna']));
    expect(screen.getByRole('heading', { level: 1, name: 'Agendamientos (2)' })).toBeTruthy();
  });
});
