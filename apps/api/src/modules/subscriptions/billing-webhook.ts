import { eq, inArray } from 'drizzle-orm';
import Stripe from 'stripe';
import { z } from 'zod';
import { addMonths, recurrenceMonths, type InvoiceStatus } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { billingEvents, companies, invoices, plans, subscriptions } from '../../db/schema';
import { enqueueJobs, jobQueue, PermanentJobError, type QueueOptions } from '../../jobs/queue';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { announceCompany } from '../companies';
import { invoiceView, loadSubscriptionView } from './subscriptions.service';

// The provider's webhooks (SPEC §7 Subscriptions). The route verifies the signature over the raw
// bytes, records the event id (a redelivered event is answered and ignored), and stores the event as a
// job before answering, like the Cloud API inbox: a crash after the answer loses nothing. The job
// applies it: every event of a company runs in a transaction that first locks the company's row, so
// events arriving together (Stripe sends several per payment, in no fixed order) apply one at a time.
// Each is repeatable: a subscription keeps the time of the last event applied and ignores older ones;
// an invoice is settled once by its id, and only its first settling moves the company's due date.
//
// The company's due date ("Vencimiento") and the subscription's renewal ("Se renueva el") are one date:
// the end of the period Stripe was paid for. A paid invoice gives it (its lines' period); a payment
// known before its period (the checkout, ahead of the subscription's events) takes it from the
// subscription when that arrives. Only a payment with no period anywhere counts one recurrence.

export const BILLING_QUEUE = 'billing.webhook';
const MONTH_MS = 30 * 24 * 3600_000;

// What the product acts on; other event types are acknowledged and dropped.
const handledTypes = new Set([
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.finalized',
  'invoice.marked_uncollectible',
  'invoice.voided',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

// --- The parts of Stripe's objects that are read (API 2026-10-28; older shapes where they moved) ---

const idOf = z
  .union([z.string(), z.object({ id: z.string() })])
  .nullish()
  .transform((value) => (value == null ? null : typeof value === 'string' ? value : value.id));
const metadataOf = z
  .record(z.string(), z.string())
  .nullish()
  .transform((value) => value ?? {});
const seconds = z.number().int().nonnegative();

const eventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(100),
  created: seconds,
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
type BillingEvent = z.infer<typeof eventSchema>;

// The verified event, stored whole; its job reads the parts above.
export const billingQueue = jobQueue(BILLING_QUEUE, eventSchema);

const sessionSchema = z.object({
  id: z.string(),
  mode: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  metadata: metadataOf,
  customer: idOf,
  subscription: idOf,
  invoice: idOf,
  payment_status: z.string().nullish(),
  amount_total: z.number().nullish(),
  currency: z.string().nullish(),
});

const invoiceSchema = z.object({
  id: z.string(),
  customer: idOf,
  amount_due: z.number(),
  amount_paid: z.number().nullish(),
  currency: z.string(),
  created: seconds,
  due_date: seconds.nullish(),
  hosted_invoice_url: z.string().nullish(),
  status_transitions: z.object({ paid_at: seconds.nullish() }).partial().nullish(),
  // What the invoice pays for; a subscription's lines carry the period they cover.
  lines: z
    .object({
      data: z.array(z.object({ period: z.object({ end: seconds.nullish() }).nullish() })),
    })
    .nullish(),
  // Before API 2025-03-31 the subscription was a field of the invoice.
  subscription: idOf,
  parent: z
    .object({
      subscription_details: z.object({ subscription: idOf, metadata: metadataOf }).nullish(),
    })
    .nullish(),
});

const periodOf = { current_period_start: seconds.nullish(), current_period_end: seconds.nullish() };
const subscriptionSchema = z.object({
  id: z.string(),
  customer: idOf,
  status: z.string().min(1).max(50),
  start_date: seconds.nullish(),
  cancel_at_period_end: z.boolean().nullish(),
  trial_end: seconds.nullish(),
  // The invoice of the current period (on a renewal, made before it is paid).
  latest_invoice: idOf,
  metadata: metadataOf,
  // Before API 2025-03-31 the period was the subscription's; now each item has its own.
  ...periodOf,
  items: z
    .object({
      data: z.array(z.object({ price: z.object({ id: z.string() }).nullish(), ...periodOf })),
    })
    .nullish(),
});

const toDate = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);

// A payload that does not have the shape of its type never will: the job fails at once.
class BillingPayloadError extends Error {}
const read = <T>(schema: z.ZodType<T>, value: unknown, what: string): T => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BillingPayloadError(`Unexpected ${what}: ${parsed.error.message}`);
  return parsed.data;
};

