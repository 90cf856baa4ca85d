import { z } from 'zod';
import { presences } from './constants';
import { dateTime } from './responses';

// SPEC §3 Dashboard counters, §5 Dashboard, §7 Dashboard, §9 period choices. Every figure comes
// from the conversation history (one row per conversation: started, accepted, first agent reply,
// resolved); ARCHITECTURE.md ("Dashboard") defines each one.

// The screen's period choices in days (SPEC §9); 0 means no period chosen.
export const dashboardPeriodDays = [3, 7, 15, 30, 60, 90] as const;

// The longest period one call may cover: a year and a day.
export const DASHBOARD_MAX_RANGE_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;

// A calendar day in the company's time zone, as YYYY-MM-DD.
const isCalendarDate = (text: string) => {
  const at = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().startsWith(text);
};
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
  .refine((text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && isCalendarDate(text), 'Not a valid date');

const spanDays = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

// Super users may look at another company's figures; for anyone else another company is 404.
const companyIdField = z.coerce.number().int().positive().optional();

// GET /dashboard: the last `days` days, or the calendar days date_from..date_to (both included),
// or, with neither, from the first of the current month until now.
export const dashboardQuerySchema = z
  .object({
    days: z.coerce.number().int().min(1).max(DASHBOARD_MAX_RANGE_DAYS).optional(),
    date_from: calendarDate.optional(),
    date_to: calendarDate.optional(),
    companyId: companyIdField,
  })
  .superRefine((query, ctx) => {
    if (query.date_from && query.date_to) {
      const span = spanDays(query.date_from, query.date_to);
      if (span < 1)
        ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'date_to is before date_from' });
      else if (span > DASHBOARD_MAX_RANGE_DAYS)
        ctx.addIssue({
          code: 'custom',
          path: ['date_to'],
          message: `A period may cover at most ${DASHBOARD_MAX_RANGE_DAYS} days`,
        });
    }
  });
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

// GET /dashboard/ticketsUsers and /dashboard/ticketsDay: calendar days, both included.
export const dashboardChartQuerySchema = z
  .object({
    initialDate: calendarDate,
    finalDate: calendarDate,
    companyId: companyIdField,
  })
  .superRefine((query, ctx) => {
    const span = spanDays(query.initialDate, query.finalDate);
    if (span < 1)
      ctx.addIssue({
        code: 'custom',
        path: ['finalDate'],
        message: 'finalDate is before initialDate',
      });
    else if (span > DASHBOARD_MAX_RANGE_DAYS)
      ctx.addIssue({
        code: 'custom',
        path: ['finalDate'],
        message: `A period may cover at most ${DASHBOARD_MAX_RANGE_DAYS} days`,
      });
  });
export type DashboardChartQuery = z.infer<typeof dashboardChartQuerySchema>;

// Averages are minutes with one decimal; null when no conversation in the period measured it.
const minutes = z.number().nullable();

export const dashboardCountersSchema = z.object({
  // Conversations being attended now (open), and waiting for an agent now (pending).
  supportHappening: z.number(),
  supportPending: z.number(),
  // Conversations resolved within the period.
  supportFinished: z.number(),
  // Accepted → resolved, over conversations resolved within the period.
  avgSupportTime: minutes,
  // Started → accepted, over conversations accepted within the period.
  avgWaitTime: minutes,
  // Started → first reply by a person of the company, over conversations first answered within it.
  avgFirstResponseTime: minutes,
  // Started → resolved, over conversations resolved within the period.
  avgResolutionTime: minutes,
  // Conversations started within the period.
  supportStarted: z.number(),
});
export type DashboardCounters = z.input<typeof dashboardCountersSchema>;

export const dashboardAttendantSchema = z.object({
  id: z.number(),
  name: z.string(),
  // The contacts' average rating (1 to 3) of this user's conversations rated within the period; 0 when none.
  rating: z.number(),
  // Accepted → resolved over this user's conversations resolved within the period.
  avgSupportTime: minutes,
  // This user's conversations resolved within the period.
  tickets: z.number(),
  // Presence other than offline (SPEC's field), and the presence itself.
  online: z.boolean(),
  presence: z.enum(presences),
});
export type DashboardAttendant = z.input<typeof dashboardAttendantSchema>;

// The instants the figures cover ([from, to)) and the time zone whose calendar days were used.
const periodSchema = z.object({ from: dateTime, to: dateTime, timeZone: z.string() });

export const dashboardSchema = z.object({
  counters: dashboardCountersSchema,
  attendants: z.array(dashboardAttendantSchema),
  period: periodSchema,
});
export type DashboardView = z.input<typeof dashboardSchema>;

// Conversations accepted within the period, per user (users with none are left out).
export const dashboardTicketsUsersSchema = z.object({
  data: z.array(z.object({ userId: z.number(), name: z.string(), total: z.number() })),
});
export type DashboardTicketsUsers = z.input<typeof dashboardTicketsUsersSchema>;

// Conversations started per calendar day (label YYYY-MM-DD, every day of the period, zeros too), or,
// for a single day, per hour (label HH:00, 24 entries).
export const dashboardTicketsDaySchema = z.object({
  count: z.number(),
  unit: z.enum(['day', 'hour']),
  data: z.array(z.object({ label: z.string(), total: z.number() })),
});
export type DashboardTicketsDay = z.input<typeof dashboardTicketsDaySchema>;

// GET /dashboard/report (and .csv): the period of GET /dashboard, its figures per queue or per user
// holding the conversations, or per calendar day of the company's zone (ARCHITECTURE.md "Dashboard").
export const dashboardReportGroups = ['queue', 'user', 'day'] as const;
export type DashboardReportGroup = (typeof dashboardReportGroups)[number];

export const dashboardReportQuerySchema = dashboardQuerySchema.safeExtend({
  groupBy: z.enum(dashboardReportGroups),
});
export type DashboardReportQuery = z.infer<typeof dashboardReportQuerySchema>;

// One queue or user with conversations (or ratings) in the period; id null gathers the conversations of
// none (name ''). By day: every day of the period, id null and name the day (YYYY-MM-DD), each figure
// counted on the day it happened (started, first answered, resolved, rated, decided).
export const dashboardReportRowSchema = z.object({
  id: z.number().nullable(),
  name: z.string(),
  // Conversations started, and resolved, within the period.
  started: z.number(),
  finished: z.number(),
  // As the counters of the same names: over those first answered, and resolved, within the period.
  avgFirstResponseTime: minutes,
  avgResolutionTime: minutes,
  // The contacts' average rating (1 to 3) of those given within the period, null when none; how many.
  rating: z.number().nullable(),
  ratings: z.number(),
  // SLA promises (first answer, next answer, resolution) decided within the period, those met, and
  // the share met in percent with one decimal (null when none was decided).
  slaDecided: z.number(),
  slaMet: z.number(),
  slaAttainment: z.number().nullable(),
});
export type DashboardReportRow = z.input<typeof dashboardReportRowSchema>;

export const dashboardReportSchema = z.object({
  period: periodSchema,
  groupBy: z.enum(dashboardReportGroups),
  // By name; the row of none last.
  rows: z.array(dashboardReportRowSchema),
});
export type DashboardReport = z.input<typeof dashboardReportSchema>;
