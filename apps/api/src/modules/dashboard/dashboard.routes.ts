import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dashboardChartQuerySchema,
  dashboardQuerySchema,
  dashboardSchema,
  dashboardTicketsDaySchema,
  dashboardTicketsUsersSchema,
  okResponse,
} from '@atendi/shared';
import { getDashboard, getTicketsDay, getTicketsUsers } from './dashboard.service';

// SPEC §7 Dashboard: admins only (SPEC §6 dashboard:view). The history it reads is written by the
// ticket events (ticket-tracking.ts, recorders listed in background.ts).
export const dashboardRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  const tags = ['dashboard'];
  const config = { access: { permission: 'dashboard:view' as const } };

  app.get(
    '/dashboard',
    {
      schema: {
        summary: "Read the dashboard's figures for a period",
        operationId: 'getDashboard',
        tags,
        querystring: dashboardQuerySchema,
        response: okResponse(dashboardSchema),
      },
      config,
    },
    async (request) => getDashboard(deps, request.auth, request.query),
  );

  app.get(
    '/dashboard/ticketsUsers',
    {
      schema: {
        summary: "Count a period's tickets per user",
        operationId: 'getTicketsByUser',
        tags,
        querystring: dashboardChartQuerySchema,
        response: okResponse(dashboardTicketsUsersSchema),
      },
      config,
    },
    async (request) => getTicketsUsers(deps, request.auth, request.query),
  );

  app.get(
    '/dashboard/ticketsDay',
    {
      schema: {
        summary: "Count a period's tickets per day (or hour)",
        operationId: 'getTicketsByDay',
        tags,
        querystring: dashboardChartQuerySchema,
        response: okResponse(dashboardTicketsDaySchema),
      },
      config,
    },
    async (request) => getTicketsDay(deps, request.auth, request.query),
  );
};
