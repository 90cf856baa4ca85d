import { z } from 'zod';
import {
  integrationDeliveriesPageSchema,
  integrationDeliverySchema,
  integrationOptionSchema,
  integrationsPageSchema,
  integrationViewSchema,
  type IntegrationDelivery,
  type IntegrationOption,
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

// GET /queueIntegration/list: the pickers' whole list.
export const integrationOptionsOf = (options: IntegrationOption[]) => {
  z.array(integrationOptionSchema).parse(options);
  return jsonResponse(200, options);
};

// One exchange with a flow, as GET /queueIntegration/{id}/deliveries lists it.
export const makeDelivery = (overrides: Partial<IntegrationDelivery> = {}): IntegrationDelivery => {
  const delivery: IntegrationDelivery = {
    id: 1,
    ticketId: null,
    messageId: null,
    event: 'message.received',
    attempt: 1,
    status: 200,
    ok: true,
    durationMs: 120,
    error: null,
    received: null,
    sent: [],
    createdAt: '2025-03-04T09:05:00.000Z',
    ...overrides,
  };
  integrationDeliverySchema.parse(delivery);
  return delivery;
};

export const deliveriesPageOf = (deliveries: IntegrationDelivery[], hasMore = false) => {
  const body = { deliveries, hasMore };
  integrationDeliveriesPageSchema.parse(body);
  return jsonResponse(200, body);
};
