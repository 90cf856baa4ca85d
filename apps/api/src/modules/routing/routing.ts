import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RoutingMode } from '@atendi/shared';
import { queryRows, type Db } from '../../db/client';
import { ROUTING_LOCK_CLASS } from '../../db/locks';
import { arrayParam, rowMapper } from '../../db/rows';
import { tickets } from '../../db/schema';
import type { EventOf } from '../../events/domain-events';
import { enqueueJobsFrom, jobQueue } from '../../jobs/queue';
import type { AppDeps } from '../../deps';
import { getSettingValue } from '../settings';
import { addBotNote, messageCreated, queueTransitionMessages, writeTransitions } from '../tickets';

// Automatic assignment (issue 36): a queue whose `routing` is not 'off' hands its waiting
// conversations to its online agents with room under their limit (`users.max_tickets`, open
// conversations of any queue) and under their limit in that queue if any (`user_queues.max_tickets`):
// in turn ('round_robin': the agent of the queue given one longest ago)
// or to the one with the fewest open ('balanced'), oldest conversation first.
//
// A pass runs as a job of `routing.assign`, one per company at a time (its ref; work asked for while
// one runs makes it run again), under a transaction lock per company besides, so two passes never
// count the same room. It is asked for in the transaction of whatever may give it something to do: a
// conversation that waits in such a queue (the queue bot, an AI agent or an integration let go of it,
// a transfer, a return), an agent's conversation that ends or leaves them, an agent coming online,
// a queue's routing or an agent's limit or queues changed. Assignment is an accept on the agent's
// behalf: the same transition (only while the ticket still waits unheld), the same greeting and
// events, and the agent's screens are told it was routed to them.

export const routingQueue = jobQueue(
  'routing.assign',
  z.object({ companyId: z.number().int().positive() }),
);

// How many conversations one transaction of a pass assigns; a pass goes on while they fill.
const BATCH = 50;

type TicketRow = typeof tickets.$inferSelect;
const ticketRow = rowMapper(tickets);

// Asks for a pass over each company that has a queue with routing on, in the caller's transaction
// (one statement; a company without one costs nothing more).
const requestRouting = async (tx: Db, companyIds: number[]) => {
  const ids = [...new Set(companyIds)];
  if (!ids.length) return;
  await enqueueJobsFrom(
    tx,
    routingQueue,
    {
      from: sql`from unnest(${arrayParam(ids)}::int[]) as c(id)
                where exists (select 1 from queues q where q.company_id = c.id and q.routing <> 'off')`,
      payload: sql`jsonb_build_object('companyId', c.id)`,
      ref: sql`'routing:' || c.id`,
      companyId: sql`c.id`,
    },
    { againIfRunning: true },
  );
};

// After a change outside a ticket's transaction that may make room or candidates (a queue's routing,
// an agent's limit or queues): a pass, now.
export const routeSoon = async (deps: Pick<AppDeps, 'db' | 'jobs'>, companyId: number) => {
  await requestRouting(deps.db, [companyId]);
  deps.jobs.kick(routingQueue.name);
};

// A ticket that automatic assignment may give to someone: waiting, in a queue, held by no bot.
const waitsForAgent = (t: NonNullable<EventOf<'ticket.changed'>['before']>) =>
  t.status === 'pending' &&
  t.userId === null &&
  t.queueId !== null &&
  t.promptId === null &&
  t.integrationId === null &&
  !t.chatbot;

// The ticket changes of a transaction that may give a pass something to do (a set recorder).
export const routeTicketChanges = async (tx: Db, events: EventOf<'ticket.changed'>[]) => {
  const companies = events
    .filter(({ before, after }) => {
      if (
        waitsForAgent(after) &&
        !(before && waitsForAgent(before) && before.queueId === after.queueId)
      )
        return true;
      // An agent's conversation ended or left them: they have room.
      return (
        before?.status === 'open' &&
        before.userId !== null &&
        (after.status !== 'open' || after.userId !== before.userId)
      );
    })
    .map((event) => event.companyId);
  if (companies.length) {
    await requestRouting(tx, companies);
    return routingQueue.name;
  }
};

// A reply typed on the connected phone is the agent's answer too: a routed conversation it answers is
// no longer waiting for them (the inbox's own sends clear routed_at as they move the list row).
export const answeredOnPhone = async (tx: Db, events: EventOf<'message.created'>[]) => {
  const ids = events.filter((event) => event.author === 'phone').map((event) => event.ticketId);
  if (!ids.length) return;
  await tx
    .update(tickets)
    .set({ routedAt: null })
    .where(and(inArray(tickets.id, ids), isNotNull(tickets.routedAt)));
};

// An agent who comes online may take conversations.
export const routeOnPresence = async (tx: Db, event: EventOf<'user.presence'>) => {
  if (event.after !== 'online') return;
  await requestRouting(tx, [event.companyId]);
  return routingQueue.name;
};

type Candidate = {
  queueId: number;
  routing: RoutingMode;
  userId: number;
  maxTickets: number | null;
  // When they were last given one of this queue (ms), null: never.
  lastAssignedMs: number | null;
  open: number;
  // Their limit in this queue (null: none of its own), and their open conversations of it.
  queueMaxTickets: number | null;
  queueOpen: number;
};

