import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  externalSendResponseSchema,
  type ExternalSendResponse,
  type WhatsappView,
} from '@atendi/shared';
import { getSessionState } from '../../api/session';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser } from '../../test/user-event';
import { exampleResponse } from './curl-examples';
import { MessagesApiPage } from './messages-api-page';

const API_URL = 'https://api.atendi.test';
const SEND = 'POST /api/messages/send';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const sent = (overrides: Partial<ExternalSendResponse> = {}): ExternalSendResponse => ({
  ticketId: 42,
  contactId: 17,
  number: '5511999999999',
  messages: [
    {
      id: 901,
      status: 'queued',
      body: 'Hola',
      mediaType: 'chat',
      createdAt: '2025-05-20T14:03:12.000Z',
    },
  ],
  ...overrides,
});

const headersOf = (init: RequestInit) => new Headers(init.headers);
const textForm = () => screen.getByRole('form', { name: 'Enviar texto' });
const mediaForm = () => screen.getByRole('form', { name: 'Enviar archivo' });
const sends = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock).filter((call) => call === SEND);

const openPage = async (auth = makeAuth()) => {
  const user = setupUser();
  renderPage(<MessagesApiPage />, '/messages-api', auth);
  await screen.findByRole('heading', { level: 1, name: 'API de mensajes' });
  return user;
};

const fillTextForm = async (
  user: ReturnType<typeof setupUser>,
  { token = 'conn-token-123', number = '5511999999999', body = 'Hola' } = {},
) => {
  const form = within(textForm());
  await fill(user, form.getByLabelText('Token'), token);
  await fill(user, form.getByRole('textbox', { name: 'Número' }), number);
  await fill(user, form.getByRole('textbox', { name: 'Mensaje' }), body);
};

