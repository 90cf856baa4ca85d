import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { billingEvents, companies, invoices, plans, subscriptions } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  PASSWORD,
  SUPER_EMAIL,
  travel,
  type Session,
  type TestContext,
} from '../../../test/harness';
import {
  makeInvoice,
  makeSubscription,
  monthAfter,
  signature,
  startFakeStripe,
  STRIPE_KEY,
  stripeEvent,
  WEBHOOK_SECRET,
  type FakeStripe,
  type StripeEvent,
} from '../../../test/fake-stripe';
import { listenAs } from '../../../test/sockets';
import { STOP_BILLING_QUEUE } from '../companies';
import { BILLING_QUEUE } from './billing-webhook';
import { LIFECYCLE_JOB } from './company-lifecycle';

const DAY = 24 * 3600_000;
let stripe: FakeStripe;
let t: TestContext;
let superUser: Session;

const billing = {
  firstName: 'Ana',
  lastName: 'Pérez',
  address: 'Av. Corrientes 1234',
  city: 'Buenos Aires',
  state: 'CABA',
  zip: 'C1043',
  country: 'ar',
};

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    STRIPE_SECRET_KEY: STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    PUBLIC_WEB_URL: 'http://web.test',
    BILLING_INTERVAL: '0',
    // The lifecycle test moves the clock by days; its login must outlive that.
    ACCESS_TOKEN_TTL: String(60 * 24 * 3600),
    REFRESH_TOKEN_TTL: String(60 * 24 * 3600),
  });
  superUser = await login(t.app, SUPER_EMAIL);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const post = (event: StripeEvent | string, header?: string) => {
  const payload = typeof event === 'string' ? event : JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/subscriptions/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': header ?? signature(payload),
    },
    payload,
  });
};

// Posts events as Stripe would and waits until the job runner has applied them.
const deliver = async (...events: StripeEvent[]) => {
  for (const event of events) expect((await post(event)).statusCode).toBe(200);
  await t.app.deps.jobs.idle();
  await t.app.deps.jobs.process(BILLING_QUEUE);
};

const day = (date: Date | null | undefined) => date?.toISOString().slice(0, 10);

const companyRow = async (id: number) =>
  (await t.db.select().from(companies).where(eq(companies.id, id)))[0];

// A plan with a price at the fake provider, as a super user's sync makes it.
const pricedPlan = async (value = 39) => {
  const [plan] = await t.db
    .insert(plans)
    .values({ name: `Plan ${Math.random().toString(36).slice(2)}`, value })
    .returning();
  const res = await inject(t.app, superUser, 'POST', `/plans/${plan.id}/price`);
  expect(res.statusCode).toBe(200);
  return { ...plan, stripePriceId: res.json().stripePriceId as string };
};

const payingCompany = async (dueInDays: number, status: 'active' | 'overdue' = 'active') => {
  const made = await makeCompany(t.db, {
    status,
    dueDate: new Date(Date.now() + dueInDays * DAY),
  });
  const admin = await login(t.app, made.admin.email, PASSWORD);
  return { ...made, session: admin };
};

// What Stripe sends after a customer pays the checkout of `companyId` for `plan`.
const paidCheckout = (companyId: number, plan: { id: number; stripePriceId: string }) => {
  const metadata = { companyId: String(companyId), planId: String(plan.id) };
  const customer = `cus_${companyId}_${Math.random().toString(36).slice(2, 8)}`;
  const subscription = makeSubscription({ customer, price: plan.stripePriceId, metadata });
  const [item] = subscription.items.data;
  const invoice = makeInvoice({
    customer,
    subscription: subscription.id,
    metadata,
    amount: 3900,
    status: 'paid',
    period: { start: item.current_period_start, end: item.current_period_end },
  });
  subscription.latest_invoice = invoice.id;
  const session = {
    id: `cs_${invoice.id}`,
    object: 'checkout.session',
    mode: 'subscription',
    client_reference_id: String(companyId),
    metadata,
    customer,
    subscription: subscription.id,
    invoice: invoice.id,
    payment_status: 'paid',
    amount_total: 3900,
    currency: 'usd',
  };
  return {
    customer,
    subscription,
    invoice,
    // The end of the paid period, as Stripe has it: when the subscription renews.
    periodEnd: new Date(item.current_period_end * 1000),
    completed: stripeEvent('checkout.session.completed', session),
    created: stripeEvent('customer.subscription.created', subscription),
    invoicePaid: stripeEvent('invoice.paid', invoice),
  };
};

