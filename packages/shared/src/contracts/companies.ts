import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  companiesPageSchema,
  companyViewSchema,
  companyWithPlanSchema,
  createdCompanySchema,
} from '../companies';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import {
  companyCreateSchema,
  companyTimeZoneSchema,
  companyUpdateSchema,
  idParam,
  pageQuery,
  schedulesSchema,
  signupSchema,
} from '../schemas';

// SPEC §7 Companies: public sign-up, the super users' management, and each company's own record.
export const companiesContract = defineRoutes('companies', {
  signUp: {
    method: 'POST',
    path: '/companies/cadastro',
    summary: 'Sign up: a new company on a plan, with its first admin',
    body: signupSchema,
    isPublic: true,
    response: createdResponse(companyViewSchema),
  },
  listCompanies: {
    method: 'GET',
    path: '/companies',
    summary: 'List companies, a page at a time',
    query: pageQuery,
    response: okResponse(companiesPageSchema),
  },
  listAllCompanies: {
    method: 'GET',
    path: '/companies/list',
    summary: 'List every company',
    response: okResponse(z.array(companyViewSchema)),
  },
  getCompanyPlan: {
    method: 'GET',
    path: '/companies/listPlan/:companyId',
    summary: 'Read a company with its plan',
    params: z.object({ companyId: z.coerce.number().int().positive() }),
    response: okResponse(companyWithPlanSchema),
  },
  getCompany: {
    method: 'GET',
    path: '/companies/:id',
    summary: 'Read one company',
    params: idParam,
    response: okResponse(companyViewSchema),
  },
  createCompany: {
    method: 'POST',
    path: '/companies',
    summary: 'Create a company with its first admin',
    body: companyCreateSchema,
    response: createdResponse(createdCompanySchema),
  },
  updateCompany: {
    method: 'PUT',
    path: '/companies/:id',
    summary: 'Change a company (plan, status, due date…)',
    params: idParam,
    body: companyUpdateSchema,
    response: okResponse(companyViewSchema),
  },
  updateCompanySchedules: {
    method: 'PUT',
    path: '/companies/:id/schedules',
    summary: "Set the company's business hours",
    params: idParam,
    body: schedulesSchema,
    response: okResponse(companyViewSchema),
  },
  updateCompanyTimeZone: {
    method: 'PUT',
    path: '/companies/:id/time-zone',
    summary: "Set the company's time zone",
    params: idParam,
    body: companyTimeZoneSchema,
    response: okResponse(companyViewSchema),
  },
  deleteCompany: {
    method: 'DELETE',
    path: '/companies/:id',
    summary: 'Delete a company and everything it holds',
    params: idParam,
    response: noContentResponse,
  },
});
