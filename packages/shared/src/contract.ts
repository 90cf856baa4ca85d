import type { z } from 'zod';

// One contract per route (ARCHITECTURE.md "Route contracts"): the method, path, schemas and OpenAPI
// words of a route live here once. The API registers the route from it (apps/api
// platform/contract-routes.ts: validation, handler types, the OpenAPI operation) and the web calls it
// through it (apps/web api/http-client.ts `call`: the path, query, body and answer types).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// A body that is not JSON (a file, plain text), described by its content types.
export type ContentResponse = {
  description: string;
  content: Readonly<Record<string, { schema: z.ZodType }>>;
};

// What a route answers, by status: `okResponse`, `createdResponse`, `noContentResponse` (responses.ts).
export type ResponseSchemas = { readonly [status: string | number]: z.ZodType | ContentResponse };

export type RouteSpec = {
  method: HttpMethod;
  // Fastify's form: `/queue/:id`; each `:name` is a key of `params`.
  path: string;
  // One line for the OpenAPI operation; `description` says more where a caller needs it.
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  // Content types besides JSON (uploads): the handler reads a multipart body itself.
  consumes?: readonly string[];
  // Callable without a session: the API lets anyone in, OpenAPI shows no security, the web sends no token.
  isPublic?: boolean;
  // The OpenAPI security of a public route that checks a credential of its own (GET /metrics).
  security?: readonly Readonly<Record<string, readonly string[]>>[];
  response: ResponseSchemas;
};

export type RouteContract<Spec extends RouteSpec = RouteSpec, Id extends string = string> = Spec & {
  // The OpenAPI operationId: the route's key in its group, camelCase, unique over the API.
  operationId: Id;
  tags: readonly string[];
};

export type RouteGroup<Specs extends Record<string, RouteSpec> = Record<string, RouteSpec>> = {
  readonly [Id in keyof Specs & string]: RouteContract<Specs[Id], Id>;
};

// A resource's routes, keyed by operationId, under one OpenAPI tag.
export const defineRoutes = <const Specs extends Record<string, RouteSpec>>(
  tag: string,
  specs: Specs,
): RouteGroup<Specs> =>
  Object.fromEntries(
    Object.entries(specs).map(([operationId, spec]) => [
      operationId,
      { ...spec, operationId, tags: [tag] },
    ]),
  ) as unknown as RouteGroup<Specs>;

// The `:name` segments of a path.
export const pathParamNames = (path: string) =>
  [...path.matchAll(/:(\w+)/g)].map(([, name]) => name!);

type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessKey<Responses> = Extract<keyof Responses, SuccessStatus | `${SuccessStatus}`>;

type BodyOf<Answer> = Answer extends z.ZodType
  ? z.input<Answer>
  : Answer extends { content: Readonly<Record<string, { schema: infer Schema }>> }
    ? Schema extends z.ZodType
      ? z.input<Schema>
      : never
    : never;

// What the client receives on success: the input side of the success schema (JSON: dates as text).
export type RouteResponse<Route extends RouteSpec> = BodyOf<
  Route['response'][SuccessKey<Route['response']>]
>;

// What the client sends in a path or query string. Coerced fields (`z.coerce.number()`) accept
// anything on their input side; the client sends what they produce.
type WireFields<Schema extends z.ZodType> = {
  [Key in keyof z.input<Schema>]: unknown extends z.input<Schema>[Key]
    ? Key extends keyof z.output<Schema>
      ? z.output<Schema>[Key]
      : never
    : z.input<Schema>[Key];
};

type ParamsPart<Route extends RouteSpec> = Route['params'] extends z.ZodType
  ? { params: WireFields<Route['params']> }
  : { params?: undefined };

type QueryPart<Route extends RouteSpec> = Route['query'] extends z.ZodType
  ? object extends WireFields<Route['query']>
    ? { query?: WireFields<Route['query']> }
    : { query: WireFields<Route['query']> }
  : { query?: undefined };

type Multipart<Route extends RouteSpec> = Route['consumes'] extends readonly string[]
  ? 'multipart/form-data' extends Route['consumes'][number]
    ? FormData
    : never
  : never;

type BodyPart<Route extends RouteSpec> = Route['body'] extends z.ZodType
  ? undefined extends z.input<Route['body']>
    ? { body?: z.input<Route['body']> | Multipart<Route> }
    : { body: z.input<Route['body']> | Multipart<Route> }
  : [Multipart<Route>] extends [never]
    ? { body?: undefined }
    : { body: Multipart<Route> };

// What a client gives to call a route: its path parameters, query and body.
export type RouteInput<Route extends RouteSpec> = ParamsPart<Route> &
  QueryPart<Route> &
  BodyPart<Route>;

// The route's path with its parameters filled in (encoded).
export const routePath = (route: Pick<RouteSpec, 'path'>, params?: object) =>
  route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = (params as Record<string, unknown> | undefined)?.[name];
    if (value === undefined || value === null) throw new Error(`${route.path}: no ${name}`);
    return encodeURIComponent(String(value));
  });
