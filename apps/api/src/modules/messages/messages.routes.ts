import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chatMessageViewSchema,
  createdResponse,
  idParam,
  messageListQuery,
  messageSendSchema,
  messagesPageSchema,
  okResponse,
  ticketIdParam,
} from '@atendi/shared';
import { AppError } from '../../platform/errors';
import { uploaderOf } from '../../platform/uploads';
import { idempotencyKeyOf } from './send-keys';
import { readMessageForm, type MessageForm } from './message-form';
import {
  assertWritable,
  deleteMessage,
  listMessages,
  retryMessage,
  sendMessages,
  visibleTicket,
} from './messages.service';

// SPEC §7 messages calls. Sends go through the outbox (outbox.ts), which runs with the app: rows left
// by an earlier process are sent once the app is ready, then it keeps looking.
export const messagesRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const { outbox } = deps;
  const tags = ['messages'];

  app.get(
    '/messages/:ticketId',
    {
      schema: {
        summary: "List a ticket's messages, a page at a time, and mark them read",
        operationId: 'listMessages',
        tags,
        params: ticketIdParam,
        querystring: messageListQuery,
        response: okResponse(messagesPageSchema),
      },
    },
    async (request) =>
      listMessages(
        deps,
        request.auth,
        request.params.ticketId,
        request.query.pageNumber,
        request.log,
        request.query.markRead,
      ),
  );

  app.post(
    '/messages/:ticketId',
    {
      schema: {
        summary: 'Send a message (text or files) in a ticket',
        operationId: 'sendMessage',
        tags,
        params: ticketIdParam,
        consumes: ['application/json', 'multipart/form-data'],
        // The JSON form; a multipart form (medias, body, quotedMsg) is read and checked in the handler.
        body: messageSendSchema.nullish(),
        // One message per attachment (the text goes with the first), or the text alone; 200 for a
        // retry with the Idempotency-Key of a send already stored.
        response: {
          ...createdResponse(z.array(chatMessageViewSchema)),
          ...okResponse(z.array(chatMessageViewSchema)),
        },
      },
    },
    async (request, reply) => {
      // Checked before a byte of a file is stored, so a refused request leaves nothing behind.
      const key = idempotencyKeyOf(request.headers['idempotency-key']);
      const ticket = await visibleTicket(deps.db, request.auth, request.params.ticketId);
      assertWritable(ticket);
      let form: MessageForm;
      if (request.isMultipart()) {
        form = await readMessageForm(request, deps.uploads, uploaderOf(request, ticket.companyId));
      } else if (request.body) {
        form = { body: request.body.body, quotedMsgId: request.body.quotedMsg, medias: [] };
      } else {
        throw new AppError('ERR_VALIDATION', 'Send the message as JSON or multipart/form-data');
      }
      const sent = await sendMessages(deps, ticket, form, {
        kick: outbox.kick,
        log: request.log,
        author: { kind: 'agent', userId: request.auth.userId },
        ...(key ? { once: { userId: request.auth.userId, key } } : {}),
      });
      // A retry of a send that was stored: what it stored, not a second send.
      if (sent.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.status(sent.replayed ? 200 : 201).send(sent.messages);
    },
  );

  const one = okResponse(chatMessageViewSchema);
  app.post(
    '/messages/:id/retry',
    {
      schema: {
        summary: 'Send a failed message again',
        operationId: 'retryMessage',
        tags,
        params: idParam,
        response: one,
      },
    },
    async (request) => retryMessage(deps, request.auth, request.params.id, outbox.kick),
  );

  app.delete(
    '/messages/:id',
    {
      schema: {
        summary: 'Delete a message for everyone',
        operationId: 'deleteMessage',
        tags,
        params: idParam,
        response: one,
      },
    },
    async (request) => deleteMessage(deps, request.auth, request.params.id),
  );
};
