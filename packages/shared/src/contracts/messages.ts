import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  agentTypingSchema,
  messageForwardSchema,
  messageListQuery,
  messageReactionSchema,
  messageSendSchema,
  ticketIdParam,
} from '../messages';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';
import { chatMessageViewSchema, messagesPageSchema, ticketViewSchema } from '../tickets';

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
  agentTyping: {
    method: 'POST',
    path: '/messages/:ticketId/typing',
    summary: 'Tell the contact the agent is writing (or stopped)',
    description:
      'Shown on the contact\'s WhatsApp as "typing…" while the company setting typingToContact ' +
      'is enabled; sent at most every few seconds whatever the caller sends. On the Cloud API the ' +
      "indicator also marks the contact's last message read, so it is sent only when readReceipts " +
      'is enabled too.',
    params: ticketIdParam,
    body: agentTypingSchema,
    response: noContentResponse,
  },
  retryMessage: {
    method: 'POST',
    path: '/messages/:id/retry',
    summary: 'Send a failed message again',
    params: idParam,
    response: one,
  },
  forwardMessages: {
    method: 'POST',
    path: '/messages/forward',
    summary: 'Forward messages to a contact',
    description:
      "Into the contact's open conversation on the first message's connection, or a new one held " +
      'by the caller. Each message goes as it was (text, or the file with its caption), marked ' +
      'forwarded (the Cloud API has no such mark: there it arrives as a plain message).',
    body: messageForwardSchema,
    response: createdResponse(z.object({ ticket: ticketViewSchema, messages: sent })),
  },
  reactToMessage: {
    method: 'PUT',
    path: '/messages/:id/reaction',
    summary: "Set the company's reaction to a message (an empty emoji removes it)",
    description:
      'WhatsApp keeps one reaction per account: the reaction replaces the one the company ' +
      "number had on the message. On the Cloud API, only within the contact's 24-hour window.",
    params: idParam,
    body: messageReactionSchema,
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
