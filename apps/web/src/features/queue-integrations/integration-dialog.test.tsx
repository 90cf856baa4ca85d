import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSocket } from '../../api/socket';
import { waitBeforeSubmit } from '../../lib/form-delay';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { integrationsPageOf, makeIntegration } from '../../test/queue-integrations';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import { QueueIntegrationsPage } from './queue-integrations-page';

const serviceAccountKey = JSON.stringify({
  type: 'service_account',
  project_id: 'acme-bot',
  client_email: 'bot@acme-bot.iam.gserviceaccount.com',
  private_key:
    '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n',
});

const webhook = makeIntegration({
  id: 8,
  name: 'Eventos ERP',
  type: 'webhook',
  urlN8N: 'https://erp.acme.com/hooks',
  typebotSlug: '',
  signingSecret: 'whsec_3kQ9fZpL2',
});
const dialogflow = makeIntegration({
  id: 9,
  name: 'Agente Dialogflow',
  type: 'dialogflow',
  urlN8N: '',
  typebotSlug: '',
  projectName: 'acme-bot',
  language: 'es',
  hasJsonContent: true,
  clientEmail: 'bot@acme-bot.iam.gserviceaccount.com',
});

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;
const posts = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock).filter((call) => call.startsWith('POST') || call.startsWith('PUT'));
const describedBy = (field: HTMLElement) =>
  document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

const openAddDialog = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Agregar integración' }));
  return screen.findByRole('dialog', { name: 'Agregar integración' });
};

const openEditDialog = async (user: User, name: string) => {
  await user.click(await screen.findByRole('button', { name: `Editar la integración ${name}` }));
  return screen.findByRole('dialog', { name: 'Editar integración' });
};

const chooseType = async (user: User, dialog: HTMLElement, type: string) => {
  await user.click(within(dialog).getByRole('combobox', { name: 'Tipo' }));
  await user.click(await screen.findByRole('option', { name: type }));
};

const textbox = (dialog: HTMLElement, name: string) =>
  within(dialog).getByRole('textbox', { name });

