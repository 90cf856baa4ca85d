import { beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '@atendi/shared';
import { sharedTestApp, type SharedTestContext } from './harness';

// Every operation of the OpenAPI document (GET /docs/json) declares what a client receives: the
// routes' `schema.response` come from the shared view schemas (packages/shared), so a route added
// without one fails here.

type Schema = Record<string, unknown>;
type Response = { description?: string; content?: Record<string, { schema?: Schema }> };
type Operation = {
  responses?: Record<string, Response>;
  summary?: string;
  operationId?: string;
  tags?: string[];
};
type Document = { paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

let t: SharedTestContext;
let doc: Document;
let operations: { name: string; operation: Operation }[];

beforeAll(async () => {
  // The simulator's routes are registered only with it on.
  t = await sharedTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json<Document>();
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
});

const isEmptySchema = (schema: Schema | undefined) =>
  !schema || Object.keys(schema).filter((key) => key !== 'description').length === 0;

const jsonSchemaOf = (operation: Operation, status: string) =>
  operation.responses?.[status]?.content?.['application/json']?.schema;

describe('OpenAPI document', () => {
  it('documents every registered route', () => {
    const documented = new Set(operations.map((o) => o.name));
    for (const route of t.app.routeCatalog) {
      if (route.url.startsWith('/docs')) continue;
      const name = `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`;
      expect(documented.has(name), name).toBe(true);
    }
    expect(operations.length).toBeGreaterThan(100);
  });

  it('names and summarises every operation: a unique camelCase operationId and a summary', () => {
    const missing = operations
      .filter(({ operation }) => !operation.summary?.trim() || !operation.operationId)
      .map(({ name }) => name);
    expect(missing).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId ?? '');
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('registers every route from its contract in packages/shared, none by hand', () => {
    const contracts = new Map(allRoutes().map((route) => [route.operationId, route]));
    const handWritten = t.app.routeCatalog
      .filter((route) => !route.url.startsWith('/docs'))
      .filter((route) => {
        const contract = contracts.get(route.schema?.operationId ?? '');
        return contract?.method !== route.method || contract.path !== route.url;
      })
      .map((route) => `${route.method} ${route.url}`);
    expect(handWritten).toEqual([]);
  });

  it('registers every route contract as it is declared in packages/shared', () => {
    for (const route of allRoutes()) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${path}`).toMatchObject({
        operationId: route.operationId,
        summary: route.summary,
        tags: route.tags,
      });
    }
  });

  it('declares the success response of every operation, with a schema unless it is a 204 or a redirect', () => {
    const missing: string[] = [];
    for (const { name, operation } of operations) {
      // A browser's stop on its way elsewhere (single sign-on) succeeds with a 302.
      const success = Object.entries(operation.responses ?? {}).filter(([status]) =>
        /^(2\d\d|302)$/.test(status),
      );
      if (!success.length) missing.push(`${name}: no 2xx response`);
      for (const [status, response] of success) {
        if (status === '204' || status === '302') {
          if (response.content) missing.push(`${name}: a ${status} with a body`);
          continue;
        }
        const contents = Object.entries(response.content ?? {});
        if (!contents.length) missing.push(`${name}: ${status} without content`);
        for (const [type, { schema }] of contents)
          if (isEmptySchema(schema)) missing.push(`${name}: ${status} ${type} without a schema`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('declares the error body of every operation', () => {
    const missing = operations
      .filter(({ operation }) => {
        const schema = jsonSchemaOf(operation, '4XX') as
          { properties?: Record<string, unknown>; required?: string[] } | undefined;
        return !schema?.required?.includes('error') || !schema.required.includes('message');
      })
      .map(({ name }) => name);
    expect(missing).toEqual([]);
  });

  it('shows moments as ISO 8601 text and keeps nullable fields nullable', () => {
    const user = jsonSchemaOf(doc.paths['/users/{id}'].get, '200') as {
      properties: Record<string, Schema>;
    };
    expect(user.properties.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
    expect(user.properties.whatsappId).toMatchObject({ type: 'number', nullable: true });
    const page = jsonSchemaOf(doc.paths['/tickets'].get, '200') as {
      required: string[];
      properties: Record<string, Schema>;
    };
    expect(page.required).toEqual(expect.arrayContaining(['tickets', 'count', 'hasMore']));
  });
});
