import type { FastifyInstance } from 'fastify';
import { webhookEndpointsContract as webhooks } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookDelivery,
  getWebhookEndpointSecret,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookDelivery,
  testWebhookEndpoint,
  updateWebhookEndpoint,
} from './webhook-endpoints.service';

// Issue 38: the company's outbound webhooks, for its admins.
export const webhookEndpointsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const access = { access: { permission: 'webhooks:manage' as const } };
  route(webhooks.listWebhookEndpoints, access, async (request) =>
    listWebhookEndpoints(app.deps, request.auth),
  );
  route(webhooks.createWebhookEndpoint, access, async (request) =>
    createWebhookEndpoint(app.deps, request.auth, request.body),
  );
  route(webhooks.updateWebhookEndpoint, access, async (request) =>
    updateWebhookEndpoint(app.deps, request.auth, request.params.id, request.body),
  );
  route(webhooks.deleteWebhookEndpoint, access, async (request) => {
    await deleteWebhookEndpoint(app.deps, request.auth, request.params.id);
  });
  route(webhooks.getWebhookEndpointSecret, access, async (request) =>
    getWebhookEndpointSecret(app.deps, request.auth, request.params.id),
  );
  route(webhooks.testWebhookEndpoint, access, async (request) =>
    testWebhookEndpoint(app.deps, request.auth, request.params.id, request.log),
  );
  route(webhooks.listWebhookDeliveries, access, async (request) =>
    listWebhookDeliveries(app.deps, request.auth, request.params.id, request.query),
  );
  route(webhooks.getWebhookDelivery, access, async (request) =>
    getWebhookDelivery(app.deps, request.auth, request.params.id, request.params.deliveryId),
  );
  route(webhooks.replayWebhookDelivery, access, async (request) =>
    replayWebhookDelivery(app.deps, request.auth, request.params.id, request.params.deliveryId),
  );
};
