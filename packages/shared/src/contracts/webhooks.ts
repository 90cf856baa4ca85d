import { z } from 'zod';
import { defineRoutes } from '../contract';
import { errorResponseSchema, okResponse } from '../responses';

// Meta's verification of the callback URL.
const verifyQuery = z.object({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
});

// Meta's webhook for every Cloud API connection of the platform (one callback URL per Meta app).
// Public: the verify token and the payload's signature are the credentials, checked by the API.
export const webhooksContract = defineRoutes('webhooks', {
  verifyCloudWebhook: {
    method: 'GET',
    path: '/webhooks/whatsapp',
    summary: "Answer Meta's webhook verification with hub.challenge",
    isPublic: true,
    query: verifyQuery,
    // Meta's verification: hub.challenge echoed back as plain text.
    response: {
      200: {
        description: 'The hub.challenge sent',
        content: { 'text/plain': { schema: z.string() } },
      },
      '4xx': errorResponseSchema,
    },
  },
  receiveCloudWebhook: {
    method: 'POST',
    path: '/webhooks/whatsapp',
    summary: "Receive a Cloud API webhook from Meta (signed with the connection's app secret)",
    isPublic: true,
    // No body schema: the payload is checked against its signature first, over the exact bytes
    // Meta sent, then mapped by the API (channels/cloud/payloads.ts).
    response: okResponse(z.object({ received: z.boolean() })),
  },
});
