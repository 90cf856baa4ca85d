import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiTokenScopeOf, type RouteContract } from '@atendi/shared';
import type { RouteAccess } from './context';

// Registers a route from its contract (packages/shared/src/contracts): the contract gives the method,
// path, schemas and OpenAPI words; the routes file adds who may call it and what it does.

type SchemaOf<Route extends RouteContract> = {
  params: Route['params'];
  querystring: Route['query'];
  body: Route['body'];
  response: Route['response'];
};

type ContractHandler<Route extends RouteContract> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<Route>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

// What the routes file decides besides the contract: who may call it (the auth hook enforces it; a
// contract marked isPublic needs nothing), and the route's own limits, hooks and headers.
type RouteExtras = { access?: RouteAccess } & Partial<
  Pick<RouteOptions, 'bodyLimit' | 'onRequest' | 'onSend' | 'helmet'>
>;

const successStatuses = (route: RouteContract) =>
  Object.keys(route.response)
    .map(Number)
    .filter((status) => status >= 200 && status < 300);

// The Fastify route options a contract stands for.
const routeOptions = (route: RouteContract, extras: RouteExtras = {}): RouteOptions => {
  const { access, ...hooks } = extras;
  const scope = apiTokenScopeOf(route);
  // Issue 38: the operations an API token may call say so, and with which scope.
  const description = [route.description, scope && `API tokens: scope \`${scope}\`.`]
    .filter(Boolean)
    .join('\n\n');
  return {
    method: route.method,
    url: route.path,
    schema: {
      tags: [...route.tags],
      summary: route.summary,
      operationId: route.operationId,
      ...(description ? { description } : {}),
      ...(route.consumes ? { consumes: [...route.consumes] } : {}),
      ...(route.security || route.isPublic
        ? { security: route.security ?? [] }
        : scope
          ? { security: [{ bearerAuth: [] }, { apiToken: [] }] }
          : {}),
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      response: route.response,
    },
    config: {
      access: route.isPublic ? { public: true, ...access } : (access ?? {}),
      apiScope: scope,
    },
    ...hooks,
    // Replaced by the caller's handler in contractRoutes.
    handler: () => undefined,
  };
};

type Register = {
  <Route extends RouteContract>(route: Route, handler: ContractHandler<Route>): void;
  <Route extends RouteContract>(
    route: Route,
    extras: RouteExtras,
    handler: ContractHandler<Route>,
  ): void;
};

// `const route = contractRoutes(app)`, then `route(queuesContract.getQueue, { access }, handler)`.
// A route with one success status answers it unless the handler sets another: handlers return the
// body (or nothing, for a 204).
export const contractRoutes = (app: FastifyInstance): Register => {
  const register = <Route extends RouteContract>(
    route: Route,
    extrasOrHandler: RouteExtras | ContractHandler<Route>,
    maybeHandler?: ContractHandler<Route>,
  ) => {
    const extras = typeof extrasOrHandler === 'function' ? {} : extrasOrHandler;
    // The contract's schemas type the handler; Fastify sees the same schemas at run time.
    const handler = (
      typeof extrasOrHandler === 'function' ? extrasOrHandler : maybeHandler
    ) as RouteOptions['handler'];
    const [status, ...others] = successStatuses(route);
    app.route({
      ...routeOptions(route, extras),
      handler:
        others.length || status === undefined
          ? handler
          : function (request, reply) {
              reply.code(status);
              return handler.call(this, request, reply);
            },
    });
  };
  return register as Register;
};