describe('integration dialog', () => {
  it('shows the fields of the chosen type', async () => {
    stubApi({ 'GET /queueIntegration': () => integrationsPageOf([]) });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openAddDialog(user);
    // A new integration starts as a Typebot flow with SPEC §9's defaults.
    expect(within(dialog).getByRole('combobox', { name: 'Tipo' }).textContent).toBe('Typebot');
    const typebotFields = [
      'URL de Typebot',
      'Slug del flujo',
      'Expiración de la sesión (minutos)',
      'Pausa entre mensajes (ms)',
      'Palabra para finalizar',
      'Palabra para reiniciar',
      'Mensaje de opción no válida',
      'Mensaje al reiniciar',
    ];
    for (const name of typebotFields) expect(textbox(dialog, name)).toBeTruthy();
    expect(textbox(dialog, 'Expiración de la sesión (minutos)')).toHaveProperty('value', '1');
    expect(textbox(dialog, 'Pausa entre mensajes (ms)')).toHaveProperty('value', '1000');
    expect(within(dialog).queryByRole('textbox', { name: 'Nombre del proyecto' })).toBeNull();

    await chooseType(user, dialog, 'n8n');
    expect(textbox(dialog, 'URL del webhook de n8n')).toBeTruthy();
    expect(within(dialog).queryByRole('textbox', { name: 'Slug del flujo' })).toBeNull();
    expect(within(dialog).getByText(/Los eventos se firman con un secreto propio/)).toBeTruthy();

    await chooseType(user, dialog, 'Webhook');
    expect(textbox(dialog, 'URL del webhook')).toBeTruthy();

    await chooseType(user, dialog, 'Dialogflow');
    for (const name of ['Nombre del proyecto', 'Idioma', 'Clave JSON de la cuenta de servicio'])
      expect(textbox(dialog, name)).toBeTruthy();
    expect(within(dialog).getByText('Cargar archivo .json')).toBeTruthy();
    expect(within(dialog).queryByRole('textbox', { name: /URL/ })).toBeNull();
    expect(within(dialog).queryByText(/Los eventos se firman/)).toBeNull();
  });

  it('creates a Typebot flow with the SPEC defaults', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queueIntegration': () => integrationsPageOf([]),
      'POST /queueIntegration': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeIntegration({ id: 4, name: 'Bot de bienvenida' }));
      },
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openAddDialog(user);
    await fill(user, textbox(dialog, 'Nombre'), 'Bot de bienvenida');
    await fill(user, textbox(dialog, 'URL de Typebot'), 'https://typebot.io');
    await fill(user, textbox(dialog, 'Slug del flujo'), 'bienvenida-x1y2');
    await fill(user, textbox(dialog, 'Palabra para finalizar'), 'salir');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Integración guardada.')).toBeTruthy();
    expect(sent).toEqual({
      name: 'Bot de bienvenida',
      type: 'typebot',
      projectName: '',
      jsonContent: '',
      language: '',
      urlN8N: 'https://typebot.io',
      typebotSlug: 'bienvenida-x1y2',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
      typebotKeywordFinish: 'salir',
      typebotKeywordRestart: '',
      typebotUnknownMessage: '',
      typebotRestartMessage: '',
    });
    expect(waitBeforeSubmit).toHaveBeenCalledWith();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The new integration joins the list without waiting for the live event.
    const row = (await screen.findByText('Bot de bienvenida')).closest('tr')!;
    expect(within(row).getByRole('img', { name: 'Typebot' })).toBeTruthy();
  });

  it('refuses a Typebot flow without its slug, a short name or a wrong address', async () => {
    const fetchMock = stubApi({ 'GET /queueIntegration': () => integrationsPageOf([]) });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openAddDialog(user);
    const name = textbox(dialog, 'Nombre');
    const url = textbox(dialog, 'URL de Typebot');
    const slug = textbox(dialog, 'Slug del flujo');
    const delay = textbox(dialog, 'Pausa entre mensajes (ms)');
    await fill(user, name, 'B');
    await fill(user, url, 'typebot.io');
    await refill(user, delay, '1,5');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    await waitFor(() => expect(describedBy(name)).toBe('Muy Corto'));
    expect(describedBy(url)).toBe('Use una dirección http:// o https://');
    expect(describedBy(slug)).toBe('Campo Obligatorio');
    expect(describedBy(delay)).toBe('Use un número entero de milisegundos de 0 a 60000');

    await user.clear(name);
    await waitFor(() => expect(describedBy(name)).toBe('Campo Obligatorio'));
    await fill(user, name, 'x'.repeat(51));
    await waitFor(() => expect(describedBy(name)).toBe('Muy Largo'));
    expect(posts(fetchMock)).toEqual([]);
  });

  it('refuses a new Dialogflow agent without its key, and reads one from a .json file', async () => {
    let sent: Record<string, unknown> | undefined;
    const fetchMock = stubApi({
      'GET /queueIntegration': () => integrationsPageOf([]),
      'POST /queueIntegration': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, { ...dialogflow, id: 12, name: 'Agente FAQ' });
      },
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openAddDialog(user);
    await chooseType(user, dialog, 'Dialogflow');
    await fill(user, textbox(dialog, 'Nombre'), 'Agente FAQ');
    await fill(user, textbox(dialog, 'Nombre del proyecto'), 'acme-bot');
    const language = textbox(dialog, 'Idioma');
    const key = textbox(dialog, 'Clave JSON de la cuenta de servicio');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    await waitFor(() => expect(describedBy(key)).toBe('Campo Obligatorio'));
    expect(describedBy(language)).toBe('Campo Obligatorio');
    expect(posts(fetchMock)).toEqual([]);

    await fill(user, language, 'pt-BR');
    await fill(user, key, '{"type":"service_account"}');
    await waitFor(() =>
      expect(describedBy(key)).toBe(
        'No es una clave de cuenta de servicio válida: use el archivo JSON que descargó de Google Cloud (con client_email y private_key).',
      ),
    );

    await user.upload(
      within(dialog).getByTestId('integration-key-file'),
      new File([`${serviceAccountKey}\n`], 'acme-bot-1234.json', { type: 'application/json' }),
    );
    await waitFor(() => expect(key).toHaveProperty('value', serviceAccountKey));
    expect(describedBy(key)).toBe(
      'Clave de la cuenta de servicio bot@acme-bot.iam.gserviceaccount.com.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Integración guardada.')).toBeTruthy();
    expect(sent).toMatchObject({
      name: 'Agente FAQ',
      type: 'dialogflow',
      projectName: 'acme-bot',
      language: 'pt-BR',
      jsonContent: serviceAccountKey,
      urlN8N: '',
      typebotSlug: '',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
    });
  });

  it('edits a Dialogflow agent and keeps its stored key when the field is left empty', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /queueIntegration': () => integrationsPageOf([dialogflow]),
      'PUT /queueIntegration/9': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, { ...dialogflow, language: 'en' });
      },
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openEditDialog(user, 'Agente Dialogflow');
    expect(
      within(dialog).getByText('Clave guardada: bot@acme-bot.iam.gserviceaccount.com'),
    ).toBeTruthy();
    const key = textbox(dialog, 'Clave JSON de la cuenta de servicio');
    expect(key).toHaveProperty('value', '');
    expect(describedBy(key)).toBe(
      'Déjelo vacío para conservar la clave guardada, o pegue otra para reemplazarla.',
    );
    expect(textbox(dialog, 'Nombre del proyecto')).toHaveProperty('value', 'acme-bot');
    await refill(user, textbox(dialog, 'Idioma'), 'en');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Integración guardada.')).toBeTruthy();
    expect(sent).toMatchObject({
      name: 'Agente Dialogflow',
      type: 'dialogflow',
      projectName: 'acme-bot',
      language: 'en',
    });
    expect(sent).not.toHaveProperty('jsonContent');
  });

  it('tests a new Dialogflow agent with the values typed, without saving it', async () => {
    let sent: Record<string, unknown> | undefined;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const fetchMock = stubApi({
      'GET /queueIntegration': () => integrationsPageOf([]),
      'POST /queueIntegration/testSession': async (init) => {
        sent = bodyOf(init);
        await answered;
        return jsonResponse(200, {
          ok: true,
          intent: 'Saludo',
          texts: ['¡Hola! ¿En qué puedo ayudarle?', 'Escriba "menú" para ver las opciones.'],
          durationMs: 412,
        });
      },
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openAddDialog(user);
    await chooseType(user, dialog, 'Dialogflow');
    const testButton = within(dialog).getByRole('button', { name: 'Probar sesión' });
    expect(testButton).toHaveProperty('disabled', true);
    await fill(user, textbox(dialog, 'Nombre del proyecto'), 'acme-bot');
    await fill(user, textbox(dialog, 'Idioma'), 'es');
    // Without a key there is nothing to sign in with.
    expect(testButton).toHaveProperty('disabled', true);
    await fill(user, textbox(dialog, 'Clave JSON de la cuenta de servicio'), serviceAccountKey);
    expect(testButton).toHaveProperty('disabled', false);
    await user.click(testButton);

    expect(
      await within(dialog).findByRole('progressbar', { name: 'Probando la sesión…' }),
    ).toBeTruthy();
    expect(testButton).toHaveProperty('disabled', true);
    answer();
    const result = (await within(dialog).findByText('Conectado: intención Saludo')).closest(
      '[role="alert"]',
    ) as HTMLElement;
    expect(result.className).toMatch(/MuiAlert-colorSuccess/);
    expect(within(result).getByText('¡Hola! ¿En qué puedo ayudarle?')).toBeTruthy();
    expect(within(result).getByText('Escriba "menú" para ver las opciones.')).toBeTruthy();
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    expect(sent).toEqual({
      projectName: 'acme-bot',
      jsonContent: serviceAccountKey,
      language: 'es',
    });
    expect(posts(fetchMock)).toEqual(['POST /queueIntegration/testSession']);
    expect(screen.getByRole('dialog', { name: 'Agregar integración' })).toBeTruthy();
  });

  it("tests a saved Dialogflow agent's stored key and tells why Google refused it", async () => {
    const sent: Record<string, unknown>[] = [];
    let answer = jsonResponse(400, {
      error: 'ERR_DIALOGFLOW_AUTH',
      message: 'Google refused the key',
    });
    stubApi({
      'GET /queueIntegration': () => integrationsPageOf([dialogflow]),
      'POST /queueIntegration/testSession': (init) => {
        sent.push(bodyOf(init));
        return answer;
      },
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openEditDialog(user, 'Agente Dialogflow');
    // The stored key is enough: the key field is left empty.
    await user.click(within(dialog).getByRole('button', { name: 'Probar sesión' }));

    const refusal = await within(dialog).findByText(
      'Google rechazó la clave de la cuenta de servicio. Revise que sea del proyecto del agente y que tenga el rol Cliente de la API de Dialogflow.',
    );
    expect(refusal.closest('[role="alert"]')?.className).toMatch(/MuiAlert-colorError/);
    expect(sent).toEqual([
      { projectName: 'acme-bot', jsonContent: '', language: 'es', integrationId: 9 },
    ]);

    // Another language is another test: the old answer no longer applies.
    answer = jsonResponse(400, { error: 'ERR_DIALOGFLOW_INVALID', message: 'Bad language' });
    await refill(user, textbox(dialog, 'Idioma'), 'pt-BR');
    expect(within(dialog).queryByText(/Google rechazó la clave/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Probar sesión' }));
    expect(
      await within(dialog).findByText(
        'Dialogflow rechazó la solicitud. Revise el idioma: debe ser uno que el agente tenga.',
      ),
    ).toBeTruthy();
    expect(sent[1]).toEqual({
      projectName: 'acme-bot',
      jsonContent: '',
      language: 'pt-BR',
      integrationId: 9,
    });
  });

  it('offers the session test only for Dialogflow', async () => {
    stubApi({ 'GET /queueIntegration': () => integrationsPageOf([webhook]) });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openEditDialog(user, 'Eventos ERP');
    expect(within(dialog).queryByRole('button', { name: 'Probar sesión' })).toBeNull();
    await chooseType(user, dialog, 'Dialogflow');
    // Turned into Dialogflow now: no key is stored yet.
    expect(within(dialog).getByRole('button', { name: 'Probar sesión' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('shows the signing secret of a webhook, read-only, with a copy button', async () => {
    stubApi({ 'GET /queueIntegration': () => integrationsPageOf([webhook]) });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openEditDialog(user, 'Eventos ERP');
    expect(textbox(dialog, 'URL del webhook')).toHaveProperty(
      'value',
      'https://erp.acme.com/hooks',
    );
    const secret = textbox(dialog, 'Secreto de firma');
    expect(secret).toHaveProperty('value', 'whsec_3kQ9fZpL2');
    expect(secret).toHaveProperty('readOnly', true);
    expect(describedBy(secret)).toContain('X-Atendi-Signature');
    expect(describedBy(secret)).toContain('HMAC-SHA256');

    await user.click(within(dialog).getByRole('button', { name: 'Copiar secreto' }));
    expect(await screen.findByText('Secreto copiado.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe('whsec_3kQ9fZpL2');
  });

  it('keeps the signing secret it read when a live change (which carries none) renames the webhook', async () => {
    stubApi({ 'GET /queueIntegration': () => integrationsPageOf([webhook]) });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());
    await screen.findByText('Eventos ERP');
    act(() => {
      (getSocket() as unknown as FakeSocket).receive('company-1-queueIntegration', {
        action: 'update',
        queueIntegration: { ...webhook, name: 'Eventos ERP 2', signingSecret: null },
      });
    });

    const dialog = await openEditDialog(user, 'Eventos ERP 2');
    expect(textbox(dialog, 'Secreto de firma')).toHaveProperty('value', 'whsec_3kQ9fZpL2');
  });

  it('shows a name already in use on the name field', async () => {
    stubApi({
      'GET /queueIntegration': () => integrationsPageOf([webhook]),
      'PUT /queueIntegration/8': () =>
        jsonResponse(409, {
          error: 'ERR_INTEGRATION_NAME_EXISTS',
          message: 'Another integration has this name',
          fields: { name: ['ERR_INTEGRATION_NAME_EXISTS'] },
        }),
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openEditDialog(user, 'Eventos ERP');
    const name = textbox(dialog, 'Nombre');
    await refill(user, name, 'Bot de ventas');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() =>
      expect(describedBy(name)).toBe('Ya existe una integración con este nombre.'),
    );
    expect(screen.getByRole('dialog', { name: 'Editar integración' })).toBeTruthy();
  });

  it("shows the API's field errors on their inputs and toasts the rest", async () => {
    let answer = jsonResponse(400, {
      error: 'ERR_VALIDATION',
      message: 'Invalid body',
      fields: { urlN8N: ['An http(s) address'] },
    });
    stubApi({
      'GET /queueIntegration': () => integrationsPageOf([webhook]),
      'PUT /queueIntegration/8': () => answer,
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openEditDialog(user, 'Eventos ERP');
    const url = textbox(dialog, 'URL del webhook');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(describedBy(url)).toBe('Use una dirección http:// o https://'));

    answer = jsonResponse(404, { error: 'ERR_NO_INTEGRATION_FOUND', message: 'Not found' });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('No se encontró la integración.')).toBeTruthy();
  });

  it('waits 400 ms before sending the form', async () => {
    // The suite sends forms at once (test/setup.ts); this test puts SPEC §9's pause back.
    const formDelay =
      await vi.importActual<typeof import('../../lib/form-delay')>('../../lib/form-delay');
    vi.mocked(waitBeforeSubmit).mockImplementation(formDelay.waitBeforeSubmit);
    const fetchMock = stubApi({
      'GET /queueIntegration': () => integrationsPageOf([webhook]),
      'PUT /queueIntegration/8': () => jsonResponse(200, webhook),
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openEditDialog(user, 'Eventos ERP');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(posts(fetchMock)).toEqual([]);
    expect(within(dialog).getByRole('button', { name: 'Guardar' })).toHaveProperty(
      'disabled',
      true,
    );
    await waitFor(() => expect(posts(fetchMock)).toEqual(['PUT /queueIntegration/8']));
    expect(waitBeforeSubmit).toHaveBeenCalledWith();
    expect(formDelay.FORM_SUBMIT_DELAY_MS).toBe(400);
  });
});
