import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdResponse,
  helpSchema,
  helpUpdateSchema,
  helpViewSchema,
  idParam,
  noContentResponse,
  okResponse,
} from '@atendi/shared';
import { createHelp, deleteHelp, getHelp, listHelps, updateHelp } from './helps.service';

const tags = ['helps'];

export const helpsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  const superOnly = { access: { superOnly: true } };
  const list = okResponse(z.array(helpViewSchema));

  app.get(
    '/helps',
    {
      schema: {
        tags,
        querystring: z.object({ searchParam: z.string().max(200).optional() }),
        response: list,
      },
    },
    async (request) => listHelps(db, request.query.searchParam),
  );
  app.get('/helps/list', { schema: { tags, response: list } }, async () => listHelps(db));
  app.get(
    '/helps/:id',
    { schema: { tags, params: idParam, response: okResponse(helpViewSchema) } },
    async (request) => getHelp(db, request.params.id),
  );
  app.post(
    '/helps',
    {
      schema: { tags, body: helpSchema, response: createdResponse(helpViewSchema) },
      config: superOnly,
    },
    async (request, reply) => reply.status(201).send(await createHelp(app.deps, request.body)),
  );
  app.put(
    '/helps/:id',
    {
      schema: {
        tags,
        params: idParam,
        body: helpUpdateSchema,
        response: okResponse(helpViewSchema),
      },
      config: superOnly,
    },
    async (request) => updateHelp(app.deps, request.params.id, request.body),
  );
  app.delete(
    '/helps/:id',
    { schema: { tags, params: idParam, response: noContentResponse }, config: superOnly },
    async (request, reply) => {
      await deleteHelp(app.deps, request.params.id);
      return reply.status(204).send();
    },
  );
};
