import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import {
  dashboardContract,
  type DashboardReport,
  type DashboardReportGroup,
  type DashboardView,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { patchCachedQueries, usePresenceEvents, withPresence } from '../../api/presence';
import { ERROR_TOAST_MS } from '../../api/toasts';
import { i18n } from '../../i18n/i18n';
import { saveCsv } from '../../lib/save-file';
import type { AppliedFilter } from './dashboard-filter';
import { isoDayIn } from './dashboard-format';

type ChartRange = AppliedFilter['charts'];

const dashboardKeys = {
  all: ['dashboard'] as const,
  views: ['dashboard', 'view'] as const,
  view: (query: AppliedFilter['view']) => ['dashboard', 'view', query] as const,
  report: (query: AppliedFilter['view'], groupBy: DashboardReportGroup) =>
    ['dashboard', 'report', query, groupBy] as const,
  ticketsUsers: (range: ChartRange) => ['dashboard', 'ticketsUsers', range] as const,
  ticketsDay: (range: ChartRange) => ['dashboard', 'ticketsDay', range] as const,
};

// A dashboard is looked at for a while: new figures when the admin comes back to the tab, and the
// previous filter's figures stay on screen while another filter loads.
const liveFigures = { refetchOnWindowFocus: true, placeholderData: keepPreviousData } as const;

// SPEC §8: a chart that cannot be drawn says so in its own words; the page goes on.
const toastingFailure =
  <T>(fetch: (signal: AbortSignal) => Promise<T>, messageKey: string) =>
  async ({ signal }: { signal: AbortSignal }) => {
    try {
      return await fetch(signal);
    } catch (error) {
      if (!signal.aborted) toast.error(i18n.t(messageKey), { autoClose: ERROR_TOAST_MS });
      throw error;
    }
  };

// GET /dashboard: counters and attendants; a failure toasts the server's message (query client).
// The attendants' presence follows company-{id}-presence in every period's answer.
export const useDashboardView = (query: AppliedFilter['view']) => {
  const queryClient = useQueryClient();
  usePresenceEvents((change) =>
    patchCachedQueries<DashboardView>(queryClient, dashboardKeys.views, (view) => ({
      ...view,
      attendants: view.attendants.map((attendant) => withPresence(attendant, change)),
    })),
  );
  return useQuery({
    queryKey: dashboardKeys.view(query),
    queryFn: ({ signal }) => call(dashboardContract.getDashboard, { query }, { signal }),
    ...liveFigures,
  });
};

// GET /dashboard/ticketsUsers: conversations accepted per user.
export const useTicketsPerUser = (range: ChartRange) =>
  useQuery({
    queryKey: dashboardKeys.ticketsUsers(range),
    queryFn: toastingFailure(
      (signal) => call(dashboardContract.getTicketsByUser, { query: range }, { signal }),
      'dashboard.charts.ticketsUsers.failed',
    ),
    meta: { silent: true },
    ...liveFigures,
  });

// GET /dashboard/ticketsDay: conversations started per day, or per hour for a single day.
export const useTicketsPerDay = (range: ChartRange) =>
  useQuery({
    queryKey: dashboardKeys.ticketsDay(range),
    queryFn: toastingFailure(
      (signal) => call(dashboardContract.getTicketsByDay, { query: range }, { signal }),
      'dashboard.charts.ticketsDay.failed',
    ),
    meta: { silent: true },
    ...liveFigures,
  });

// GET /dashboard/report: the period's figures per queue or per agent.
export const useDashboardReport = (query: AppliedFilter['view'], groupBy: DashboardReportGroup) =>
  useQuery({
    queryKey: dashboardKeys.report(query, groupBy),
    queryFn: ({ signal }) =>
      call(dashboardContract.getDashboardReport, { query: { ...query, groupBy } }, { signal }),
    ...liveFigures,
  });

// The name the server gives the file (report-<groupBy>-<first day>-<last day>.csv), from the report
// of the same period and grouping.
const reportCsvName = ({ groupBy, period }: DashboardReport) =>
  `report-${groupBy}-${isoDayIn(new Date(period.from), period.timeZone)}-${isoDayIn(
    new Date(Date.parse(period.to) - 1),
    period.timeZone,
  )}.csv`;

// GET /dashboard/report.csv through the app's client (bearer token, refresh once and retry), which
// answers a body that is not JSON as its text.
export const downloadDashboardReport = async (
  query: AppliedFilter['view'],
  report: DashboardReport,
) => {
  const body: unknown = await call(dashboardContract.downloadDashboardReport, {
    query: { ...query, groupBy: report.groupBy },
  });
  saveCsv(typeof body === 'string' ? body : '', reportCsvName(report));
};
