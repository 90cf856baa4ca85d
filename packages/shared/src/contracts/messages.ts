import { z } from 'zod';
import { defineRoutes } from '../contract';
import { messageListQuery, messageSendSchema, ticketIdParam } from '../messages';
import { createdResponse, okResponse } from '../responses';
import { idParam } from '../schemas';
import { chatMessageViewSchema, messagesPageSchema } from '../tickets';

const one = okResponse(chatMessageViewSchema);
const sent = z.array(chatMessageViewSchema);

// SPEC §7 Messages: a ticket's chat. Sends go through the API's outbox; their state arrives as live
// events.
export const messagesContract = defineRoutes('messages', {
  listMessages: {
    method: 'GET',
    path: '/messages/:ticketId',
    summary: "List a ticket's messages, a page at a time, and mark them read",
    params: ticketIdParam,
    query: messageListQuery,
    response: okResponse(messagesPageSchema),
  },
  sendMessage: {
    method: 'POST',
    path: '/messages/:ticketId',
    summary: 'Send a message (text or files) in a ticket',
    description:
      'JSON { body, quotedMsg } for text, or multipart/form-data with body, quotedMsg and one or ' +
      'more `medias` files. An Idempotency-Key header makes a retried send answer what the first ' +
      'one stored (200, Idempotent-Replayed: true) instead of sending again.',
    params: ticketIdParam,
    consumes: ['application/json', 'multipart/form-data'],
    // The JSON form; a multipart form is read and checked by the handler.
    body: messageSendSchema.nullish(),
    // One message per attachment (the text goes with the first), or the text alone; 200 for a retry
    // with the Idempotency-Key of a send already stored.
    response: { ...createdResponse(sent), ...okResponse(sent) },
  },
  retryMessage: {
    method: 'POST',
    path: '/messages/:id/retry',
    summary: 'Send a failed message again',
    params: idParam,
    response: one,
  },
  deleteMessage: {
    method: 'DELETE',
    path: '/messages/:id',
    summary: 'Delete a message for everyone',
    params: idParam,
    response: one,
  },
});
