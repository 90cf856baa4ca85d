import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import {
  deliveriesPageOf,
  integrationsPageOf,
  makeDelivery,
  makeIntegration,
} from '../../test/queue-integrations';
import { renderPage } from '../../test/render-page';
import { setupUser, type User } from '../../test/user-event';
import { QueueIntegrationsPage } from './queue-integrations-page';

const webhook = makeIntegration({
  id: 8,
  name: 'Eventos ERP',
  type: 'webhook',
  urlN8N: 'https://erp.acme.com/hooks',
  typebotSlug: '',
  signingSecret: 'whsec_erp',
});

// Local wall-clock times, so the expected text does not depend on the machine's time zone.
const at = (day: number, hour: number, minute: number) =>
  new Date(2025, 2, day, hour, minute).toISOString();

const deliveryCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock).filter((call) => call.startsWith('GET /queueIntegration/8/deliveries'));

// Each body row's cells, as text.
const rowsOf = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('table', { name: 'Entregas' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));

const openDeliveries = async (user: User) => {
  const row = (await screen.findByText('Eventos ERP')).closest('tr')!;
  await user.click(
    within(row).getByRole('button', { name: 'Entregas de la integración Eventos ERP' }),
  );
  return screen.findByRole('dialog', { name: 'Entregas de Eventos ERP' });
};

