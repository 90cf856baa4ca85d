import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SlaKind } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import { arrayParam } from '../../db/rows';
import { companies, contacts, queues, slaOutcomes, tickets } from '../../db/schema';
import type { DomainEvent, EventOf } from '../../events/domain-events';
import { sqlTime } from '../../platform/sql-time';
import { addBusinessMinutes } from './sla-clock';

// SLA policies per queue (issue 36; ARCHITECTURE.md "SLA"). A conversation entering a queue with a
// policy starts its clocks: the first answer by a person and the resolution fall due the queue's
// minutes later (in its hours when it has any, in the company's time zone); once a person answered,
// each new message of the contact starts a next-answer clock. A person's message stops the answer
// clocks, resolving stops them all; each promise so decided is written down (sla_outcomes: met or
// breached), and a deadline passing first raises `ticket.sla` breached, its warning minutes before
// it `ticket.sla` warning (the watch, a recurring job). All of it is written in the transaction of
// the change itself (recorders), on the ticket rows that change already locked.

type Raise = (event: DomainEvent) => void;
type Deps = Pick<AppDeps, 'db' | 'config' | 'events'>;

// The SLA state of tickets with their queue's policy and their company's time zone.
const readClocks = (tx: Db, ids: number[], options: { running?: boolean } = {}) =>
  tx
    .select({
      id: tickets.id,
      companyId: tickets.companyId,
      queueId: tickets.queueId,
      userId: tickets.userId,
      isGroup: tickets.isGroup,
      startedAt: tickets.slaStartedAt,
      answered: tickets.slaAnswered,
      firstDue: tickets.slaFirstDueAt,
      nextDue: tickets.slaNextDueAt,
      resolveDue: tickets.slaResolveDueAt,
      firstBreached: tickets.slaFirstBreached,
      nextBreached: tickets.slaNextBreached,
      resolveBreached: tickets.slaResolveBreached,
      firstMinutes: queues.slaFirstResponseMinutes,
      nextMinutes: queues.slaNextResponseMinutes,
      resolutionMinutes: queues.slaResolutionMinutes,
      schedules: queues.schedules,
      timeZone: companies.timeZone,
    })
    .from(tickets)
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .where(
      and(
        inArray(tickets.id, ids),
        options.running ? sql`${tickets.slaStartedAt} is not null` : undefined,
      ),
    );
type Clocks = Awaited<ReturnType<typeof readClocks>>[number];

// What a ticket's clocks become.
type Written = Pick<
  Clocks,
  | 'id'
  | 'startedAt'
  | 'answered'
  | 'firstDue'
  | 'nextDue'
  | 'resolveDue'
  | 'firstBreached'
  | 'nextBreached'
  | 'resolveBreached'
>;

const STOPPED = {
  startedAt: null,
  answered: false,
  firstDue: null,
  nextDue: null,
  resolveDue: null,
  firstBreached: false,
  nextBreached: false,
  resolveBreached: false,
};

const iso = (at: Date | null) => at?.toISOString() ?? null;

// One statement for any number of tickets.
const writeClocks = async (tx: Db, rows: Written[]) => {
  if (!rows.length) return;
  const column = <T>(pick: (row: Written) => T) => arrayParam(rows.map(pick));
  await tx.execute(sql`
    update ${tickets} t set sla_started_at = v.started_at, sla_answered = v.answered,
           sla_first_due_at = v.first_due, sla_next_due_at = v.next_due,
           sla_resolve_due_at = v.resolve_due, sla_first_breached = v.first_breached,
           sla_next_breached = v.next_breached, sla_resolve_breached = v.resolve_breached
      from unnest(${column((r) => r.id)}::int[], ${column((r) => iso(r.startedAt))}::timestamptz[],
                  ${column((r) => r.answered)}::boolean[], ${column((r) => iso(r.firstDue))}::timestamptz[],
                  ${column((r) => iso(r.nextDue))}::timestamptz[],
                  ${column((r) => iso(r.resolveDue))}::timestamptz[],
                  ${column((r) => r.firstBreached)}::boolean[], ${column((r) => r.nextBreached)}::boolean[],
                  ${column((r) => r.resolveBreached)}::boolean[])
           as v(id, started_at, answered, first_due, next_due, resolve_due, first_breached,
                next_breached, resolve_breached)
     where t.id = v.id`);
};

type Outcome = { clocks: Clocks; kind: SlaKind; dueAt: Date; met: boolean; decidedAt: Date };

