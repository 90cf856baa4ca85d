import {
  calendarDate,
  DASHBOARD_MAX_RANGE_DAYS,
  type DashboardChartQuery,
  type DashboardQuery,
} from '@atendi/shared';

// What the filter form holds: a period in days (0: none, SPEC §9) or a date range (YYYY-MM-DD).
export type DashboardFilter = { days: number; dateFrom: string; dateTo: string };

// The calls one applied filter makes: GET /dashboard and the two chart routes.
export type AppliedFilter = {
  view: Pick<DashboardQuery, 'days' | 'date_from' | 'date_to'>;
  charts: Pick<DashboardChartQuery, 'initialDate' | 'finalDate'>;
};

type FilterProblem = 'selectFilter' | 'datesReversed' | 'rangeTooLong';

const pad = (value: number) => String(value).padStart(2, '0');

// The browser's calendar day, read from local date parts (toISOString would give the UTC day).
export const toCalendarDate = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

const dayNumber = (text: string) => Date.parse(`${text}T00:00:00Z`) / (24 * 60 * 60 * 1000);

// SPEC §9: the screen opens on the current month so far, with no period chosen.
export const defaultFilter = (today = new Date()): DashboardFilter => ({
  days: 0,
  dateFrom: toCalendarDate(new Date(today.getFullYear(), today.getMonth(), 1)),
  dateTo: toCalendarDate(today),
});

// The calls of a date range, both days included.
export const byDates = (dateFrom: string, dateTo: string): AppliedFilter => ({
  view: { date_from: dateFrom, date_to: dateTo },
  charts: { initialDate: dateFrom, finalDate: dateTo },
});

// A period in days wins over the dates; without one both dates are needed (SPEC §5 'select filter').
export const applyFilter = (
  filter: DashboardFilter,
  today = new Date(),
): { applied: AppliedFilter } | { problem: FilterProblem } => {
  if (filter.days > 0) {
    const first = new Date(
      today.getFullYear(),
      today.getMonth(),
      today.getDate() - filter.days + 1,
    );
    return {
      applied: {
        view: { days: filter.days },
        charts: { initialDate: toCalendarDate(first), finalDate: toCalendarDate(today) },
      },
    };
  }
  const { dateFrom, dateTo } = filter;
  if (!calendarDate.safeParse(dateFrom).success || !calendarDate.safeParse(dateTo).success)
    return { problem: 'selectFilter' };
  const span = dayNumber(dateTo) - dayNumber(dateFrom) + 1;
  if (span < 1) return { problem: 'datesReversed' };
  if (span > DASHBOARD_MAX_RANGE_DAYS) return { problem: 'rangeTooLong' };
  return { applied: byDates(dateFrom, dateTo) };
};