const keyOf = (c: Pick<Candidate, 'queueId' | 'userId'>) => `${c.queueId}:${c.userId}`;
// Room under their overall limit and under this queue's.
const roomFor = (c: Candidate, open: number, queueOpen: number) =>
  (c.maxTickets === null || open < c.maxTickets) &&
  (c.queueMaxTickets === null || queueOpen < c.queueMaxTickets);

type Assignment = { ticket: TicketRow; userId: number; at: Date };

// Picks, for each waiting ticket (oldest first), the agent its queue's mode chooses among those with
// room, counting each pick before the next.
export const planAssignments = (waiting: TicketRow[], candidates: Candidate[], now: Date) => {
  const open = new Map<number, number>();
  const queueOpen = new Map<string, number>();
  const turns = new Map<string, number>();
  for (const c of candidates) {
    open.set(c.userId, c.open);
    queueOpen.set(keyOf(c), c.queueOpen);
    turns.set(keyOf(c), c.lastAssignedMs ?? 0);
  }
  const hasRoom = (c: Candidate) => roomFor(c, open.get(c.userId)!, queueOpen.get(keyOf(c))!);
  const assignments: Assignment[] = [];
  let tick = now.getTime();
  for (const ticket of waiting) {
    // Not back to the agent it was taken from for not answering.
    const ofQueue = candidates.filter(
      (c) => c.queueId === ticket.queueId && c.userId !== ticket.unansweredBy && hasRoom(c),
    );
    if (!ofQueue.length) continue;
    const turnOf = (c: Candidate) => turns.get(keyOf(c))!;
    const [chosen] = ofQueue.sort((a, b) =>
      a.routing === 'balanced'
        ? open.get(a.userId)! - open.get(b.userId)! || turnOf(a) - turnOf(b) || a.userId - b.userId
        : turnOf(a) - turnOf(b) || a.userId - b.userId,
    );
    // Each pick a millisecond after the last, so the next turn goes to someone else.
    const at = new Date(tick++);
    open.set(chosen.userId, open.get(chosen.userId)! + 1);
    queueOpen.set(keyOf(chosen), queueOpen.get(keyOf(chosen))! + 1);
    turns.set(keyOf(chosen), at.getTime());
    assignments.push({ ticket, userId: chosen.userId, at });
  }
  return assignments;
};

type RoutingDeps = Pick<AppDeps, 'db' | 'events' | 'config' | 'ticketMessages' | 'outbox'>;

