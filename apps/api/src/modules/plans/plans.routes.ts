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
    {
      schema: {
        summary: 'List the plans (sign-up page)',
        operationId: 'listPublicPlans',
        tags,
        security: [],
        response: list,
      },
      config: { access: { public: true } },
    },
    async () => listPlans(db),
  );
  app.get(
    '/plans/all',
    {
      schema: {
        summary: 'List the plans (the same list as GET /plans)',
        operationId: 'listAllPlans',
        tags,
        response: list,
      },
      config: readable,
    },
    async () => listPlans(db),
  );
  app.get(
    '/plans',
    {
      schema: { summary: 'List the plans', operationId: 'listPlans', tags, response: list },
      config: readable,
    },
    async () => listPlans(db),
  );
  app.get(
    '/plans/:id',
    {
      schema: {
        summary: 'Read one plan',
        operationId: 'getPlan',
        tags,
        params: idParam,
        response: one,
      },
      config: readable,
    },
    async (request) => getPlan(db, request.params.id),
  );
  app.post(
    '/plans',
    {
      schema: {
        summary: 'Create a plan',
        operationId: 'createPlan',
        tags,
        body: planSchema,
        response: createdResponse(planViewSchema),
      },
      config: { access: { superOnly: true } },
    },
    async (request, reply) => reply.status(201).send(await createPlan(app.deps, request.body)),
  );
  app.put(
    '/plans/:id',
    {
      schema: {
        summary: 'Change a plan',
        operationId: 'updatePlan',
        tags,
        params: idParam,
        body: planUpdateSchema,
        response: one,
      },
      config: { access: { superOnly: true } },
    },
    async (request) => updatePlan(app.deps, request.params.id, request.body),
  );
  app.delete(
    '/plans/:id',
    {
      schema: {
        summary: 'Delete a plan that no company or subscription uses',
        operationId: 'deletePlan',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: { access: { superOnly: true } },
    },
    async (request, reply) => {
      await deletePlan(app.deps, request.params.id);
      return reply.status(204).send();
    },
  );
};
