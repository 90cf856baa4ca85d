import type { FastifyInstance } from 'fastify';
import { dashboardContract as dashboard } from '@atendi/shared';
import { audit, filtersOf } from '../../platform/audit';
import { contractRoutes } from '../../platform/contract-routes';
import { sendCsv } from '../../platform/csv';
import {
  dashboardReportCsv,
  getDashboard,
  getDashboardReport,
  getTicketsDay,
  getTicketsUsers,
} from './dashboard.service';

// SPEC §7 Dashboard: admins only (SPEC §6 dashboard:view). The history it reads is written by the
// ticket events (ticket-tracking.ts, recorders listed in background.ts).
export const dashboardRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;

  const config = { access: { permission: 'dashboard:view' as const } };

  route(dashboard.getDashboard, config, async (request) =>
    getDashboard(deps, request.auth, request.query),
  );

  route(dashboard.getTicketsByUser, config, async (request) =>
    getTicketsUsers(deps, request.auth, request.query),
  );

  route(dashboard.getTicketsByDay, config, async (request) =>
    getTicketsDay(deps, request.auth, request.query),
  );

  route(dashboard.getDashboardReport, config, async (request) =>
    getDashboardReport(deps, request.auth, request.query),
  );

  route(dashboard.downloadDashboardReport, config, async (request, reply) => {
    const { auth, query } = request;
    const csv = dashboardReportCsv(await getDashboardReport(deps, auth, query));
    // Issue 37: who downloaded which report (its filters), in the log of the company it is about.
    await audit(deps.db, {
      companyId: query.companyId ?? auth.companyId,
      userId: auth.userId,
      action: 'export.report',
      target: `file:${csv.name}`,
      detail: filtersOf(query),
      address: auth.address,
    });
    return sendCsv(reply, csv.name, csv.text);
  });
};