// Writes each decided promise; a missed one not yet told is raised as breached now.
const decide = async (tx: Db, raise: Raise, outcomes: Outcome[]) => {
  if (!outcomes.length) return;
  await tx.insert(slaOutcomes).values(
    outcomes.map(({ clocks, kind, dueAt, met, decidedAt }) => ({
      companyId: clocks.companyId,
      ticketId: clocks.id,
      queueId: clocks.queueId,
      userId: clocks.userId,
      kind,
      dueAt,
      met,
      decidedAt,
    })),
  );
  for (const { clocks, kind, dueAt, met } of outcomes)
    if (!met) raise(breachEvent(clocks, kind, dueAt));
};

const breachEvent = (
  clocks: Pick<Clocks, 'companyId' | 'id' | 'queueId' | 'userId'>,
  kind: SlaKind,
  dueAt: Date,
): DomainEvent => ({
  type: 'ticket.sla',
  companyId: clocks.companyId,
  ticketId: clocks.id,
  state: 'breached',
  kind,
  dueAt: dueAt.toISOString(),
  queueId: clocks.queueId,
  userId: clocks.userId,
});

// A promise that stops now: met if on time; missed and not yet told, breached (at its deadline).
const stopped = (
  clocks: Clocks,
  kind: SlaKind,
  dueAt: Date | null,
  breached: boolean,
  now: Date,
): Outcome[] => {
  if (!dueAt || breached) return [];
  const met = now.getTime() <= dueAt.getTime();
  return [{ clocks, kind, dueAt, met, decidedAt: met ? now : dueAt }];
};

const hasPolicy = (clocks: Clocks) =>
  !clocks.isGroup &&
  (clocks.firstMinutes !== null ||
    clocks.nextMinutes !== null ||
    clocks.resolutionMinutes !== null);

