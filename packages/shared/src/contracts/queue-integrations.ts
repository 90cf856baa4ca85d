import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  integrationDeliveriesPageSchema,
  integrationDeliveriesQuery,
  integrationOptionSchema,
  integrationSchema,
  integrationTestSessionResultSchema,
  integrationTestSessionSchema,
  integrationsPageSchema,
  integrationsQuery,
  integrationUpdateSchema,
  integrationViewSchema,
} from '../queue-integrations';
import { createdResponse, messageResponseSchema, okResponse } from '../responses';
import { idParam } from '../schemas';

const one = okResponse(integrationViewSchema);

// SPEC §7 Integrations: the bots and webhooks a queue hands its tickets to, for admins of a company
// whose plan has useIntegrations.
export const queueIntegrationsContract = defineRoutes('queue integrations', {
  listIntegrations: {
    method: 'GET',
    path: '/queueIntegration',
    summary: 'List integrations, a page at a time',
    query: integrationsQuery,
    response: okResponse(integrationsPageSchema),
  },
  testDialogflowSession: {
    method: 'POST',
    path: '/queueIntegration/testSession',
    summary: 'Try a Dialogflow agent with one text',
    body: integrationTestSessionSchema,
    response: okResponse(integrationTestSessionResultSchema),
  },
  listIntegrationOptions: {
    method: 'GET',
    path: '/queueIntegration/list',
    summary: "List every integration's id, name and type (pickers)",
    response: okResponse(z.array(integrationOptionSchema)),
  },
  listIntegrationDeliveries: {
    method: 'GET',
    path: '/queueIntegration/:id/deliveries',
    summary: "List an integration's webhook deliveries, a page at a time",
    params: idParam,
    query: integrationDeliveriesQuery,
    response: okResponse(integrationDeliveriesPageSchema),
  },
  getIntegration: {
    method: 'GET',
    path: '/queueIntegration/:id',
    summary: 'Read one integration',
    params: idParam,
    response: one,
  },
  createIntegration: {
    method: 'POST',
    path: '/queueIntegration',
    summary: 'Create an integration',
    body: integrationSchema,
    response: createdResponse(integrationViewSchema),
  },
  updateIntegration: {
    method: 'PUT',
    path: '/queueIntegration/:id',
    summary: 'Change an integration',
    params: idParam,
    body: integrationUpdateSchema,
    response: one,
  },
  deleteIntegration: {
    method: 'DELETE',
    path: '/queueIntegration/:id',
    summary: 'Delete an integration',
    params: idParam,
    response: okResponse(messageResponseSchema),
  },
});
