import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSocket } from '../../api/socket';
import { unknownApiCalls } from '../../test/api-routes';
import type { FakeSocket } from '../../test/fake-socket';
import {
  jsonResponse,
  makeAuth,
  makeCompanyView,
  makeInvoice,
  makeSubscription,
  stubApi,
  subscriptionsOverview,
} from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { SubscriptionsPage } from './subscriptions-page';

const table = (name: string) => within(screen.getByRole('table', { name }));
const rowOf = async (tableName: string, text: string) =>
  (await within(await screen.findByRole('table', { name: tableName })).findByText(text)).closest(
    'tr',
  ) as HTMLTableRowElement;
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    // Intl puts a no-break space between the amount and the currency.
    .map((cell) => cell.textContent?.replace(/\s/g, ' '));

const heading = () => screen.findByRole('heading', { level: 1, name: 'Suscripciones' });

describe('subscriptions page', () => {
  it('highlights the active subscription, names it in a banner and hides the subscribe button', async () => {
    const fetchMock = stubApi({
      'GET /subscriptions': () =>
        subscriptionsOverview({
          subscriptions: [
            makeSubscription({
              id: 2,
              plan: { id: 2, name: 'Plus' },
              startDate: '2025-03-10T12:00:00.000Z',
              currentPeriodEnd: '2025-04-10T12:00:00.000Z',
            }),
            makeSubscription({
              id: 1,
              plan: { id: 1, name: 'Basic' },
              status: 'canceled',
              startDate: '2025-01-05T12:00:00.000Z',
              currentPeriodEnd: '2025-02-05T12:00:00.000Z',
            }),
          ],
        }),
    });
    renderPage(
      <SubscriptionsPage />,
      '/subscriptions',
      makeAuth({ companyStatus: 'active', companyDueDate: '2025-04-10T12:00:00.000Z' }),
    );

    const banner = await screen.findByTestId('current-subscription');
    expect(within(banner).getByText('Su plan actual: Plus')).toBeTruthy();
    expect(banner.textContent).toContain('Se renueva el 10/04/2025.');

    const plus = await rowOf('Suscripciones', 'Plus');
    expect(cells(plus)).toEqual(['PlusActual', '10/03/2025', '10/04/2025', 'Activa']);
    expect(plus.classList.contains('Mui-selected')).toBe(true);
    const basic = await rowOf('Suscripciones', 'Basic');
    expect(cells(basic)).toEqual(['Basic', '05/01/2025', '05/02/2025', 'Cancelada']);
    expect(basic.classList.contains('Mui-selected')).toBe(false);

    expect(screen.queryByRole('link', { name: 'Suscribirse' })).toBeNull();
    const company = screen.getByTestId('company-status');
    expect(within(company).getByText('Activa')).toBeTruthy();
    expect(within(company).getByText('10/04/2025')).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('offers /subscribe when no subscription is active, with the company status from the session', async () => {
    stubApi({
      'GET /subscriptions': () =>
        subscriptionsOverview({
          subscriptions: [makeSubscription({ status: 'canceled', plan: { id: 1, name: 'Basic' } })],
        }),
    });
    renderPage(
      <SubscriptionsPage />,
      '/subscriptions',
      makeAuth({ companyStatus: 'overdue', companyDueDate: '2025-02-01T12:00:00.000Z' }),
    );

    const subscribe = await screen.findByRole('link', { name: 'Suscribirse' });
    expect(subscribe.getAttribute('href')).toBe('/subscribe');
    expect(screen.queryByTestId('current-subscription')).toBeNull();
    expect(screen.queryByText('Actual')).toBeNull();
    const company = screen.getByTestId('company-status');
    expect(within(company).getByText('Vencida')).toBeTruthy();
    expect(within(company).getByText('01/02/2025')).toBeTruthy();
    expect(
      screen.getByText(
        'Su empresa no está activa. Suscríbase a un plan para volver a usar la plataforma.',
      ),
    ).toBeTruthy();
  });

  it('lists invoices with their value, due date, status and a link to the provider’s page', async () => {
    stubApi({
      'GET /subscriptions': () =>
        subscriptionsOverview({
          subscriptions: [makeSubscription()],
          invoices: [
            makeInvoice({
              id: 3,
              value: 99.5,
              status: 'open',
              dueDate: '2025-05-10T12:00:00.000Z',
              hostedInvoiceUrl: 'https://invoice.stripe.com/i/acct_1/inv_3',
            }),
            makeInvoice({
              id: 2,
              value: 39,
              status: 'paid',
              dueDate: '2025-04-10T12:00:00.000Z',
              hostedInvoiceUrl: null,
            }),
            makeInvoice({
              id: 1,
              value: 39,
              currency: 'eur',
              status: 'expired',
              dueDate: '2025-03-10T12:00:00.000Z',
              hostedInvoiceUrl: null,
            }),
          ],
        }),
    });
    renderPage(<SubscriptionsPage />, '/subscriptions', makeAuth());

    const open = await rowOf('Facturas', '99,50 US$');
    expect(cells(open)).toEqual(['99,50 US$', '10/05/2025', 'Abierta', 'Ver factura']);
    const link = within(open).getByRole('link', { name: 'Ver factura' });
    expect(link.getAttribute('href')).toBe('https://invoice.stripe.com/i/acct_1/inv_3');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');

    expect(cells(await rowOf('Facturas', '39,00 US$'))).toEqual([
      '39,00 US$',
      '10/04/2025',
      'Pagada',
      '—',
    ]);
    expect(cells(await rowOf('Facturas', '39,00 €'))).toEqual([
      '39,00 €',
      '10/03/2025',
      'Vencida',
      '—',
    ]);
    expect(table('Facturas').getAllByRole('link')).toHaveLength(1);
  });

  it('says so when the server takes no payments, and offers no subscribe button', async () => {
    stubApi({ 'GET /subscriptions': () => subscriptionsOverview({ paymentsConfigured: false }) });
    renderPage(<SubscriptionsPage />, '/subscriptions', makeAuth({ companyStatus: 'overdue' }));

    const alert = await screen.findByTestId('payments-not-configured');
    expect(alert.textContent).toContain(
      'Los pagos no están configurados en este servidor. Contacte al operador de la plataforma para contratar o renovar un plan.',
    );
    expect(screen.getByText('Aún no hay suscripciones.')).toBeTruthy();
    expect(screen.getByText('Aún no hay facturas.')).toBeTruthy();
    expect(await heading()).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Suscribirse' })).toBeNull();
  });

  it('reads the list again when a subscription changes elsewhere', async () => {
    let subscriptions = [makeSubscription({ status: 'incomplete' })];
    stubApi({ 'GET /subscriptions': () => subscriptionsOverview({ subscriptions }) });
    renderPage(<SubscriptionsPage />, '/subscriptions', makeAuth());

    expect(await screen.findByRole('link', { name: 'Suscribirse' })).toBeTruthy();
    expect(cells(await rowOf('Suscripciones', 'Plus'))[3]).toBe('Incompleta');

    subscriptions = [makeSubscription({ cancelAtPeriodEnd: true })];
    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-subscription', {
        action: 'update',
        subscription: subscriptions[0],
      });
    });

    const banner = await screen.findByTestId('current-subscription');
    expect(banner.textContent).toContain(
      'Termina el 10/04/2025: no se renovará al final del período.',
    );
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Suscribirse' })).toBeNull());
  });

  it('shows the company’s storage used against its plan', async () => {
    const fetchMock = stubApi({
      'GET /subscriptions': () => subscriptionsOverview(),
      'GET /companies/1': () =>
        jsonResponse(
          200,
          makeCompanyView({ storageUsed: 4.5 * 1024 ** 3, storageLimit: 5 * 1024 ** 3 }),
        ),
    });
    renderPage(<SubscriptionsPage />, '/subscriptions', makeAuth({ companyStatus: 'active' }));
    const card = await screen.findByTestId('company-storage');
    expect(within(card).getByText('Almacenamiento')).toBeTruthy();
    expect(card.textContent).toContain('4,5 GB de 5 GB');
    expect(card.textContent).toContain('90 % usado');
    expect(within(card).getByText('El almacenamiento está casi lleno.')).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });
});
