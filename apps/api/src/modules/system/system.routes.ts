import type { FastifyInstance } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_VERSION, systemContract as system, type ErrorBody } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { AppError } from '../../platform/errors';

export const systemRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  route(system.getVersion, async () => ({ version: APP_VERSION }));
  // For balancers and orchestrators (README, "Health"): live while the process answers at all…
  route(system.checkLiveness, async () => ({ status: 'ok' as const }));
  // …ready while it should get traffic: 503 while starting, draining after SIGTERM, or when the
  // database, Redis or storage does not answer (details.checks says which; the log says why).
  let lastFailing = '{}';
  route(system.checkReadiness, async (request, reply) => {
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
  });

  // Prometheus (README "Metrics"): off unless METRICS_TOKEN is set, then only with that bearer token.
  const token = app.deps.config.metricsToken;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  route(system.getMetrics, async (request, reply) => {
    if (!token) throw new AppError('ERR_NOT_FOUND', 'Metrics are off: set METRICS_TOKEN');
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(given), digest(token)))
      throw new AppError('ERR_NO_PERMISSION', 'Send the METRICS_TOKEN as a bearer token', {
        status: 401,
      });
    const { metrics } = app.deps;
    return reply.type(metrics.contentType).send(await metrics.render());
  });
};
