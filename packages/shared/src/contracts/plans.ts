import { z } from 'zod';
import { defineRoutes } from '../contract';
import { planViewSchema } from '../plans';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam, planSchema, planUpdateSchema } from '../schemas';

const list = okResponse(z.array(planViewSchema));
const one = okResponse(planViewSchema);

// SPEC §7 Plans: the public list (sign-up), readable while a company is not active; super users change them.
export const plansContract = defineRoutes('plans', {
  listPublicPlans: {
    method: 'GET',
    path: '/plans/list',
    summary: 'List the plans (sign-up page)',
    isPublic: true,
    response: list,
  },
  listAllPlans: {
    method: 'GET',
    path: '/plans/all',
    summary: 'List the plans (the same list as GET /plans)',
    response: list,
  },
  listPlans: {
    method: 'GET',
    path: '/plans',
    summary: 'List the plans',
    response: list,
  },
  getPlan: {
    method: 'GET',
    path: '/plans/:id',
    summary: 'Read one plan',
    params: idParam,
    response: one,
  },
  createPlan: {
    method: 'POST',
    path: '/plans',
    summary: 'Create a plan',
    body: planSchema,
    response: createdResponse(planViewSchema),
  },
  updatePlan: {
    method: 'PUT',
    path: '/plans/:id',
    summary: 'Change a plan',
    params: idParam,
    body: planUpdateSchema,
    response: one,
  },
  deletePlan: {
    method: 'DELETE',
    path: '/plans/:id',
    summary: 'Delete a plan that no company or subscription uses',
    params: idParam,
    response: noContentResponse,
  },
});
