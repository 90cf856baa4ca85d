import { z } from 'zod';
import { defineRoutes } from '../contract';
import { errorResponseSchema, okResponse } from '../responses';

const checkResult = z.enum(['ok', 'failed', 'timeout']);
const readySchema = z.object({
  status: z.literal('ready'),
  // Each dependency this node needs: database, redis (with REDIS_URL), storage.
  checks: z.record(z.string(), checkResult),
});

// The API itself: its version, and what balancers, orchestrators and Prometheus ask (README).
export const systemContract = defineRoutes('system', {
  getVersion: {
    method: 'GET',
    path: '/version',
    summary: "Read the API's version",
    isPublic: true,
    response: okResponse(z.object({ version: z.string() })),
  },
  checkLiveness: {
    method: 'GET',
    path: '/health/live',
    summary: 'Answer while the process runs',
    isPublic: true,
    response: okResponse(z.object({ status: z.literal('ok') })),
  },
  checkReadiness: {
    method: 'GET',
    path: '/health/ready',
    summary: 'Answer whether this node should get traffic (503 with the failing checks)',
    isPublic: true,
    response: { 200: readySchema, '4xx': errorResponseSchema, 503: errorResponseSchema },
  },
  getMetrics: {
    method: 'GET',
    path: '/metrics',
    summary: 'Read the Prometheus metrics (METRICS_TOKEN as bearer token)',
    isPublic: true,
    security: [{ metricsToken: [] }],
    response: {
      200: {
        description: 'Prometheus text format',
        content: { 'text/plain': { schema: z.string() } },
      },
      '4xx': errorResponseSchema,
    },
  },
});
