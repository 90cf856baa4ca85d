import { defineRoutes } from '../contract';
import { externalSendResponseSchema, externalSendSchema } from '../external-api';
import { createdResponse, okResponse } from '../responses';

// SPEC §7 External messages API: called by the company's own systems with a connection's token,
// not a user's session.
export const externalApiContract = defineRoutes('external API', {
  sendExternalMessage: {
    method: 'POST',
    path: '/api/messages/send',
    summary: 'Send a WhatsApp message through the connection the token names',
    description:
      'Authorization: Bearer {connection token}. JSON { number, body } for text, or ' +
      'multipart/form-data with number, body (caption of the first file) and one or more ' +
      '`medias` files. An Idempotency-Key header makes a retried call answer the first ' +
      "call's messages (200, Idempotent-Replayed: true) instead of sending again.",
    // No session: the route checks the connection token itself, before the body is read.
    isPublic: true,
    security: [{ connectionToken: [] }],
    consumes: ['application/json', 'multipart/form-data'],
    // The JSON form; a multipart form is read and checked by the handler.
    body: externalSendSchema.nullish(),
    response: {
      ...createdResponse(externalSendResponseSchema),
      ...okResponse(externalSendResponseSchema),
    },
  },
});
