import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { makeAuth, makeSubscription, stubApi, subscriptionsOverview } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { PaymentCancelPage, PaymentSuccessPage } from './payment-result-pages';

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('payment result pages', () => {
  it('on /cancel says nothing was charged and offers to try again or see the subscriptions', async () => {
    stubApi({});
    renderPage(<PaymentCancelPage />, '/cancel', makeAuth({ companyStatus: 'overdue' }));

    expect(await heading('Pago cancelado')).toBeTruthy();
    expect(screen.getByText('El pago se canceló y no se realizó ningún cargo.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Intentar de nuevo' }).getAttribute('href')).toBe(
      '/subscribe',
    );
    expect(screen.getByRole('link', { name: 'Ver suscripciones' }).getAttribute('href')).toBe(
      '/subscriptions',
    );
  });

  it('on /success keeps confirming for a company already active until its subscription appears', async () => {
    // A company in its trial is active before paying: the page waits for the subscription itself.
    let subscriptions = [makeSubscription({ status: 'incomplete' })];
    stubApi({ 'GET /subscriptions': () => subscriptionsOverview({ subscriptions }) });
    renderPage(
      <PaymentSuccessPage />,
      '/success?session_id=cs_test_1',
      makeAuth({ companyStatus: 'active' }),
    );

    expect(await heading('¡Pago recibido!')).toBeTruthy();
    expect(
      screen.getByText(
        'Recibimos su pago. La suscripción se activa en cuanto el proveedor de pagos lo confirme.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Confirmando el pago…');
    expect(screen.getByRole('link', { name: 'Ver suscripciones' }).getAttribute('href')).toBe(
      '/subscriptions',
    );

    subscriptions = [makeSubscription({ status: 'active' })];
    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-subscription', {
        action: 'update',
        subscription: subscriptions[0],
      });
    });

    expect(await heading('Suscripción activa')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir a los tickets' }).getAttribute('href')).toBe(
      '/tickets',
    );
  });
});
