import type { FastifyInstance } from 'fastify';
import { apiTokensContract as tokens } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { createApiToken, listApiTokens, revokeApiToken } from './api-tokens.service';

// Issue 38: the company's API tokens, for its admins.
export const apiTokensRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const access = { access: { permission: 'api-tokens:manage' as const } };
  route(tokens.listApiTokens, access, async (request) => listApiTokens(app.deps, request.auth));
  route(tokens.createApiToken, access, async (request) =>
    createApiToken(app.deps, request.auth, request.body),
  );
  route(tokens.revokeApiToken, access, async (request) => {
    await revokeApiToken(app.deps, request.auth, request.params.id);
  });
};
