import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  companiesPageSchema,
  companyCreateSchema,
  companyUpdateSchema,
  companyViewSchema,
  companyWithPlanSchema,
  createdCompanySchema,
  createdResponse,
  idParam,
  noContentResponse,
  okResponse,
  pageQuery,
  schedulesSchema,
  signupSchema,
} from '@atendi/shared';
import {
  createCompany,
  deleteCompany,
  getCompany,
  getCompanyWithPlan,
  listAllCompanies,
  listCompanies,
  platformCompanyId,
  signup,
  updateCompany,
  updateCompanySchedules,
} from './companies.service';
import { consume } from '../../platform/rate-limit';

const tags = ['companies'];

export const companiesRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, limits } = app.deps;

  app.post(
    '/companies/cadastro',
    {
      schema: {
        summary: 'Sign up: a new company on a plan, with its first admin',
        operationId: 'signUp',
        tags,
        body: signupSchema,
        security: [],
        response: createdResponse(companyViewSchema),
      },
      config: { access: { public: true } },
    },
    async (request, reply) => {
      await consume(limits.signupIp, request.ip, 'Too many sign-ups, try later');
      const company = await signup(db, request.body, await platformCompanyId(db));
      return reply.status(201).send(company);
    },
  );

  app.get(
    '/companies',
    {
      schema: {
        summary: 'List companies, a page at a time',
        operationId: 'listCompanies',
        tags,
        querystring: pageQuery,
        response: okResponse(companiesPageSchema),
      },
      config: { access: { superOnly: true } },
    },
    async (request) => listCompanies(db, request.query),
  );
  app.get(
    '/companies/list',
    {
      schema: {
        summary: 'List every company',
        operationId: 'listAllCompanies',
        tags,
        response: okResponse(z.array(companyViewSchema)),
      },
      config: { access: { superOnly: true } },
    },
    async () => listAllCompanies(db),
  );
  app.get(
    '/companies/listPlan/:companyId',
    {
      schema: {
        summary: 'Read a company with its plan',
        operationId: 'getCompanyPlan',
        tags,
        params: z.object({ companyId: z.coerce.number().int().positive() }),
        response: okResponse(companyWithPlanSchema),
      },
      config: { access: { allowInactiveCompany: true } },
    },
    async (request) => getCompanyWithPlan(db, request.auth, request.params.companyId),
  );
  app.get(
    '/companies/:id',
    {
      schema: {
        summary: 'Read one company',
        operationId: 'getCompany',
        tags,
        params: idParam,
        response: okResponse(companyViewSchema),
      },
      config: { access: { allowInactiveCompany: true } },
    },
    async (request) => getCompany(db, request.auth, request.params.id),
  );
  app.post(
    '/companies',
    {
      schema: {
        summary: 'Create a company with its first admin',
        operationId: 'createCompany',
        tags,
        body: companyCreateSchema,
        response: createdResponse(createdCompanySchema),
      },
      config: { access: { superOnly: true } },
    },
    async (request, reply) =>
      reply.status(201).send(await createCompany(app.deps, request.auth, request.body)),
  );
  app.put(
    '/companies/:id',
    {
      schema: {
        summary: 'Change a company (plan, status, due date…)',
        operationId: 'updateCompany',
        tags,
        params: idParam,
        body: companyUpdateSchema,
        response: okResponse(companyViewSchema),
      },
      config: { access: { superOnly: true } },
    },
    async (request) => updateCompany(app.deps, request.auth, request.params.id, request.body),
  );
  app.put(
    '/companies/:id/schedules',
    {
      schema: {
        summary: "Set the company's business hours",
        operationId: 'updateCompanySchedules',
        tags,
        params: idParam,
        body: schedulesSchema,
        response: okResponse(companyViewSchema),
      },
      config: { access: { permission: 'company:updateSchedules' } },
    },
    async (request) =>
      updateCompanySchedules(app.deps, request.auth, request.params.id, request.body.schedules),
  );
  app.delete(
    '/companies/:id',
    {
      schema: {
        summary: 'Delete a company and everything it holds',
        operationId: 'deleteCompany',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: { access: { superOnly: true } },
    },
    async (request, reply) => {
      await deleteCompany(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
};