// --- Which company an event is about ---

type Target = { companyId: number | null; customerId: string | null };

const existingCompany = async (db: Db, raw: string | null | undefined) => {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, Number(raw)));
  return row?.id ?? null;
};

const clues = (event: BillingEvent) => {
  const object = event.data.object;
  if (event.type.startsWith('checkout.session.')) {
    const session = read(sessionSchema, object, 'checkout session');
    return {
      ids: [session.metadata.companyId, session.client_reference_id],
      subscriptionId: session.subscription,
      customerId: session.customer,
    };
  }
  if (event.type.startsWith('invoice.')) {
    const invoice = read(invoiceSchema, object, 'invoice');
    const details = invoice.parent?.subscription_details;
    return {
      ids: [details?.metadata.companyId],
      subscriptionId: details?.subscription ?? invoice.subscription,
      customerId: invoice.customer,
    };
  }
  const subscription = read(subscriptionSchema, object, 'subscription');
  return {
    ids: [subscription.metadata.companyId],
    subscriptionId: subscription.id,
    customerId: subscription.customer,
  };
};

// The company id our checkout put in the metadata; else the subscription or the customer we know.
const resolveTarget = async (db: Db, event: BillingEvent): Promise<Target> => {
  const clue = clues(event);
  for (const raw of clue.ids) {
    const id = await existingCompany(db, raw);
    if (id) return { companyId: id, customerId: clue.customerId };
  }
  if (clue.subscriptionId) {
    const [row] = await db
      .select({ companyId: subscriptions.companyId })
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, clue.subscriptionId));
    if (row) return { companyId: row.companyId, customerId: clue.customerId };
  }
  if (clue.customerId) {
    const [row] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.providerCustomerId, clue.customerId));
    if (row) return { companyId: row.id, customerId: clue.customerId };
  }
  return { companyId: null, customerId: clue.customerId };
};

// --- Applying events ---

type Company = typeof companies.$inferSelect;
type Changes = {
  company: boolean;
  subscriptionIds: Set<number>;
  invoiceIds: Set<number>;
  // For the log: a subscription made, or whose status, plan or cancel-at-period-end changed.
  subscription?: { id: number; status: string; planId: number; cancelAtPeriodEnd: boolean };
};

const planByPrice = async (tx: Db, priceId: string | null | undefined) => {
  if (!priceId) return null;
  const [row] = await tx
    .select({ id: plans.id })
    .from(plans)
    .where(eq(plans.stripePriceId, priceId));
  return row?.id ?? null;
};
const planById = async (tx: Db, raw: string | undefined) => {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const [row] = await tx
    .select({ id: plans.id })
    .from(plans)
    .where(eq(plans.id, Number(raw)));
  return row?.id ?? null;
};

// Paid: the company is active, on the plan it paid for, until the end of the period paid for at the
// provider (the subscription renews then). Without that period (no event has told it yet) the due
// date is one period (SPEC §4 recurrence) from now, when the provider's period starts too, until the
// subscription's event brings the provider's own date (onSubscription). Days the company had left
// before paying are not added on top: the provider charges from the payment day.
const extendCompany = async (
  tx: Db,
  company: Company,
  planId: number | null,
  paidThrough: Date | null,
) => {
  await tx
    .update(companies)
    .set({
      dueDate: paidThrough ?? addMonths(new Date(), recurrenceMonths[company.recurrence]),
      status: 'active',
      planId: planId ?? company.planId,
    })
    .where(eq(companies.id, company.id));
};

