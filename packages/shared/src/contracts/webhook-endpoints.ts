import { z } from 'zod';
import { defineRoutes } from '../contract';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';
import {
  webhookDeliveryDetailSchema,
  webhookDeliveryPageSchema,
  webhookDeliveryQuery,
  webhookEndpointCreateSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookSecretSchema,
} from '../outbound-webhooks';

const deliveryParams = idParam.extend({ deliveryId: z.coerce.number().int().positive() });

// Issue 38: the company's outbound webhooks (admins): endpoints, the events they hear, their delivery
// log. Payload schemas: `webhookEventDataSchemas` (shared), the OpenAPI document's webhooks.
export const webhookEndpointsContract = defineRoutes('webhook endpoints', {
  listWebhookEndpoints: {
    method: 'GET',
    path: '/webhook-endpoints',
    summary: 'List the company’s webhook endpoints with their health',
    response: okResponse(webhookEndpointListSchema),
  },
  createWebhookEndpoint: {
    method: 'POST',
    path: '/webhook-endpoints',
    summary: 'Register an endpoint for some event types; its URL must be a public address',
    body: webhookEndpointCreateSchema,
    response: createdResponse(webhookEndpointSchema.extend({ secret: z.string() })),
  },
  updateWebhookEndpoint: {
    method: 'PUT',
    path: '/webhook-endpoints/:id',
    summary: 'Change an endpoint’s URL, events or description, or turn it on or off',
    params: idParam,
    body: webhookEndpointUpdateSchema,
    response: okResponse(webhookEndpointSchema),
  },
  deleteWebhookEndpoint: {
    method: 'DELETE',
    path: '/webhook-endpoints/:id',
    summary: 'Delete an endpoint with its delivery log; deliveries not yet made are dropped',
    params: idParam,
    response: noContentResponse,
  },
  getWebhookEndpointSecret: {
    method: 'GET',
    path: '/webhook-endpoints/:id/secret',
    summary: 'The endpoint’s signing secret (whsec_…), for the receiver’s verifier',
    params: idParam,
    response: okResponse(webhookSecretSchema),
  },
  testWebhookEndpoint: {
    method: 'POST',
    path: '/webhook-endpoints/:id/test',
    summary: 'Send a signed webhook.test event now and answer how it went (also in the log)',
    params: idParam,
    response: okResponse(webhookDeliveryDetailSchema),
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/webhook-endpoints/:id/deliveries',
    summary: 'The endpoint’s deliveries, newest first, 20 a page',
    params: idParam,
    query: webhookDeliveryQuery,
    response: okResponse(webhookDeliveryPageSchema),
  },
  getWebhookDelivery: {
    method: 'GET',
    path: '/webhook-endpoints/:id/deliveries/:deliveryId',
    summary: 'One delivery: the body sent and every attempt (status, answer, time taken)',
    params: deliveryParams,
    response: okResponse(webhookDeliveryDetailSchema),
  },
  replayWebhookDelivery: {
    method: 'POST',
    path: '/webhook-endpoints/:id/deliveries/:deliveryId/replay',
    summary:
      'Send a delivery again (same webhook-id, new signature), after the endpoint’s earlier ones',
    params: deliveryParams,
    response: okResponse(webhookDeliveryDetailSchema),
  },
});
