import { sql } from 'drizzle-orm';
import type {
  DashboardChartQuery,
  DashboardQuery,
  DashboardReport,
  DashboardReportGroup,
  DashboardReportQuery,
  DashboardReportRow,
  DashboardTicketsDay,
  DashboardTicketsUsers,
  DashboardView,
  Presence,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { queryRows, type Db } from '../../db/client';
import type { AuthContext } from '../../platform/context';
import { csvLine } from '../../platform/csv';
import { companyInScope } from '../../platform/tenancy';
import { sqlTime } from '../../platform/sql-time';
import { companyTimeZone } from '../../platform/time-zones';
import { dayTerritory } from './ticket-tracking';

// SPEC §7 Dashboard, read from the conversation history (ticket-tracking.ts). Each figure is taken
// over the conversations whose own moment falls within the period: resolved ones for support and
// resolution times, accepted ones for the wait, first-answered ones for the first response.
// Calendar days are the company's, in its time zone.

type Deps = Pick<AppDeps, 'db' | 'config'>;

// Local midnight of a calendar day in a zone, in SQL.
const dayStart = (day: string, timeZone: string) =>
  sql`((${day})::date)::timestamp at time zone ${timeZone}`;
const dayAfter = (day: string, timeZone: string) =>
  sql`((${day})::date + 1)::timestamp at time zone ${timeZone}`;

// The period [from, to) a query asks for: the last `days` days, the calendar days date_from..date_to,
// or from the first of this month until now. A period that runs until now has no upper bound in SQL
// (`until`: nothing happened after now, and what happens in this very millisecond counts).
const periodOf = async (db: Db, query: DashboardQuery, timeZone: string, now: Date) => {
  const at = sqlTime(now);
  const monthStart = sql`date_trunc('month', ${at} at time zone ${timeZone}) at time zone ${timeZone}`;
  const from = query.days
    ? sql`${at} - make_interval(days => ${query.days}::int)`
    : query.date_from
      ? dayStart(query.date_from, timeZone)
      : monthStart;
  const to = !query.days && query.date_to ? dayAfter(query.date_to, timeZone) : at;
  const [row] = await queryRows<{ from: string | Date; to: string | Date }>(
    db,
    sql`select (${from})::timestamptz as "from", (${to})::timestamptz as "to"`,
  );
  const untilNow = query.days !== undefined || !query.date_to;
  return {
    from: new Date(row.from),
    to: new Date(row.to),
    until: untilNow ? sql`'infinity'::timestamptz` : sqlTime(new Date(row.to)),
  };
};

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
const floorTo = (at: Date, ms: number) => new Date(Math.floor(at.getTime() / ms) * ms);
const ceilTo = (at: Date, ms: number) => new Date(Math.ceil(at.getTime() / ms) * ms);

// Seconds to minutes with one decimal; null when nothing was measured.
const minutesOf = (seconds: number, count: number) =>
  count > 0 ? Math.round(seconds / count / 6) / 10 : null;

// Seconds between two moments as float8 (extract() answers numeric, several times slower).
const seconds = (later: string, earlier: string) =>
  sql.raw(`date_part('epoch', ${later} - ${earlier})`);

// What one group of conversations adds up to within the period (seconds summed, to average later).
type Sums = {
  started: number;
  accepted: number;
  wait_seconds: number | null;
  answered: number;
  reply_seconds: number | null;
  finished: number;
  resolution_seconds: number | null;
  support_count: number;
  support_seconds: number | null;
};

const sumKeys = [
  'started',
  'accepted',
  'wait_seconds',
  'answered',
  'reply_seconds',
  'finished',
  'resolution_seconds',
  'support_count',
  'support_seconds',
] as const;

const total = (groups: Sums[]) =>
  Object.fromEntries(
    sumKeys.map((key) => [key, groups.reduce((sum, group) => sum + Number(group[key] ?? 0), 0)]),
  ) as Record<(typeof sumKeys)[number], number>;

// The company a query reads (the caller's, or another for a super user), its zone, the period, and
// the SQL test of a moment within it.
const scopedPeriod = async (deps: Deps, ctx: AuthContext, query: DashboardQuery) => {
  const companyId = await companyInScope(deps.db, ctx, query.companyId);
  const timeZone = await companyTimeZone(deps, companyId);
  const period = await periodOf(deps.db, query, timeZone, new Date());
  const f = sqlTime(period.from);
  const t = period.until;
  const within = (moment: string) => sql`${sql.raw(moment)} >= ${f} and ${sql.raw(moment)} < ${t}`;
  return { companyId, timeZone, period, f, t, within };
};

export const getDashboard = async (
  deps: Deps,
  ctx: AuthContext,
  query: DashboardQuery,
): Promise<DashboardView> => {
  const { companyId, timeZone, period, f, t, within } = await scopedPeriod(deps, ctx, query);

  // The period's whole hours (UTC; whole days in the days dashboard_hours may hold folded by the
  // day) come summed from dashboard_hours; the moments before the first and after the last, from the
  // conversations themselves (the edges: under a day at the start of a long period, under an hour
  // at its end).
  const days = dayTerritory(new Date());
  const firstHour =
    period.from < days
      ? new Date(Math.min(ceilTo(period.from, DAY_MS).getTime(), days.getTime()))
      : ceilTo(period.from, HOUR_MS);
  const lastHour = period.to < days ? floorTo(period.to, DAY_MS) : floorTo(period.to, HOUR_MS);
  const hasHours = firstHour < lastHour;
  const inEdges = (moment: string) =>
    hasHours
      ? sql`((${sql.raw(moment)} >= ${f} and ${sql.raw(moment)} < ${sqlTime(firstHour)})
            or (${sql.raw(moment)} >= ${sqlTime(lastHour)} and ${sql.raw(moment)} < ${t}))`
      : within(moment);
  const [edges, hours, now, people] = await Promise.all([
    queryRows<Sums & { user_id: number | null }>(
      deps.db,
      sql`
      select user_id,
        count(*) filter (where ${inEdges('started_at')})::int as started,
        count(*) filter (where ${inEdges('accepted_at')})::int as accepted,
        sum(${seconds('accepted_at', 'started_at')}) filter (where ${inEdges('accepted_at')}) as wait_seconds,
        count(*) filter (where ${inEdges('first_reply_at')})::int as answered,
        sum(${seconds('first_reply_at', 'started_at')}) filter (where ${inEdges('first_reply_at')}) as reply_seconds,
        count(*) filter (where ${inEdges('finished_at')})::int as finished,
        sum(${seconds('finished_at', 'started_at')}) filter (where ${inEdges('finished_at')}) as resolution_seconds,
        count(*) filter (where ${inEdges('finished_at')} and accepted_at is not null)::int as support_count,
        sum(${seconds('finished_at', 'accepted_at')}) filter (where ${inEdges('finished_at')}) as support_seconds
      from ticket_tracking
      where company_id = ${companyId} and (${inEdges('started_at')} or ${inEdges('accepted_at')}
        or ${inEdges('first_reply_at')} or ${inEdges('finished_at')})
      group by user_id`,
    ),
    hasHours
      ? queryRows<Sums & { user_id: number }>(
          deps.db,
          sql`
          select user_id, sum(started)::int as started, sum(accepted)::int as accepted,
            sum(wait_seconds) as wait_seconds, sum(answered)::int as answered,
            sum(reply_seconds) as reply_seconds, sum(finished)::int as finished,
            sum(resolution_seconds) as resolution_seconds, sum(support_count)::int as support_count,
            sum(support_seconds) as support_seconds
          from dashboard_hours
          where company_id = ${companyId} and hour >= ${sqlTime(firstHour)} and hour < ${sqlTime(lastHour)}
          group by user_id`,
        )
      : [],
    // Being attended and waiting: the tickets as they are now.
    queryRows<{ happening: number; pending: number }>(
      deps.db,
      sql`
      select count(*) filter (where status = 'open')::int as happening,
             count(*) filter (where status = 'pending')::int as pending
      from tickets
      where company_id = ${companyId} and status in ('open', 'pending')`,
    ),
    // Every user of the company, with the ratings given to them within the period.
    queryRows<{ id: number; name: string; presence: Presence; rating: number | null }>(
      deps.db,
      sql`
      select u.id, u.name, u.presence, r.rating
      from users u
      left join (
        select user_id, avg(rate)::float8 as rating
        from user_ratings
        where company_id = ${companyId} and created_at >= ${f} and created_at < ${t}
        group by user_id
      ) r on r.user_id = u.id
      where u.company_id = ${companyId}
      order by u.name, u.id`,
    ),
  ]);
  // User 0 in dashboard_hours is none, as null is in ticket_tracking.
  const byUser = new Map<number | null, Sums>();
  for (const { user_id: userId, ...group } of [...edges, ...hours]) {
    const key = userId === 0 ? null : userId;
    const had = byUser.get(key);
    byUser.set(key, had ? total([had, group]) : group);
  }
  const sums = total([...byUser.values()]);
  return {
    counters: {
      supportHappening: now[0]?.happening ?? 0,
      supportPending: now[0]?.pending ?? 0,
      supportFinished: sums.finished,
      supportStarted: sums.started,
      avgSupportTime: minutesOf(sums.support_seconds, sums.support_count),
      avgWaitTime: minutesOf(sums.wait_seconds, sums.accepted),
      avgFirstResponseTime: minutesOf(sums.reply_seconds, sums.answered),
      avgResolutionTime: minutesOf(sums.resolution_seconds, sums.finished),
    },
    attendants: people.map((person) => {
      const own = byUser.get(person.id);
      return {
        id: person.id,
        name: person.name,
        online: person.presence !== 'offline',
        presence: person.presence,
        tickets: own?.finished ?? 0,
        avgSupportTime: minutesOf(Number(own?.support_seconds ?? 0), own?.support_count ?? 0),
        rating: person.rating === null ? 0 : Math.round(Number(person.rating) * 10) / 10,
      };
    }),
    period: { from: period.from.toISOString(), to: period.to.toISOString(), timeZone },
  };
};

// GET /dashboard/report groups the conversations by the column of ticket_tracking named here; the
// names are the queues' or users'.
const reportGroups = {
  queue: { column: sql.raw('queue_id'), names: sql.raw('queues') },
  user: { column: sql.raw('user_id'), names: sql.raw('users') },
} as const satisfies Record<Exclude<DashboardReportGroup, 'day'>, object>;

// A rating counts for the queue of the conversation it rated: the ticket's last one started before it
// (the ticket was resolved then, so that one was over); for a user, for the user it names (as the
// attendants' ratings).
const ratingGroup = {
  queue: {
    key: sql.raw('rated.queue_id'),
    join: sql`left join lateral (
      select queue_id from ticket_tracking c
      where c.ticket_id = r.ticket_id and c.started_at <= r.created_at
      order by c.started_at desc limit 1
    ) rated on true`,
  },
  user: { key: sql.raw('r.user_id'), join: sql`` },
} as const satisfies Record<Exclude<DashboardReportGroup, 'day'>, object>;

// One group's sums within the period, as the database adds them up (seconds summed, to average).
type ReportSums = {
  id: number | null;
  name: string;
  started: number;
  answered: number;
  reply_seconds: number | null;
  finished: number;
  resolution_seconds: number | null;
  ratings: number;
  rating: number | null;
  sla_decided: number;
  sla_met: number;
};

const reportRow = (sums: ReportSums): DashboardReportRow => ({
  id: sums.id,
  name: sums.name,
  started: sums.started,
  finished: sums.finished,
  avgFirstResponseTime: minutesOf(Number(sums.reply_seconds ?? 0), sums.answered),
  avgResolutionTime: minutesOf(Number(sums.resolution_seconds ?? 0), sums.finished),
  rating: sums.rating === null ? null : Math.round(Number(sums.rating) * 10) / 10,
  ratings: sums.ratings,
  slaDecided: sums.sla_decided,
  slaMet: sums.sla_met,
  slaAttainment:
    sums.sla_decided > 0 ? Math.round((sums.sla_met / sums.sla_decided) * 1000) / 10 : null,
});

// GET /dashboard/report: the figures of GET /dashboard per queue or per user holding the
// conversations (0 stands for none in the groups, so they join on it), over the same moments; read
// from the conversations over their moment indexes (dashboard_hours sums by user only). Each source
// is grouped in its own CTE: a figure from another one is another CTE joined on the key.
export const getDashboardReport = async (
  deps: Deps,
  ctx: AuthContext,
  query: DashboardReportQuery,
): Promise<DashboardReport> => {
  const { companyId, timeZone, period, within } = await scopedPeriod(deps, ctx, query);
  const answer = (rows: ReportSums[]) => ({
    period: { from: period.from.toISOString(), to: period.to.toISOString(), timeZone },
    groupBy: query.groupBy,
    rows: rows.map(reportRow),
  });
  if (query.groupBy === 'day') {
    // Every calendar day of the period in the company's zone, each figure on the day it happened.
    const dayOf = (moment: string) => sql`(${sql.raw(moment)} at time zone ${timeZone})::date`;
    const days = await queryRows<ReportSums>(
      deps.db,
      sql`
      with days as (
        select d::date as key
        from generate_series(
          (${sqlTime(period.from)} at time zone ${timeZone})::date,
          (${sqlTime(new Date(period.to.getTime() - 1))} at time zone ${timeZone})::date,
          interval '1 day') d
      ), events as (
        select ${dayOf('started_at')} as key, 's' as kind, null::float8 as secs
        from ticket_tracking where company_id = ${companyId} and ${within('started_at')}
        union all
        select ${dayOf('first_reply_at')}, 'a', ${seconds('first_reply_at', 'started_at')}
        from ticket_tracking where company_id = ${companyId} and ${within('first_reply_at')}
        union all
        select ${dayOf('finished_at')}, 'f', ${seconds('finished_at', 'started_at')}
        from ticket_tracking where company_id = ${companyId} and ${within('finished_at')}
      ), conversations as (
        select key, count(*) filter (where kind = 's')::int as started,
          count(*) filter (where kind = 'a')::int as answered,
          sum(secs) filter (where kind = 'a') as reply_seconds,
          count(*) filter (where kind = 'f')::int as finished,
          sum(secs) filter (where kind = 'f') as resolution_seconds
        from events group by key
      ), ratings as (
        select ${dayOf('r.created_at')} as key, count(*)::int as ratings, avg(r.rate)::float8 as rating
        from user_ratings r where r.company_id = ${companyId} and ${within('r.created_at')}
        group by 1
      ), sla as (
        select ${dayOf('decided_at')} as key, count(*)::int as sla_decided,
          count(*) filter (where met)::int as sla_met
        from sla_outcomes where company_id = ${companyId} and ${within('decided_at')}
        group by 1
      )
      select null as id, to_char(d.key, 'YYYY-MM-DD') as name, coalesce(c.started, 0) as started,
        coalesce(c.answered, 0) as answered, c.reply_seconds, coalesce(c.finished, 0) as finished,
        c.resolution_seconds, coalesce(r.ratings, 0) as ratings, r.rating,
        coalesce(s.sla_decided, 0) as sla_decided, coalesce(s.sla_met, 0) as sla_met
      from days d
        left join conversations c on c.key = d.key
        left join ratings r on r.key = d.key
        left join sla s on s.key = d.key
      order by d.key`,
    );
    return answer(days);
  }
  const group = reportGroups[query.groupBy];
  const rated = ratingGroup[query.groupBy];
  const rows = await queryRows<ReportSums>(
    deps.db,
    sql`
    with conversations as (
      select coalesce(${group.column}, 0) as key,
        count(*) filter (where ${within('started_at')})::int as started,
        count(*) filter (where ${within('first_reply_at')})::int as answered,
        sum(${seconds('first_reply_at', 'started_at')}) filter (where ${within('first_reply_at')}) as reply_seconds,
        count(*) filter (where ${within('finished_at')})::int as finished,
        sum(${seconds('finished_at', 'started_at')}) filter (where ${within('finished_at')}) as resolution_seconds
      from ticket_tracking
      where company_id = ${companyId}
        and (${within('started_at')} or ${within('first_reply_at')} or ${within('finished_at')})
      group by 1
    ), ratings as (
      select coalesce(${rated.key}, 0) as key, count(*)::int as ratings, avg(r.rate)::float8 as rating
      from user_ratings r ${rated.join}
      where r.company_id = ${companyId} and ${within('r.created_at')}
      group by 1
    ), sla as (
      select coalesce(${group.column}, 0) as key, count(*)::int as sla_decided,
        count(*) filter (where met)::int as sla_met
      from sla_outcomes
      where company_id = ${companyId} and ${within('decided_at')}
      group by 1
    ), grouped as (
      select coalesce(c.key, r.key, s.key) as key, coalesce(c.started, 0) as started,
        coalesce(c.answered, 0) as answered, c.reply_seconds, coalesce(c.finished, 0) as finished,
        c.resolution_seconds, coalesce(r.ratings, 0) as ratings, r.rating,
        coalesce(s.sla_decided, 0) as sla_decided, coalesce(s.sla_met, 0) as sla_met
      from conversations c full join ratings r on r.key = c.key
        full join sla s on s.key = coalesce(c.key, r.key)
    )
    select nullif(g.key, 0) as id, coalesce(n.name, '') as name, g.started, g.answered,
      g.reply_seconds, g.finished, g.resolution_seconds, g.ratings, g.rating, g.sla_decided,
      g.sla_met
    from grouped g
    left join ${group.names} n on n.id = g.key
    order by g.key = 0, n.name, g.key`,
  );
  return answer(rows);
};

// The CSV's columns: a stable English key each (its header), and the row's value.
const reportCsvColumns: [string, (row: DashboardReportRow) => string | number | null][] = [
  ['id', (row) => row.id],
  ['name', (row) => row.name],
  ['started', (row) => row.started],
  ['finished', (row) => row.finished],
  ['avgFirstResponseMinutes', (row) => row.avgFirstResponseTime],
  ['avgResolutionMinutes', (row) => row.avgResolutionTime],
  ['rating', (row) => row.rating],
  ['ratings', (row) => row.ratings],
  ['slaDecided', (row) => row.slaDecided],
  ['slaMet', (row) => row.slaMet],
  ['slaAttainmentPercent', (row) => row.slaAttainment],
];

// A calendar day of the zone as YYYY-MM-DD (Canada's English writes it so).
const dayIn = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);

