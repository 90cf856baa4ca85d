import type { FastifyInstance } from 'fastify';
import { plansContract as plans } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { createPlan, deletePlan, getPlan, listPlans, updatePlan } from './plans.service';

export const plansRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const readable = { access: { allowInactiveCompany: true } };

  route(plans.listPublicPlans, async () => listPlans(app.deps));
  route(plans.listAllPlans, readable, async () => listPlans(app.deps));
  route(plans.listPlans, readable, async () => listPlans(app.deps));
  route(plans.getPlan, readable, async (request) => getPlan(app.deps, request.params.id));
  route(plans.createPlan, { access: { superOnly: true } }, async (request) =>
    createPlan(app.deps, request.auth, request.body),
  );
  route(plans.updatePlan, { access: { superOnly: true } }, async (request) =>
    updatePlan(app.deps, request.auth, request.params.id, request.body),
  );
  route(plans.deletePlan, { access: { superOnly: true } }, async (request) => {
    await deletePlan(app.deps, request.auth, request.params.id);
  });
};
