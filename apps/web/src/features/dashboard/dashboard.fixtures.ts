import {
  dashboardSchema,
  dashboardTicketsDaySchema,
  dashboardTicketsUsersSchema,
  type DashboardTicketsDay,
  type DashboardTicketsUsers,
  type DashboardView,
} from '@atendi/shared';
import { jsonResponse } from '../../test/fixtures';

// Answers of the three dashboard routes, checked against the shared schemas so a fixture is always
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

// The three dashboard routes answering the given bodies (stubApi's route table).
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
});
