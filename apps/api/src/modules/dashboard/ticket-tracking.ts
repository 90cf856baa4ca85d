import { and, eq, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { dashboardHours, ticketTracking } from '../../db/schema';
import type { EventOf } from '../../events/domain-events';
import { sqlTime } from '../../platform/sql-time';

// The conversation history (ARCHITECTURE.md "Dashboard"): each ticket event writes the moment it
// marks on the ticket's running conversation, in the transaction of the change itself, so the
// dashboard never counts a change that rolled back nor misses one that committed.
//
// - a conversation starts when its ticket is created, or reopened after being resolved;
// - it is accepted the first time an agent holds it open;
// - it is first answered by the first message a person of the company writes (in the inbox, or on
//   the connected phone); bots, greetings, timers, schedules and the external API do not count;
// - it finishes when the ticket is resolved.

type TicketChanged = EventOf<'ticket.changed'>;

const startConversation = async (tx: Db, event: TicketChanged, now: Date) => {
  const { after } = event;
  const accepted = after.status === 'open' && after.userId !== null;
  await tx
    .insert(ticketTracking)
    .values({
      companyId: event.companyId,
      ticketId: event.ticketId,
      whatsappId: after.whatsappId,
      queueId: after.queueId,
      userId: after.userId,
      startedAt: now,
      acceptedAt: accepted ? now : null,
    })
    .onConflictDoNothing();
};

export const recordTicketChange = async (tx: Db, event: TicketChanged) => {
  const now = new Date();
  const { before, after } = event;
  const starts = !before || before.status === 'closed';
  if (starts) {
    if (after.status !== 'closed') await startConversation(tx, event, now);
    return;
  }
  const at = sqlTime(now);
  const accepted = after.status === 'open' && after.userId !== null;
  const changed = await tx
    .update(ticketTracking)
    .set({
      whatsappId: after.whatsappId,
      queueId: after.queueId,
      // Who holds it now; a conversation handed back to the queue keeps its last agent.
      userId: sql`coalesce(${after.userId}::int, ${ticketTracking.userId})`,
      ...(accepted ? { acceptedAt: sql`coalesce(${ticketTracking.acceptedAt}, ${at})` } : {}),
      ...(after.status === 'closed' ? { finishedAt: at } : {}),
    })
    .where(and(eq(ticketTracking.ticketId, event.ticketId), isNull(ticketTracking.finishedAt)))
    .returning({ id: ticketTracking.id });
  // A ticket older than the history (none was running): its conversation is known from here on.
  if (changed.length === 0 && after.status !== 'closed') await startConversation(tx, event, now);
};

export const recordFirstReply = async (tx: Db, event: EventOf<'message.created'>) => {
  if (event.author !== 'agent' && event.author !== 'phone') return;
  await tx
    .update(ticketTracking)
    .set({ firstReplyAt: sqlTime(new Date()) })
    .where(
      and(
        eq(ticketTracking.ticketId, event.ticketId),
        isNull(ticketTracking.finishedAt),
        isNull(ticketTracking.firstReplyAt),
      ),
    );
};

export const DASHBOARD_FOLD_JOB = 'dashboard-fold';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

// The days (UTC) before this one may be folded into a row per day; the dashboard reads the days
// before dayTerritory as whole days (a day later, so a node whose clock is a little ahead never folds
// a day another still reads by the hour).
const foldDaysBefore = (now: Date) =>
  new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - 3 * DAY_MS);
export const dayTerritory = (now: Date) =>
  new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - 2 * DAY_MS);

const sums = sql`sum(started), sum(accepted), sum(wait_seconds), sum(answered), sum(reply_seconds),
  sum(finished), sum(resolution_seconds), sum(support_count), sum(support_seconds)`;
const columns = sql`company_id, hour, user_id, started, accepted, wait_seconds, answered,
  reply_seconds, finished, resolution_seconds, support_count, support_seconds, compacted, whole_day`;

// Folds what the changes added to dashboard_hours (migration 0026): the rows of each past hour and
// user into one, then the hours of each day older than three (UTC) into one, up to `limit` groups a
// statement: the dashboard then sums a row per hour or day. One statement per step, so a row is
// folded once even if a change adds another to its hour meanwhile (that one waits for the next run).
// Answers how many groups were folded.
export const foldDashboardHours = async (db: Db, now: Date, limit = 5000) => {
  const hourCut = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  const [hours] = await queryRows<{ n: number }>(
    db,
    sql`with due as (
          select distinct company_id, hour, user_id from ${dashboardHours}
           where not compacted and hour < ${sqlTime(hourCut)}
           limit ${limit}
        ), gone as (
          delete from ${dashboardHours} d using due
           where d.company_id = due.company_id and d.hour = due.hour and d.user_id = due.user_id
          returning d.*
        ), kept as (
          insert into ${dashboardHours} (${columns})
          select company_id, hour, user_id, ${sums}, true, bool_or(whole_day)
            from gone group by company_id, hour, user_id
          returning 1
        )
        select count(*)::int as n from kept`,
  );
  const [days] = await queryRows<{ n: number }>(
    db,
    sql`with due as (
          select distinct company_id, date_trunc('day', hour, 'UTC') as day, user_id
            from ${dashboardHours}
           where not whole_day and hour < ${sqlTime(foldDaysBefore(now))}
           limit ${limit}
        ), gone as (
          delete from ${dashboardHours} d using due
           where d.company_id = due.company_id and d.user_id = due.user_id
             and d.hour >= due.day and d.hour < due.day + interval '1 day'
          returning d.*
        ), kept as (
          insert into ${dashboardHours} (${columns})
          select company_id, date_trunc('day', hour, 'UTC'), user_id, ${sums}, true, true
            from gone group by 1, 2, 3
          returning 1
        )
        select count(*)::int as n from kept`,
  );
  return (hours?.n ?? 0) + (days?.n ?? 0);
};
