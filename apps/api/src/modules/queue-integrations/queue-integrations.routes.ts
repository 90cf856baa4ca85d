import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdResponse,
  idParam,
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
  messageResponseSchema,
  okResponse,
} from '@atendi/shared';
import { closeDialogflowClients } from './dialogflow-adapter';
import { testDialogflowSession } from './dialogflow-flow';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  integrationOptions,
  listDeliveries,
  listIntegrations,
  updateIntegration,
} from './queue-integrations.service';

// SPEC §7 Integrations: admins of a company whose plan has useIntegrations.
export const queueIntegrationsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tags = ['queue integrations'];
  const config = {
    access: {
      permission: 'integrations:manage' as const,
      planFeature: 'useIntegrations' as const,
    },
  };
  const one = okResponse(integrationViewSchema);
  // Dialogflow's clients hold sockets and timers for the process.
  app.addHook('onClose', closeDialogflowClients);

  app.get(
    '/queueIntegration',
    {
      schema: {
        summary: 'List integrations, a page at a time',
        operationId: 'listIntegrations',
        tags,
        querystring: integrationsQuery,
        response: okResponse(integrationsPageSchema),
      },
      config,
    },
    async (request) => listIntegrations(deps, request.auth, request.query),
  );
  app.post(
    '/queueIntegration/testSession',
    {
      schema: {
        summary: 'Try a Dialogflow agent with one text',
        operationId: 'testDialogflowSession',
        tags,
        body: integrationTestSessionSchema,
        response: okResponse(integrationTestSessionResultSchema),
      },
      config,
    },
    async (request) => testDialogflowSession(deps, request.auth, request.body),
  );
  app.get(
    '/queueIntegration/list',
    {
      schema: {
        summary: "List every integration's id, name and type (pickers)",
        operationId: 'listIntegrationOptions',
        tags,
        response: okResponse(z.array(integrationOptionSchema)),
      },
      config,
    },
    async (request) => integrationOptions(deps, request.auth),
  );
  app.get(
    '/queueIntegration/:id/deliveries',
    {
      schema: {
        summary: "List an integration's webhook deliveries, a page at a time",
        operationId: 'listIntegrationDeliveries',
        tags,
        params: idParam,
        querystring: integrationDeliveriesQuery,
        response: okResponse(integrationDeliveriesPageSchema),
      },
      config,
    },
    async (request) => listDeliveries(deps, request.auth, request.params.id, request.query),
  );
  app.get(
    '/queueIntegration/:id',
    {
      schema: {
        summary: 'Read one integration',
        operationId: 'getIntegration',
        tags,
        params: idParam,
        response: one,
      },
      config,
    },
    async (request) => getIntegration(deps, request.auth, request.params.id),
  );
  app.post(
    '/queueIntegration',
    {
      schema: {
        summary: 'Create an integration',
        operationId: 'createIntegration',
        tags,
        body: integrationSchema,
        response: createdResponse(integrationViewSchema),
      },
      config,
    },
    async (request, reply) =>
      reply.status(201).send(await createIntegration(deps, request.auth, request.body)),
  );
  app.put(
    '/queueIntegration/:id',
    {
      schema: {
        summary: 'Change an integration',
        operationId: 'updateIntegration',
        tags,
        params: idParam,
        body: integrationUpdateSchema,
        response: one,
      },
      config,
    },
    async (request) => updateIntegration(deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/queueIntegration/:id',
    {
      schema: {
        summary: 'Delete an integration',
        operationId: 'deleteIntegration',
        tags,
        params: idParam,
        response: okResponse(messageResponseSchema),
      },
      config,
    },
    async (request) => deleteIntegration(deps, request.auth, request.params.id),
  );
};
