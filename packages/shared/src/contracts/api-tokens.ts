import { defineRoutes } from '../contract';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';
import { apiTokenCreateSchema, apiTokenCreatedSchema, apiTokenListSchema } from '../api-tokens';

// Issue 38: the company's API tokens (admins). A token is answered once, when it is made.
export const apiTokensContract = defineRoutes('api-tokens', {
  listApiTokens: {
    method: 'GET',
    path: '/api-tokens',
    summary: 'List the company’s live API tokens (never the tokens themselves)',
    response: okResponse(apiTokenListSchema),
  },
  createApiToken: {
    method: 'POST',
    path: '/api-tokens',
    summary: 'Make an API token with scopes and an optional expiry; the token is shown this once',
    body: apiTokenCreateSchema,
    response: createdResponse(apiTokenCreatedSchema),
  },
  revokeApiToken: {
    method: 'DELETE',
    path: '/api-tokens/:id',
    summary: 'Revoke an API token: refused at once on every node',
    params: idParam,
    response: noContentResponse,
  },
});
