import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { allRoutes, queuesContract } from './contracts';
import {
  defineRoutes,
  pathParamNames,
  routePath,
  type RouteInput,
  type RouteResponse,
} from './contract';
import { idParam } from './schemas';
import { createdResponse, noContentResponse, okResponse } from './responses';

const sample = defineRoutes('samples', {
  getSample: {
    method: 'GET',
    path: '/samples/:id/parts/:part',
    summary: 'Read a part',
    params: z.object({ id: z.coerce.number(), part: z.string() }),
    query: z.object({ full: z.enum(['0', '1']).optional() }),
    response: okResponse(z.object({ at: z.iso.datetime(), n: z.number() })),
  },
  createSample: {
    method: 'POST',
    path: '/samples',
    summary: 'Create one',
    body: z.object({ name: z.string().trim() }),
    response: createdResponse(z.object({ id: z.number() })),
  },
  uploadSample: {
    method: 'POST',
    path: '/samples/:id/media',
    summary: 'Attach a file',
    params: idParam,
    consumes: ['multipart/form-data'],
    response: noContentResponse,
  },
});

describe('route contracts', () => {
  it('takes the operationId from the key and the tag from the group', () => {
    expect(sample.getSample).toMatchObject({ operationId: 'getSample', tags: ['samples'] });
    expectTypeOf(sample.createSample.operationId).toEqualTypeOf<'createSample'>();
  });

  it('types what a client sends and receives', () => {
    expectTypeOf<RouteInput<typeof sample.getSample>['params']>().toEqualTypeOf<{
      id: number;
      part: string;
    }>();
    expectTypeOf<RouteResponse<typeof sample.getSample>>().toEqualTypeOf<{
      at: string;
      n: number;
    }>();
    expectTypeOf<RouteInput<typeof sample.createSample>['body']>().toEqualTypeOf<{
      name: string;
    }>();
    expectTypeOf<RouteInput<typeof sample.uploadSample>['body']>().toEqualTypeOf<FormData>();
    expectTypeOf<RouteResponse<typeof sample.uploadSample>>().toEqualTypeOf<undefined>();
    expectTypeOf<RouteResponse<typeof queuesContract.listQueues>>().items.toHaveProperty('id');
  });

  it('fills and encodes path parameters', () => {
    expect(routePath(sample.getSample, { id: 4, part: 'a b/c' })).toBe(
      '/samples/4/parts/a%20b%2Fc',
    );
    expect(() => routePath(sample.getSample, { id: 4 })).toThrow('no part');
  });

  it('gives every route a unique camelCase operationId, a summary and its path parameters', () => {
    const routes = allRoutes();
    const ids = routes.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const endpoints = routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(endpoints).size).toBe(endpoints.length);
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      expect(route.operationId, name).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(route.summary.trim(), name).not.toBe('');
      expect(route.tags.length, name).toBe(1);
      const declared = route.params instanceof z.ZodObject ? Object.keys(route.params.shape) : [];
      expect(declared.sort(), name).toEqual(pathParamNames(route.path).sort());
    }
  });
});
