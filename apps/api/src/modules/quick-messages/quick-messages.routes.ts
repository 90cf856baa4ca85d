import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  idParam,
  quickMessageSchema,
  quickMessageUpdateSchema,
  quickMessagesListQuery,
  quickMessagesQuery,
} from '@atendi/shared';
import {
  createQuickMessage,
  deleteQuickMessage,
  getQuickMessage,
  listAllQuickMessages,
  listQuickMessages,
  updateQuickMessage,
} from './quick-messages.service';

const tags = ['quick-messages'];

// SPEC §7 "Quick messages". Every profile keeps its own; the service guards company-wide ones.
export const quickMessagesRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/quick-messages',
    { schema: { tags, querystring: quickMessagesQuery } },
    async (request) => listQuickMessages(app.deps, request.auth, request.query),
  );
  app.get(
    '/quick-messages/list',
    { schema: { tags, querystring: quickMessagesListQuery } },
    async (request) => listAllQuickMessages(app.deps, request.auth),
  );
  app.get('/quick-messages/:id', { schema: { tags, params: idParam } }, async (request) =>
    getQuickMessage(app.deps, request.auth, request.params.id),
  );
  app.post(
    '/quick-messages',
    { schema: { tags, body: quickMessageSchema } },
    async (request, reply) =>
      reply.status(201).send(await createQuickMessage(app.deps, request.auth, request.body)),
  );
  app.put(
    '/quick-messages/:id',
    { schema: { tags, params: idParam, body: quickMessageUpdateSchema } },
    async (request) => updateQuickMessage(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/quick-messages/:id',
    { schema: { tags, params: idParam } },
    async (request, reply) => {
      await deleteQuickMessage(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
};
