import type { FastifyInstance } from 'fastify';
import { queueIntegrationsContract as integrations } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
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
export const queueIntegrationsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const config = {
    access: {
      permission: 'integrations:manage' as const,
      planFeature: 'useIntegrations' as const,
    },
  };
  // Dialogflow's clients hold sockets and timers for the process.
  app.addHook('onClose', closeDialogflowClients);

  route(integrations.listIntegrations, config, async (request) =>
    listIntegrations(deps, request.auth, request.query),
  );
  route(integrations.testDialogflowSession, config, async (request) =>
    testDialogflowSession(deps, request.auth, request.body),
  );
  route(integrations.listIntegrationOptions, config, async (request) =>
    integrationOptions(deps, request.auth),
  );
  route(integrations.listIntegrationDeliveries, config, async (request) =>
    listDeliveries(deps, request.auth, request.params.id, request.query),
  );
  route(integrations.getIntegration, config, async (request) =>
    getIntegration(deps, request.auth, request.params.id),
  );
  route(integrations.createIntegration, config, async (request) =>
    createIntegration(deps, request.auth, request.body),
  );
  route(integrations.updateIntegration, config, async (request) =>
    updateIntegration(deps, request.auth, request.params.id, request.body),
  );
  route(integrations.deleteIntegration, config, async (request) =>
    deleteIntegration(deps, request.auth, request.params.id),
  );
};