export const createSla = (deps: Pick<Deps, 'config'>) => {
  const dueAfter = (clocks: Clocks, from: Date, minutes: number | null) =>
    minutes === null
      ? null
      : addBusinessMinutes(
          from,
          minutes,
          clocks.schedules ?? [],
          clocks.timeZone ?? deps.config.timeZone,
        );

  // ticket.changed: a conversation starting, entering another queue, or resolved.
  const onTicketChanges = async (
    tx: Db,
    events: EventOf<'ticket.changed'>[],
    raise: Raise,
  ): Promise<void> => {
    // Per ticket, the change of the whole transaction: as it was before the first event, as it is
    // after the last.
    const spans = new Map<
      number,
      { before: EventOf<'ticket.changed'>['before']; after: EventOf<'ticket.changed'>['after'] }
    >();
    for (const event of events) {
      const span = spans.get(event.ticketId);
      spans.set(event.ticketId, { before: span ? span.before : event.before, after: event.after });
    }
    const moved = [...spans].filter(([, { before, after }]) => {
      if (after.status === 'closed') return before !== null && before.status !== 'closed';
      // A new conversation outside any queue has no clock to start (the last one stopped at its end).
      if (!before || before.status === 'closed') return after.queueId !== null;
      return before.queueId !== after.queueId;
    });
    if (!moved.length) return;
    const now = new Date();
    const outcomes: Outcome[] = [];
    const written: Written[] = [];
    for (const clocks of await readClocks(
      tx,
      moved.map(([id]) => id),
    )) {
      const { before, after } = spans.get(clocks.id)!;
      const running = clocks.startedAt !== null;
      if (after.status === 'closed') {
        if (!running) continue;
        outcomes.push(
          ...stopped(clocks, 'resolution', clocks.resolveDue, clocks.resolveBreached, now),
          // Unanswered at the end: only a deadline already passed counts (as missed).
          ...[
            ['firstResponse', clocks.firstDue, clocks.firstBreached] as const,
            ['nextResponse', clocks.nextDue, clocks.nextBreached] as const,
          ].flatMap(([kind, dueAt, breached]) =>
            dueAt && dueAt.getTime() < now.getTime()
              ? stopped(clocks, kind, dueAt, breached, now)
              : [],
          ),
        );
        written.push({ id: clocks.id, ...STOPPED });
        continue;
      }
      const starts = !before || before.status === 'closed';
      if (!hasPolicy(clocks)) {
        // A queue without a policy: no clock runs there.
        if (running) written.push({ id: clocks.id, ...STOPPED });
        continue;
      }
      // Into a queue with a policy: its targets, counted from when the conversation's clocks
      // started (now, for a new conversation); a next answer already owed keeps its deadline.
      const startedAt = starts || !running ? now : clocks.startedAt!;
      const answered = starts ? false : clocks.answered;
      const firstDue = answered ? null : dueAfter(clocks, startedAt, clocks.firstMinutes);
      const resolveDue = dueAfter(clocks, startedAt, clocks.resolutionMinutes);
      const nextDue = answered && clocks.nextMinutes !== null ? clocks.nextDue : null;
      written.push({
        id: clocks.id,
        startedAt,
        answered,
        firstDue,
        nextDue,
        resolveDue,
        firstBreached:
          !starts && firstDue?.getTime() === clocks.firstDue?.getTime() && clocks.firstBreached,
        nextBreached: !starts && nextDue !== null && clocks.nextBreached,
        resolveBreached:
          !starts &&
          resolveDue?.getTime() === clocks.resolveDue?.getTime() &&
          clocks.resolveBreached,
      });
    }
    await decide(tx, raise, outcomes);
    await writeClocks(tx, written);
  };

  // message.created: a person's answer stops the answer clocks; the contact writing again after
  // one starts the next-answer clock.
  const onMessages = async (
    tx: Db,
    events: EventOf<'message.created'>[],
    raise: Raise,
  ): Promise<void> => {
    const answeredIds = new Set<number>();
    const waitingIds = new Set<number>();
    for (const event of events) {
      if (event.author === 'agent' || event.author === 'phone') answeredIds.add(event.ticketId);
      else if (event.author === 'contact' && event.ticket?.queueId !== null)
        waitingIds.add(event.ticketId);
    }
    if (!answeredIds.size && !waitingIds.size) return;
    const now = new Date();
    const outcomes: Outcome[] = [];
    const written: Written[] = [];
    // Only tickets whose clocks run.
    for (const clocks of await readClocks(tx, [...answeredIds, ...waitingIds], { running: true })) {
      if (answeredIds.has(clocks.id)) {
        // Answered: whatever the contact wrote in the same moment waits for the next answer.
        outcomes.push(
          ...stopped(clocks, 'firstResponse', clocks.firstDue, clocks.firstBreached, now),
          ...stopped(clocks, 'nextResponse', clocks.nextDue, clocks.nextBreached, now),
        );
        written.push({
          ...clocks,
          answered: true,
          firstDue: null,
          nextDue: null,
          firstBreached: false,
          nextBreached: false,
        });
      } else if (clocks.answered && clocks.nextDue === null && clocks.nextMinutes !== null) {
        written.push({
          ...clocks,
          nextDue: dueAfter(clocks, now, clocks.nextMinutes),
          nextBreached: false,
        });
      }
    }
    await decide(tx, raise, outcomes);
    await writeClocks(tx, written);
  };

  return { onTicketChanges, onMessages };
};

export const SLA_WATCH_JOB = 'sla-watch';
const WATCH_BATCH = 500;

type Watched = {
  id: number;
  company_id: number;
  queue_id: number | null;
  user_id: number | null;
  due: string | Date;
  first_due: string | Date | null;
  next_due: string | Date | null;
  resolve_due: string | Date | null;
  first_new: boolean;
  next_new: boolean;
  resolve_new: boolean;
};

const dateOf = (value: string | Date) => new Date(value);

// Which promise a deadline is.
const kindOf = (row: Watched): SlaKind => {
  const due = dateOf(row.due).getTime();
  if (row.first_due && dateOf(row.first_due).getTime() === due) return 'firstResponse';
  if (row.next_due && dateOf(row.next_due).getTime() === due) return 'nextResponse';
  return 'resolution';
};

