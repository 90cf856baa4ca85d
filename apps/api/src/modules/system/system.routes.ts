import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_VERSION, errorResponseSchema, okResponse, type ErrorBody } from '@atendi/shared';
import { AppError } from '../../platform/errors';

const checkResult = z.enum(['ok', 'failed', 'timeout']);
const readySchema = z.object({
  status: z.literal('ready'),
  // Each dependency this node needs: database, redis (with REDIS_URL), storage.
  checks: z.record(z.string(), checkResult),
});

export const systemRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/version',
    {
      schema: {
        summary: "Read the API's version",
        operationId: 'getVersion',
        tags: ['system'],
        security: [],
        response: okResponse(z.object({ version: z.string() })),
      },
      config: { access: { public: true } },
    },
    async () => ({ version: APP_VERSION }),
  );

  // For balancers and orchestrators (README, "Health"): live while the process answers at all…
  app.get(
    '/health/live',
    {
      schema: {
        summary: 'Answer while the process runs',
        operationId: 'checkLiveness',
        tags: ['system'],
        security: [],
        response: okResponse(z.object({ status: z.literal('ok') })),
      },
      config: { access: { public: true } },
    },
    async () => ({ status: 'ok' as const }),
  );

  // …ready while it should get traffic: 503 while starting, draining after SIGTERM, or when the
  // database, Redis or storage does not answer (details.checks says which; the log says why).
  let lastFailing = '{}';
  app.get(
    '/health/ready',
    {
      schema: {
        summary: 'Answer whether this node should get traffic (503 with the failing checks)',
        operationId: 'checkReadiness',
        tags: ['system'],
        security: [],
        response: { 200: readySchema, '4xx': errorResponseSchema, 503: errorResponseSchema },
      },
      config: { access: { public: true } },
    },
    async (request, reply) => {
      const readiness = await app.deps.health.readiness();
      const failing = JSON.stringify(readiness.failures);
      if (failing !== lastFailing) {
        lastFailing = failing;
        if (Object.keys(readiness.failures).length)
          request.log.warn({ failures: readiness.failures }, 'readiness check failing');
        else request.log.info('readiness checks pass again');
      }
      // Answered, not thrown: an orchestrator polls this every few seconds, and a 503 here is the
      // node reporting, not failing (the change is logged above, once).
      if (!readiness.ready)
        return reply.code(503).send({
          error: 'ERR_NOT_READY',
          message:
            readiness.state === 'ready'
              ? 'A service this server needs is not answering'
              : readiness.state === 'starting'
                ? 'The server is starting'
                : 'The server is shutting down',
          details: { state: readiness.state, checks: readiness.checks },
        } satisfies ErrorBody);
      return { status: 'ready' as const, checks: readiness.checks };
    },
  );

  // Prometheus (README "Metrics"): off unless METRICS_TOKEN is set, then only with that bearer token.
  const token = app.deps.config.metricsToken;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Read the Prometheus metrics (METRICS_TOKEN as bearer token)',
        operationId: 'getMetrics',
        tags: ['system'],
        security: [{ metricsToken: [] }],
        response: {
          200: {
            description: 'Prometheus text format',
            content: { 'text/plain': { schema: z.string() } },
          },
          '4xx': errorResponseSchema,
        },
      },
      config: { access: { public: true } },
    },
    async (request, reply) => {
      if (!token) throw new AppError('ERR_NOT_FOUND', 'Metrics are off: set METRICS_TOKEN');
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!timingSafeEqual(digest(given), digest(token)))
        throw new AppError('ERR_NO_PERMISSION', 'Send the METRICS_TOKEN as a bearer token', {
          status: 401,
        });
      const { metrics } = app.deps;
      return reply.type(metrics.contentType).send(await metrics.render());
    },
  );
};
