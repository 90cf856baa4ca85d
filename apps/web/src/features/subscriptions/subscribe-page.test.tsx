import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { goToUrl } from '../../lib/browser';
import { unknownApiCalls } from '../../test/api-routes';
import {
  jsonResponse,
  makeAuth,
  makePlan,
  makeSubscription,
  stubApi,
  subscriptionsOverview,
} from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import { SubscribePage } from './subscribe-page';

const basic = makePlan({
  id: 1,
  name: 'Basic',
  value: 39,
  users: 2,
  connections: 1,
  queues: 0,
  useCampaigns: false,
  useOpenAi: false,
  useIntegrations: false,
  useExternalApi: true,
  useKanban: true,
  useSchedules: true,
  storageMb: 5120,
  stripePriceId: 'price_basic',
});
const plus = makePlan({ id: 2, name: 'Plus', value: 99, stripePriceId: 'price_plus' });
const legacy = makePlan({ id: 3, name: 'Legacy', value: 19.9, stripePriceId: null });

type Routes = Parameters<typeof stubApi>[0];

// A company on a plan that is not for sale (none of the cards is its current plan).
const auth = (overrides: Parameters<typeof makeAuth>[0] = {}) =>
  makeAuth({ plan: { id: 99, name: 'Trial' }, ...overrides });

const stubPlans = (routes: Routes = {}) =>
  stubApi({
    'GET /plans/list': () => jsonResponse(200, [basic, plus, legacy]),
    'GET /subscriptions': () => subscriptionsOverview(),
    ...routes,
  });

const card = async (name: string) => within(await screen.findByRole('region', { name }));

const billing = {
  firstName: 'Ana',
  lastName: 'López',
  address: 'Av. Paulista 1000',
  city: 'São Paulo',
  state: 'SP',
  zip: '01310-100',
  country: 'BR',
};

// Fills the Data step; the country is picked from the list by its Spanish name.
const fillBilling = async (user: User, dialog: ReturnType<typeof within>, zip = billing.zip) => {
  await fill(user, dialog.getByRole('textbox', { name: 'Nombre' }), billing.firstName);
  await fill(user, dialog.getByRole('textbox', { name: 'Apellido' }), billing.lastName);
  await fill(user, dialog.getByRole('textbox', { name: 'Dirección' }), billing.address);
  await fill(user, dialog.getByRole('textbox', { name: 'Ciudad' }), billing.city);
  await fill(user, dialog.getByRole('textbox', { name: 'Estado o provincia' }), billing.state);
  await fill(user, dialog.getByRole('textbox', { name: 'Código postal' }), zip);
  await user.type(dialog.getByRole('combobox', { name: 'País' }), 'Brasi');
  await user.click(await screen.findByRole('option', { name: 'Brasil' }));
};

const openCheckout = async (user: User, plan: string) => {
  await user.click((await card(plan)).getByRole('button', { name: 'Suscribirse' }));
  return within(await screen.findByRole('dialog', { name: 'Contratar plan' }));
};

const activeStep = (dialog: ReturnType<typeof within>) =>
  dialog
    .getAllByText(/^(Datos|Personalizar|Revisar)$/)
    .find((label: HTMLElement) => label.classList.contains('Mui-active'))?.textContent;

