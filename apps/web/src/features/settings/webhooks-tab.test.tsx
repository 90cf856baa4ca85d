import { screen, waitFor, within } from '@testing-library/react';
import {
  webhookEventTypes,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookEndpoint,
} from '@atendi/shared';
import { describe, expect, it } from 'vitest';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser } from '../../test/user-event';
import { formatDateTime } from '../../lib/dates';
import { SettingsPage } from './settings-page';

const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 1,
  url: 'https://crm.example.com/hooks',
  description: 'CRM',
  events: ['ticket.created', 'message.created'],
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  consecutiveFailures: 0,
  failingSince: null,
  lastDeliveryAt: '2026-11-29T10:00:00.000Z',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 10,
  messageId: 'msg_2bX9',
  type: 'ticket.created',
  status: 'delivered',
  attempts: 1,
  responseStatus: 200,
  durationMs: 84,
  error: null,
  createdAt: '2026-11-29T10:00:00.000Z',
  lastAttemptAt: '2026-11-29T10:00:01.000Z',
  deliveredAt: '2026-11-29T10:00:01.000Z',
  ...overrides,
});

const detail = (
  overrides: Partial<WebhookDeliveryDetail> = {},
  base: WebhookDelivery = delivery(),
): WebhookDeliveryDetail => ({
  ...base,
  payload: {
    type: base.type,
    timestamp: '2026-11-29T10:00:00.000Z',
    companyId: 1,
    data: { ticket: { id: 7, status: 'open' } },
  },
  log: [
    {
      at: '2026-11-29T10:00:01.000Z',
      status: base.responseStatus,
      durationMs: base.durationMs ?? 0,
      error: base.error,
      response: '{"ok":true}',
    },
  ],
  ...overrides,
});

const openTab = () => renderPage(<SettingsPage />, '/settings?tab=webhooks', makeAuth());
const table = () => screen.getByRole('table', { name: 'Webhooks' });
const rowOf = async (text: string) =>
  (await within(await screen.findByRole('table', { name: 'Webhooks' })).findByText(text)).closest(
    'tr',
  ) as HTMLTableRowElement;