// A subscription's period end, when it still lies ahead (an old period says nothing of this payment).
const futureOrNull = (date: Date | null | undefined) => (date && date > new Date() ? date : null);

// The end of the period an invoice pays for: the latest end among its lines (a proration line ends
// with the period too).
const invoicePeriodEnd = (invoice: z.infer<typeof invoiceSchema>) => {
  const ends = (invoice.lines?.data ?? []).map((line) => line.period?.end ?? 0);
  return toDate(Math.max(0, ...ends));
};

const statusRank: Record<InvoiceStatus, number> = { open: 0, expired: 1, paid: 2 };

// One invoice row per provider invoice. A status never goes back (paid stays paid); details follow the
// newest event. Answers whether this call is the one that made it paid.
const settleInvoice = async (
  tx: Db,
  company: Company,
  fields: {
    paymentRef: string;
    status: InvoiceStatus;
    value: number;
    currency: string;
    dueDate: Date;
    paidAt: Date | null;
    hostedInvoiceUrl: string | null;
    subscriptionId: number | null;
    eventAt: Date | null;
  },
  changes: Changes,
) => {
  const [existing] = await tx
    .select()
    .from(invoices)
    .where(eq(invoices.paymentRef, fields.paymentRef));
  const values = {
    companyId: company.id,
    paymentRef: fields.paymentRef,
    status: fields.status,
    value: fields.value,
    currency: fields.currency,
    dueDate: fields.dueDate,
    paidAt: fields.paidAt,
    hostedInvoiceUrl: fields.hostedInvoiceUrl,
    subscriptionId: fields.subscriptionId,
    providerUpdatedAt: fields.eventAt,
  };
  if (!existing) {
    const [row] = await tx.insert(invoices).values(values).returning({ id: invoices.id });
    changes.invoiceIds.add(row.id);
    return fields.status === 'paid';
  }
  const advances = statusRank[fields.status] > statusRank[existing.status];
  const newer =
    fields.eventAt !== null &&
    (existing.providerUpdatedAt === null || existing.providerUpdatedAt <= fields.eventAt);
  if (!advances && !newer) return false;
  await tx
    .update(invoices)
    .set({
      ...(advances ? { status: fields.status, paidAt: fields.paidAt ?? existing.paidAt } : {}),
      ...(newer
        ? {
            value: fields.value,
            currency: fields.currency,
            dueDate: fields.dueDate,
            hostedInvoiceUrl: fields.hostedInvoiceUrl ?? existing.hostedInvoiceUrl,
            subscriptionId: fields.subscriptionId ?? existing.subscriptionId,
            providerUpdatedAt: fields.eventAt,
          }
        : {}),
    })
    .where(eq(invoices.id, existing.id));
  changes.invoiceIds.add(existing.id);
  return advances && fields.status === 'paid';
};

const subscriptionRow = async (tx: Db, providerSubscriptionId: string | null) => {
  if (!providerSubscriptionId) return null;
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
  return row ?? null;
};

const onCheckoutCompleted = async (
  tx: Db,
  company: Company,
  event: BillingEvent,
  changes: Changes,
) => {
  const session = read(sessionSchema, event.data.object, 'checkout session');
  if (session.mode && session.mode !== 'subscription') return;
  if (session.customer && !company.providerCustomerId)
    await tx
      .update(companies)
      .set({ providerCustomerId: session.customer })
      .where(eq(companies.id, company.id));
  const paid =
    session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
  const planId = (await planById(tx, session.metadata.planId)) ?? company.planId;
  let subscription = await subscriptionRow(tx, session.subscription);
  if (session.subscription && !subscription) {
    // The subscription's own events carry its full state and replace this first sketch of it.
    [subscription] = await tx
      .insert(subscriptions)
      .values({
        companyId: company.id,
        planId,
        status: paid ? 'active' : 'incomplete',
        providerSubscriptionId: session.subscription,
        providerCustomerId: session.customer,
        startedAt: toDate(event.created),
        currentPeriodStart: toDate(event.created),
      })
      .returning();
    changes.subscriptionIds.add(subscription.id);
    changes.subscription = {
      id: subscription.id,
      status: subscription.status,
      planId: subscription.planId,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    };
  }
  // The first invoice is paid with the session; invoice.paid may come before or after this, and
  // whichever comes first settles it.
  if (paid && session.invoice) {
    const settled = await settleInvoice(
      tx,
      company,
      {
        paymentRef: session.invoice,
        status: 'paid',
        value: (session.amount_total ?? 0) / 100,
        currency: session.currency ?? 'usd',
        dueDate: toDate(event.created)!,
        paidAt: toDate(event.created),
        hostedInvoiceUrl: null,
        subscriptionId: subscription?.id ?? null,
        eventAt: null,
      },
      changes,
    );
    if (settled) {
      // The session carries no period: the subscription's, when its event came first.
      await extendCompany(tx, company, planId, futureOrNull(subscription?.currentPeriodEnd));
      changes.company = true;
    }
  }
};