// GET /dashboard/report.csv: the report as a file named after its grouping and its first and last
// calendar days.
export const dashboardReportCsv = (report: DashboardReport) => {
  const { from, to, timeZone } = report.period;
  const first = dayIn(new Date(from), timeZone);
  const last = dayIn(new Date(Date.parse(to) - 1), timeZone);
  return {
    name: `report-${report.groupBy}-${first}-${last}.csv`,
    text: [
      csvLine(reportCsvColumns.map(([key]) => key)),
      ...report.rows.map((row) => csvLine(reportCsvColumns.map(([, value]) => value(row)))),
    ].join(''),
  };
};

// GET /dashboard/ticketsUsers: conversations accepted within the days, per user who holds them.
export const getTicketsUsers = async (
  deps: Deps,
  ctx: AuthContext,
  query: DashboardChartQuery,
): Promise<DashboardTicketsUsers> => {
  const companyId = await companyInScope(deps.db, ctx, query.companyId);
  const timeZone = await companyTimeZone(deps, companyId);
  const rows = await queryRows<{ user_id: number; name: string; total: number }>(
    deps.db,
    sql`
    select u.id as user_id, u.name, a.total
    from (
      select user_id, count(*)::int as total
      from ticket_tracking
      where company_id = ${companyId}
        and accepted_at >= ${dayStart(query.initialDate, timeZone)}
        and accepted_at < ${dayAfter(query.finalDate, timeZone)}
        and user_id is not null
      group by user_id
    ) a
    join users u on u.id = a.user_id and u.company_id = ${companyId}
    order by a.total desc, u.name, u.id`,
  );
  return {
    data: rows.map((row) => ({ userId: row.user_id, name: row.name, total: row.total })),
  };
};

