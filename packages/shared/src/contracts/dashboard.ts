import { defineRoutes } from '../contract';
import {
  dashboardChartQuerySchema,
  dashboardQuerySchema,
  dashboardSchema,
  dashboardTicketsDaySchema,
  dashboardTicketsUsersSchema,
} from '../dashboard';
import { okResponse } from '../responses';

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
});
