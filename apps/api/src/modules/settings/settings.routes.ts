import type { FastifyInstance } from 'fastify';
import { settingsContract as settings } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { listSettings, updateSetting } from './settings.service';

export const settingsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);

  route(settings.listSettings, async (request) => listSettings(app.deps.db, request.auth));
  route(settings.updateSetting, { access: { permission: 'settings:update' } }, async (request) =>
    updateSetting(app.deps, request.auth, request.params.key, request.body.value),
  );
};