// Every calendar day from one YYYY-MM-DD to another, both included.
const daysBetween = (first: string, last: string) => {
  const days: string[] = [];
  for (
    let at = Date.parse(`${first}T00:00:00Z`);
    at <= Date.parse(`${last}T00:00:00Z`);
    at += DAY_MS
  )
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
};

// GET /dashboard/ticketsDay: conversations started per calendar day, or per hour of a single day.
export const getTicketsDay = async (
  deps: Deps,
  ctx: AuthContext,
  query: DashboardChartQuery,
): Promise<DashboardTicketsDay> => {
  const companyId = await companyInScope(deps.db, ctx, query.companyId);
  const timeZone = await companyTimeZone(deps, companyId);
  const hourly = query.initialDate === query.finalDate;
  // Grouped by a cheap key (a date, an hour number); only the few groups are formatted.
  const bucket = hourly
    ? sql`date_part('hour', started_at at time zone ${timeZone})::int`
    : sql`(started_at at time zone ${timeZone})::date`;
  const label = hourly
    ? sql`lpad(bucket::text, 2, '0') || ':00'`
    : sql`to_char(bucket, 'YYYY-MM-DD')`;
  const rows = await queryRows<{ label: string; total: number }>(
    deps.db,
    sql`
    select ${label} as label, total
    from (
      select ${bucket} as bucket, count(*)::int as total
      from ticket_tracking
      where company_id = ${companyId}
        and started_at >= ${dayStart(query.initialDate, timeZone)}
        and started_at < ${dayAfter(query.finalDate, timeZone)}
      group by 1
    ) grouped`,
  );
  const totals = new Map(rows.map((row) => [row.label, row.total]));
  const labels = hourly
    ? Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, '0')}:00`)
    : daysBetween(query.initialDate, query.finalDate);
  const data = labels.map((label) => ({ label, total: totals.get(label) ?? 0 }));
  return {
    count: data.reduce((sum, point) => sum + point.total, 0),
    unit: hourly ? 'hour' : 'day',
    data,
  };
};
