import {
  dashboardReportSchema,
  dashboardSchema,
  dashboardTicketsDaySchema,
  dashboardTicketsUsersSchema,
  type DashboardReport,
  type DashboardReportGroup,
  type DashboardTicketsDay,
  type DashboardTicketsUsers,
  type DashboardView,
} from '@atendi/shared';
import { jsonResponse } from '../../test/fixtures';

// Answers of the dashboard routes, checked against the shared schemas so a fixture is always
// something the API could say.
export const makeDashboardView = (overrides: Partial<DashboardView> = {}): DashboardView => {
  const view: DashboardView = {
    counters: {
      supportHappening: 4,
      supportPending: 2,
      supportFinished: 12345,
      supportStarted: 0,
      avgSupportTime: 12.4,
      avgWaitTime: 65,
      avgFirstResponseTime: 0.4,
      avgResolutionTime: null,
    },
    attendants: [
      {
        id: 1,
        name: 'Ana Admin',
        rating: 2.5,
        avgSupportTime: 3075,
        tickets: 8,
        online: true,
        presence: 'online',
      },
      {
        id: 2,
        name: 'Bruno Agente',
        rating: 0,
        avgSupportTime: null,
        tickets: 0,
        online: false,
        presence: 'offline',
      },
    ],
    period: {
      from: '2025-03-01T06:00:00.000Z',
      to: '2025-03-16T06:00:00.000Z',
      timeZone: 'America/Mexico_City',
    },
    ...overrides,
  };
  dashboardSchema.parse(view);
  return view;
};

export const makeTicketsUsers = (
  data: DashboardTicketsUsers['data'] = [
    { userId: 1, name: 'Ana Admin', total: 5 },
    { userId: 2, name: 'Bruno Agente', total: 3 },
  ],
): DashboardTicketsUsers => dashboardTicketsUsersSchema.parse({ data });

export const makeTicketsDay = (
  data: DashboardTicketsDay['data'] = [
    { label: '2025-03-14', total: 3 },
    { label: '2025-03-15', total: 1 },
  ],
  unit: DashboardTicketsDay['unit'] = 'day',
): DashboardTicketsDay =>
  dashboardTicketsDaySchema.parse({
    count: data.reduce((sum, row) => sum + row.total, 0),
    unit,
    data,
  });

const reportRows: Record<DashboardReportGroup, DashboardReport['rows']> = {
  queue: [
    {
      id: 3,
      name: 'Soporte',
      started: 12,
      finished: 10,
      avgFirstResponseTime: 4.5,
      avgResolutionTime: 62.3,
      rating: 2.5,
      ratings: 4,
      slaDecided: 8,
      slaMet: 7,
      slaAttainment: 87.5,
    },
    {
      id: 4,
      name: 'Ventas',
      started: 1234,
      finished: 0,
      avgFirstResponseTime: null,
      avgResolutionTime: null,
      rating: null,
      ratings: 0,
      slaDecided: 0,
      slaMet: 0,
      slaAttainment: null,
    },
    {
      id: null,
      name: '',
      started: 2,
      finished: 1,
      avgFirstResponseTime: 0.4,
      avgResolutionTime: 15,
      rating: 1,
      ratings: 1,
      slaDecided: 0,
      slaMet: 0,
      slaAttainment: null,
    },
  ],
  user: [
    {
      id: 1,
      name: 'Ana Admin',
      started: 8,
      finished: 8,
      avgFirstResponseTime: 3,
      avgResolutionTime: 20,
      rating: 3,
      ratings: 2,
      slaDecided: 5,
      slaMet: 3,
      slaAttainment: 60,
    },
    {
      id: null,
      name: '',
      started: 6,
      finished: 3,
      avgFirstResponseTime: null,
      avgResolutionTime: 45.5,
      rating: null,
      ratings: 0,
      slaDecided: 0,
      slaMet: 0,
      slaAttainment: null,
    },
  ],
  day: [
    {
      id: null,
      name: '2025-03-14',
      started: 3,
      finished: 2,
      avgFirstResponseTime: 1.5,
      avgResolutionTime: 30,
      rating: null,
      ratings: 0,
      slaDecided: 0,
      slaMet: 0,
      slaAttainment: null,
    },
    {
      id: null,
      name: '2025-03-15',
      started: 1,
      finished: 0,
      avgFirstResponseTime: null,
      avgResolutionTime: null,
      rating: null,
      ratings: 0,
      slaDecided: 0,
      slaMet: 0,
      slaAttainment: null,
    },
  ],
};

const makeReport = (groupBy: DashboardReportGroup, rows = reportRows[groupBy]): DashboardReport => {
  const report: DashboardReport = { period: makeDashboardView().period, groupBy, rows };
  dashboardReportSchema.parse(report);
  return report;
};

// The dashboard routes answering the given bodies (stubApi's route table); the report as grouped.
export const dashboardRoutes = ({
  view = makeDashboardView(),
  ticketsUsers = makeTicketsUsers(),
  ticketsDay = makeTicketsDay(),
}: {
  view?: DashboardView;
  ticketsUsers?: DashboardTicketsUsers;
  ticketsDay?: DashboardTicketsDay;
} = {}) => ({
  'GET /dashboard': () => jsonResponse(200, view),
  'GET /dashboard/ticketsUsers': () => jsonResponse(200, ticketsUsers),
  'GET /dashboard/ticketsDay': () => jsonResponse(200, ticketsDay),
  'GET /dashboard/report': ({ url }: { url: URL }) =>
    jsonResponse(
      200,
      makeReport((url.searchParams.get('groupBy') ?? 'queue') as DashboardReportGroup),
    ),
});
