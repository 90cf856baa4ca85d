import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdResponse,
  idParam,
  noContentResponse,
  okResponse,
  queueOptionViewSchema,
  queueViewSchema,
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
  app.get(
    '/queue',
    { schema: { tags, response: okResponse(z.array(queueViewSchema)) } },
    async (request) => listQueues(db, request.auth),
  );
  app.get(
    '/queue/:id',
    { schema: { tags, params: idParam, response: okResponse(queueViewSchema) } },
    async (request) => getQueue(db, request.auth, request.params.id),
  );
  app.post(
    '/queue',
    {
      schema: { tags, body: queueSchema, response: createdResponse(queueViewSchema) },
      config: manage,
    },
    async (request, reply) =>
      reply.status(201).send(await createQueue(app.deps, request.auth, request.body)),
  );
  app.put(
    '/queue/:id',
    {
      schema: {
        tags,
        params: idParam,
        body: queueUpdateSchema,
        response: okResponse(queueViewSchema),
      },
      config: manage,
    },
    async (request) => updateQueue(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/queue/:id',
    { schema: { tags, params: idParam, response: noContentResponse }, config: manage },
    async (request, reply) => {
      await deleteQueue(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );

  const optionTags = ['queue-options'];
  app.get(
    '/queue-options',
    {
      schema: {
        tags: optionTags,
        querystring: queueOptionsQuery,
        response: okResponse(z.array(queueOptionViewSchema)),
      },
    },
    async (request) => listOptions(db, request.auth, request.query),
  );
  app.get(
    '/queue-options/:id',
    {
      schema: { tags: optionTags, params: idParam, response: okResponse(queueOptionViewSchema) },
    },
    async (request) => getOption(db, request.auth, request.params.id),
  );
  app.post(
    '/queue-options',
    {
      schema: {
        tags: optionTags,
        body: queueOptionSchema,
        response: createdResponse(queueOptionViewSchema),
      },
      config: manage,
    },
    async (request, reply) =>
      reply.status(201).send(await createOption(db, request.auth, request.body)),
  );
  app.put(
    '/queue-options/:id',
    {
      schema: {
        tags: optionTags,
        params: idParam,
        body: queueOptionUpdateSchema,
        response: okResponse(queueOptionViewSchema),
      },
      config: manage,
    },
    async (request) => updateOption(db, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/queue-options/:id',
    {
      schema: { tags: optionTags, params: idParam, response: noContentResponse },
      config: manage,
    },
    async (request, reply) => {
      await deleteOption(db, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
};