const invoiceStatusOf: Record<string, InvoiceStatus> = {
  'invoice.paid': 'paid',
  'invoice.payment_failed': 'open',
  'invoice.finalized': 'open',
  'invoice.marked_uncollectible': 'expired',
  'invoice.voided': 'expired',
};

const onInvoice = async (tx: Db, company: Company, event: BillingEvent, changes: Changes) => {
  const invoice = read(invoiceSchema, event.data.object, 'invoice');
  const status = invoiceStatusOf[event.type];
  const details = invoice.parent?.subscription_details;
  const subscription = await subscriptionRow(tx, details?.subscription ?? invoice.subscription);
  const paid = status === 'paid';
  const settled = await settleInvoice(
    tx,
    company,
    {
      paymentRef: invoice.id,
      status,
      value: (paid ? (invoice.amount_paid ?? invoice.amount_due) : invoice.amount_due) / 100,
      currency: invoice.currency,
      dueDate: toDate(invoice.due_date ?? invoice.created)!,
      paidAt: paid ? toDate(invoice.status_transitions?.paid_at ?? event.created) : null,
      hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
      subscriptionId: subscription?.id ?? null,
      eventAt: toDate(event.created),
    },
    changes,
  );
  if (!settled) return;
  const planId = (await planById(tx, details?.metadata.planId)) ?? subscription?.planId ?? null;
  await extendCompany(
    tx,
    company,
    planId,
    invoicePeriodEnd(invoice) ?? futureOrNull(subscription?.currentPeriodEnd),
  );
  changes.company = true;
};

const isPaidInvoice = async (tx: Db, paymentRef: string | null) => {
  if (!paymentRef) return false;
  const [row] = await tx
    .select({ status: invoices.status })
    .from(invoices)
    .where(eq(invoices.paymentRef, paymentRef));
  return row?.status === 'paid';
};

