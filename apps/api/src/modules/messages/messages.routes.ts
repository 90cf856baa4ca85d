import type { FastifyInstance } from 'fastify';
import { messagesContract as messages } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { AppError } from '../../platform/errors';
import { uploaderOf } from '../../platform/uploads';
import { idempotencyKeyOf } from './send-keys';
import { readMessageForm, type MessageForm } from './message-form';
import {
  assertWritable,
  createTypingRelay,
  deleteMessage,
  forwardMessages,
  listMessages,
  reactToMessage,
  retryMessage,
  sendMessages,
  visibleTicket,
} from './messages.service';

// SPEC §7 messages calls. Sends go through the outbox (outbox.ts), which runs with the app: rows left
// by an earlier process are sent once the app is ready, then it keeps looking.
export const messagesRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const { outbox } = deps;

  route(messages.listMessages, async (request) =>
    listMessages(
      deps,
      request.auth,
      request.params.ticketId,
      request.query.pageNumber,
      request.log,
      request.query.markRead,
    ),
  );

  route(messages.sendMessage, async (request, reply) => {
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
  });

  const typing = createTypingRelay(deps);
  route(messages.agentTyping, async (request, reply) => {
    await typing(request.auth, request.params.ticketId, request.body.typing, request.log);
    return reply.status(204).send();
  });

  route(messages.retryMessage, async (request) =>
    retryMessage(deps, request.auth, request.params.id, outbox.kick),
  );

  route(messages.forwardMessages, async (request, reply) =>
    reply.status(201).send(
      await forwardMessages(deps, request.auth, request.body, {
        kick: outbox.kick,
        log: request.log,
      }),
    ),
  );

  route(messages.reactToMessage, async (request) =>
    reactToMessage(deps, request.auth, request.params.id, request.body.emoji),
  );

  route(messages.deleteMessage, async (request) =>
    deleteMessage(deps, request.auth, request.params.id),
  );
};
