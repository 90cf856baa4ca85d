import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultSchedules } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { makePrompt, promptListOf } from '../../test/prompts';
import { integrationOptionsOf } from '../../test/queue-integrations';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import type { Queue, QueueOption } from './queues.api';
import { QueuesPage } from './queues-page';

const makeQueue = (overrides: Partial<Queue> = {}): Queue => ({
  id: 1,
  name: 'Soporte',
  color: '#e53935',
  greetingMessage: 'Hola, bienvenido a soporte técnico. Cuéntenos qué necesita.',
  outOfHoursMessage: '',
  completion: '',
  ratingMessage: '',
  token: '',
  orderQueue: 1,
  promptId: null,
  integrationId: null,
  routing: 'off',
  reassignMinutes: null,
  slaFirstResponseMinutes: null,
  slaNextResponseMinutes: null,
  slaResolutionMinutes: null,
  slaWarningMinutes: 5,
  outOfHoursQueueId: null,
  outOfHoursPromptId: null,
  schedules: defaultSchedules(),
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const makeOption = (overrides: Partial<QueueOption> = {}): QueueOption => ({
  id: 100,
  queueId: 1,
  parentId: null,
  title: 'Precios',
  message: 'Nuestros precios',
  option: '1',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

// Waits for the queue's row by its text, a cheap query while the list loads.
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

const openQueue = async (user: User, name: string) => {
  await user.click(
    within(await rowOf(name)).getByRole('button', { name: `Editar la cola ${name}` }),
  );
  return screen.findByRole('dialog');
};

describe('queues page', () => {
  it('lists name, colour, order and greeting of each queue', async () => {
    stubApi({
      'GET /queue': () =>
        jsonResponse(200, [
          makeQueue(),
          makeQueue({
            id: 2,
            name: 'Ventas',
            color: '#43a047',
            orderQueue: null,
            greetingMessage: '',
          }),
        ]),
    });
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const row = await rowOf('Soporte');
    expect(within(row).getByText('#e53935')).toBeTruthy();
    expect(within(row).getByText('1')).toBeTruthy();
    expect(within(row).getByTitle(/Hola, bienvenido a soporte técnico/)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Colas y chatbot' })).toBeTruthy();
  });

  it('creates a queue with the default service hours and then offers its options', async () => {
    let sent: Record<string, unknown> | undefined;
    const created = () => makeQueue({ ...(sent as Partial<Queue>), id: 7 });
    stubApi({
      // The server's list: the new queue in it once it exists (the dialog's queue pickers read it).
      'GET /queue': () => jsonResponse(200, sent ? [makeQueue(), created()] : [makeQueue()]),
      'POST /queue': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, created());
      },
      'GET /queue-options': () => jsonResponse(200, []),
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar cola' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('tab', { name: 'Opciones' }).hasAttribute('disabled')).toBe(
      true,
    );
    // SPEC §9 defaults, one read-only row per weekday.
    expect(within(dialog).getByDisplayValue('Sábado')).toBeTruthy();
    expect((within(dialog).getByDisplayValue('Domingo') as HTMLInputElement).readOnly).toBe(true);
    expect(within(dialog).getByRole('textbox', { name: 'Hora de fin Sábado' })).toHaveProperty(
      'value',
      '12:00',
    );
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Ventas');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Mensaje de saludo' }), 'Hola');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Cola guardada.')).toBeTruthy();
    expect(sent).toEqual({
      name: 'Ventas',
      // The first preset colour no other queue uses (Soporte has #e53935).
      color: '#d81b60',
      greetingMessage: 'Hola',
      outOfHoursMessage: '',
      completion: '',
      ratingMessage: '',
      token: '',
      orderQueue: null,
      schedules: defaultSchedules(),
      // Agents accept the queue's conversations unless automatic assignment is chosen.
      routing: 'off',
      reassignMinutes: null,
      // No SLA targets unless chosen; warned five minutes before.
      slaFirstResponseMinutes: null,
      slaNextResponseMinutes: null,
      slaResolutionMinutes: null,
      slaWarningMinutes: 5,
      outOfHoursQueueId: null,
      outOfHoursPromptId: null,
      // An admin of a plan with AI agents and integrations is offered both pickers: none chosen.
      promptId: null,
      integrationId: null,
    });
    // The dialog stays open on the saved queue, with its options tab now available.
    const options = within(screen.getByRole('dialog')).getByRole('tab', { name: 'Opciones' });
    expect(options.hasAttribute('disabled')).toBe(false);
    expect(within(screen.getByRole('dialog')).getByText('Editar cola')).toBeTruthy();
    await user.click(options);
    expect(await screen.findByText('Esta cola aún no tiene opciones.')).toBeTruthy();
    expect(screen.getAllByText('Ventas').length).toBeGreaterThan(0);
  });

  it('masks service hours as HH:MM and refuses impossible times', async () => {
    const fetchMock = stubApi({ 'GET /queue': () => jsonResponse(200, []) });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar cola' }));
    const dialog = await screen.findByRole('dialog');
    const start = within(dialog).getByRole('textbox', { name: 'Hora de inicio Lunes' });
    await user.clear(start);
    await user.type(start, '0930');
    expect((start as HTMLInputElement).value).toBe('09:30');
    await user.type(start, '99');
    expect((start as HTMLInputElement).value).toBe('09:30');

    const end = within(dialog).getByRole('textbox', { name: 'Hora de fin Lunes' });
    await user.clear(end);
    await user.type(end, '25a00');
    expect((end as HTMLInputElement).value).toBe('25:00');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Ventas');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await within(dialog).findByText('Use el formato HH:MM (00:00 a 23:59)')).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);
  });

  it('picks a colour from the palette, or takes a typed hex code', async () => {
    stubApi({ 'GET /queue': () => jsonResponse(200, [makeQueue()]) });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar cola' }));
    const dialog = await screen.findByRole('dialog');
    const hex = within(dialog).getByRole('textbox', { name: 'Color (hex)' });
    // Soporte's colour is taken, so its swatch cannot be picked.
    expect(
      within(dialog)
        .getByRole('radio', { name: 'Elegir el color #e53935. En uso por la cola Soporte' })
        .hasAttribute('disabled'),
    ).toBe(true);
    await user.click(within(dialog).getByRole('radio', { name: 'Elegir el color #1e88e5' }));
    expect((hex as HTMLInputElement).value).toBe('#1e88e5');
    expect(
      within(dialog)
        .getByRole('radio', { name: 'Elegir el color #1e88e5' })
        .getAttribute('aria-checked'),
    ).toBe('true');

    await refill(user, hex, '#12345');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Ventas');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    // Five hex digits fit the length rule but are no colour a browser can paint.
    expect(
      await within(dialog).findByText('Use un color hexadecimal, por ejemplo #1e88e5'),
    ).toBeTruthy();
  });

  it('shows a colour already in use on the colour field', async () => {
    stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue()]),
      'PUT /queue/1': () =>
        jsonResponse(409, {
          error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS',
          message: 'Another queue already uses this colour',
          fields: { color: ['ERR_QUEUE_COLOR_ALREADY_EXISTS'] },
        }),
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    const hex = within(dialog).getByRole('textbox', { name: 'Color (hex)' });
    await refill(user, hex, '#123456');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    const message = await within(dialog).findByText('Este color ya está en uso; elija otro.');
    expect(message.id).toBe(hex.getAttribute('aria-describedby'));
  });

  it('toasts the plan queue limit', async () => {
    stubApi({
      'GET /queue': () => jsonResponse(200, []),
      'POST /queue': () =>
        jsonResponse(403, {
          error: 'ERR_PLAN_LIMIT_QUEUES',
          message: 'The plan allows at most 5 queues',
        }),
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar cola' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Sexta');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Se alcanzó el límite de colas de su plan.')).toBeTruthy();
  });

  it('edits a queue and closes the dialog', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue()]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeQueue({ name: 'Soporte Técnico', orderQueue: 3 }));
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    await refill(user, name, 'Soporte Técnico');
    const order = within(dialog).getByRole('textbox', { name: 'Orden en el bot' });
    await refill(user, order, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Soporte Técnico')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toMatchObject({ name: 'Soporte Técnico', orderQueue: 3, color: '#e53935' });
  });

  it('manages the option tree: add, expand children, add a sub-option, delete', async () => {
    const posted: Record<string, unknown>[] = [];
    let topLevel = [makeOption()];
    let children: QueueOption[] = [];
    const deleted: string[] = [];
    const fetchMock = stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue()]),
      'GET /queue-options': ({ url }) =>
        jsonResponse(200, url.searchParams.get('parentId') === '-1' ? topLevel : children),
      'POST /queue-options': (init) => {
        const body = bodyOf(init);
        posted.push(body);
        const created = makeOption({ ...(body as Partial<QueueOption>), id: 100 + posted.length });
        if (body.parentId === null) topLevel = [...topLevel, created];
        else children = [...children, created];
        return jsonResponse(201, created);
      },
      'DELETE /queue-options/100': () => {
        deleted.push('100');
        topLevel = topLevel.filter((option) => option.id !== 100);
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    await user.click(within(dialog).getByRole('tab', { name: 'Opciones' }));
    expect(await within(dialog).findByText('Precios')).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('GET /queue-options?queueId=1&parentId=-1');

    await user.click(within(dialog).getByRole('button', { name: 'Agregar opción' }));
    const form = within(dialog).getByRole('form', { name: 'Nueva opción' });
    expect(within(form).getByRole('textbox', { name: 'Posición' })).toHaveProperty('value', '2');
    await fill(user, within(form).getByRole('textbox', { name: 'Título' }), 'Horarios');
    await fill(user, within(form).getByRole('textbox', { name: 'Mensaje' }), 'Abrimos a las 8');
    await user.click(within(form).getByRole('button', { name: 'Guardar opción' }));
    expect(await within(dialog).findByText('Horarios')).toBeTruthy();
    expect(posted[0]).toEqual({
      queueId: 1,
      parentId: null,
      option: '2',
      title: 'Horarios',
      message: 'Abrimos a las 8',
    });

    await user.click(
      within(dialog).getByRole('button', { name: 'Mostrar sub-opciones de Precios' }),
    );
    expect(await within(dialog).findByText('Sin sub-opciones.')).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('GET /queue-options?queueId=1&parentId=100');

    await user.click(within(dialog).getByRole('button', { name: 'Agregar sub-opción a Precios' }));
    const childForm = within(dialog).getByRole('form', { name: 'Nueva opción' });
    expect(within(childForm).getByRole('textbox', { name: 'Posición' })).toHaveProperty(
      'value',
      '1',
    );
    await fill(user, within(childForm).getByRole('textbox', { name: 'Título' }), 'Mayoreo');
    await user.click(within(childForm).getByRole('button', { name: 'Guardar opción' }));
    expect(await within(dialog).findByText('Mayoreo')).toBeTruthy();
    expect(posted[1]).toMatchObject({ queueId: 1, parentId: 100, option: '1', title: 'Mayoreo' });

    await user.click(within(dialog).getByRole('button', { name: 'Eliminar la opción Precios' }));
    const confirm = await screen.findByRole('dialog', { name: '¿Eliminar la opción Precios?' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Opción eliminada.')).toBeTruthy();
    expect(deleted).toEqual(['100']);
    await waitFor(() => expect(within(dialog).queryByText('Precios')).toBeNull());
  });

  it('edits an option in place', async () => {
    let sent: Record<string, unknown> | undefined;
    let option = makeOption();
    stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue()]),
      'GET /queue-options': () => jsonResponse(200, [option]),
      'PUT /queue-options/100': (init) => {
        sent = bodyOf(init);
        option = { ...option, ...(sent as Partial<QueueOption>) };
        return jsonResponse(200, option);
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    await user.click(within(dialog).getByRole('tab', { name: 'Opciones' }));
    await user.click(
      await within(dialog).findByRole('button', { name: 'Editar la opción Precios' }),
    );
    const form = within(dialog).getByRole('form', { name: 'Editar opción' });
    const title = within(form).getByRole('textbox', { name: 'Título' });
    await refill(user, title, 'Lista de precios');
    await user.click(within(form).getByRole('button', { name: 'Guardar opción' }));

    expect(await within(dialog).findByText('Lista de precios')).toBeTruthy();
    expect(sent).toEqual({ option: '1', title: 'Lista de precios', message: 'Nuestros precios' });
  });

  it('deletes a queue after confirmation', async () => {
    let deleted = false;
    stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue()]),
      'DELETE /queue/1': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    await user.click(
      within(await rowOf('Soporte')).getByRole('button', { name: 'Eliminar la cola Soporte' }),
    );
    const confirm = await screen.findByRole('dialog', { name: '¿Eliminar la cola Soporte?' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Cola eliminada.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Soporte')).toBeNull());
  });

  it('applies live queue events in the API order', async () => {
    stubApi({ 'GET /queue': () => jsonResponse(200, [makeQueue()]) });
    renderPage(<QueuesPage />, '/queues', makeAuth());
    await screen.findByText('Soporte');
    const socket = getSocket() as unknown as FakeSocket;

    act(() => {
      socket.receive('company-1-queue', {
        action: 'create',
        queue: makeQueue({ id: 2, name: 'Atención', color: '#43a047', orderQueue: 0 }),
      });
    });
    await screen.findByText('Atención');
    const names = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.querySelector('td')?.textContent);
    expect(names()).toEqual(['Atención', 'Soporte']);

    act(() => {
      socket.receive('company-1-queue', {
        action: 'update',
        queue: makeQueue({ name: 'Soporte VIP' }),
      });
    });
    expect(await screen.findByText('Soporte VIP')).toBeTruthy();

    act(() => {
      socket.receive('company-1-queue', { action: 'delete', queueId: 2 });
    });
    await waitFor(() => expect(names()).toEqual(['Soporte VIP']));
  });

  it('hands a queue to an AI agent chosen from the list', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue()]),
      'GET /prompt': () => promptListOf([makePrompt({ id: 4, name: 'Asistente de soporte' })]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeQueue({ promptId: 4 }));
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    const picker = within(dialog).getByRole('combobox', { name: 'Agente de IA' });
    expect(picker.textContent).toBe('Ninguno');
    expect(
      within(dialog).getByText(
        /Una cola con agente le entrega sus conversaciones en lugar del menú de opciones/,
      ),
    ).toBeTruthy();
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Asistente de soporte' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toMatchObject({ name: 'Soporte', promptId: 4 });
  });

  it('takes the agent off a queue', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue({ promptId: 4 })]),
      'GET /prompt': () => promptListOf([makePrompt({ id: 4, name: 'Asistente de soporte' })]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeQueue());
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    const picker = within(dialog).getByRole('combobox', { name: 'Agente de IA' });
    await waitFor(() => expect(picker.textContent).toBe('Asistente de soporte'));
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Ninguno' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(sent).toMatchObject({ promptId: null }));
  });

  it("offers no agent when the plan has no AI agents, and leaves the queue's own alone", async () => {
    let sent: Record<string, unknown> | undefined;
    const fetchMock = stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue({ promptId: 4 })]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeQueue({ promptId: 4 }));
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth({ plan: { useOpenAi: false } }));

    const dialog = await openQueue(user, 'Soporte');
    expect(within(dialog).queryByRole('combobox', { name: 'Agente de IA' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(sent).toBeDefined());
    expect(sent).not.toHaveProperty('promptId');
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /prompt'))).toBe(false);
  });

  it('turns on automatic assignment for a queue and shows the saved choice', async () => {
    let sent: Record<string, unknown> | undefined;
    let queue = makeQueue();
    stubApi({
      'GET /queue': () => jsonResponse(200, [queue]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        queue = makeQueue({ ...(sent as Partial<Queue>) });
        return jsonResponse(200, queue);
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    let dialog = await openQueue(user, 'Soporte');
    const routing = within(dialog).getByRole('combobox', { name: 'Asignación automática' });
    expect(routing.textContent).toBe('Desactivada (los agentes aceptan)');
    expect(
      within(dialog).getByText(
        /se asignan solas a sus agentes en línea que no llegaron a su máximo/,
      ),
    ).toBeTruthy();
    await user.click(routing);
    const choices = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(choices.map((choice) => choice.textContent)).toEqual([
      'Desactivada (los agentes aceptan)',
      'Por turnos',
      'Equilibrada (menos conversaciones abiertas)',
    ]);
    await user.click(
      screen.getByRole('option', { name: 'Equilibrada (menos conversaciones abiertas)' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toMatchObject({ name: 'Soporte', routing: 'balanced' });

    dialog = await openQueue(user, 'Soporte');
    expect(
      within(dialog).getByRole('combobox', { name: 'Asignación automática' }).textContent,
    ).toBe('Equilibrada (menos conversaciones abiertas)');
    await user.click(within(dialog).getByRole('combobox', { name: 'Asignación automática' }));
    await user.click(await screen.findByRole('option', { name: 'Por turnos' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(sent).toMatchObject({ routing: 'round_robin' }));
  });

  it('sends a queue’s out-of-hours conversations to another queue', async () => {
    let queue = makeQueue();
    const guard = makeQueue({ id: 2, name: 'Guardia', color: '#00aa00' });
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, [queue, guard]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        queue = makeQueue({ ...(sent as Partial<Queue>) });
        return jsonResponse(200, queue);
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    const select = within(dialog).getByRole('combobox', {
      name: 'Fuera de horario, enviar a la cola',
    });
    expect(select.textContent).toBe('Ninguna (solo el mensaje de fuera de horario)');
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Guardia' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(sent).toMatchObject({ outOfHoursQueueId: 2 }));
  });

  it('takes the minutes after which an unanswered conversation is reassigned, or none', async () => {
    let queue = makeQueue({ routing: 'round_robin', reassignMinutes: 15 });
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, [queue]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        queue = makeQueue({ ...(sent as Partial<Queue>) });
        return jsonResponse(200, queue);
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    const minutes = within(dialog).getByRole('textbox', {
      name: 'Reasignar si el agente no responde en (minutos)',
    });
    expect((minutes as HTMLInputElement).value).toBe('15');
    await user.clear(minutes);
    await user.type(minutes, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(dialog).findByText('Use un número entero de 1 a 1440, o déjelo vacío'),
    ).toBeTruthy();
    expect(sent).toBeUndefined();
    // Emptied: never reassigned.
    await user.clear(minutes);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(sent).toMatchObject({ reassignMinutes: null }));
  });

  it('takes the SLA targets and the warning, refusing what is not whole minutes', async () => {
    let queue = makeQueue({ slaFirstResponseMinutes: 30 });
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, [queue]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        queue = makeQueue({ ...(sent as Partial<Queue>) });
        return jsonResponse(200, queue);
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    const field = (name: string) =>
      within(dialog).getByRole('textbox', { name }) as HTMLInputElement;
    expect(field('Primera respuesta (min)').value).toBe('30');
    expect(field('Avisar antes (min)').value).toBe('5');
    await user.type(field('Resolución (min)'), '1.5');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(dialog).findByText('Use un número entero de 1 a 43200, o déjelo vacío'),
    ).toBeTruthy();
    expect(sent).toBeUndefined();
    await user.clear(field('Resolución (min)'));
    await user.type(field('Resolución (min)'), '480');
    await user.type(field('Respuesta siguiente (min)'), '15');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() =>
      expect(sent).toMatchObject({
        slaFirstResponseMinutes: 30,
        slaNextResponseMinutes: 15,
        slaResolutionMinutes: 480,
        slaWarningMinutes: 5,
      }),
    );
  });

  it('sends the completion, rating and token texts and the chosen integration', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue()]),
      'GET /queueIntegration/list': () =>
        integrationOptionsOf([
          { id: 5, name: 'Bot de soporte', type: 'typebot' },
          { id: 6, name: 'Avisos n8n', type: 'n8n' },
        ]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeQueue({ ...(sent as Partial<Queue>) }));
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Mensaje de finalización' }),
      'Gracias por escribirnos',
    );
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Mensaje de evaluación' }),
      '¿Cómo lo atendimos?',
    );
    await fill(user, within(dialog).getByRole('textbox', { name: 'Token' }), 'tok-soporte');
    const picker = within(dialog).getByRole('combobox', { name: 'Integración' });
    expect(picker.textContent).toBe('Ninguna');
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Bot de soporte' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toMatchObject({
      completion: 'Gracias por escribirnos',
      ratingMessage: '¿Cómo lo atendimos?',
      token: 'tok-soporte',
      integrationId: 5,
    });
  });

  it('shows the saved texts and integration of a queue, and takes the integration off', async () => {
    let sent: Record<string, unknown> | undefined;
    const saved = makeQueue({
      completion: 'Hasta pronto',
      ratingMessage: 'Califíquenos',
      token: 'tok-1',
      integrationId: 5,
    });
    stubApi({
      'GET /queue': () => jsonResponse(200, [saved]),
      'GET /queueIntegration/list': () =>
        integrationOptionsOf([{ id: 5, name: 'Bot de soporte', type: 'typebot' }]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeQueue());
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth());

    const dialog = await openQueue(user, 'Soporte');
    expect(within(dialog).getByRole('textbox', { name: 'Mensaje de finalización' })).toHaveProperty(
      'value',
      'Hasta pronto',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Mensaje de evaluación' })).toHaveProperty(
      'value',
      'Califíquenos',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Token' })).toHaveProperty('value', 'tok-1');
    const picker = within(dialog).getByRole('combobox', { name: 'Integración' });
    await waitFor(() => expect(picker.textContent).toBe('Bot de soporte'));
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Ninguna' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(sent).toMatchObject({ integrationId: null, token: 'tok-1' }));
  });

  it("offers no integration without the plan's integrations, and leaves the queue's own alone", async () => {
    let sent: Record<string, unknown> | undefined;
    const fetchMock = stubApi({
      'GET /queue': () => jsonResponse(200, [makeQueue({ integrationId: 5 })]),
      'PUT /queue/1': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeQueue({ integrationId: 5 }));
      },
    });
    const user = setupUser();
    renderPage(<QueuesPage />, '/queues', makeAuth({ plan: { useIntegrations: false } }));

    const dialog = await openQueue(user, 'Soporte');
    expect(within(dialog).queryByRole('combobox', { name: 'Integración' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(sent).toBeDefined());
    expect(sent).not.toHaveProperty('integrationId');
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /queueIntegration'))).toBe(false);
  });

  it('tells a non-admin the page is not for them', async () => {
    const fetchMock = stubApi({ 'GET /queue': () => jsonResponse(200, []) });
    renderPage(<QueuesPage />, '/queues', makeAuth({ user: { profile: 'user' } }));

    expect(
      await screen.findByText('Solo los administradores pueden gestionar las colas.'),
    ).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /queue'))).toBe(false);
  });
});
