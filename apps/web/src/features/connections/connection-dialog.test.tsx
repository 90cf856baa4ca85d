import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultSchedules } from '@atendi/shared';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import { makePrompt, promptListOf } from '../../test/prompts';
import { integrationOptionsOf } from '../../test/queue-integrations';
import { bodyOf, makeConnection } from './connections.fixtures';
import { ConnectionsPage } from './connections-page';

const queues = [
  { id: 1, name: 'Ventas', color: '#43a047' },
  { id: 2, name: 'Soporte', color: '#e53935' },
];

const openAddDialog = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Agregar WhatsApp' }));
  return screen.findByRole('dialog', { name: 'Agregar WhatsApp' });
};

const pickQueues = async (user: User, dialog: HTMLElement, names: string[]) => {
  await user.click(within(dialog).getByRole('combobox', { name: 'Colas' }));
  for (const name of names) await user.click(await screen.findByRole('option', { name }));
  await user.keyboard('{Escape}');
};

describe('connection dialog', () => {
  it('adds a connection with the SPEC defaults', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, queues),
      'POST /whatsapp': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeConnection({ id: 9, name: 'Atención', status: 'OPENING' }));
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openAddDialog(user);
    expect(within(dialog).getByRole('combobox', { name: 'Tipo de conexión' }).textContent).toBe(
      'WhatsApp (código QR)',
    );
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Atención');
    await user.click(within(dialog).getByRole('switch', { name: 'Conexión predeterminada' }));
    await pickQueues(user, dialog, ['Ventas']);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Mensaje de saludo' }), 'Hola');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Conexión guardada.')).toBeTruthy();
    expect(sent).toEqual({
      name: 'Atención',
      isDefault: true,
      provider: 'beta',
      queueIds: [1],
      greetingMessage: 'Hola',
      complationMessage: '',
      outOfHoursMessage: '',
      ratingMessage: '',
      transferQueueId: null,
      timeToTransfer: null,
      expiresTicket: 0,
      expiresInactiveMessage: '',
      timeUseBotQueues: 0,
      maxUseBotQueues: 3,
      promptId: null,
      integrationId: null,
      schedules: defaultSchedules(),
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The saved connection joins the list without waiting for the live event.
    const row = (await screen.findByText('Atención')).closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Conectando' })).toBeTruthy();
  });

  it('sends the ticket and bot settings', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, queues),
      'POST /whatsapp': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeConnection({ id: 9, name: 'Atención' }));
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openAddDialog(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Atención');
    await user.click(within(dialog).getByRole('tab', { name: 'Tickets y bot' }));
    const attempts = within(dialog).getByRole('textbox', { name: 'Máximo de intentos del bot' });
    expect(attempts).toHaveProperty('value', '3');
    await refill(user, attempts, '5');
    await user.click(within(dialog).getByRole('combobox', { name: 'Transferir a la cola' }));
    await user.click(await screen.findByRole('option', { name: 'Soporte' }));
    const transferAfter = within(dialog).getByRole('textbox', {
      name: 'Transferir después de (minutos)',
    });
    await fill(user, transferAfter, '15');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Conexión guardada.')).toBeTruthy();
    expect(sent).toMatchObject({
      transferQueueId: 2,
      timeToTransfer: 15,
      maxUseBotQueues: 5,
      expiresTicket: 0,
    });
  });

  it('requires a greeting when more than one queue is chosen', async () => {
    let sent: Record<string, unknown> | undefined;
    const fetchMock = stubApi({
      'GET /queue': () => jsonResponse(200, queues),
      'POST /whatsapp': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeConnection({ id: 9, name: 'Atención' }));
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openAddDialog(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Atención');
    await pickQueues(user, dialog, ['Ventas', 'Soporte']);
    // The rule is checked from any tab; a refused save comes back to the field.
    await user.click(within(dialog).getByRole('tab', { name: 'Tickets y bot' }));
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    const greeting = await within(dialog).findByRole('textbox', { name: 'Mensaje de saludo' });
    const message = within(dialog).getByText(
      'El mensaje de saludo es obligatorio cuando hay más de una cola.',
    );
    expect(message.id).toBe(greeting.getAttribute('aria-describedby'));
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);

    await fill(user, greeting, 'Elija una opción');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(await screen.findByText('Conexión guardada.')).toBeTruthy();
    expect(sent).toMatchObject({ queueIds: [1, 2], greetingMessage: 'Elija una opción' });
  });

  it('shows the API field errors on their inputs', async () => {
    stubApi({
      'GET /queue': () => jsonResponse(200, []),
      'POST /whatsapp': () =>
        jsonResponse(400, {
          error: 'ERR_VALIDATION',
          message: 'Invalid body',
          fields: { name: ['Too long'] },
        }),
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openAddDialog(user);
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    await fill(user, name, 'Atención');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    const message = await within(dialog).findByText('Revise los datos del formulario.');
    expect(message.id).toBe(name.getAttribute('aria-describedby'));
  });

  it('edits a cloud connection and keeps its saved secrets unless new ones are typed', async () => {
    let sent: Record<string, unknown> | undefined;
    const cloud = makeConnection({
      id: 4,
      name: 'Cloud',
      provider: 'cloud',
      cloudPhoneNumberId: '1234567890',
      hasCloudAccessToken: true,
      hasCloudAppSecret: true,
    });
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [cloud]),
      'GET /whatsapp/4': () => jsonResponse(200, cloud),
      'GET /queue': () => jsonResponse(200, queues),
      'PUT /whatsapp/4': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, { ...cloud, name: 'Cloud Meta' });
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Editar la conexión Cloud' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    await refill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Cloud Meta');
    expect(within(dialog).getByRole('textbox', { name: 'Token de la API' })).toHaveProperty(
      'value',
      'tok-123',
    );

    await user.click(within(dialog).getByRole('tab', { name: 'Cloud API' }));
    const accessToken = within(dialog).getByLabelText('Token de acceso');
    expect((accessToken as HTMLInputElement).value).toBe('');
    expect(within(dialog).getAllByText('(guardado; déjelo vacío para conservarlo)')).toHaveLength(
      2,
    );
    await fill(user, within(dialog).getByLabelText('Clave secreta de la app'), 'new-secret');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Cloud Meta')).toBeTruthy();
    expect(sent).toMatchObject({
      name: 'Cloud Meta',
      provider: 'cloud',
      cloudPhoneNumberId: '1234567890',
      cloudAppSecret: 'new-secret',
      // No account id yet: none is sent as null.
      cloudBusinessAccountId: null,
    });
    expect(sent).not.toHaveProperty('cloudAccessToken');
  });

  it('takes the WhatsApp Business Account id of a cloud connection, digits only', async () => {
    let sent: Record<string, unknown> | undefined;
    const cloud = makeConnection({
      id: 4,
      name: 'Cloud',
      provider: 'cloud',
      cloudPhoneNumberId: '1234567890',
      hasCloudAccessToken: true,
    });
    const fetchMock = stubApi({
      'GET /whatsapp': () => jsonResponse(200, [cloud]),
      'GET /whatsapp/4': () => jsonResponse(200, cloud),
      'GET /queue': () => jsonResponse(200, []),
      'PUT /whatsapp/4': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, { ...cloud, cloudBusinessAccountId: '998877665544' });
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Editar la conexión Cloud' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    await user.click(within(dialog).getByRole('tab', { name: 'Cloud API' }));
    const account = within(dialog).getByRole('textbox', {
      name: 'ID de la cuenta de WhatsApp Business',
    });
    expect(account).toHaveProperty('value', '');
    expect(
      within(dialog).getByText(
        'Solo números. Las plantillas de mensajes se leen de esta cuenta (WhatsApp › Configuración de la API).',
      ).id,
    ).toBe(account.getAttribute('aria-describedby'));

    await fill(user, account, 'WABA-1');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    const message = await within(dialog).findByText('Solo números');
    expect(message.id).toBe(account.getAttribute('aria-describedby'));
    expect(callsOf(fetchMock).some((call) => call.startsWith('PUT'))).toBe(false);

    await refill(user, account, '998877665544');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Conexión guardada.')).toBeTruthy();
    expect(sent).toMatchObject({ provider: 'cloud', cloudBusinessAccountId: '998877665544' });
  });

  it('shows the saved account id, and sends null once it is cleared', async () => {
    let sent: Record<string, unknown> | undefined;
    const cloud = makeConnection({
      id: 4,
      name: 'Cloud',
      provider: 'cloud',
      cloudPhoneNumberId: '1234567890',
      cloudBusinessAccountId: '998877665544',
      hasCloudAccessToken: true,
    });
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [cloud]),
      'GET /whatsapp/4': () => jsonResponse(200, cloud),
      'GET /queue': () => jsonResponse(200, []),
      'PUT /whatsapp/4': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, { ...cloud, cloudBusinessAccountId: null });
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Editar la conexión Cloud' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    await user.click(within(dialog).getByRole('tab', { name: 'Cloud API' }));
    const account = within(dialog).getByRole('textbox', {
      name: 'ID de la cuenta de WhatsApp Business',
    });
    expect(account).toHaveProperty('value', '998877665544');
    await user.clear(account);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Conexión guardada.')).toBeTruthy();
    expect(sent).toMatchObject({ cloudBusinessAccountId: null });
  });

  it('shows the cloud fields only for a cloud connection, and asks for a token on a new one', async () => {
    const fetchMock = stubApi({
      'GET /queue': () => jsonResponse(200, []),
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openAddDialog(user);
    expect(within(dialog).queryByRole('tab', { name: 'Cloud API' })).toBeNull();
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Meta');
    await user.click(within(dialog).getByRole('combobox', { name: 'Tipo de conexión' }));
    await user.click(await screen.findByRole('option', { name: 'WhatsApp Cloud API (Meta)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    // The refused save opens the tab of the first field in error.
    const tab = await within(dialog).findByRole('tab', { name: 'Cloud API', selected: true });
    expect(tab).toBeTruthy();
    expect(within(dialog).getAllByText('Campo obligatorio')).toHaveLength(2);
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);
  });

  it('asks only for routes the API has, and keeps the saved agent and integration unlisted', async () => {
    let sent: Record<string, unknown> | undefined;
    const linked = makeConnection({ id: 4, name: 'Línea', promptId: 3, integrationId: 5 });
    const fetchMock = stubApi({
      'GET /whatsapp': () => jsonResponse(200, [linked]),
      'GET /whatsapp/4': () => jsonResponse(200, linked),
      'GET /queue': () => jsonResponse(200, queues),
      'PUT /whatsapp/4': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, linked);
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const added = await openAddDialog(user);
    for (const tab of ['Tickets y bot', 'Horario de atención', 'General'])
      await user.click(within(added).getByRole('tab', { name: tab }));
    await user.click(within(added).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(await screen.findByRole('button', { name: 'Editar la conexión Línea' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    await user.click(within(dialog).getByRole('tab', { name: 'Tickets y bot' }));
    // Neither list loaded (no mock): the saved agent and integration are still shown and kept.
    expect(within(dialog).getByRole('combobox', { name: 'Agente de IA' }).textContent).toBe(
      'Agente n.º 3',
    );
    expect(within(dialog).getByRole('combobox', { name: 'Integración' }).textContent).toBe(
      'Integración n.º 5',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(sent).toMatchObject({ promptId: 3, integrationId: 5 }));
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('lets an admin pick the integration that handles the connection', async () => {
    let sent: Record<string, unknown> | undefined;
    const linked = makeConnection({ id: 4, name: 'Línea' });
    stubApi({
      'GET /whatsapp': () => jsonResponse(200, [linked]),
      'GET /whatsapp/4': () => jsonResponse(200, linked),
      'GET /queue': () => jsonResponse(200, queues),
      'GET /queueIntegration/list': () =>
        integrationOptionsOf([
          { id: 5, name: 'Bot de ventas', type: 'typebot' },
          { id: 8, name: 'Webhook CRM', type: 'webhook' },
        ]),
      'PUT /whatsapp/4': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, { ...linked, integrationId: 8 });
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    await user.click(await screen.findByRole('button', { name: 'Editar la conexión Línea' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    await user.click(within(dialog).getByRole('tab', { name: 'Tickets y bot' }));
    const picker = within(dialog).getByRole('combobox', { name: 'Integración' });
    expect(picker.textContent).toBe('Ninguna');
    await user.click(picker);
    // The whole list, read at once.
    expect(await screen.findByRole('option', { name: 'Bot de ventas' })).toBeTruthy();
    await user.click(await screen.findByRole('option', { name: 'Webhook CRM' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(sent).toMatchObject({ integrationId: 8 }));
  });

  it('offers no integration when the plan has none, and keeps the saved one', async () => {
    let sent: Record<string, unknown> | undefined;
    const linked = makeConnection({ id: 4, name: 'Línea', integrationId: 5 });
    const fetchMock = stubApi({
      'GET /whatsapp': () => jsonResponse(200, [linked]),
      'GET /whatsapp/4': () => jsonResponse(200, linked),
      'GET /queue': () => jsonResponse(200, queues),
      'PUT /whatsapp/4': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, linked);
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth({ plan: { useIntegrations: false } }));

    await user.click(await screen.findByRole('button', { name: 'Editar la conexión Línea' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    await user.click(within(dialog).getByRole('tab', { name: 'Tickets y bot' }));
    expect(within(dialog).queryByRole('combobox', { name: 'Integración' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(sent).toMatchObject({ integrationId: 5 }));
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /queueIntegration'))).toBe(false);
  });

  it('lets an admin pick the AI agent that answers the connection', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queue': () => jsonResponse(200, queues),
      'GET /prompt': () => promptListOf([makePrompt({ id: 7, name: 'Asistente de ventas' })]),
      'POST /whatsapp': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeConnection({ id: 9, name: 'Atención', promptId: 7 }));
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const dialog = await openAddDialog(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Atención');
    await user.click(within(dialog).getByRole('tab', { name: 'Tickets y bot' }));
    const picker = within(dialog).getByRole('combobox', { name: 'Agente de IA' });
    expect(picker.textContent).toBe('Ninguno');
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Asistente de ventas' }));
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Conexión guardada.')).toBeTruthy();
    expect(sent).toMatchObject({ promptId: 7 });
  });

  it('offers no AI agent when the plan has none, and keeps the saved one', async () => {
    let sent: Record<string, unknown> | undefined;
    const linked = makeConnection({ id: 4, name: 'Línea', promptId: 3 });
    const fetchMock = stubApi({
      'GET /whatsapp': () => jsonResponse(200, [linked]),
      'GET /whatsapp/4': () => jsonResponse(200, linked),
      'GET /queue': () => jsonResponse(200, queues),
      'PUT /whatsapp/4': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, linked);
      },
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth({ plan: { useOpenAi: false } }));

    await user.click(await screen.findByRole('button', { name: 'Editar la conexión Línea' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    await user.click(within(dialog).getByRole('tab', { name: 'Tickets y bot' }));
    expect(within(dialog).queryByRole('combobox', { name: 'Agente de IA' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(sent).toMatchObject({ promptId: 3 }));
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /prompt'))).toBe(false);
  });
});
