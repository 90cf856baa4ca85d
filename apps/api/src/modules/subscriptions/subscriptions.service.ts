import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  subscriptionStatuses,
  type BillingDetails,
  type CheckoutInput,
  type SubscriptionStatus,
} from '@atendi/shared';
import type Stripe from 'stripe';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { companies, invoices, plans, subscriptions } from '../../db/schema';
import { auditAs } from '../../platform/audit';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import type { QueueOptions } from '../../jobs/queue';
import { companyInScope, foundOr404 } from '../../platform/tenancy';
import { getPlan, updatePlan } from '../plans';
import type { StopBillingJob } from '../companies';
import { providerCall, requireStripe } from './stripe-client';

// SPEC §7 Subscriptions: what a company has bought (subscriptions and invoices, written by the
// provider's webhooks, billing-webhook.ts) and the way to buy (a Checkout Session on the provider's
// hosted page). Super users also turn a plan into a provider price.

type SubscriptionRow = typeof subscriptions.$inferSelect;
type InvoiceRow = typeof invoices.$inferSelect;

const knownStatus = (status: string): SubscriptionStatus =>
  (subscriptionStatuses as readonly string[]).includes(status)
    ? (status as SubscriptionStatus)
    : 'unknown';

const subscriptionView = (row: SubscriptionRow, plan: { id: number; name: string } | null) => ({
  id: row.id,
  companyId: row.companyId,
  plan,
  status: knownStatus(row.status),
  providerStatus: row.status,
  startDate: row.startedAt ?? row.currentPeriodStart,
  currentPeriodEnd: row.currentPeriodEnd,
  cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const invoiceView = (row: InvoiceRow) => ({
  id: row.id,
  companyId: row.companyId,
  subscriptionId: row.subscriptionId,
  value: row.value,
  currency: row.currency,
  dueDate: row.dueDate,
  status: row.status,
  paidAt: row.paidAt,
  hostedInvoiceUrl: row.hostedInvoiceUrl,
  createdAt: row.createdAt,
});

export const loadSubscriptionView = async (db: Db, id: number) => {
  const [row] = await db
    .select({ subscription: subscriptions, plan: { id: plans.id, name: plans.name } })
    .from(subscriptions)
    .leftJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.id, id));
  return row ? subscriptionView(row.subscription, row.plan) : null;
};

// A company's own, or (super users) any company's.
export const getOverview = async (
  deps: Pick<AppDeps, 'db'> & { stripe: Stripe | null },
  ctx: AuthContext,
  asked?: number,
) => {
  const companyId = await companyInScope(deps.db, ctx, asked);
  const subscriptionRows = await deps.db
    .select({ subscription: subscriptions, plan: { id: plans.id, name: plans.name } })
    .from(subscriptions)
    .leftJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.companyId, companyId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  const invoiceRows = await deps.db
    .select()
    .from(invoices)
    .where(eq(invoices.companyId, companyId))
    .orderBy(desc(invoices.dueDate), desc(invoices.id));
  return {
    paymentsConfigured: deps.stripe !== null,
    subscriptions: subscriptionRows.map((r) => subscriptionView(r.subscription, r.plan)),
    invoices: invoiceRows.map(invoiceView),
  };
};

const customerFields = (company: { name: string; email: string }, billing?: BillingDetails) => ({
  email: company.email || undefined,
  name: billing ? `${billing.firstName} ${billing.lastName}` : company.name,
  ...(billing
    ? {
        address: {
          line1: billing.address,
          city: billing.city,
          state: billing.state,
          postal_code: billing.zip,
          country: billing.country,
        },
      }
    : {}),
});

// The company's one customer at the provider: created at its first checkout and kept. Two first
// checkouts at once may both create one; the first stored wins and the other is left unused.
const customerFor = async (
  db: Db,
  stripe: Stripe,
  company: typeof companies.$inferSelect,
  billing?: BillingDetails,
) => {
  const fields = customerFields(company, billing);
  if (company.providerCustomerId) {
    if (billing)
      await providerCall(() => stripe.customers.update(company.providerCustomerId!, fields));
    return company.providerCustomerId;
  }
  const created = await providerCall(() =>
    stripe.customers.create({ ...fields, metadata: { companyId: String(company.id) } }),
  );
  const [stored] = await db
    .update(companies)
    .set({ providerCustomerId: created.id })
    .where(and(eq(companies.id, company.id), isNull(companies.providerCustomerId)))
    .returning({ id: companies.providerCustomerId });
  if (stored) return created.id;
  const [winner] = await db
    .select({ id: companies.providerCustomerId })
    .from(companies)
    .where(eq(companies.id, company.id));
  return winner?.id ?? created.id;
};

