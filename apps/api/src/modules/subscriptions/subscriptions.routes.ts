import type { FastifyInstance } from 'fastify';
import {
  subscriptionsContract as subscriptions,
  planPricesContract as planPrices,
} from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { AppError } from '../../platform/errors';
import { useDepthCheckedJson } from '../../platform/json-body';
import { createBillingWebhooks } from './billing-webhook';
import { createStripeClient } from './stripe-client';
import { createCheckout, getOverview, syncPlanPrice } from './subscriptions.service';

// SPEC §7 Subscriptions, the provider's webhook and the super users' price sync of a plan.
// Subscriptions stay reachable while the company is not active (SPEC §2 gate): that is how an overdue
// company pays.
export const subscriptionsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = { ...app.deps, stripe: createStripeClient(app.deps.config) };
  const webhooks = createBillingWebhooks(app.deps);

  const reachable = { access: { allowInactiveCompany: true } };

  route(subscriptions.getSubscriptions, reachable, async (request) =>
    getOverview(deps, request.auth, request.query.companyId),
  );

  route(subscriptions.createCheckout, reachable, async (request) =>
    createCheckout(deps, request.auth, request.body),
  );

  route(planPrices.syncPlanPrice, { access: { superOnly: true } }, async (request) =>
    syncPlanPrice(deps, request.auth, request.params.id),
  );

  // The signature covers the exact bytes the provider sent, so this scope (and only it) keeps them.
  await app.register(async (scope) => {
    const rawBodies = new WeakMap<object, Buffer>();
    useDepthCheckedJson(scope, (request, raw) => rawBodies.set(request, raw));
    contractRoutes(scope)(subscriptions.receiveBillingWebhook, async (request) => {
      const raw = rawBodies.get(request);
      if (!raw) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the event as JSON');
      const header = request.headers['stripe-signature'];
      return webhooks.receive(raw, Array.isArray(header) ? header[0] : header);
    });
  });
};
