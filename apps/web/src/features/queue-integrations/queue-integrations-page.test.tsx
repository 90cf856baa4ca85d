import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSocket } from '../../api/socket';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../../test/clock';
import { unknownApiCalls } from '../../test/api-routes';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { integrationsPageOf, makeIntegration } from '../../test/queue-integrations';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { QueueIntegrationsPage } from './queue-integrations-page';

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;
const socket = () => getSocket() as unknown as FakeSocket;

const typebot = makeIntegration({ id: 3, name: 'Bot de ventas' });
const n8n = makeIntegration({
  id: 7,
  name: 'CRM por n8n',
  type: 'n8n',
  urlN8N: 'https://n8n.acme.com/webhook/crm',
  typebotSlug: '',
  signingSecret: 'whsec_n8n',
});
const webhook = makeIntegration({
  id: 8,
  name: 'Eventos ERP',
  type: 'webhook',
  urlN8N: 'https://erp.acme.com/hooks',
  typebotSlug: '',
  signingSecret: 'whsec_erp',
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

// The rows' names, top to bottom.
const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelectorAll('td')[2]?.textContent);

describe('queue integrations page', () => {
  it('warns beside an integration that failed to answer a contact', async () => {
    stubApi({
      'GET /queueIntegration': () =>
        integrationsPageOf([
          { ...webhook, lastError: { message: 'HTTP 503', at: '2025-03-04T10:00:00.000Z' } },
          typebot,
        ]),
    });
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());
    const failing = await rowOf('Eventos ERP');
    // A button: it opens the failed deliveries (deliveries-dialog.test.tsx).
    expect(
      within(failing).getByRole('button', { name: /^La integración no respondió .*HTTP 503/ }),
    ).toBeTruthy();
    expect(
      within(await rowOf('Bot de ventas')).queryByRole('button', { name: /no respondió/ }),
    ).toBeNull();
  });

  it('lists type logo, id and name of each integration', async () => {
    const fetchMock = stubApi({
      'GET /queueIntegration': () => integrationsPageOf([dialogflow, n8n, typebot, webhook]),
    });
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    expect(await screen.findByRole('heading', { level: 1, name: 'Integraciones' })).toBeTruthy();
    const expected = [
      ['Agente Dialogflow', 'Dialogflow', '9'],
      ['CRM por n8n', 'n8n', '7'],
      ['Bot de ventas', 'Typebot', '3'],
      ['Eventos ERP', 'Webhook', '8'],
    ];
    for (const [name, type, id] of expected) {
      const row = await rowOf(name!);
      expect(within(row).getByRole('img', { name: type })).toBeTruthy();
      expect(within(row).getByText(id!)).toBeTruthy();
      expect(
        within(row).getByRole('button', { name: `Entregas de la integración ${name}` }),
      ).toBeTruthy();
      expect(
        within(row).getByRole('button', { name: `Editar la integración ${name}` }),
      ).toBeTruthy();
      expect(
        within(row).getByRole('button', { name: `Eliminar la integración ${name}` }),
      ).toBeTruthy();
    }
    expect(callsOf(fetchMock)).toContain('GET /queueIntegration?searchParam=&pageNumber=1');
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('searches once typing settles and loads the next page near the bottom', async () => {
    const first = Array.from({ length: 40 }, (_, index) =>
      makeIntegration({ id: index + 1, name: `Flujo ${String(index + 1).padStart(2, '0')}` }),
    );
    const fetchMock = stubApi({
      'GET /queueIntegration': ({ url }) => {
        if (url.searchParams.get('searchParam') === 'erp') return integrationsPageOf([webhook]);
        return url.searchParams.get('pageNumber') === '2'
          ? integrationsPageOf([makeIntegration({ id: 99, name: 'Último flujo' })])
          : integrationsPageOf(first, true);
      },
    });
    const user = setupUserOnFakeClock();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());
    await screen.findByText('Flujo 40');

    const box = screen.getByTestId('integrations-scroll');
    Object.defineProperty(box, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 400 });
    box.scrollTop = 520;
    fireEvent.scroll(box);
    expect(await screen.findByText('Último flujo')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Buscar integraciones' }), 'erp');
    await advanceClock(SEARCH_DEBOUNCE_MS);
    expect(await screen.findByText('Eventos ERP')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Flujo 01')).toBeNull());
    expect(callsOf(fetchMock).filter((call) => call.startsWith('GET /queueIntegration?'))).toEqual([
      'GET /queueIntegration?searchParam=&pageNumber=1',
      'GET /queueIntegration?searchParam=&pageNumber=2',
      'GET /queueIntegration?searchParam=erp&pageNumber=1',
    ]);
  });

  it('says when no integration matches the search', async () => {
    stubApi({
      'GET /queueIntegration': ({ url }) =>
        integrationsPageOf(url.searchParams.get('searchParam') ? [] : [typebot]),
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());
    await screen.findByText('Bot de ventas');

    await user.type(screen.getByRole('searchbox', { name: 'Buscar integraciones' }), 'zzz');
    expect(await screen.findByText('Ninguna integración coincide con la búsqueda.')).toBeTruthy();
  });

  it('follows the live integration events', async () => {
    stubApi({ 'GET /queueIntegration': () => integrationsPageOf([typebot]) });
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());
    await screen.findByText('Bot de ventas');

    act(() => {
      socket().receive('company-1-queueIntegration', { action: 'create', queueIntegration: n8n });
    });
    expect(within(await rowOf('CRM por n8n')).getByRole('img', { name: 'n8n' })).toBeTruthy();
    expect(names()).toEqual(['CRM por n8n', 'Bot de ventas']);

    // A change of type shows the new logo.
    act(() => {
      socket().receive('company-1-queueIntegration', {
        action: 'update',
        queueIntegration: { ...typebot, name: 'Bot de ventas 2', type: 'webhook' },
      });
    });
    const row = await rowOf('Bot de ventas 2');
    expect(within(row).getByRole('img', { name: 'Webhook' })).toBeTruthy();

    act(() => {
      socket().receive('company-1-queueIntegration', { action: 'delete', integrationId: 7 });
    });
    await waitFor(() => expect(names()).toEqual(['Bot de ventas 2']));
  });

  it('deletes an integration after confirmation', async () => {
    let deleted = false;
    stubApi({
      'GET /queueIntegration': () => integrationsPageOf([typebot]),
      'DELETE /queueIntegration/3': () => {
        deleted = true;
        return jsonResponse(200, { message: 'Integration deleted' });
      },
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    await user.click(
      within(await rowOf('Bot de ventas')).getByRole('button', {
        name: 'Eliminar la integración Bot de ventas',
      }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: '¿Eliminar la integración Bot de ventas?',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Integración eliminada.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Bot de ventas')).toBeNull());
    expect(screen.getByText('Aún no hay integraciones. Agregue la primera.')).toBeTruthy();
  });

  it('toasts an integration someone else deleted meanwhile', async () => {
    stubApi({
      'GET /queueIntegration': () => integrationsPageOf([typebot]),
      'DELETE /queueIntegration/3': () =>
        jsonResponse(404, { error: 'ERR_NO_INTEGRATION_FOUND', message: 'Not found' }),
    });
    const user = setupUser();
    renderPage(<QueueIntegrationsPage />, '/queue-integration', makeAuth());

    await user.click(
      within(await rowOf('Bot de ventas')).getByRole('button', {
        name: 'Eliminar la integración Bot de ventas',
      }),
    );
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }),
    );
    expect(await screen.findByText('No se encontró la integración.')).toBeTruthy();
  });

  it('tells a non-admin the page is not for them', async () => {
    const fetchMock = stubApi({ 'GET /queueIntegration': () => integrationsPageOf([typebot]) });
    renderPage(
      <QueueIntegrationsPage />,
      '/queue-integration',
      makeAuth({ user: { profile: 'user' } }),
    );

    expect(
      await screen.findByText('Solo los administradores pueden gestionar las integraciones.'),
    ).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /queueIntegration'))).toBe(false);
  });
});