// The recurring watch: deadlines passed become breaches (each once: written down and raised), and
// deadlines within their queue's warning minutes are warned of (once per deadline). Each batch in a
// transaction of its own, rows locked by another change skipped until the next pass.
export const watchSla = async (deps: Deps, now: Date) => {
  const at = sqlTime(now);
  for (;;) {
    const breached = await deps.events.transaction(deps.db, async (tx, raise) => {
      const rows = await queryRows<Watched>(
        tx,
        sql`with due as (
              select id, sla_first_due_at <= ${at} and not sla_first_breached as first_new,
                     sla_next_due_at <= ${at} and not sla_next_breached as next_new,
                     sla_resolve_due_at <= ${at} and not sla_resolve_breached as resolve_new
                from ${tickets}
               where sla_due_at <= ${at}
                 and ((sla_first_due_at <= ${at} and not sla_first_breached)
                   or (sla_next_due_at <= ${at} and not sla_next_breached)
                   or (sla_resolve_due_at <= ${at} and not sla_resolve_breached))
               order by sla_due_at
               limit ${WATCH_BATCH}
               for update skip locked)
            update ${tickets} t
               set sla_first_breached = t.sla_first_breached or coalesce(due.first_new, false),
                   sla_next_breached = t.sla_next_breached or coalesce(due.next_new, false),
                   sla_resolve_breached = t.sla_resolve_breached or coalesce(due.resolve_new, false)
              from due
             where t.id = due.id
         returning t.id, t.company_id, t.queue_id, t.user_id, t.sla_due_at as due,
                   t.sla_first_due_at as first_due, t.sla_next_due_at as next_due,
                   t.sla_resolve_due_at as resolve_due, coalesce(due.first_new, false) as first_new,
                   coalesce(due.next_new, false) as next_new,
                   coalesce(due.resolve_new, false) as resolve_new`,
      );
      const missed = rows.flatMap((row) =>
        (
          [
            ['firstResponse', row.first_new, row.first_due],
            ['nextResponse', row.next_new, row.next_due],
            ['resolution', row.resolve_new, row.resolve_due],
          ] as const
        )
          .filter(([, isNew, dueAt]) => isNew && dueAt)
          .map(([kind, , dueAt]) => ({ row, kind, dueAt: dateOf(dueAt!) })),
      );
      if (missed.length)
        await tx.insert(slaOutcomes).values(
          missed.map(({ row, kind, dueAt }) => ({
            companyId: row.company_id,
            ticketId: row.id,
            queueId: row.queue_id,
            userId: row.user_id,
            kind,
            dueAt,
            met: false,
            decidedAt: dueAt,
          })),
        );
      for (const { row, kind, dueAt } of missed)
        raise(
          breachEvent(
            { companyId: row.company_id, id: row.id, queueId: row.queue_id, userId: row.user_id },
            kind,
            dueAt,
          ),
        );
      return rows.length;
    });
    if (breached < WATCH_BATCH) break;
  }
  // Warnings: the nearest deadline, once, when it comes within its queue's warning minutes.
  await deps.events.transaction(deps.db, async (tx, raise) => {
    const rows = await queryRows<Watched>(
      tx,
      sql`with near as (
            select t.id from ${tickets} t join ${queues} q on q.id = t.queue_id
             where t.sla_due_at > ${at} and t.sla_due_at <= ${at} + interval '1 day'
               and t.sla_due_at <= ${at} + make_interval(mins => q.sla_warning_minutes)
               and t.sla_warned_due is distinct from t.sla_due_at
             order by t.sla_due_at
             limit ${WATCH_BATCH}
             for update of t skip locked)
          update ${tickets} t set sla_warned_due = t.sla_due_at
            from near where t.id = near.id
       returning t.id, t.company_id, t.queue_id, t.user_id, t.sla_due_at as due,
                 t.sla_first_due_at as first_due, t.sla_next_due_at as next_due,
                 t.sla_resolve_due_at as resolve_due`,
    );
    for (const row of rows)
      raise({
        type: 'ticket.sla',
        companyId: row.company_id,
        ticketId: row.id,
        state: 'warning',
        kind: kindOf(row),
        dueAt: dateOf(row.due).toISOString(),
        queueId: row.queue_id,
        userId: row.user_id,
      });
  });
};

// The agent holding the conversation hears of its SLA (or, while nobody holds it, the queue's
// members), on their own sockets: company-{id}-sla.
export const notifySla =
  (deps: Pick<AppDeps, 'db' | 'realtime'>) => async (event: EventOf<'ticket.sla'>) => {
    const [ticket] = await deps.db
      .select({ contactName: contacts.name, status: tickets.status })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(eq(tickets.id, event.ticketId));
    if (!ticket || ticket.status === 'closed') return;
    const payload = {
      action: event.state,
      ticketId: event.ticketId,
      kind: event.kind,
      dueAt: event.dueAt,
      contactName: ticket.contactName,
    };
    if (event.userId) deps.realtime.toUser(event.companyId, event.userId).emit('sla', payload);
    else if (event.queueId)
      deps.realtime.toRoom(event.companyId, `queue-${event.queueId}`).emit('sla', payload);
  };
