import { defineRoutes } from '../contract';
import {
  checkoutResultSchema,
  checkoutSchema,
  subscriptionsOverviewSchema,
  subscriptionsQuerySchema,
  webhookReceiptSchema,
} from '../billing';
import { planViewSchema } from '../plans';
import { errorResponseSchema, okResponse } from '../responses';
import { idParam } from '../schemas';

// SPEC §7 Subscriptions, the payment provider's webhook and the super users' price sync of a plan.
export const subscriptionsContract = defineRoutes('subscriptions', {
  getSubscriptions: {
    method: 'GET',
    path: '/subscriptions',
    summary: "Read the company's subscriptions and invoices",
    query: subscriptionsQuerySchema,
    response: okResponse(subscriptionsOverviewSchema),
  },
  createCheckout: {
    method: 'POST',
    path: '/subscriptions/checkout',
    summary: 'Start paying for a plan at the payment provider',
    body: checkoutSchema,
    response: { ...okResponse(checkoutResultSchema), '5xx': errorResponseSchema },
  },
  receiveBillingWebhook: {
    method: 'POST',
    path: '/subscriptions/webhook',
    summary: 'Receive a payment provider (Stripe) event',
    isPublic: true,
    description:
      "The payment provider's (Stripe's) webhook: signed with STRIPE_WEBHOOK_SECRET " +
      '(Stripe-Signature header); each event id is acted on once.',
    response: { ...okResponse(webhookReceiptSchema), '5xx': errorResponseSchema },
  },
});

export const planPricesContract = defineRoutes('plans', {
  syncPlanPrice: {
    method: 'POST',
    path: '/plans/:id/price',
    summary: "Create or update the plan's price at the payment provider",
    params: idParam,
    response: { ...okResponse(planViewSchema), '5xx': errorResponseSchema },
  },
});