// SPEC §4 Checkout: the plan's price → a hosted Checkout Session; the browser goes to its url. The
// company and plan travel in the session and the subscription it creates, so every webhook finds them.
export const createCheckout = async (
  deps: Pick<AppDeps, 'db' | 'config'> & { stripe: Stripe | null },
  ctx: AuthContext,
  input: CheckoutInput,
) => {
  const stripe = requireStripe(deps.stripe);
  if (!ctx.isSuper && ctx.profile !== 'admin')
    throw new AppError('ERR_NO_PERMISSION', 'Only an administrator can subscribe the company');
  const [plan] = await deps.db
    .select()
    .from(plans)
    .where(
      input.planId !== undefined
        ? eq(plans.id, input.planId)
        : eq(plans.stripePriceId, input.priceId!),
    );
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  if (!plan.stripePriceId || (input.priceId && input.priceId !== plan.stripePriceId))
    throw new AppError('ERR_PLAN_NOT_PURCHASABLE', `The plan ${plan.name} has no price to pay`);
  const [company] = await deps.db.select().from(companies).where(eq(companies.id, ctx.companyId));
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  const [active] = await deps.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.companyId, company.id),
        sql`${subscriptions.status} in ('active', 'trialing')`,
      ),
    )
    .limit(1);
  if (active)
    throw new AppError('ERR_SUBSCRIPTION_ACTIVE', 'The company already has an active subscription');

  const customer = await customerFor(deps.db, stripe, company, input.billing);
  const metadata = { companyId: String(company.id), planId: String(plan.id) };
  const web = deps.config.publicWebUrl;
  const session = await providerCall(() =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      line_items: [{ price: plan.stripePriceId!, quantity: 1 }],
      client_reference_id: String(company.id),
      metadata,
      subscription_data: { metadata },
      // The address our steps collected is the customer's; the hosted page asks when there was none.
      billing_address_collection: input.billing ? 'auto' : 'required',
      customer_update: { address: 'auto', name: 'auto' },
      success_url: `${web}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${web}/cancel`,
    }),
  );
  if (!session.url)
    throw new AppError('ERR_PAYMENT_PROVIDER', 'The payment provider answered no checkout page');
  // Issue 37: who went to pay for which plan (the payment itself comes with the webhooks).
  await auditAs(deps.db, ctx, {
    action: 'billing.checkout_started',
    target: `plan:${plan.id}`,
    detail: { planId: plan.id, value: plan.value },
  });
  return { url: session.url };
};

// A super user's action: the plan gets a monthly price of its value at the provider (a product per
// plan, a new price when the value changed; the old price is archived). The plan's value stays what
// the screens show. A new price is recorded as the plan's change (plan.updated, its stripePriceId).
export const syncPlanPrice = async (
  deps: Pick<AppDeps, 'db' | 'config' | 'realtime'> & { stripe: Stripe | null },
  ctx: AuthContext,
  planId: number,
) => {
  const stripe = requireStripe(deps.stripe);
  const plan = foundOr404(
    (await deps.db.select().from(plans).where(eq(plans.id, planId)))[0],
    'ERR_NO_PLAN_FOUND',
  );
  const amount = Math.round(plan.value * 100);
  const currency = deps.config.billingCurrency;
  let productId: string | undefined;
  const previous = plan.stripePriceId;
  if (previous) {
    const current = await providerCall(async () => {
      try {
        return await stripe.prices.retrieve(previous);
      } catch (error) {
        // A price id typed by hand that the provider does not know: make a new one.
        if ((error as { code?: string }).code === 'resource_missing') return null;
        throw error;
      }
    });
    if (current) {
      productId = typeof current.product === 'string' ? current.product : current.product.id;
      const same =
        current.active &&
        current.unit_amount === amount &&
        current.currency === currency &&
        current.recurring?.interval === 'month' &&
        (current.recurring.interval_count ?? 1) === 1;
      if (same) {
        await providerCall(() => stripe.products.update(productId!, { name: plan.name }));
        return getPlan(deps, planId);
      }
    }
  }
  if (productId) await providerCall(() => stripe.products.update(productId!, { name: plan.name }));
  else
    productId = (
      await providerCall(() =>
        stripe.products.create({ name: plan.name, metadata: { planId: String(plan.id) } }),
      )
    ).id;
  const price = await providerCall(() =>
    stripe.prices.create({
      product: productId!,
      unit_amount: amount,
      currency,
      recurring: { interval: 'month', interval_count: 1 },
      lookup_key: `plan-${plan.id}`,
      transfer_lookup_key: true,
      metadata: { planId: String(plan.id) },
    }),
  );
  const view = await updatePlan(deps, ctx, planId, { stripePriceId: price.id });
  // Archived so nobody buys the old price; already subscribed customers keep it until they change.
  if (previous && previous !== price.id)
    await stripe.prices.update(previous, { active: false }).catch(() => undefined);
  return view;
};

// A company a super user cancelled or deleted (companies.service queues this): its live subscriptions
// are cancelled at the provider, so it is not charged again. Repeatable: one already cancelled (or
// unknown there) is skipped; the provider's subscription.deleted webhook then updates our rows.
export const stopBillingWorker = (
  deps: { stripe: Stripe | null },
  log: { warn: (object: object, message: string) => void },
): QueueOptions<StopBillingJob> => ({
  handle: async (job) => {
    const stripe = deps.stripe;
    if (!stripe) {
      log.warn(
        { companyId: job.payload.companyId },
        'payments are not configured: the subscriptions of a cancelled company were left as they are',
      );
      return;
    }
    for (const id of job.payload.providerSubscriptionIds) {
      try {
        await stripe.subscriptions.cancel(id);
      } catch (error) {
        const code = (error as { code?: string }).code;
        // Gone or already cancelled at the provider: nothing left to stop.
        if (code === 'resource_missing') continue;
        throw error;
      }
    }
  },
  maxAttempts: 10,
  keepFailedMs: 30 * 24 * 3600_000,
});