describe('webhooks tab', () => {
  it('lists the endpoints with their events, state and failures', async () => {
    const fetchMock = stubApi({
      'GET /webhook-endpoints': () =>
        jsonResponse(200, {
          endpoints: [
            endpoint({
              consecutiveFailures: 3,
              failingSince: '2026-11-29T08:00:00.000Z',
            }),
            endpoint({
              id: 2,
              url: 'https://erp.example.com/in',
              description: '',
              events: [...webhookEventTypes],
              enabled: false,
              lastDeliveryAt: null,
            }),
            endpoint({
              id: 3,
              description: 'BI',
              url: 'https://bi.example.com/events',
              events: ['sla.breached'],
              enabled: false,
              disabledReason: 'failures',
              disabledAt: '2026-11-30T12:00:00.000Z',
              consecutiveFailures: 1,
              failingSince: '2026-11-27T12:00:00.000Z',
            }),
          ],
        }),
    });
    openTab();

    expect(await screen.findByRole('tab', { name: 'Webhooks', selected: true })).toBeTruthy();
    const crm = within(await rowOf('CRM'));
    expect(crm.getByText('https://crm.example.com/hooks')).toBeTruthy();
    expect(crm.getByText('2 eventos')).toBeTruthy();
    expect(crm.getByText('Conversaciones 1/6')).toBeTruthy();
    expect(crm.getByText('Mensajes 1/3')).toBeTruthy();
    expect(crm.getByText('Activo')).toBeTruthy();
    expect(
      crm.getByText(
        `3 intentos fallidos seguidos desde ${formatDateTime('2026-11-29T08:00:00.000Z')}`,
      ),
    ).toBeTruthy();
    expect(crm.getByText(formatDateTime('2026-11-29T10:00:00.000Z'))).toBeTruthy();
    expect(crm.getByRole('button', { name: 'Desactivar CRM' })).toBeTruthy();

    // No description: the URL names it.
    const erp = within(await rowOf('https://erp.example.com/in'));
    expect(erp.getByText('Todos los eventos')).toBeTruthy();
    expect(erp.getByText('Desactivado')).toBeTruthy();
    expect(erp.getByText('Nunca')).toBeTruthy();
    expect(erp.getByRole('button', { name: 'Activar https://erp.example.com/in' })).toBeTruthy();

    const bi = within(await rowOf('BI'));
    expect(bi.getByText('1 evento')).toBeTruthy();
    expect(bi.getByText('SLA')).toBeTruthy();
    expect(bi.getByText('Desactivado por fallos')).toBeTruthy();
    expect(bi.getByText(`Desde el ${formatDateTime('2026-11-30T12:00:00.000Z')}`)).toBeTruthy();
    expect(
      bi.getByText(`1 intento fallido seguido desde ${formatDateTime('2026-11-27T12:00:00.000Z')}`),
    ).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows each endpoint as a card on a phone', async () => {
    window.innerWidth = 390;
    stubApi({ 'GET /webhook-endpoints': () => jsonResponse(200, { endpoints: [endpoint()] }) });
    openTab();

    const cards = await screen.findByRole('list', { name: 'Webhooks' });
    const card = within(within(cards).getByRole('listitem'));
    expect(card.getByText('https://crm.example.com/hooks')).toBeTruthy();
    expect(card.getByText('Activo')).toBeTruthy();
    expect(card.getByRole('button', { name: 'Entregas CRM' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('creates an endpoint with the events chosen by area and shows its secret once', async () => {
    let endpoints: WebhookEndpoint[] = [];
    const sent: unknown[] = [];
    const fetchMock = stubApi({
      'GET /webhook-endpoints': () => jsonResponse(200, { endpoints }),
      'POST /webhook-endpoints': (init) => {
        const body = JSON.parse(String(init.body));
        sent.push(body);
        const created = endpoint({ id: 5, ...body, lastDeliveryAt: null });
        endpoints = [created];
        return jsonResponse(201, { ...created, secret: 'whsec_c2VjcmV0' });
      },
    });
    const user = setupUser();
    openTab();

    expect(await screen.findByText('Aún no hay endpoints.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Agregar endpoint' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Nuevo endpoint' }));
    await user.click(dialog.getByRole('button', { name: 'Crear endpoint' }));
    expect(await dialog.findByText('Elija al menos un evento')).toBeTruthy();
    expect(dialog.getByText('Campo obligatorio')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await fill(user, dialog.getByRole('textbox', { name: 'URL' }), 'https://crm.example.com/in');
    await fill(user, dialog.getByRole('textbox', { name: 'Descripción' }), 'CRM');
    // A whole area at once, and one event alone; each with its technical name beside it.
    await user.click(dialog.getByRole('checkbox', { name: 'Todos los eventos de Conversaciones' }));
    expect(dialog.getByRole('checkbox', { name: 'Ticket resuelto' })).toHaveProperty(
      'checked',
      true,
    );
    await user.click(dialog.getByRole('checkbox', { name: 'Ticket resuelto' }));
    expect(
      dialog.getByRole('checkbox', { name: 'Todos los eventos de Conversaciones' }),
    ).toHaveProperty('indeterminate', true);
    const ratings = within(dialog.getByRole('group', { name: 'Valoraciones' }));
    expect(ratings.getByText('rating.received')).toBeTruthy();
    await user.click(ratings.getByRole('checkbox', { name: 'Valoración recibida' }));
    expect(dialog.getByText('6 de 16 eventos elegidos')).toBeTruthy();
    expect(dialog.getByRole('switch', { name: 'Activo' })).toHaveProperty('checked', true);
    await user.click(dialog.getByRole('button', { name: 'Crear endpoint' }));

    const shown = within(await screen.findByRole('dialog', { name: 'Endpoint creado' }));
    expect(await screen.findByText('Endpoint creado.')).toBeTruthy();
    expect(sent).toEqual([
      {
        url: 'https://crm.example.com/in',
        description: 'CRM',
        events: [
          'ticket.created',
          'ticket.updated',
          'ticket.assigned',
          'ticket.transferred',
          'ticket.reopened',
          'rating.received',
        ],
        enabled: true,
      },
    ]);
    expect(
      (shown.getByRole('textbox', { name: 'Secreto de firma' }) as HTMLInputElement).value,
    ).toBe('whsec_c2VjcmV0');
    expect(shown.getByRole('button', { name: 'Copiar secreto' })).toBeTruthy();
    expect(shown.getByText(/webhook-id, webhook-timestamp, webhook-signature/)).toBeTruthy();

    await user.click(shown.getByRole('button', { name: 'Listo' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByDisplayValue('whsec_c2VjcmV0')).toBeNull();
    expect(await within(table()).findByText('https://crm.example.com/in')).toBeTruthy();
    expect(within(table()).getByText('6 eventos')).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('says under the URL why the API refused it', async () => {
    const sent: unknown[] = [];
    stubApi({
      'GET /webhook-endpoints': () => jsonResponse(200, { endpoints: [endpoint()] }),
      'PUT /webhook-endpoints/1': (init) => {
        sent.push(JSON.parse(String(init.body)));
        if (sent.length === 1)
          return jsonResponse(400, {
            error: 'ERR_OUTBOUND_URL_NOT_ALLOWED',
            message: 'crm.internal resolves to a private address',
            fields: { url: ['crm.internal resolves to a private address'] },
          });
        return jsonResponse(400, {
          error: 'ERR_VALIDATION',
          message: 'Invalid body',
          fields: { 'events.0': ['Invalid option'] },
        });
      },
    });
    const user = setupUser();
    openTab();

    await user.click(within(await rowOf('CRM')).getByRole('button', { name: 'Editar CRM' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar endpoint' }));
    expect(dialog.getByRole('checkbox', { name: 'Ticket creado' })).toHaveProperty('checked', true);
    expect(dialog.getByRole('checkbox', { name: 'Mensaje nuevo' })).toHaveProperty('checked', true);
    const url = dialog.getByRole('textbox', { name: 'URL' });
    await refill(user, url, 'ftp://crm.example.com');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await dialog.findByText('Escriba una dirección http:// o https://')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await refill(user, url, 'https://crm.internal/hooks');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    const refusal = 'La dirección no está permitida: apunta a una red privada o no es http(s).';
    expect(await dialog.findByText(refusal)).toBeTruthy();
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(url.getAttribute('aria-describedby')!)?.textContent).toBe(
      refusal,
    );
    // Only what the form edits: the on/off state was left as it was.
    expect(sent[0]).toEqual({
      url: 'https://crm.internal/hooks',
      description: 'CRM',
      events: ['ticket.created', 'message.created'],
    });

    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await dialog.findByText('Revise los datos del formulario.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Editar endpoint' })).toBeTruthy();
  });

  it('sends a test event and says how it went', async () => {
    stubApi({
      'GET /webhook-endpoints': () =>
        jsonResponse(200, {
          endpoints: [endpoint(), endpoint({ id: 2, description: 'ERP' })],
        }),
      'POST /webhook-endpoints/1/test': () =>
        jsonResponse(
          200,
          detail({}, delivery({ type: 'webhook.test', responseStatus: 204, durationMs: 123 })),
        ),
      'POST /webhook-endpoints/2/test': () =>
        jsonResponse(
          200,
          detail(
            {},
            delivery({
              type: 'webhook.test',
              status: 'failed',
              responseStatus: 500,
              error: 'HTTP 500 from the receiver',
              deliveredAt: null,
            }),
          ),
        ),
    });
    const user = setupUser();
    openTab();

    await user.click(
      within(await rowOf('CRM')).getByRole('button', { name: 'Enviar evento de prueba CRM' }),
    );
    expect(await screen.findByText('Evento de prueba entregado: HTTP 204 en 123 ms.')).toBeTruthy();

    await user.click(
      within(await rowOf('ERP')).getByRole('button', { name: 'Enviar evento de prueba ERP' }),
    );
    expect(
      await screen.findByText('El evento de prueba no se entregó: HTTP 500 from the receiver'),
    ).toBeTruthy();
  });

  it('pages and filters the delivery log, shows a delivery and sends it again', async () => {
    const failed = delivery({
      id: 31,
      type: 'message.created',
      status: 'failed',
      attempts: 3,
      responseStatus: null,
      durationMs: 10000,
      error: 'Timed out after 10 s',
      deliveredAt: null,
    });
    let replayed = false;
    const fetchMock = stubApi({
      'GET /webhook-endpoints': () => jsonResponse(200, { endpoints: [endpoint()] }),
      'GET /webhook-endpoints/1/deliveries': ({ url }) => {
        // Sent again, it waits in the queue: no longer failed.
        if (url.searchParams.get('status') === 'failed')
          return jsonResponse(200, {
            deliveries: replayed ? [] : [failed],
            count: replayed ? 0 : 1,
            hasMore: false,
          });
        const page = Number(url.searchParams.get('pageNumber'));
        return jsonResponse(200, {
          deliveries: Array.from({ length: page === 1 ? 20 : 5 }, (_, index) =>
            delivery({ id: 100 - (page - 1) * 20 - index }),
          ),
          count: 25,
          hasMore: page === 1,
        });
      },
      'GET /webhook-endpoints/1/deliveries/31': () =>
        jsonResponse(
          200,
          detail(
            {
              log: [
                {
                  at: '2026-11-29T10:00:00.000Z',
                  status: 502,
                  durationMs: 40,
                  error: 'The receiver answered 502',
                  response: 'Bad gateway',
                },
                {
                  at: '2026-11-29T10:05:00.000Z',
                  status: null,
                  durationMs: 10000,
                  error: 'Timed out after 10 s',
                  response: '',
                },
              ],
            },
            failed,
          ),
        ),
      'POST /webhook-endpoints/1/deliveries/31/replay': () => {
        replayed = true;
        return jsonResponse(200, detail({}, { ...failed, status: 'pending', deliveredAt: null }));
      },
    });
    const user = setupUser();
    openTab();

    await user.click(within(await rowOf('CRM')).getByRole('button', { name: 'Entregas CRM' }));
    const log = within(await screen.findByRole('dialog', { name: 'Entregas de CRM' }));
    const deliveries = await log.findByRole('table', { name: 'Entregas' });
    expect(within(deliveries).getAllByRole('row')).toHaveLength(21);
    expect(log.getByText('1–20 de 25')).toBeTruthy();
    await user.click(log.getByRole('button', { name: 'Página siguiente' }));
    expect(await log.findByText('21–25 de 25')).toBeTruthy();
    expect(log.getByRole('button', { name: 'Página siguiente' })).toHaveProperty('disabled', true);

    await user.click(log.getByRole('combobox', { name: 'Estado' }));
    await user.click(await screen.findByRole('option', { name: 'Fallidas' }));
    expect(await log.findByText('Timed out after 10 s')).toBeTruthy();
    const row = within(log.getByText('Timed out after 10 s').closest('tr')!);
    expect(row.getByText('Mensaje nuevo')).toBeTruthy();
    expect(row.getByText('message.created')).toBeTruthy();
    expect(row.getByText('Fallida')).toBeTruthy();
    expect(row.getByText('10000 ms')).toBeTruthy();
    expect(callsOf(fetchMock).filter((call) => call.includes('/deliveries'))).toEqual([
      'GET /webhook-endpoints/1/deliveries?pageNumber=1',
      'GET /webhook-endpoints/1/deliveries?pageNumber=2',
      'GET /webhook-endpoints/1/deliveries?status=failed&pageNumber=1',
    ]);

    await user.click(row.getByRole('button', { name: 'Ver detalle Mensaje nuevo 31' }));
    const shown = within(await screen.findByRole('dialog', { name: 'Detalle de la entrega' }));
    expect(await shown.findByText('msg_2bX9')).toBeTruthy();
    const payload = shown.getByLabelText('Contenido enviado');
    expect(payload.textContent).toBe(
      JSON.stringify(
        {
          type: 'message.created',
          timestamp: '2026-11-29T10:00:00.000Z',
          companyId: 1,
          data: { ticket: { id: 7, status: 'open' } },
        },
        null,
        2,
      ),
    );
    expect(shown.getByText('Intentos (2)')).toBeTruthy();
    const [first, second] = shown.getAllByTestId('webhook-attempt');
    expect(within(first!).getByText('HTTP 502')).toBeTruthy();
    expect(within(first!).getByText('40 ms')).toBeTruthy();
    expect(within(first!).getByText('The receiver answered 502')).toBeTruthy();
    expect(within(first!).getByText('Bad gateway')).toBeTruthy();
    expect(within(second!).getByText('Sin respuesta')).toBeTruthy();
    expect(within(second!).getByText('Timed out after 10 s')).toBeTruthy();

    await user.click(shown.getByRole('button', { name: 'Reenviar' }));
    expect(
      await screen.findByText(
        'Entrega reenviada: se enviará en unos segundos, después de las anteriores.',
      ),
    ).toBeTruthy();
    // The log reads it again as the server has it now: waiting, no longer failed.
    expect(await log.findByText('No hay entregas con este estado.')).toBeTruthy();
    expect(
      callsOf(fetchMock).filter((call) => call.endsWith('/deliveries?status=failed&pageNumber=1')),
    ).toHaveLength(2);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows the secret when asked, turns an endpoint off and deletes one after a confirmation', async () => {
    let endpoints = [endpoint(), endpoint({ id: 2, description: 'ERP' })];
    const calls: string[] = [];
    const fetchMock = stubApi({
      'GET /webhook-endpoints': () => jsonResponse(200, { endpoints }),
      'GET /webhook-endpoints/1/secret': () => {
        calls.push('secret');
        return jsonResponse(200, { secret: 'whsec_dmlzdG8' });
      },
      'PUT /webhook-endpoints/1': (init) => {
        const body = JSON.parse(String(init.body));
        calls.push(`put ${JSON.stringify(body)}`);
        endpoints = endpoints.map((item) => (item.id === 1 ? { ...item, ...body } : item));
        return jsonResponse(200, endpoints[0]);
      },
      'GET /webhook-endpoints/1/deliveries': () =>
        jsonResponse(200, { deliveries: [delivery()], count: 1, hasMore: false }),
      'DELETE /webhook-endpoints/2': () => {
        calls.push('delete');
        endpoints = endpoints.filter((item) => item.id !== 2);
        return jsonResponse(204);
      },
    });
    const user = setupUser();
    openTab();

    await user.click(within(await rowOf('CRM')).getByRole('button', { name: 'Ver secreto CRM' }));
    const secret = within(await screen.findByRole('dialog', { name: 'Secreto de CRM' }));
    expect(
      ((await secret.findByRole('textbox', { name: 'Secreto de firma' })) as HTMLInputElement)
        .value,
    ).toBe('whsec_dmlzdG8');
    await user.click(secret.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(await rowOf('CRM')).getByRole('button', { name: 'Desactivar CRM' }));
    expect(await screen.findByText('Endpoint desactivado.')).toBeTruthy();
    expect(await within(await rowOf('CRM')).findByText('Desactivado')).toBeTruthy();
    // Off, it sends nothing again.
    await user.click(within(await rowOf('CRM')).getByRole('button', { name: 'Entregas CRM' }));
    const log = within(await screen.findByRole('dialog', { name: 'Entregas de CRM' }));
    expect(await log.findByRole('button', { name: 'Reenviar Ticket creado 10' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.click(log.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(await rowOf('ERP')).getByRole('button', { name: 'Eliminar ERP' }));
    const confirm = within(await screen.findByRole('dialog'));
    expect(confirm.getByText('¿Eliminar el endpoint «ERP»?')).toBeTruthy();
    expect(calls).not.toContain('delete');
    await user.click(confirm.getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Endpoint eliminado.')).toBeTruthy();
    await waitFor(() => expect(within(table()).queryByText('ERP')).toBeNull());
    expect(calls).toEqual(['secret', 'put {"enabled":false}', 'delete']);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });
});
