import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdResponse,
  idParam,
  noContentResponse,
  okResponse,
  planSchema,
  planUpdateSchema,
  planViewSchema,
} from '@atendi/shared';
import { createPlan, deletePlan, getPlan, listPlans, updatePlan } from './plans.service';

const tags = ['plans'];

export const plansRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  const readable = { access: { allowInactiveCompany: true } };
  const list = okResponse(z.array(planViewSchema));
  const one = okResponse(planViewSchema);

  app.get(
    '/plans/list',
    { schema: { tags, security: [], response: list }, config: { access: { public: true } } },
    async () => listPlans(db),
  );
  app.get('/plans/all', { schema: { tags, response: list }, config: readable }, async () =>
    listPlans(db),
  );
  app.get('/plans', { schema: { tags, response: list }, config: readable }, async () =>
    listPlans(db),
  );
  app.get(
    '/plans/:id',
    { schema: { tags, params: idParam, response: one }, config: readable },
    async (request) => getPlan(db, request.params.id),
  );
  app.post(
    '/plans',
    {
      schema: { tags, body: planSchema, response: createdResponse(planViewSchema) },
      config: { access: { superOnly: true } },
    },
    async (request, reply) => reply.status(201).send(await createPlan(app.deps, request.body)),
  );
  app.put(
    '/plans/:id',
    {
      schema: { tags, params: idParam, body: planUpdateSchema, response: one },
      config: { access: { superOnly: true } },
    },
    async (request) => updatePlan(app.deps, request.params.id, request.body),
  );
  app.delete(
    '/plans/:id',
    {
      schema: { tags, params: idParam, response: noContentResponse },
      config: { access: { superOnly: true } },
    },
    async (request, reply) => {
      await deletePlan(app.deps, request.params.id);
      return reply.status(204).send();
    },
  );
};
