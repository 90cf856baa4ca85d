/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allRoutes } from '@atendi/shared';

// The routes the API really registers, read from its sources, so a test can tell a page that calls
// a route the server does not have (a 404 in the browser) from one the test merely did not stub.
const apiSource = join(import.meta.dirname, '../../../api/src');
const REGISTRATION = /\bapp\.(get|post|put|patch|delete)\(\s*'([^']+)'/g;

// ':id' matches one segment; the API ignores a trailing slash.
const routeOf = (method: string, path: string) => ({
  method: method.toUpperCase(),
  pattern: new RegExp(`^${path.replace(/\/$/, '').replace(/:[^/]+/g, '[^/]+')}/?$`),
});

// Routes registered from their contract (packages/shared/src/contracts), and those still written out.
const loadRoutes = () => [
  ...allRoutes().map((route) => routeOf(route.method, route.path)),
  ...readdirSync(apiSource, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .flatMap((file) =>
      [...readFileSync(join(apiSource, file), 'utf8').matchAll(REGISTRATION)].map(
        ([, method, path]) => routeOf(method!, path!),
      ),
    ),
];

let routes: ReturnType<typeof loadRoutes> | undefined;

export const isApiRoute = (method: string, path: string) => {
  routes ??= loadRoutes();
  return routes.some((route) => route.method === method && route.pattern.test(path));
};

// The requests a fetch mock saw that no API route answers, as "METHOD /path".
export const unknownApiCalls = (fetchMock: { mock: { calls: unknown[][] } }) =>
  fetchMock.mock.calls
    .map(([url, init]) => {
      const method = (init as RequestInit | undefined)?.method ?? 'GET';
      return `${method} ${new URL(String(url)).pathname}`;
    })
    .filter((call) => {
      const [method, path] = call.split(' ');
      return !isApiRoute(method!, path!);
    });
