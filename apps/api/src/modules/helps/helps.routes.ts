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
        summary: 'List help videos, optionally matching a search',
        operationId: 'listHelps',
        tags,
        querystring: z.object({ searchParam: z.string().max(200).optional() }),
        response: list,
      },
    },
    async (request) => listHelps(db, request.query.searchParam),
  );
  app.get(
    '/helps/list',
    {
      schema: {
        summary: 'List every help video',
        operationId: 'listAllHelps',
        tags,
        response: list,
      },
    },
    async () => listHelps(db),
  );
  app.get(
    '/helps/:id',
    {
      schema: {
        summary: 'Read one help video',
        operationId: 'getHelp',
        tags,
        params: idParam,
        response: okResponse(helpViewSchema),
      },
    },
    async (request) => getHelp(db, request.params.id),
  );
  app.post(
    '/helps',
    {
      schema: {
        summary: 'Add a help video',
        operationId: 'createHelp',
        tags,
        body: helpSchema,
        response: createdResponse(helpViewSchema),
      },
      config: superOnly,
    },
    async (request, reply) => reply.status(201).send(await createHelp(app.deps, request.body)),
  );
  app.put(
    '/helps/:id',
    {
      schema: {
        summary: 'Change a help video',
        operationId: 'updateHelp',
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
    {
      schema: {
        summary: 'Delete a help video',
        operationId: 'deleteHelp',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: superOnly,
    },
    async (request, reply) => {
      await deleteHelp(app.deps, request.params.id);
      return reply.status(204).send();
    },
  );
};
