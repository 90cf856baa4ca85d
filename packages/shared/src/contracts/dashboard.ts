import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  dashboardChartQuerySchema,
  dashboardQuerySchema,
  dashboardReportQuerySchema,
  dashboardReportSchema,
  dashboardSchema,
  dashboardTicketsDaySchema,
  dashboardTicketsUsersSchema,
} from '../dashboard';
import { errorResponseSchema, okResponse } from '../responses';

// SPEC §7 Dashboard: admins only (SPEC §6 dashboard:view); the figures of a period.
export const dashboardContract = defineRoutes('dashboard', {
  getDashboard: {
    method: 'GET',
    path: '/dashboard',
    summary: "Read the dashboard's figures for a period",
    query: dashboardQuerySchema,
    response: okResponse(dashboardSchema),
  },
  getTicketsByUser: {
    method: 'GET',
    path: '/dashboard/ticketsUsers',
    summary: "Count a period's tickets per user",
    query: dashboardChartQuerySchema,
    response: okResponse(dashboardTicketsUsersSchema),
  },
  getTicketsByDay: {
    method: 'GET',
    path: '/dashboard/ticketsDay',
    summary: "Count a period's tickets per day (or hour)",
    query: dashboardChartQuerySchema,
    response: okResponse(dashboardTicketsDaySchema),
  },
  getDashboardReport: {
    method: 'GET',
    path: '/dashboard/report',
    summary: "Read a period's figures per queue or per user",
    query: dashboardReportQuerySchema,
    response: okResponse(dashboardReportSchema),
  },
  downloadDashboardReport: {
    method: 'GET',
    path: '/dashboard/report.csv',
    summary: "Download a period's figures per queue, user or day as CSV",
    query: dashboardReportQuerySchema,
    // An attachment; errors are JSON as everywhere.
    response: {
      200: {
        description: 'The report, one row per queue or user, minutes with one decimal',
        content: {
          'text/csv': {
            schema: z
              .string()
              .describe(
                'id;name;started;finished;avgFirstResponseMinutes;avgResolutionMinutes;rating;ratings;slaDecided;slaMet;slaAttainmentPercent (UTF-8 with BOM, CRLF)',
              ),
          },
        },
      },
      '4xx': errorResponseSchema,
    },
  },
});
