import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  checkoutResultSchema,
  checkoutSchema,
  errorResponseSchema,
  idParam,
  okResponse,
  planViewSchema,
  subscriptionsOverviewSchema,
  subscriptionsQuerySchema,
  webhookReceiptSchema,
} from '@atendi/shared';
import { AppError } from '../../platform/errors';
import { useDepthCheckedJson } from '../../platform/json-body';
import { createBillingWebhooks } from './billing-webhook';
import { createStripeClient } from './stripe-client';
import { createCheckout, getOverview, syncPlanPrice } from './subscriptions.service';

// SPEC §7 Subscriptions, the provider's webhook and the super users' price sync of a plan.
// Subscriptions stay reachable while the company is not active (SPEC §2 gate): that is how an overdue
// company pays.
export const subscriptionsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = { ...app.deps, stripe: createStripeClient(app.deps.config) };
  const webhooks = createBillingWebhooks(app.deps);

  const tags = ['subscriptions'];
  const reachable = { access: { allowInactiveCompany: true } };

  app.get(
    '/subscriptions',
    {
      schema: {
        summary: "Read the company's subscriptions and invoices",
        operationId: 'getSubscriptions',
        tags,
        querystring: subscriptionsQuerySchema,
        response: okResponse(subscriptionsOverviewSchema),
      },
      config: reachable,
    },
    async (request) => getOverview(deps, request.auth, request.query.companyId),
  );

  app.post(
    '/subscriptions/checkout',
    {
      schema: {
        summary: 'Start paying for a plan at the payment provider',
        operationId: 'createCheckout',
        tags,
        body: checkoutSchema,
        response: { ...okResponse(checkoutResultSchema), '5xx': errorResponseSchema },
      },
      config: reachable,
    },
    async (request) => createCheckout(deps, request.auth, request.body),
  );

  app.post(
    '/plans/:id/price',
    {
      schema: {
        summary: "Create or update the plan's price at the payment provider",
        operationId: 'syncPlanPrice',
        tags: ['plans'],
        params: idParam,
        response: { ...okResponse(planViewSchema), '5xx': errorResponseSchema },
      },
      config: { access: { superOnly: true } },
    },
    async (request) => syncPlanPrice(deps, request.params.id),
  );

  // The signature covers the exact bytes the provider sent, so this scope (and only it) keeps them.
  await app.register(async (scope) => {
    const rawBodies = new WeakMap<object, Buffer>();
    useDepthCheckedJson(scope, (request, raw) => rawBodies.set(request, raw));
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/subscriptions/webhook',
      {
        schema: {
          summary: 'Receive a payment provider (Stripe) event',
          operationId: 'receiveBillingWebhook',
          tags,
          security: [],
          description:
            "The payment provider's (Stripe's) webhook: signed with STRIPE_WEBHOOK_SECRET " +
            '(Stripe-Signature header); each event id is acted on once.',
          response: { ...okResponse(webhookReceiptSchema), '5xx': errorResponseSchema },
        },
        config: { access: { public: true } },
      },
      async (request) => {
        const raw = rawBodies.get(request);
        if (!raw) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the event as JSON');
        const header = request.headers['stripe-signature'];
        return webhooks.receive(raw, Array.isArray(header) ? header[0] : header);
      },
    );
  });
};
