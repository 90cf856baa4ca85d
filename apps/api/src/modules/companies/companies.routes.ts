import type { FastifyInstance } from 'fastify';
import { companiesContract as companies } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
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
  updateCompanyTimeZone,
} from './companies.service';
import { consume } from '../../platform/rate-limit';

export const companiesRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const { db, limits } = app.deps;

  route(companies.signUp, async (request) => {
    await consume(limits.signupIp, request.ip, 'Too many sign-ups, try later');
    return signup(app.deps, request.body, await platformCompanyId(db));
  });

  route(companies.listCompanies, { access: { superOnly: true } }, async (request) =>
    listCompanies(app.deps, request.query),
  );
  route(companies.listAllCompanies, { access: { superOnly: true } }, async () =>
    listAllCompanies(app.deps),
  );
  route(companies.getCompanyPlan, { access: { allowInactiveCompany: true } }, async (request) =>
    getCompanyWithPlan(app.deps, request.auth, request.params.companyId),
  );
  route(companies.getCompany, { access: { allowInactiveCompany: true } }, async (request) =>
    getCompany(app.deps, request.auth, request.params.id),
  );
  route(companies.createCompany, { access: { superOnly: true } }, async (request) =>
    createCompany(app.deps, request.auth, request.body),
  );
  route(companies.updateCompany, { access: { superOnly: true } }, async (request) =>
    updateCompany(app.deps, request.auth, request.params.id, request.body),
  );
  route(
    companies.updateCompanySchedules,
    { access: { permission: 'company:updateSchedules' } },
    async (request) =>
      updateCompanySchedules(app.deps, request.auth, request.params.id, request.body.schedules),
  );
  route(
    companies.updateCompanyTimeZone,
    { access: { permission: 'company:updateSchedules' } },
    async (request) =>
      updateCompanyTimeZone(app.deps, request.auth, request.params.id, request.body.timeZone),
  );
  route(companies.deleteCompany, { access: { superOnly: true } }, async (request) => {
    await deleteCompany(app.deps, request.auth, request.params.id);
  });
};