describe('plans priced at the provider', () => {
  it('a super user syncs a plan into a monthly price, and a new value makes a new price', async () => {
    const plan = await pricedPlan(39);
    const price = stripe.objects.get(plan.stripePriceId)!;
    expect(price).toMatchObject({
      unit_amount: 3900,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 1 },
    });
    expect(stripe.objects.get(String(price.product))).toMatchObject({ name: plan.name });

    // Nothing changed: the same price stays.
    const again = await inject(t.app, superUser, 'POST', `/plans/${plan.id}/price`);
    expect(again.json().stripePriceId).toBe(plan.stripePriceId);

    await t.db.update(plans).set({ value: 49.5 }).where(eq(plans.id, plan.id));
    const changed = await inject(t.app, superUser, 'POST', `/plans/${plan.id}/price`);
    const newPrice = changed.json().stripePriceId as string;
    expect(newPrice).not.toBe(plan.stripePriceId);
    expect(stripe.objects.get(newPrice)).toMatchObject({
      unit_amount: 4950,
      product: price.product,
    });
    // The old price can no longer be bought.
    expect(stripe.objects.get(plan.stripePriceId)).toMatchObject({ active: false });
    // The public plan list tells the subscribe page which price to pay.
    const list = await t.app.inject({ method: 'GET', url: '/plans/list' });
    expect(list.json().find((p: { id: number }) => p.id === plan.id).stripePriceId).toBe(newPrice);
  });

  it('is for super users only, and a provider failure is a 502 that changes nothing', async () => {
    const { session } = await payingCompany(10);
    const plan = await pricedPlan(20);
    const denied = await inject(t.app, session, 'POST', `/plans/${plan.id}/price`);
    expect(denied.json().error).toBe('ERR_SUPER_ONLY');

    await t.db.update(plans).set({ value: 25 }).where(eq(plans.id, plan.id));
    // More failures than the SDK's retries.
    for (let i = 0; i < 5; i += 1) stripe.failNext(500, '/v1/prices');
    const failed = await inject(t.app, superUser, 'POST', `/plans/${plan.id}/price`);
    stripe.clearFailures();
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toBe('ERR_PAYMENT_PROVIDER');
    const [row] = await t.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(row.stripePriceId).toBe(plan.stripePriceId);
  });
});