// One transaction of a pass: up to BATCH waiting tickets given to agents with room. Answers how many.
const assignSome = async (deps: RoutingDeps, companyId: number) => {
  const sent = await deps.events.transaction(deps.db, async (tx, raise) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ROUTING_LOCK_CLASS}, ${companyId})`);
    const candidates = await queryRows<Candidate>(
      tx,
      sql`select uq.queue_id as "queueId", q.routing, u.id as "userId", u.max_tickets as "maxTickets",
                 (extract(epoch from uq.last_assigned_at) * 1000)::float8 as "lastAssignedMs",
                 (select count(*)::int from tickets t
                   where t.company_id = ${companyId} and t.user_id = u.id and t.status = 'open') as open,
                 uq.max_tickets as "queueMaxTickets",
                 (select count(*)::int from tickets t
                   where t.company_id = ${companyId} and t.user_id = u.id and t.status = 'open'
                     and t.queue_id = uq.queue_id) as "queueOpen"
            from user_queues uq
            join queues q on q.id = uq.queue_id and q.routing <> 'off'
            join users u on u.id = uq.user_id and u.presence = 'online' and u.company_id = ${companyId}
           where uq.company_id = ${companyId}`,
    );
    const roomy = candidates.filter((c) => roomFor(c, c.open, c.queueOpen));
    if (!roomy.length) return { assigned: 0, skipped: false, messages: [] };
    const queueIds = [...new Set(roomy.map((c) => c.queueId))];
    const waits = sql`company_id = ${companyId} and status = 'pending' and user_id is null
               and queue_id = any(${arrayParam(queueIds)}::int[])
               and prompt_id is null and not use_integration and not chatbot`;
    // Tickets another transaction holds (an inbound batch storing their messages) are skipped rather
    // than waited for: the two lock them in different orders, and waiting could deadlock.
    const waiting = (
      await queryRows<Record<string, unknown>>(
        tx,
        sql`select * from tickets where ${waits}
             order by created_at, id
             limit ${BATCH}
             for update skip locked`,
      )
    ).map(ticketRow);
    const skipped =
      waiting.length < BATCH &&
      (
        await queryRows<{ held: boolean }>(
          tx,
          sql`select exists (select 1 from tickets where ${waits}
                               and id <> all(${arrayParam(waiting.map((t) => t.id))}::int[])) as held`,
        )
      )[0].held;
    const now = new Date();
    const assignments = planAssignments(waiting, candidates, now);
    if (!assignments.length) return { assigned: 0, skipped, messages: [] };
    const written = await writeTransitions(
      tx,
      raise,
      assignments.map(({ ticket, userId }) => ({
        before: ticket,
        change: {
          status: 'open' as const,
          userId,
          chatbot: false,
          promptId: null,
          ratingAt: null,
          routedAt: now,
          unansweredBy: null,
          updatedAt: now,
        },
      })),
      {
        byUserId: null,
        routed: true,
        // Still waiting for a person, as the pass read it under its lock.
        still: sql`${tickets.status} = 'pending' and ${tickets.userId} is null`,
      },
    );
    const done = assignments.flatMap((assignment, i) =>
      written[i] ? [{ ...assignment, after: written[i] }] : [],
    );
    if (done.length)
      await tx.execute(
        sql`update user_queues uq set last_assigned_at = v.at
              from unnest(${arrayParam(done.map((d) => d.userId))}::int[],
                          ${arrayParam(done.map((d) => d.ticket.queueId))}::int[],
                          ${arrayParam(done.map((d) => d.at.toISOString()))}::timestamptz[])
                   as v(user_id, queue_id, at)
             where uq.user_id = v.user_id and uq.queue_id = v.queue_id`,
      );
    const messages = [];
    // An accept tells the contact nothing but the greeting this setting asks for: read once per pass
    // transaction, not once per ticket.
    const greets = (await getSettingValue(tx, companyId, 'sendGreetingAccepted')) === 'enabled';
    for (const { ticket, userId, after } of greets ? done : []) {
      const greeting = await queueTransitionMessages(tx, deps, userId, ticket, after);
      greeting.forEach((message) => raise(messageCreated(message, 'platform')));
      messages.push(...greeting);
    }
    return { assigned: done.length, skipped, messages };
  });
  if (sent.messages.length) deps.outbox.kick();
  return sent;
};

const SKIPPED_RETRIES = 20;
const SKIPPED_WAIT_MS = 50;

// A pass over a company: batches while they assign (each reads who has room anew, so a queue whose
// agents filled up no longer holds back the others' tickets); tickets that were held elsewhere are
// tried again a moment later, for about a second, then by another pass (this job runs again).
const routeCompany = async (deps: RoutingDeps, companyId: number) => {
  for (let tries = 0; ;) {
    const { assigned, skipped } = await assignSome(deps, companyId);
    if (assigned > 0) continue;
    if (!skipped) return;
    if ((tries += 1) > SKIPPED_RETRIES) return requestRouting(deps.db, [companyId]);
    await new Promise((resolve) => setTimeout(resolve, SKIPPED_WAIT_MS));
  }
};

export const REASSIGN_JOB = 'routing-reassign';

// Reassignment when the agent does not answer (a queue's reassignMinutes): a routed conversation whose
// agent has written nothing since it was given to them goes back to waiting, with a note saying why;
// the pass its ticket.changed asks for gives it to the queue's next candidate (never the same agent),
// or it waits. Each is taken back by a conditional UPDATE that checks the rule again, so the agent's
// answer or another node's sweep meanwhile wins cleanly.
const reassignSome = async (deps: RoutingDeps, now: Date) => {
  const due = (
    await queryRows<Record<string, unknown>>(
      deps.db,
      sql`select t.*, q.reassign_minutes as "reassignMinutes", u.name as "agentName"
            from tickets t
            join queues q on q.id = t.queue_id and q.reassign_minutes is not null
            join users u on u.id = t.user_id
           where t.routed_at is not null and t.status = 'open'
             and t.routed_at <= ${now.toISOString()}::timestamptz - q.reassign_minutes * interval '1 minute'
           order by t.routed_at
           limit ${BATCH}`,
    )
  ).map((raw) => ({
    ticket: ticketRow(raw),
    minutes: Number(raw.reassignMinutes),
    agentName: String(raw.agentName),
  }));
  for (const { ticket, minutes, agentName } of due)
    await deps.events.transaction(deps.db, async (tx, raise) => {
      const [taken] = await writeTransitions(
        tx,
        raise,
        [
          {
            before: ticket,
            change: {
              status: 'pending',
              userId: null,
              routedAt: null,
              unansweredBy: ticket.userId,
              updatedAt: now,
            },
          },
        ],
        {
          byUserId: null,
          // Still theirs and still unanswered since the same assignment.
          still: sql`${tickets.status} = 'open' and ${tickets.userId} = ${ticket.userId}
                     and ${tickets.routedAt} = ${ticket.routedAt!.toISOString()}::timestamptz`,
        },
      );
      if (taken)
        await addBotNote(
          tx,
          raise,
          ticket,
          'Asignación automática',
          `${agentName} no respondió en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}: la conversación vuelve a la cola.`,
        );
    });
  return due.length;
};

export const reassignUnanswered = async (deps: RoutingDeps, now: Date) => {
  for (let round = 0; round < 50 && (await reassignSome(deps, now)) === BATCH; round += 1);
};

export const routingWorker = (deps: RoutingDeps) => ({
  handle: async (job: { payload: { companyId: number } }) =>
    routeCompany(deps, job.payload.companyId),
});
