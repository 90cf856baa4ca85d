import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyServerOptions } from 'fastify';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { webHelmetOptions } from './platform/security-headers';

export const defaultWebDist = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../web/dist',
);

// Serves the built single-page app; the API URL is handed to it at run time, not baked into the build.
export const buildWebServer = async (options: {
  dist: string;
  apiUrl: string;
  logger?: FastifyServerOptions['logger'];
}) => {
  if (!existsSync(path.join(options.dist, 'index.html'))) {
    throw new Error(
      `The web app is not built (${options.dist}/index.html missing): run "npm run build"`,
    );
  }
  const web = Fastify({ logger: options.logger ?? false });
  // The policy the app runs under (CSP naming the API's origin), on every page and file.
  await web.register(helmet, webHelmetOptions(options.apiUrl));
  const runtimeConfig = `window.__APP_CONFIG__ = ${JSON.stringify({ apiUrl: options.apiUrl })};\n`;
  web.get('/runtime-config.js', async (_request, reply) =>
    reply.type('application/javascript').header('Cache-Control', 'no-store').send(runtimeConfig),
  );
  await web.register(fastifyStatic, { root: options.dist, wildcard: false, index: false });
  // Any other path is a client-side route of the app.
  web.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || path.extname(request.url.split('?')[0])) {
      return reply.status(404).send('Not found');
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
  web.get('/', async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').sendFile('index.html'),
  );
  return web;
};