describe('checkout', () => {
  it("opens a hosted checkout that carries the company and plan, with the admin's billing details", async () => {
    const plan = await pricedPlan(39);
    const { company, session } = await payingCompany(-3, 'overdue');
    const before = stripe.requests.length;
    const res = await inject(t.app, session, 'POST', '/subscriptions/checkout', {
      planId: plan.id,
      billing,
    });
    expect(res.statusCode).toBe(200);
    const url = res.json().url as string;
    expect(url).toMatch(new RegExp(`^${stripe.url}/checkout/cs_test_`));

    const calls = stripe.requests.slice(before);
    const customer = calls.find((r) => r.path === '/v1/customers')!;
    expect(customer.params).toMatchObject({
      name: 'Ana Pérez',
      address: { line1: billing.address, postal_code: 'C1043', country: 'AR' },
      metadata: { companyId: String(company.id) },
    });
    const created = calls.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(created.params).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: plan.stripePriceId, quantity: 1 }],
      client_reference_id: String(company.id),
      metadata: { companyId: String(company.id), planId: String(plan.id) },
      subscription_data: { metadata: { companyId: String(company.id), planId: String(plan.id) } },
      success_url: 'http://web.test/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://web.test/cancel',
    });
    // The SDK sends every POST with an idempotency key, so its own retries never double a session.
    expect(created.idempotencyKey).toBeTruthy();

    // A second checkout reuses the company's customer (by price id this time).
    const second = await inject(t.app, session, 'POST', '/subscriptions/checkout', {
      priceId: plan.stripePriceId,
    });
    expect(second.statusCode).toBe(200);
    const sessions = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').slice(-2);
    expect(sessions[1].params.customer).toBe(sessions[0].params.customer);
    expect(stripe.requests.slice(before).filter((r) => r.path === '/v1/customers')).toHaveLength(1);
  });

  it('refuses bad input, plain users, plans without a price and a second subscription', async () => {
    const plan = await pricedPlan(39);
    const { company, session } = await payingCompany(10);
    const bad = await inject(t.app, session, 'POST', '/subscriptions/checkout', {
      planId: plan.id,
      billing: { ...billing, zip: '!', country: 'XX', city: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual([
      'billing.city',
      'billing.country',
      'billing.zip',
    ]);
    const none = await inject(t.app, session, 'POST', '/subscriptions/checkout', {});
    expect(none.json().error).toBe('ERR_VALIDATION');

    const user = await makeUser(t.db, company.id, 'user');
    const plain = await login(t.app, user.email);
    const denied = await inject(t.app, plain, 'POST', '/subscriptions/checkout', {
      planId: plan.id,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe('ERR_NO_PERMISSION');

    const [unpriced] = await t.db
      .insert(plans)
      .values({ name: `Free ${company.id}` })
      .returning();
    const noPrice = await inject(t.app, session, 'POST', '/subscriptions/checkout', {
      planId: unpriced.id,
    });
    expect(noPrice.statusCode).toBe(409);
    expect(noPrice.json().error).toBe('ERR_PLAN_NOT_PURCHASABLE');
    const missing = await inject(t.app, session, 'POST', '/subscriptions/checkout', {
      planId: 999999,
    });
    expect(missing.json().error).toBe('ERR_NO_PLAN_FOUND');

    stripe.failNext(402, '/v1/checkout/sessions');
    const refused = await inject(t.app, session, 'POST', '/subscriptions/checkout', {
      planId: plan.id,
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error).toBe('ERR_PAYMENT_PROVIDER');

    await deliver(paidCheckout(company.id, plan).completed);
    const twice = await inject(t.app, session, 'POST', '/subscriptions/checkout', {
      planId: plan.id,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('ERR_SUBSCRIPTION_ACTIVE');
  });
});

describe('webhooks', () => {
  it('refuses a payload whose signature does not verify, and stores nothing', async () => {
    const { company } = await payingCompany(1);
    const plan = await pricedPlan();
    const { completed } = paidCheckout(company.id, plan);
    const payload = JSON.stringify(completed);
    for (const header of [
      signature(payload, 'whsec_wrong'),
      'garbage',
      signature(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600),
      // Signed "in the future": a captured request cannot be kept for replay later.
      signature(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) + 3600),
    ]) {
      const res = await post(payload, header);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('ERR_INVALID_SIGNATURE');
    }
    // A body changed after signing.
    const tampered = await post(payload.replace('"paid"', '"unpaid"'), signature(payload));
    expect(tampered.json().error).toBe('ERR_INVALID_SIGNATURE');
    const stored = await t.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.providerEventId, completed.id));
    expect(stored).toHaveLength(0);
    expect((await companyRow(company.id)).dueDate).toEqual(company.dueDate);
  });

  it('a paid checkout makes the subscription, the paid invoice, the plan and one more month', async () => {
    const plan = await pricedPlan();
    const { company, session } = await payingCompany(3);
    const heard = await listenAs(t.app, session);
    const paid = paidCheckout(company.id, plan);
    await deliver(paid.completed);

    const after = await companyRow(company.id);
    expect(after.status).toBe('active');
    expect(after.planId).toBe(plan.id);
    // A month from the payment, when Stripe's period ends (the session does not say it exactly).
    expect(day(after.dueDate)).toBe(day(paid.periodEnd));
    expect(after.providerCustomerId).toBe(paid.customer);

    const overview = await inject(t.app, session, 'GET', '/subscriptions');
    expect(overview.json()).toMatchObject({
      paymentsConfigured: true,
      subscriptions: [{ status: 'active', plan: { id: plan.id, name: plan.name } }],
      invoices: [{ status: 'paid', value: 39, currency: 'usd' }],
    });
    await vi.waitFor(() => {
      expect(heard.map((h) => h.event)).toEqual(
        expect.arrayContaining([
          `company-${company.id}-company`,
          `company-${company.id}-subscription`,
          `company-${company.id}-invoice`,
        ]),
      );
    });

    // Stripe also sends the subscription and the invoice: they complete the rows and bring the
    // period's exact end; the invoice already settled moves nothing again.
    await deliver(paid.created, paid.invoicePaid);
    const again = await companyRow(company.id);
    expect(again.dueDate).toEqual(paid.periodEnd);
    const rows = await inject(t.app, session, 'GET', '/subscriptions');
    expect(rows.json().invoices).toHaveLength(1);
    expect(rows.json().invoices[0].hostedInvoiceUrl).toMatch(/^https:\/\/invoice\.stripe\.test/);
    expect(rows.json().subscriptions).toHaveLength(1);
    expect(rows.json().subscriptions[0].currentPeriodEnd).not.toBeNull();
  });

  it('after a payment the due date and the renewal date are one date, in whatever order Stripe tells it', async () => {
    const plan = await pricedPlan();
    // What the screens read: the session's due date ("Vencimiento") and the subscription's period
    // end ("Se renueva el").
    const shown = async (session: Session) => {
      const me = (await inject(t.app, session, 'GET', '/auth/me')).json();
      const overview = (await inject(t.app, session, 'GET', '/subscriptions')).json();
      return {
        dueDate: me.company.dueDate as string,
        renewsOn: overview.subscriptions[0]?.currentPeriodEnd as string | undefined,
      };
    };
    const orders = [
      ['created', 'completed', 'invoicePaid'],
      ['completed', 'created', 'invoicePaid'],
      ['completed', 'invoicePaid', 'created'],
      ['invoicePaid', 'completed', 'created'],
    ] as const;
    for (const order of orders) {
      // A new company's first week is still ahead when it pays.
      const { company, session } = await payingCompany(7);
      const paid = paidCheckout(company.id, plan);
      for (const name of order) await deliver(paid[name]);
      const after = await shown(session);
      expect(after.dueDate, order.join(' → ')).toBe(paid.periodEnd.toISOString());
      expect(after.renewsOn, order.join(' → ')).toBe(after.dueDate);
    }

    // The next month: Stripe moves the subscription's period and bills it. Until the invoice is paid
    // the company's due date stays; once paid, both dates move to the new period's end together.
    const { company, session } = await payingCompany(7);
    const paid = paidCheckout(company.id, plan);
    await deliver(paid.created, paid.completed, paid.invoicePaid);
    const start = paid.subscription.items.data[0].current_period_end;
    const next = makeInvoice({
      customer: paid.customer,
      subscription: paid.subscription.id,
      amount: 3900,
      status: 'open',
      period: { start, end: monthAfter(start) },
    });
    const renewed = makeSubscription({
      id: paid.subscription.id,
      customer: paid.customer,
      price: plan.stripePriceId,
      periodStart: start,
      latestInvoice: next.id,
    });
    const now = Math.floor(Date.now() / 1000);
    await deliver(
      stripeEvent('customer.subscription.updated', renewed, now + 10),
      stripeEvent('invoice.finalized', next, now + 10),
    );
    expect((await shown(session)).dueDate).toBe(paid.periodEnd.toISOString());
    await deliver(
      stripeEvent('invoice.paid', { ...next, status: 'paid', amount_paid: 3900 }, now + 20),
    );
    const renewedShown = await shown(session);
    expect(renewedShown.dueDate).toBe(new Date(monthAfter(start) * 1000).toISOString());
    expect(renewedShown.renewsOn).toBe(renewedShown.dueDate);
  });

  it('a redelivered event is answered and ignored, even when both copies arrive at once', async () => {
    const plan = await pricedPlan();
    const { company } = await payingCompany(2);
    const paid = paidCheckout(company.id, plan);
    const payload = JSON.stringify(paid.invoicePaid);
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(payload)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);
    await t.app.deps.jobs.idle();
    await t.app.deps.jobs.process(BILLING_QUEUE);
    const later = await post(payload);
    expect(later.json()).toEqual({ received: true, duplicate: true });

    expect((await companyRow(company.id)).dueDate).toEqual(paid.periodEnd);
  });

  it('the checkout and the invoice of one payment, applied at once, move the due date once', async () => {
    const plan = await pricedPlan();
    const { company } = await payingCompany(5);
    const paid = paidCheckout(company.id, plan);
    await Promise.all([post(paid.completed), post(paid.invoicePaid), post(paid.created)]);
    // Two nodes taking the jobs at the same time.
    const other = await t.spawnNode();
    await Promise.all([
      t.app.deps.jobs.process(BILLING_QUEUE),
      other.deps.jobs.process(BILLING_QUEUE),
    ]);
    await t.app.deps.jobs.idle();
    await other.deps.jobs.idle();
    await t.app.deps.jobs.process(BILLING_QUEUE);
    expect((await companyRow(company.id)).dueDate).toEqual(paid.periodEnd);
    const rows = await t.db.select().from(invoices).where(eq(invoices.companyId, company.id));
    expect(rows).toHaveLength(1);
  });

  it('renewals, failed payments, voided invoices, cancellations and plan changes', async () => {
    const plan = await pricedPlan();
    const bigger = await pricedPlan(149);
    const { company, session } = await payingCompany(1);
    const paid = paidCheckout(company.id, plan);
    await deliver(paid.created, paid.completed);
    const afterFirst = (await companyRow(company.id)).dueDate!;
    expect(afterFirst).toEqual(paid.periodEnd);

    // Next month's invoice fails: it shows as open, the company is untouched.
    const periodEnd = paid.subscription.items.data[0].current_period_end;
    const renewal = makeInvoice({
      customer: paid.customer,
      subscription: paid.subscription.id,
      amount: 3900,
      status: 'open',
      period: { start: periodEnd, end: monthAfter(periodEnd) },
    });
    await deliver(stripeEvent('invoice.payment_failed', renewal));
    let overview = (await inject(t.app, session, 'GET', '/subscriptions')).json();
    expect(overview.invoices.find((i: { status: string }) => i.status === 'open')).toBeTruthy();
    expect((await companyRow(company.id)).dueDate).toEqual(afterFirst);

    // Then it is paid (found through the subscription, the metadata is not needed): to the end of
    // the period it paid for.
    await deliver(stripeEvent('invoice.paid', { ...renewal, status: 'paid', amount_paid: 3900 }));
    const afterRenewal = (await companyRow(company.id)).dueDate!;
    expect(afterRenewal).toEqual(new Date(monthAfter(periodEnd) * 1000));
    // A failure reported late never takes a paid invoice back.
    await deliver(stripeEvent('invoice.payment_failed', renewal));
    overview = (await inject(t.app, session, 'GET', '/subscriptions')).json();
    expect(overview.invoices.map((i: { status: string }) => i.status)).toEqual(['paid', 'paid']);

    const unpaid = makeInvoice({ customer: paid.customer, amount: 3900, status: 'open' });
    await deliver(stripeEvent('invoice.voided', unpaid));
    overview = (await inject(t.app, session, 'GET', '/subscriptions')).json();
    expect(
      overview.invoices.filter((i: { status: string }) => i.status === 'expired'),
    ).toHaveLength(1);

    // An upgrade made at the provider: the company follows the subscription's plan.
    const upgraded = makeSubscription({
      id: paid.subscription.id,
      customer: paid.customer,
      price: bigger.stripePriceId,
      cancelAtPeriodEnd: true,
    });
    const now = Math.floor(Date.now() / 1000);
    await deliver(stripeEvent('customer.subscription.updated', upgraded, now + 10));
    expect((await companyRow(company.id)).planId).toBe(bigger.id);
    overview = (await inject(t.app, session, 'GET', '/subscriptions')).json();
    expect(overview.subscriptions[0]).toMatchObject({
      plan: { id: bigger.id },
      cancelAtPeriodEnd: true,
    });

    // An older event arriving late changes nothing.
    await deliver(
      stripeEvent('customer.subscription.updated', { ...upgraded, status: 'past_due' }, now - 100),
    );
    overview = (await inject(t.app, session, 'GET', '/subscriptions')).json();
    expect(overview.subscriptions[0].status).toBe('active');

    await deliver(
      stripeEvent('customer.subscription.deleted', { ...upgraded, status: 'canceled' }, now + 20),
    );
    overview = (await inject(t.app, session, 'GET', '/subscriptions')).json();
    expect(overview.subscriptions[0]).toMatchObject({
      status: 'canceled',
      providerStatus: 'canceled',
    });
    // Cancelled: the company keeps what it paid for until the due date.
    expect((await companyRow(company.id)).status).toBe('active');
  });

  it('a trial keeps the company active until the trial ends', async () => {
    const plan = await pricedPlan();
    const { company } = await payingCompany(1);
    const trialEnd = Math.floor(Date.now() / 1000) + 14 * 24 * 3600;
    const trial = makeSubscription({
      customer: 'cus_trial',
      price: plan.stripePriceId,
      status: 'trialing',
      trialEnd,
      metadata: { companyId: String(company.id) },
    });
    await deliver(stripeEvent('customer.subscription.created', trial));
    const after = await companyRow(company.id);
    expect(after.dueDate!.getTime()).toBe(trialEnd * 1000);
    const overview = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.companyId, company.id));
    expect(overview[0].status).toBe('trialing');
  });

  it('ignores event types it does not act on, and says so when not configured', async () => {
    const res = await post(stripeEvent('customer.created', { id: 'cus_x', object: 'customer' }));
    expect(res.json()).toEqual({ received: true, duplicate: false });

    const off = await createTestApp();
    try {
      const admin = await login(off.app, SUPER_EMAIL);
      const overview = await inject(off.app, admin, 'GET', '/subscriptions');
      expect(overview.json()).toEqual({
        paymentsConfigured: false,
        subscriptions: [],
        invoices: [],
      });
      const checkout = await inject(off.app, admin, 'POST', '/subscriptions/checkout', {
        planId: 1,
      });
      expect(checkout.statusCode).toBe(503);
      expect(checkout.json().error).toBe('ERR_PAYMENTS_NOT_CONFIGURED');
      const hook = await off.app.inject({
        method: 'POST',
        url: '/subscriptions/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': 'x' },
        payload: '{}',
      });
      expect(hook.statusCode).toBe(503);
    } finally {
      await off.close();
    }
  });
});