const onSubscription = async (tx: Db, company: Company, event: BillingEvent, changes: Changes) => {
  const sub = read(subscriptionSchema, event.data.object, 'subscription');
  const item = sub.items?.data[0];
  const existing = await subscriptionRow(tx, sub.id);
  const eventAt = toDate(event.created)!;
  // An older event than the one last applied changes nothing.
  if (existing?.providerUpdatedAt && existing.providerUpdatedAt > eventAt) return;
  const planId =
    (await planByPrice(tx, item?.price?.id)) ??
    (await planById(tx, sub.metadata.planId)) ??
    existing?.planId ??
    null;
  if (planId === null)
    throw new BillingPayloadError(`No plan has the price of subscription ${sub.id}`);
  const status = event.type === 'customer.subscription.deleted' ? 'canceled' : sub.status;
  const values = {
    companyId: company.id,
    planId,
    status,
    providerSubscriptionId: sub.id,
    providerCustomerId: sub.customer,
    startedAt: toDate(sub.start_date),
    currentPeriodStart: toDate(item?.current_period_start ?? sub.current_period_start),
    currentPeriodEnd: toDate(item?.current_period_end ?? sub.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end ?? false,
    providerUpdatedAt: eventAt,
  };
  const [row] = existing
    ? await tx
        .update(subscriptions)
        .set(values)
        .where(eq(subscriptions.id, existing.id))
        .returning({ id: subscriptions.id })
    : await tx.insert(subscriptions).values(values).returning({ id: subscriptions.id });
  changes.subscriptionIds.add(row.id);
  if (
    !existing ||
    existing.status !== status ||
    existing.planId !== planId ||
    existing.cancelAtPeriodEnd !== values.cancelAtPeriodEnd
  )
    changes.subscription = {
      id: row.id,
      status,
      planId,
      cancelAtPeriodEnd: values.cancelAtPeriodEnd,
    };

  // A live subscription's plan is the company's plan (a change made at the provider follows), and a
  // trial keeps the company active until the trial ends.
  if (status !== 'active' && status !== 'trialing') return;
  const trialEnd = status === 'trialing' ? toDate(sub.trial_end) : null;
  const extendsTrial = !!trialEnd && (!company.dueDate || company.dueDate < trialEnd);
  // A period newly known whose invoice is already paid (the checkout settled it first): the due date
  // is its end. A renewal's new period waits for its invoice to be paid (onInvoice).
  const periodEnd = values.currentPeriodEnd;
  const periodIsNew =
    periodEnd !== null && existing?.currentPeriodEnd?.getTime() !== periodEnd.getTime();
  const paidPeriodEnd =
    !trialEnd && periodIsNew && (await isPaidInvoice(tx, sub.latest_invoice)) ? periodEnd : null;
  const movesDueDate = !!paidPeriodEnd && company.dueDate?.getTime() !== paidPeriodEnd.getTime();
  if (planId === company.planId && !extendsTrial && !movesDueDate) return;
  await tx
    .update(companies)
    .set({
      planId,
      ...(extendsTrial ? { dueDate: trialEnd, status: 'active' as const } : {}),
      ...(movesDueDate ? { dueDate: paidPeriodEnd } : {}),
    })
    .where(eq(companies.id, company.id));
  changes.company = true;
};

// Issue 37: what an event changed of a company's billing (its plan, status and due date, its
// subscription), recorded in the transaction that changed it; nobody signed in did it.
const recordChange = async (tx: Db, before: Company, event: BillingEvent, changes: Changes) => {
  const company: Record<string, unknown> = {};
  if (changes.company) {
    const [after] = await tx
      .select({ planId: companies.planId, status: companies.status, dueDate: companies.dueDate })
      .from(companies)
      .where(eq(companies.id, before.id));
    if (after.planId !== before.planId) company.planId = after.planId;
    if (after.status !== before.status) company.status = after.status;
    if (after.dueDate?.getTime() !== before.dueDate?.getTime())
      company.dueDate = after.dueDate?.toISOString() ?? null;
  }
  const companyChanged = Object.keys(company).length > 0;
  if (!companyChanged && !changes.subscription) return;
  await audit(tx, {
    companyId: before.id,
    userId: null,
    action: 'billing.subscription_changed',
    target: `company:${before.id}`,
    detail: {
      event: event.type,
      eventId: event.id,
      ...(companyChanged ? { company } : {}),
      ...(changes.subscription ? { subscription: changes.subscription } : {}),
    },
    address: '',
  });
};

const apply = async (tx: Db, company: Company, event: BillingEvent, changes: Changes) => {
  if (event.type === 'checkout.session.completed')
    return onCheckoutCompleted(tx, company, event, changes);
  if (event.type.startsWith('invoice.')) return onInvoice(tx, company, event, changes);
  return onSubscription(tx, company, event, changes);
};

// Not yet attributable (e.g. an invoice about a customer whose checkout event is still on its way):
// retried with backoff, and failed for good after maxAttempts.
class UnattributedEventError extends Error {}

const processBillingEvent = async (
  deps: Pick<AppDeps, 'db' | 'config' | 'realtime'>,
  payload: unknown,
) => {
  const event = read(eventSchema, payload, 'event');
  const { companyId } = await resolveTarget(deps.db, event);
  if (companyId === null)
    throw new UnattributedEventError(`No company is known for event ${event.id} (${event.type})`);
  const changes: Changes = { company: false, subscriptionIds: new Set(), invoiceIds: new Set() };
  await deps.db.transaction(async (tx) => {
    const [company] = await tx
      .select()
      .from(companies)
      .where(eq(companies.id, companyId))
      .for('update');
    if (!company) throw new PermanentJobError('The company no longer exists');
    await apply(tx, company, event, changes);
    await recordChange(tx, company, event, changes);
  });
  // Told after the commit, so what a screen reloads is what was stored.
  for (const id of changes.subscriptionIds) {
    const subscription = await loadSubscriptionView(deps.db, id);
    if (subscription)
      deps.realtime.toCompany(companyId).emit('subscription', { action: 'update', subscription });
  }
  if (changes.invoiceIds.size) {
    const rows = await deps.db
      .select()
      .from(invoices)
      .where(inArray(invoices.id, [...changes.invoiceIds]));
    for (const row of rows)
      deps.realtime
        .toCompany(companyId)
        .emit('invoice', { action: 'update', invoice: invoiceView(row) });
  }
  if (changes.company) await announceCompany(deps, companyId);
};

// The signing time of a Stripe-Signature header (`t=…,v1=…`), in seconds.
const signedAt = (header: string | undefined) =>
  Number(/(?:^|,)t=(\d+)/.exec(header ?? '')?.[1] ?? Infinity);

// How the stored events are applied (background.ts runs the queue).
export const billingWorker = (
  deps: Pick<AppDeps, 'db' | 'config' | 'realtime'>,
): QueueOptions<BillingEvent> => ({
  handle: (job) => processBillingEvent(deps, job.payload),
  permanent: (error) => error instanceof BillingPayloadError,
  maxAttempts: 12,
  // Kept a month for support questions about a payment.
  keepFailedMs: MONTH_MS,
});

export const createBillingWebhooks = (deps: Pick<AppDeps, 'db' | 'jobs' | 'config'>) => {
  return {
    // The raw bytes the provider signed and its Stripe-Signature header.
    receive: async (raw: Buffer, header: string | undefined) => {
      const secret = deps.config.stripe.webhookSecret;
      if (!secret)
        throw new AppError(
          'ERR_PAYMENTS_NOT_CONFIGURED',
          'Payment webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET)',
        );
      let verified: unknown;
      try {
        verified = Stripe.webhooks.constructEvent(raw, header ?? '', secret);
      } catch {
        throw new AppError('ERR_INVALID_SIGNATURE', 'The webhook signature is missing or invalid');
      }
      // The SDK bounds only a signature's age; one dated ahead would stay replayable until then.
      if (signedAt(header) > Date.now() / 1000 + Stripe.webhooks.DEFAULT_TOLERANCE)
        throw new AppError('ERR_INVALID_SIGNATURE', 'The webhook signature is dated in the future');
      const parsed = eventSchema.safeParse(verified);
      if (!parsed.success) throw new AppError('ERR_VALIDATION', 'The payload is not an event');
      const event = parsed.data;
      if (!handledTypes.has(event.type)) return { received: true, duplicate: false };
      let target: Target;
      try {
        target = await resolveTarget(deps.db, event);
      } catch (error) {
        if (error instanceof BillingPayloadError)
          throw new AppError('ERR_VALIDATION', error.message);
        throw error;
      }
      const key = target.companyId
        ? `company:${target.companyId}`
        : target.customerId
          ? `customer:${target.customerId}`
          : null;
      const stored = await deps.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(billingEvents)
          .values({ providerEventId: event.id, type: event.type, companyId: target.companyId })
          .onConflictDoNothing()
          .returning({ id: billingEvents.providerEventId });
        if (!row) return false;
        await enqueueJobs(tx, billingQueue, [
          {
            // The whole event, which parsed as one above.
            payload: verified as BillingEvent,
            key,
            ref: `event:${event.id}`,
            companyId: target.companyId,
          },
        ]);
        return true;
      });
      if (stored) deps.jobs.kick(BILLING_QUEUE);
      return { received: true, duplicate: !stored };
    },
  };
};
