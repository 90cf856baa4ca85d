import {
  integrationsPageSchema,
  integrationViewSchema,
  type IntegrationView,
} from '@atendi/shared';
import { jsonResponse } from './fixtures';

// An integration as GET /queueIntegration lists it, checked against the shared schema.
export const makeIntegration = (overrides: Partial<IntegrationView> = {}): IntegrationView => {
  const integration: IntegrationView = {
    id: 1,
    name: 'Bot de ventas',
    type: 'typebot',
    projectName: '',
    jsonContent: '',
    hasJsonContent: false,
    clientEmail: null,
    language: '',
    urlN8N: 'https://typebot.io',
    typebotSlug: 'ventas-abc123',
    typebotExpires: 1,
    typebotDelayMessage: 1000,
    typebotKeywordFinish: '',
    typebotKeywordRestart: '',
    typebotUnknownMessage: '',
    typebotRestartMessage: '',
    signingSecret: null,
    lastError: null,
    createdAt: '2025-03-04T09:05:00.000Z',
    updatedAt: '2025-03-04T09:05:00.000Z',
    ...overrides,
  };
  integrationViewSchema.parse(integration);
  return integration;
};

export const integrationsPageOf = (queueIntegrations: IntegrationView[], hasMore = false) => {
  const body = { queueIntegrations, hasMore };
  integrationsPageSchema.parse(body);
  return jsonResponse(200, body);
};
