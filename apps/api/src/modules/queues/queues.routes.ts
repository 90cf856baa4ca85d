import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  idParam,
  queueOptionSchema,
  queueOptionUpdateSchema,
  queueOptionsQuery,
  queueSchema,
  queueUpdateSchema,
} from '@atendi/shared';
import {
  createOption,
  createQueue,
  deleteOption,
  deleteQueue,
  getOption,
  getQueue,
  listOptions,
  listQueues,
  updateOption,
  updateQueue,
} from './queues.service';

export const queuesRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  const manage = { access: { permission: 'queues:manage' as const } };
  const tags = ['queues'];

  // Every profile reads queues (transfer, filters); only admins change them.
  app.get('/queue', { schema: { tags } }, async (request) => listQueues(db, request.auth));
  app.get('/queue/:id', { schema: { tags, params: idParam } }, async (request) =>
    getQueue(db, request.auth, request.params.id),
  );
  app.post(
    '/queue',
    { schema: { tags, body: queueSchema }, config: manage },
    async (request, reply) =>
      reply.status(201).send(await createQueue(app.deps, request.auth, request.body)),
  );
  app.put(
    '/queue/:id',
    { schema: { tags, params: idParam, body: queueUpdateSchema }, config: manage },
    async (request) => updateQueue(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/queue/:id',
    { schema: { tags, params: idParam }, config: manage },
    async (request, reply) => {
      await deleteQueue(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );

  const optionTags = ['queue-options'];
  app.get(
    '/queue-options',
    { schema: { tags: optionTags, querystring: queueOptionsQuery } },
    async (request) => listOptions(db, request.auth, request.query),
  );
  app.get(
    '/queue-options/:id',
    { schema: { tags: optionTags, params: idParam } },
    async (request) => getOption(db, request.auth, request.params.id),
  );
  app.post(
    '/queue-options',
    { schema: { tags: optionTags, body: queueOptionSchema }, config: manage },
    async (request, reply) =>
      reply.status(201).send(await createOption(db, request.auth, request.body)),
  );
  app.put(
    '/queue-options/:id',
    {
      schema: { tags: optionTags, params: idParam, body: queueOptionUpdateSchema },
      config: manage,
    },
    async (request) => updateOption(db, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/queue-options/:id',
    { schema: { tags: optionTags, params: idParam }, config: manage },
    async (request, reply) => {
      await deleteOption(db, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
};