describe('messages API page', () => {
  beforeEach(() => {
    window.__APP_CONFIG__ = { apiUrl: `${API_URL}/` };
  });
  afterEach(() => {
    delete window.__APP_CONFIG__;
  });

  it('documents the endpoint with the runtime API URL and copies the curl examples', async () => {
    stubApi({});
    const user = await openPage();

    expect(screen.getByTestId('messages-api-endpoint').textContent).toBe(
      `${API_URL}/api/messages/send`,
    );
    const textCurl = screen.getByTestId('messages-api-curl-text').textContent;
    expect(textCurl).toContain(`curl -X POST '${API_URL}/api/messages/send'`);
    expect(textCurl).toContain(`-H 'Authorization: Bearer SU_TOKEN'`);
    expect(textCurl).toContain(`-H 'Content-Type: application/json'`);
    expect(textCurl).toContain(`"number":"5511999999999"`);
    const mediaCurl = screen.getByTestId('messages-api-curl-media').textContent;
    expect(mediaCurl).toContain(`-F 'number=5511999999999'`);
    expect(mediaCurl).toContain(`-F 'medias=@/ruta/factura.pdf'`);
    expect(screen.getByText(/campo «Token de la API»/)).toBeTruthy();
    expect(screen.getByText('Idempotency-Key: pedido-1234')).toBeTruthy();
    const errors = within(screen.getByRole('table', { name: 'Errores' }));
    for (const code of [
      'ERR_INVALID_API_TOKEN',
      'ERR_PLAN_FEATURE_DISABLED',
      'ERR_COMPANY_INACTIVE',
      'ERR_VALIDATION',
      'ERR_IDEMPOTENCY_KEY_REUSED',
      'ERR_TOO_MANY_REQUESTS',
    ]) {
      expect(errors.getByText(code)).toBeTruthy();
    }

    await user.click(screen.getByRole('button', { name: 'Copiar ejemplo de texto' }));
    expect(await screen.findByText('Copiado')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(textCurl);
  });

  it('shows a response example the API could really answer', () => {
    expect(externalSendResponseSchema.safeParse(exampleResponse('Hola')).success).toBe(true);
  });

  it('shows what each form misses and sends nothing', async () => {
    const fetchMock = stubApi({});
    const user = await openPage();

    await user.click(within(textForm()).getByRole('button', { name: 'Enviar' }));
    expect(await within(textForm()).findAllByText('Campo obligatorio')).toHaveLength(3);

    await fillTextForm(user, { number: '12-ab' });
    await user.click(within(textForm()).getByRole('button', { name: 'Enviar' }));
    expect(await within(textForm()).findByText('Use de 8 a 15 dígitos')).toBeTruthy();
    expect(within(textForm()).queryByText('Campo obligatorio')).toBeNull();

    await user.click(within(mediaForm()).getByRole('button', { name: 'Enviar' }));
    expect(await within(mediaForm()).findAllByText('Campo obligatorio')).toHaveLength(2);
    expect(within(mediaForm()).getByText('Elija un archivo')).toBeTruthy();
    // The caption is optional.
    expect(within(mediaForm()).getByText('Opcional: la leyenda del archivo')).toBeTruthy();

    expect(sends(fetchMock)).toEqual([]);
  });

  it('sends a text as JSON with the typed token and a fresh idempotency key each time', async () => {
    const requests: (RequestInit & { url: URL })[] = [];
    const fetchMock = stubApi({
      [SEND]: (init) => {
        requests.push(init);
        return jsonResponse(201, sent());
      },
    });
    const auth = makeAuth();
    const user = await openPage(auth);

    await fillTextForm(user);
    await user.click(within(textForm()).getByRole('button', { name: 'Enviar' }));

    expect(await screen.findByText('Mensaje enviado')).toBeTruthy();
    const result = screen.getByTestId('messages-api-result-text');
    expect(within(result).getByText('HTTP 201')).toBeTruthy();
    expect(result.textContent).toContain('"ticketId": 42');
    const [first] = requests;
    expect(first!.url.href).toBe(`${API_URL}/api/messages/send`);
    expect(headersOf(first!).get('Authorization')).toBe('Bearer conn-token-123');
    expect(headersOf(first!).get('Authorization')).not.toContain(auth.token);
    expect(headersOf(first!).get('Content-Type')).toBe('application/json');
    expect(headersOf(first!).get('Idempotency-Key')).toMatch(UUID);
    expect(JSON.parse(String(first!.body))).toEqual({ number: '5511999999999', body: 'Hola' });
    expect(first!.credentials).toBe('omit');

    await user.click(within(textForm()).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(headersOf(requests[1]!).get('Idempotency-Key')).not.toBe(
      headersOf(first!).get('Idempotency-Key'),
    );
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it("picks the sending connection by name and sends with its token, showing only the token's end", async () => {
    const requests: RequestInit[] = [];
    stubApi({
      'GET /whatsapp': () =>
        jsonResponse(200, [
          { id: 1, name: 'Ventas', status: 'CONNECTED', token: 'ventas-token-9f3a' },
          { id: 2, name: 'Soporte', status: 'CONNECTED', token: 'soporte-token-77b1' },
        ] as WhatsappView[]),
      [SEND]: (init) => {
        requests.push(init);
        return jsonResponse(201, sent());
      },
    });
    const user = await openPage();
    const form = within(textForm());

    await user.click(await form.findByRole('combobox', { name: 'Conexión' }));
    await user.click(await screen.findByRole('option', { name: 'Soporte' }));
    expect(form.getByText('Token: ••••77b1')).toBeTruthy();
    expect(form.queryByText(/soporte-token/)).toBeNull();
    await fill(user, form.getByRole('textbox', { name: 'Número' }), '5511999999999');
    await fill(user, form.getByRole('textbox', { name: 'Mensaje' }), 'Hola');
    await user.click(form.getByRole('button', { name: 'Enviar' }));

    expect(await screen.findByText('Mensaje enviado')).toBeTruthy();
    expect(headersOf(requests[0]!).get('Authorization')).toBe('Bearer soporte-token-77b1');
  });

  it('sends once on a double click', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = stubApi({
      [SEND]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const user = await openPage();
    await fillTextForm(user);

    const submit = within(textForm()).getByRole('button', { name: 'Enviar' });
    await user.dblClick(submit);
    await waitFor(() => expect(sends(fetchMock)).toHaveLength(1));
    expect((submit as HTMLButtonElement).disabled).toBe(true);

    answer(jsonResponse(201, sent()));
    expect(await screen.findByText('Mensaje enviado')).toBeTruthy();
    expect((submit as HTMLButtonElement).disabled).toBe(false);
    expect(sends(fetchMock)).toHaveLength(1);
  });

  it('shows a refused token without signing the user out', async () => {
    const fetchMock = stubApi({
      [SEND]: () =>
        jsonResponse(401, { error: 'ERR_INVALID_API_TOKEN', message: 'Invalid API token' }),
    });
    const user = await openPage();

    await fillTextForm(user, { token: 'wrong-token' });
    await user.click(within(textForm()).getByRole('button', { name: 'Enviar' }));

    expect(
      await screen.findByText(
        'Token de la API inválido, revocado o vencido. Cópielo de nuevo desde la conexión o desde Configuración › API.',
      ),
    ).toBeTruthy();
    const result = screen.getByTestId('messages-api-result-text');
    expect(within(result).getByText('HTTP 401')).toBeTruthy();
    expect(result.textContent).toContain('"error": "ERR_INVALID_API_TOKEN"');
    expect(getSessionState().session).not.toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'API de mensajes' })).toBeTruthy();
    expect(callsOf(fetchMock).filter((call) => call.startsWith('POST /auth'))).toEqual([]);
  });

  it('tells how long to wait when the token is rate limited', async () => {
    stubApi({
      [SEND]: () =>
        jsonResponse(
          429,
          { error: 'ERR_TOO_MANY_REQUESTS', message: 'Too many requests' },
          { 'Retry-After': '30' },
        ),
    });
    const user = await openPage();

    await fillTextForm(user);
    await user.click(within(textForm()).getByRole('button', { name: 'Enviar' }));

    expect(
      await screen.findByText('Demasiados intentos. Intente de nuevo en 30 segundos.'),
    ).toBeTruthy();
    const result = screen.getByTestId('messages-api-result-text');
    expect(within(result).getByText('HTTP 429')).toBeTruthy();
    expect(within(result).getByText('Retry-After: reintente en 30 segundos.')).toBeTruthy();
  });

  it('keeps the idempotency key when the same request is retried after a network failure', async () => {
    const keys: (string | null)[] = [];
    let fail = true;
    stubApi({
      [SEND]: (init) => {
        keys.push(headersOf(init).get('Idempotency-Key'));
        if (fail) throw new TypeError('Failed to fetch');
        return jsonResponse(201, sent());
      },
    });
    const user = await openPage();
    await fillTextForm(user);
    const submit = within(textForm()).getByRole('button', { name: 'Enviar' });

    await user.click(submit);
    expect(
      await screen.findByText('No se pudo conectar con el servidor. Verifique su conexión.'),
    ).toBeTruthy();
    expect(screen.getByTestId('messages-api-result-text').textContent).toContain(
      'Sin respuesta del servidor',
    );

    fail = false;
    await user.click(submit);
    expect(await screen.findByText('Mensaje enviado')).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);

    await refill(user, within(textForm()).getByRole('textbox', { name: 'Mensaje' }), 'Otro');
    await user.click(submit);
    await waitFor(() => expect(keys).toHaveLength(3));
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('sends a file as multipart with the number, the caption and the medias field', async () => {
    let request: RequestInit | undefined;
    const fetchMock = stubApi({
      [SEND]: (init) => {
        request = init;
        return jsonResponse(
          201,
          sent({
            messages: [
              {
                id: 902,
                status: 'queued',
                body: 'Su factura',
                mediaType: 'application',
                createdAt: '2025-05-20T14:03:12.000Z',
              },
            ],
          }),
        );
      },
    });
    const user = await openPage();
    const form = within(mediaForm());

    await fill(user, form.getByLabelText('Token'), 'conn-token-123');
    await fill(user, form.getByRole('textbox', { name: 'Número' }), '+55 (11) 99999-9999');
    await fill(user, form.getByRole('textbox', { name: 'Mensaje' }), 'Su factura');
    // The file button speaks the app's language, and says what is chosen.
    expect(form.getByText('Elegir archivo')).toBeTruthy();
    expect(form.getByText('Ningún archivo elegido')).toBeTruthy();
    await user.upload(
      form.getByLabelText('Archivo'),
      new File(['%PDF-1.4'], 'factura.pdf', { type: 'application/pdf' }),
    );
    expect(form.getByText('factura.pdf')).toBeTruthy();
    await user.click(form.getByRole('button', { name: 'Enviar' }));

    expect(await screen.findByText('Mensaje enviado')).toBeTruthy();
    const result = screen.getByTestId('messages-api-result-media');
    expect(within(result).getByText('HTTP 201')).toBeTruthy();
    expect(result.textContent).toContain('"mediaType": "application"');
    const body = request?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('number')).toBe('+55 (11) 99999-9999');
    expect(body.get('body')).toBe('Su factura');
    expect((body.get('medias') as File).name).toBe('factura.pdf');
    const headers = headersOf(request!);
    expect(headers.get('Authorization')).toBe('Bearer conn-token-123');
    expect(headers.get('Idempotency-Key')).toMatch(UUID);
    // The browser sets multipart/form-data with its boundary.
    expect(headers.get('Content-Type')).toBeNull();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });
});