describe('what a company sees', () => {
  it("shows a company only its own billing; super users may read any company's", async () => {
    const plan = await pricedPlan();
    const a = await payingCompany(2);
    const b = await payingCompany(2);
    await deliver(paidCheckout(a.company.id, plan).completed);
    const own = (await inject(t.app, b.session, 'GET', '/subscriptions')).json();
    expect(own.subscriptions).toEqual([]);
    expect(own.invoices).toEqual([]);
    const peek = await inject(t.app, b.session, 'GET', `/subscriptions?companyId=${a.company.id}`);
    expect(peek.statusCode).toBe(404);
    const operator = await inject(
      t.app,
      superUser,
      'GET',
      `/subscriptions?companyId=${a.company.id}`,
    );
    expect(operator.json().subscriptions).toHaveLength(1);
    expect(operator.json().invoices[0].companyId).toBe(a.company.id);
  });
});

describe('a company a super user cancels or deletes', () => {
  it('stops paying: its live subscription is cancelled at the provider', async () => {
    const plan = await pricedPlan();
    const made = [await payingCompany(10), await payingCompany(10)];
    const paid = made.map(({ company }) => paidCheckout(company.id, plan));
    for (const p of paid) {
      stripe.objects.set(p.subscription.id, { ...p.subscription });
      await deliver(p.created, p.completed);
    }
    const cancelled = await inject(t.app, superUser, 'PUT', `/companies/${made[0].company.id}`, {
      status: 'cancelled',
    });
    expect(cancelled.json().status).toBe('cancelled');
    const deleted = await inject(t.app, superUser, 'DELETE', `/companies/${made[1].company.id}`);
    expect(deleted.statusCode).toBe(204);
    await vi.waitFor(async () => {
      await t.app.deps.jobs.process(STOP_BILLING_QUEUE);
      for (const p of paid)
        expect(stripe.objects.get(p.subscription.id)).toMatchObject({ status: 'canceled' });
    });
    const cancels = stripe.requests.filter(
      (r) =>
        r.method === 'DELETE' &&
        paid.some((p) => r.path === `/v1/subscriptions/${p.subscription.id}`),
    );
    expect(cancels).toHaveLength(2);
  });
});