describe('integration deliveries dialog', () => {
  it("lists an integration's deliveries with their event, result, status and ticket", async () => {
    const fetchMock = stubApi({
      'GET /queueIntegration': () => integrationsPageOf([webhook]),
      'GET /queueIntegration/8/deliveries': () =>
        deliveriesPageOf([
          makeDelivery({
            id: 15,
            event: 'message.received',
            ticketId: 123,
            messageId: 900,
            status: 200,
            durationMs: 85,
            received: { body: 'Quiero saber mi saldo', mediaType: 'chat' },
            sent: ['Su saldo es $ 1.200', '¿Algo más?'],
            createdAt: at(4, 10, 30),
          }),
          makeDelivery({
            id: 14,
            event: 'typebot.startChat',
            attempt: 2,
            status: null,
            ok: false,
            durationMs: 3012,
            error: 'connect ECONNREFUSED 10.0.0.5:443',
            createdAt: at(4, 10, 29),
          }),
          makeDelivery({
            id: 13,
            event: 'typebot.continueChat',
            status: 500,
            ok: false,
            error: 'HTTP 500',
            durationMs: 40,
            createdAt: at(3, 8, 5),
          }),
          makeDelivery({
            id: 12,
            event: 'dialogflow.detectIntent',
            durationMs: 210,
            received: { body: '', mediaType: 'image' },
            createdAt: at(3, 8, 4),
          }),
          makeDelivery({ id: 11, event: 'flow.custom', durationMs: 7, createdAt: at(2, 23, 59) }),
        ]),
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openDeliveries(user);
    await within(dialog).findByRole('table', { name: 'Entregas' });
    expect(
      within(dialog)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Fecha',
      'Evento',
      'Mensajes',
      'Intento',
      'Resultado',
      'HTTP',
      'Duración',
      'Error',
      'Ticket',
    ]);
    // The contact's message was received from the contact; what the flow answered was sent to it.
    const messagesOf = (index: number) => {
      const row = within(dialog).getAllByRole('row')[index + 1] as HTMLTableRowElement;
      return [...row.cells[2]!.querySelectorAll('p')].map((line) => line.textContent);
    };
    expect(messagesOf(0)).toEqual([
      'Recibido: Quiero saber mi saldo',
      'Enviado: Su saldo es $ 1.200',
      'Enviado: ¿Algo más?',
    ]);
    expect(messagesOf(3)).toEqual(['Recibido: (archivo adjunto)']);
    expect(rowsOf(dialog).map((cells) => cells.toSpliced(2, 1))).toEqual([
      ['04/03/2025 10:30', 'Mensaje recibido', '1', 'OK', '200', '85 ms', '', '#123'],
      [
        '04/03/2025 10:29',
        'Typebot: inicio',
        '2',
        'Falló',
        'sin conexión',
        '3012 ms',
        'connect ECONNREFUSED 10.0.0.5:443',
        '',
      ],
      ['03/03/2025 08:05', 'Typebot: respuesta', '1', 'Falló', '500', '40 ms', 'HTTP 500', ''],
      ['03/03/2025 08:04', 'Dialogflow: intención', '1', 'OK', '200', '210 ms', '', ''],
      // An event this client does not know is shown as the API names it.
      ['02/03/2025 23:59', 'flow.custom', '1', 'OK', '200', '7 ms', '', ''],
    ]);
    expect(within(dialog).getByRole('switch', { name: 'Solo fallidas' })).toHaveProperty(
      'checked',
      false,
    );
    expect(within(dialog).queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(deliveryCalls(fetchMock)).toEqual([
      'GET /queueIntegration/8/deliveries?pageNumber=1&failed=false',
    ]);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('asks only for the failed ones when the switch is on', async () => {
    const fetchMock = stubApi({
      'GET /queueIntegration': () => integrationsPageOf([webhook]),
      'GET /queueIntegration/8/deliveries': ({ url }) =>
        url.searchParams.get('failed') === 'true'
          ? deliveriesPageOf([
              makeDelivery({
                id: 4,
                ok: false,
                status: 503,
                error: 'HTTP 503 Service Unavailable',
              }),
            ])
          : deliveriesPageOf([makeDelivery({ id: 5, ok: true, status: 200 })]),
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openDeliveries(user);
    await waitFor(() => expect(rowsOf(dialog)).toHaveLength(1));
    expect(rowsOf(dialog)[0]).toContain('OK');
    await user.click(within(dialog).getByRole('switch', { name: 'Solo fallidas' }));

    expect(await within(dialog).findByText('HTTP 503 Service Unavailable')).toBeTruthy();
    expect(rowsOf(dialog).map((cells) => cells[4])).toEqual(['Falló']);
    expect(deliveryCalls(fetchMock)).toEqual([
      'GET /queueIntegration/8/deliveries?pageNumber=1&failed=false',
      'GET /queueIntegration/8/deliveries?pageNumber=1&failed=true',
    ]);
  });

  it('loads the next page with "Cargar más" until there are no more', async () => {
    const first = Array.from({ length: 40 }, (_, index) =>
      makeDelivery({ id: 100 - index, ticketId: 100 - index }),
    );
    const fetchMock = stubApi({
      'GET /queueIntegration': () => integrationsPageOf([webhook]),
      'GET /queueIntegration/8/deliveries': ({ url }) =>
        url.searchParams.get('pageNumber') === '2'
          ? deliveriesPageOf([makeDelivery({ id: 60, ticketId: 7 })])
          : deliveriesPageOf(first, true),
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openDeliveries(user);
    await user.click(await within(dialog).findByRole('button', { name: 'Cargar más' }));

    expect(await within(dialog).findByText('#7')).toBeTruthy();
    expect(rowsOf(dialog)).toHaveLength(41);
    expect(rowsOf(dialog)[0]![8]).toBe('#100');
    expect(within(dialog).queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(deliveryCalls(fetchMock)).toEqual([
      'GET /queueIntegration/8/deliveries?pageNumber=1&failed=false',
      'GET /queueIntegration/8/deliveries?pageNumber=2&failed=false',
    ]);
  });

  it('says when the deliveries cannot be read, and when there are none yet', async () => {
    let answer = jsonResponse(404, { error: 'ERR_NO_INTEGRATION_FOUND', message: 'Not found' });
    stubApi({
      'GET /queueIntegration': () => integrationsPageOf([webhook]),
      'GET /queueIntegration/8/deliveries': () => answer,
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const dialog = await openDeliveries(user);
    expect(
      await within(dialog).findByText(
        'No se pudieron cargar las entregas: No se encontró la integración.',
      ),
    ).toBeTruthy();
    // Told in the dialog, not as a toast.
    expect(screen.getAllByText(/No se encontró la integración/)).toHaveLength(1);

    answer = deliveriesPageOf([]);
    await user.click(within(dialog).getByRole('button', { name: 'Reintentar' }));
    expect(await within(dialog).findByText('Sin entregas todavía.')).toBeTruthy();
    expect(within(dialog).queryByRole('table')).toBeNull();
  });

  it("opens on the failed deliveries from the row's last-error warning", async () => {
    const fetchMock = stubApi({
      'GET /queueIntegration': () =>
        integrationsPageOf([
          { ...webhook, lastError: { message: 'HTTP 503', at: '2025-03-04T10:00:00.000Z' } },
        ]),
      'GET /queueIntegration/8/deliveries': () =>
        deliveriesPageOf([makeDelivery({ id: 4, ok: false, status: 503, error: 'HTTP 503' })]),
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    const row = (await screen.findByText('Eventos ERP')).closest('tr')!;
    await user.click(
      within(row).getByRole('button', {
        name: /^La integración no respondió .*HTTP 503 — ver las entregas fallidas$/,
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Entregas de Eventos ERP' });
    expect(within(dialog).getByRole('switch', { name: 'Solo fallidas' })).toHaveProperty(
      'checked',
      true,
    );
    await waitFor(() =>
      expect(deliveryCalls(fetchMock)).toEqual([
        'GET /queueIntegration/8/deliveries?pageNumber=1&failed=true',
      ]),
    );
  });
});
