import type { FastifyInstance } from 'fastify';
import { helpsContract as helps } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { createHelp, deleteHelp, getHelp, listHelps, updateHelp } from './helps.service';

export const helpsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const { db } = app.deps;
  const superOnly = { access: { superOnly: true } };

  route(helps.listHelps, async (request) => listHelps(db, request.query.searchParam));
  route(helps.listAllHelps, async () => listHelps(db));
  route(helps.getHelp, async (request) => getHelp(db, request.params.id));
  route(helps.createHelp, superOnly, async (request) => createHelp(app.deps, request.body));
  route(helps.updateHelp, superOnly, async (request) =>
    updateHelp(app.deps, request.params.id, request.body),
  );
  route(helps.deleteHelp, superOnly, async (request) => {
    await deleteHelp(app.deps, request.params.id);
  });
};