describe('subscribe page', () => {
  it('shows each plan with its monthly price and what it includes', async () => {
    stubPlans();
    renderPage(<SubscribePage />, '/subscribe', auth());

    expect(await screen.findByRole('heading', { level: 1, name: 'Elija su plan' })).toBeTruthy();
    const basicCard = await card('Basic');
    expect(basicCard.getByText('39,00 US$/mes')).toBeTruthy();
    const features = within(basicCard.getByRole('list', { name: 'Qué incluye Basic' }));
    // Each line: its text and an icon named included or not included.
    const lines = features.getAllByRole('listitem').map((item) => {
      const icon = within(item).getByRole('img');
      return {
        text: item.textContent?.replace(icon.textContent ?? '', ''),
        included: within(item).queryByRole('img', { name: 'Incluido' }) !== null,
      };
    });
    expect(lines).toEqual([
      { text: 'Hasta 2 usuarios', included: true },
      { text: 'Hasta 1 conexión', included: true },
      { text: 'Colas ilimitadas', included: true },
      { text: '5 GB de almacenamiento', included: true },
      { text: 'Campañas', included: false },
      { text: 'Agentes de IA', included: false },
      { text: 'Integraciones', included: false },
      { text: 'API externa', included: true },
      { text: 'Kanban', included: true },
      { text: 'Agendamientos', included: true },
    ]);
    expect(
      (basicCard.getByRole('button', { name: 'Suscribirse' }) as HTMLButtonElement).disabled,
    ).toBe(false);

    const legacyCard = await card('Legacy');
    expect(legacyCard.getByText('19,90 US$/mes')).toBeTruthy();
    expect(
      (legacyCard.getByRole('button', { name: 'Suscribirse' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    // The company is told why and whom to ask; no link to the platform's settings.
    expect(
      legacyCard.getByText(
        'El pago en línea de este plan aún no está habilitado. Contacte al administrador de la plataforma para contratarlo.',
      ),
    ).toBeTruthy();
    expect(legacyCard.queryByRole('link')).toBeNull();
    expect(basicCard.queryByText(/aún no está habilitado/)).toBeNull();
  });

  it('tells a super user that a plan has no price yet and where to sync it', async () => {
    stubPlans();
    renderPage(<SubscribePage />, '/subscribe', auth({ user: { super: true } }));

    const legacyCard = await card('Legacy');
    expect(
      legacyCard.getByText(
        'Este plan aún no tiene precio en Stripe: las empresas no pueden pagarlo en línea.',
      ),
    ).toBeTruthy();
    expect(
      legacyCard.getByRole('link', { name: 'Sincronizar precios en Planes' }).getAttribute('href'),
    ).toBe('/settings?tab=plans');
    expect((await card('Plus')).queryByRole('link')).toBeNull();
  });

  it('marks the plan the company is on, and paying it keeps that plan rather than subscribing anew', async () => {
    stubPlans();
    const user = setupUser();
    renderPage(<SubscribePage />, '/subscribe', auth({ plan: { id: basic.id, name: 'Basic' } }));

    const basicCard = await card('Basic');
    expect(basicCard.getByText('Plan actual')).toBeTruthy();
    expect(basicCard.queryByRole('button', { name: 'Suscribirse' })).toBeNull();
    const pay = basicCard.getByRole('button', { name: 'Pagar mi plan actual' });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    // Only that one card is marked.
    for (const name of ['Plus', 'Legacy']) {
      const other = await card(name);
      expect(other.queryByText('Plan actual')).toBeNull();
      expect(other.getByRole('button', { name: 'Suscribirse' })).toBeTruthy();
    }

    await user.click(pay);
    const dialog = within(await screen.findByRole('dialog', { name: 'Contratar plan' }));
    await fillBilling(user, dialog);
    await user.click(dialog.getByRole('button', { name: 'Siguiente' }));
    expect(
      (
        (await dialog.findByRole('radio', {
          name: 'Basic · 39,00\u00a0US$/mes',
        })) as HTMLInputElement
      ).checked,
    ).toBe(true);
  });

  it('with a live subscription, its plan is marked and leads to it instead of a second payment', async () => {
    stubPlans({
      'GET /subscriptions': () =>
        subscriptionsOverview({
          subscriptions: [makeSubscription({ plan: { id: plus.id, name: 'Plus' } })],
        }),
    });
    // The session still names the plan it had before paying for another.
    renderPage(<SubscribePage />, '/subscribe', auth({ plan: { id: basic.id, name: 'Basic' } }));

    const plusCard = await card('Plus');
    await waitFor(() => expect(plusCard.getByText('Plan actual')).toBeTruthy());
    expect(plusCard.queryByRole('button')).toBeNull();
    expect(plusCard.getByRole('link', { name: 'Ver mi suscripción' }).getAttribute('href')).toBe(
      '/subscriptions',
    );
    const basicCard = await card('Basic');
    expect(basicCard.queryByText('Plan actual')).toBeNull();
    expect(
      (basicCard.getByRole('button', { name: 'Suscribirse' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('refuses Next until the billing details are valid, each field naming its problem', async () => {
    stubPlans();
    const user = setupUser();
    renderPage(<SubscribePage />, '/subscribe', auth());

    const dialog = await openCheckout(user, 'Basic');
    expect(activeStep(dialog)).toBe('Datos');
    await user.click(dialog.getByRole('button', { name: 'Siguiente' }));

    await waitFor(() => expect(dialog.getAllByText('Campo obligatorio')).toHaveLength(7));
    expect(activeStep(dialog)).toBe('Datos');

    await fillBilling(user, dialog, '!');
    await user.click(dialog.getByRole('button', { name: 'Siguiente' }));
    expect(await dialog.findByText('Código postal inválido')).toBeTruthy();
    expect(dialog.queryByText('Campo obligatorio')).toBeNull();
    expect(activeStep(dialog)).toBe('Datos');
    expect(
      dialog.getByRole('textbox', { name: 'Código postal' }).getAttribute('aria-invalid'),
    ).toBe('true');

    await refill(user, dialog.getByRole('textbox', { name: 'Código postal' }), billing.zip);
    await user.click(dialog.getByRole('button', { name: 'Siguiente' }));
    expect(await dialog.findByRole('radiogroup', { name: 'Plan' })).toBeTruthy();
    expect(activeStep(dialog)).toBe('Personalizar');
  });

  it('reviews plan and price, keeps what was typed across Back, and goes to the provider’s page', async () => {
    const posted: unknown[] = [];
    const fetchMock = stubPlans({
      'POST /subscriptions/checkout': (init) => {
        posted.push(JSON.parse(String(init.body)));
        return jsonResponse(200, { url: 'https://checkout.stripe.com/c/pay/cs_test_1' });
      },
    });
    const user = setupUser();
    renderPage(<SubscribePage />, '/subscribe', auth());

    const dialog = await openCheckout(user, 'Basic');
    await fillBilling(user, dialog);
    await user.click(dialog.getByRole('button', { name: 'Siguiente' }));

    // Customize: the purchasable plans, the clicked one chosen.
    const plans = within(await dialog.findByRole('radiogroup', { name: 'Plan' }));
    expect(plans.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(
      ['Basic · 39,00\u00a0US$/mes', 'Plus · 99,00\u00a0US$/mes'],
    );
    expect(
      (plans.getByRole('radio', { name: 'Basic · 39,00\u00a0US$/mes' }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    expect(dialog.getByTestId('checkout-price').textContent).toBe('Basic: 39,00\u00a0US$/mes');
    await user.click(plans.getByRole('radio', { name: 'Plus · 99,00\u00a0US$/mes' }));
    expect(dialog.getByTestId('checkout-price').textContent).toBe('Plus: 99,00\u00a0US$/mes');

    // Back twice: the details are still there; forward again.
    await user.click(dialog.getByRole('button', { name: 'Atrás' }));
    expect((dialog.getByRole('textbox', { name: 'Código postal' }) as HTMLInputElement).value).toBe(
      '01310-100',
    );
    expect((dialog.getByRole('combobox', { name: 'País' }) as HTMLInputElement).value).toBe(
      'Brasil',
    );
    await user.click(dialog.getByRole('button', { name: 'Siguiente' }));
    expect(
      (
        (await dialog.findByRole('radio', {
          name: 'Plus · 99,00\u00a0US$/mes',
        })) as HTMLInputElement
      ).checked,
    ).toBe(true);
    await user.click(dialog.getByRole('button', { name: 'Siguiente' }));

    const review = within(await dialog.findByTestId('checkout-review'));
    expect(review.getByText('Ana López')).toBeTruthy();
    expect(review.getByText('Av. Paulista 1000')).toBeTruthy();
    expect(review.getByText('São Paulo, SP, 01310-100')).toBeTruthy();
    expect(review.getByText('Brasil')).toBeTruthy();
    expect(review.getByText('Plus')).toBeTruthy();
    expect(review.getByText('99,00 US$/mes')).toBeTruthy();
    expect(
      review.getByText(
        'Los datos de la tarjeta se ingresan en la página segura del proveedor de pagos, no en esta aplicación.',
      ),
    ).toBeTruthy();

    await user.click(dialog.getByRole('button', { name: 'Suscribirse' }));
    await waitFor(() =>
      expect(goToUrl).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'),
    );
    expect(posted).toEqual([{ planId: 2, billing }]);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
    expect(dialog.getByText('Abriendo la página de pago…')).toBeTruthy();
    expect(
      (dialog.getByRole('button', { name: 'Suscribirse' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('shows SPEC §8’s alert when the checkout fails, and names payments not configured', async () => {
    let answer = () =>
      jsonResponse(502, { error: 'ERR_PAYMENT_PROVIDER', message: 'Stripe is down' });
    stubPlans({ 'POST /subscriptions/checkout': () => answer() });
    const user = setupUser();
    renderPage(<SubscribePage />, '/subscribe', auth());

    const dialog = await openCheckout(user, 'Plus');
    await fillBilling(user, dialog);
    await user.click(dialog.getByRole('button', { name: 'Siguiente' }));
    await user.click(await dialog.findByRole('button', { name: 'Siguiente' }));
    await user.click(await dialog.findByRole('button', { name: 'Suscribirse' }));

    const alert = await dialog.findByTestId('checkout-error');
    expect(alert.textContent).toContain(
      'Hubo un error al crear la subscripción. Favor de intentar nuevamente.',
    );
    expect(goToUrl).not.toHaveBeenCalled();

    answer = () =>
      jsonResponse(503, { error: 'ERR_PAYMENTS_NOT_CONFIGURED', message: 'No Stripe keys' });
    await user.click(dialog.getByRole('button', { name: 'Suscribirse' }));
    await waitFor(() =>
      expect(dialog.getByTestId('checkout-error').textContent).toContain(
        'Los pagos no están configurados en este servidor. Contacte al operador de la plataforma.',
      ),
    );
    expect(goToUrl).not.toHaveBeenCalled();
  });

  it('shows plans to non-admins with the buttons disabled and the reason', async () => {
    stubPlans();
    renderPage(<SubscribePage />, '/subscribe', auth({ user: { profile: 'user' } }));

    expect(
      await screen.findByText('Solo un administrador de la empresa puede contratar un plan.'),
    ).toBeTruthy();
    for (const name of ['Basic', 'Plus']) {
      const button = (await card(name)).getByRole('button', { name: 'Suscribirse' });
      await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    }
  });

  it('disables every plan when the server takes no payments or a subscription is current', async () => {
    let overview = () => subscriptionsOverview({ paymentsConfigured: false });
    stubPlans({ 'GET /subscriptions': () => overview() });
    const { unmount } = renderPage(<SubscribePage />, '/subscribe', auth());

    expect((await screen.findByTestId('payments-not-configured')).textContent).toContain(
      'Los pagos no están configurados en este servidor.',
    );
    const plusButton = (await card('Plus')).getByRole('button', { name: 'Suscribirse' });
    expect((plusButton as HTMLButtonElement).disabled).toBe(true);
    unmount();

    overview = () => subscriptionsOverview({ subscriptions: [makeSubscription()] });
    renderPage(<SubscribePage />, '/subscribe', auth());
    expect(await screen.findByText('Su empresa ya tiene una suscripción vigente.')).toBeTruthy();
    const again = (await card('Plus')).getByRole('button', { name: 'Suscribirse' });
    expect((again as HTMLButtonElement).disabled).toBe(true);
    expect(vi.mocked(goToUrl)).not.toHaveBeenCalled();
  });
});