describe('company lifecycle', () => {
  it('active → overdue at the due date → suspended after the grace period → active when paid, live', async () => {
    const plan = await pricedPlan();
    const { company, session } = await payingCompany(2);
    const cancelled = await makeCompany(t.db, {
      status: 'cancelled',
      dueDate: new Date(Date.now() - 30 * DAY),
    });
    const heard = await listenAs(t.app, session);

    travel(3 * DAY);
    // Past the due date the gate closes at once, before the job has run.
    const early = await inject(t.app, session, 'GET', '/tickets');
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toBe('ERR_COMPANY_INACTIVE');
    await t.app.deps.jobs.run(LIFECYCLE_JOB);
    expect((await companyRow(company.id)).status).toBe('overdue');
    await vi.waitFor(() => {
      const update = heard.find((h) => h.event === `company-${company.id}-company`);
      expect(update?.payload).toMatchObject({
        action: 'update',
        company: { id: company.id, status: 'overdue', effectiveStatus: 'overdue' },
      });
    });
    // Still able to see and pay its subscriptions.
    expect((await inject(t.app, session, 'GET', '/subscriptions')).statusCode).toBe(200);

    travel(7 * DAY);
    await t.app.deps.jobs.run(LIFECYCLE_JOB);
    expect((await companyRow(company.id)).status).toBe('suspended');
    expect((await companyRow(cancelled.company.id)).status).toBe('cancelled');

    // Paid: active at once, on the same login.
    await deliver(paidCheckout(company.id, plan).completed);
    const after = await companyRow(company.id);
    expect(after.status).toBe('active');
    expect(after.dueDate!.getTime()).toBeGreaterThan(Date.now() + 27 * DAY);
    expect((await inject(t.app, session, 'GET', '/tickets')).statusCode).toBe(200);
    await t.app.deps.jobs.run(LIFECYCLE_JOB);
    expect((await companyRow(company.id)).status).toBe('active');
  });

  it("a super user's expire action reopens an overdue company", async () => {
    const { company, session } = await payingCompany(-1, 'overdue');
    const res = await inject(t.app, superUser, 'PUT', `/companies/${company.id}`, { expire: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('active');
    expect((await inject(t.app, session, 'GET', '/tickets')).statusCode).toBe(200);
  });

  it('login answers the status the gate applies', async () => {
    const made = await makeCompany(t.db, { dueDate: new Date(Date.now() - DAY) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: made.admin.email, password: PASSWORD },
    });
    expect(res.json().companyStatus).toBe('overdue');
  });
});
