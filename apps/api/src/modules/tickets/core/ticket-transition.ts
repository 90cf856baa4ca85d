import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { TicketUpdateInput } from '@atendi/shared';
import { queryRows, type Db } from '../../../db/client';
import { arrayParam, columnNameOf, rowMapper } from '../../../db/rows';
import { tickets } from '../../../db/schema';
import type { TicketDetail } from '@atendi/shared';
import type { DomainEvent } from '../../../events/domain-events';
import { snapshotOf, ticketChanged, ticketUpdated } from './ticket-events';

// A ticket's lifecycle (status, holder, queue, connection, AI agent, integration) is written here
// only: the rules that decide each move are pure functions below, and writeTransition applies one to
// the row and raises its ticket.changed. Who moves it: a person (PUT /tickets/{id}: accept, return,
// resolve, reopen, transfer), the AI agent or an integration letting go (handOverFromAgent,
// handOverFromIntegration), the timers (timedTransfer, closeInactive) and the queue bot (its routing).

type TicketRow = typeof tickets.$inferSelect;

type TransitionActor = { userId: number; seesAll: boolean };

type TransitionPlan =
  // Already as asked (a retry, a double click, a second tab): nothing is written or sent.
  | { kind: 'unchanged' }
  // Someone else holds the conversation the caller meant to take: 409 naming them.
  | { kind: 'taken'; holderId: number }
  | { kind: 'forbidden' }
  | { kind: 'change'; next: Partial<TicketRow> };

const sameValue = (a: unknown, b: unknown) =>
  a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;

// Decides what PUT /tickets/{id} does to the ticket as it is now (read under a row lock).
// Accept, return, resolve and reopen send a status: they act on the state the caller saw, so asking
// for "open" when someone else already holds the conversation is a conflict, never a takeover. An
// accept that names the caller (what SPEC clients send) is still an accept. A transfer names another
// target (or none) and is a deliberate move.
export const planTicketUpdate = (
  current: TicketRow,
  input: TicketUpdateInput,
  actor: TransitionActor,
): TransitionPlan => {
  const heldByOther =
    current.status === 'open' && current.userId !== null && current.userId !== actor.userId;
  const isAccept =
    input.status === 'open' && (input.userId === undefined || input.userId === actor.userId);
  if (isAccept && heldByOther) return { kind: 'taken', holderId: current.userId! };
  // Someone else's conversation is theirs: only profiles that see every ticket may move it.
  if (heldByOther && !actor.seesAll) return { kind: 'forbidden' };

  const next: Partial<TicketRow> = {};
  if (input.queueId !== undefined) next.queueId = input.queueId;
  if (input.whatsappId !== undefined) next.whatsappId = input.whatsappId;
  if (input.useIntegration !== undefined) next.useIntegration = input.useIntegration;
  if (input.promptId !== undefined) next.promptId = input.promptId;
  if (input.integrationId !== undefined) next.integrationId = input.integrationId;
  let status = input.status ?? current.status;
  let userId = input.userId !== undefined ? input.userId : current.userId;
  // A transfer to a person (no status given) hands them the conversation.
  if (input.status === undefined && typeof input.userId === 'number') status = 'open';
  if (status === 'open') {
    // Accept and reopen take the ticket for the caller unless it names someone.
    if (current.status !== 'open' && input.userId === undefined) userId = actor.userId;
    // SPEC §4 Transfer: to nobody means back to waiting.
    if (userId === null) status = 'pending';
  }
  if (status === 'pending') userId = null;
  if (status === 'closed') {
    userId = userId ?? actor.userId;
    // Closing ends bots and AI on the ticket.
    next.useIntegration = false;
    next.integrationId = null;
    next.promptId = null;
  }
  next.status = status;
  next.userId = userId;
  if (status === 'open' && current.status !== 'open') next.unreadMessages = 0;
  // Someone serves it now: the bot and the AI agent step aside. Reopened: a pending rating question
  // is void.
  if (userId) {
    next.chatbot = false;
    if (input.promptId === undefined) next.promptId = null;
  }
  if (status !== 'closed') next.ratingAt = null;
  // Moved by a person: no longer a routed conversation waiting for its agent's first word.
  if (status !== current.status || userId !== current.userId) next.routedAt = null;

  const changes = Object.entries(next).filter(
    ([key, value]) => !sameValue(current[key as keyof TicketRow], value),
  );
  if (!changes.length) return { kind: 'unchanged' };
  return { kind: 'change', next: Object.fromEntries(changes) as Partial<TicketRow> };
};

// The AI agent hands the conversation to a person: it waits in `queueId` without an agent.
export const handOverFromAgent = (queueId: number | null): Partial<TicketRow> => ({
  promptId: null,
  chatbot: false,
  queueId,
});

// An integration lets go of the ticket: it waits for a person (in `queueId` when it names one), or
// it is closed.
export const handOverFromIntegration = (leave: {
  close?: boolean;
  queueId?: number;
}): Partial<TicketRow> => ({
  useIntegration: false,
  integrationId: null,
  chatbot: false,
  ...(leave.close ? { status: 'closed' as const } : {}),
  ...(!leave.close && leave.queueId ? { queueId: leave.queueId } : {}),
});

// timeToTransfer: a waiting ticket nobody took moves to the connection's transfer queue.
export const timedTransfer = (queueId: number, now: Date): Partial<TicketRow> => ({
  queueId,
  chatbot: false,
  queueOptionId: null,
  updatedAt: now,
});

// expiresTicket: an open conversation without activity is closed, bots and AI with it.
export const closeInactive = (now: Date): Partial<TicketRow> => ({
  status: 'closed',
  useIntegration: false,
  integrationId: null,
  promptId: null,
  chatbot: false,
  updatedAt: now,
});

// The bot letting go of a ticket is a move (automatic assignment may take it then); the bot walking
// the contact through its menus is a detail of the view (ticket.updated 'bot'), as every menu is.
const lifecycleMoved = (before: TicketRow, after: TicketRow) => {
  const [was, is] = [snapshotOf(before), snapshotOf(after)];
  if (was.chatbot && !is.chatbot) return true;
  return (Object.keys(is) as (keyof typeof is)[]).some(
    (key) => key !== 'chatbot' && was[key] !== is[key],
  );
};

// What a written move tells: ticket.changed when the lifecycle moved, else ticket.updated with the
// detail when one is given.
const raiseMove = (
  raise: (event: DomainEvent) => void,
  before: TicketRow,
  after: TicketRow,
  move: { byUserId: number | null; byMessageId?: number; detail?: TicketDetail; routed?: boolean },
) => {
  if (lifecycleMoved(before, after))
    raise(ticketChanged(before, after, move.byUserId, move.byMessageId, move.routed));
  else if (move.detail) raise(ticketUpdated(after, move.detail));
};

// Applies `change` to the ticket `before` (read under its row lock, or re-checked by `still`, the
// rule's condition on the row as it is now), in the caller's transaction. A move of its lifecycle
// raises ticket.changed; any other change raises ticket.updated with `detail` when given (what the
// screens show changed). Undefined when `still` no longer holds (a message arrived, another node or
// person got there first).
export const writeTransition = async (
  tx: Db,
  raise: (event: DomainEvent) => void,
  before: TicketRow,
  change: PgUpdateSetSource<typeof tickets>,
  options: { byUserId: number | null; byMessageId?: number; still?: SQL; detail?: TicketDetail },
): Promise<TicketRow | undefined> => {
  const [after] = await tx
    .update(tickets)
    .set(change)
    .where(and(eq(tickets.id, before.id), options.still))
    .returning();
  if (after) raiseMove(raise, before, after, options);
  return after;
};

// One move of a set (writeTransitions): plain values to write, and numbers to add to a counter.
type TransitionMove = {
  before: TicketRow;
  change: Partial<TicketRow>;
  add?: Partial<Pick<TicketRow, 'amountUsedBotQueues'>>;
  byMessageId?: number;
  detail?: TicketDetail;
};

const ticketColumns = getTableColumns(tickets) as Record<string, PgColumn>;
const ticketRow = rowMapper(tickets);

// writeTransition for a set of tickets at once (the queue bot's replies to a batch of messages): one
// UPDATE for all of them, each move applied only while `still` holds on its row, with the same events.
// A column one move sets and another does not is written from a flag per row. Answers each move's
// ticket as written, or undefined where `still` no longer held.
export const writeTransitions = async (
  tx: Db,
  raise: (event: DomainEvent) => void,
  moves: TransitionMove[],
  // routed: automatic assignment's moves (their events name the agent it chose).
  options: { byUserId: number | null; still?: SQL; routed?: boolean },
): Promise<(TicketRow | undefined)[]> => {
  if (!moves.length) return [];
  if (new Set(moves.map((m) => m.before.id)).size < moves.length)
    throw new Error('writeTransitions: one move per ticket');
  const arrays: SQL[] = [sql`${arrayParam(moves.map((m) => m.before.id))}::int[]`];
  const names = ['id'];
  const sets: SQL[] = [];
  const valueOf = (change: Record<string, unknown>, key: string, column: PgColumn) => {
    const value = change[key];
    return value === null || value === undefined ? null : column.mapToDriverValue(value);
  };
  const keys = (pick: (m: TransitionMove) => object | undefined) => [
    ...new Set(moves.flatMap((m) => Object.keys(pick(m) ?? {}))),
  ];
  keys((m) => m.change).forEach((key, i) => {
    const column = ticketColumns[key];
    if (!column) throw new Error(`tickets has no column ${key}`);
    const type = column.getSQLType();
    const name = sql.identifier(columnNameOf(key, column));
    const changes = moves.map((m) => m.change as Record<string, unknown>);
    arrays.push(
      sql`${arrayParam(changes.map((c) => key in c))}::boolean[]`,
      sql`${arrayParam(changes.map((c) => valueOf(c, key, column)))}::${sql.raw(type)}[]`,
    );
    names.push(`h${i}`, `v${i}`);
    sets.push(
      sql`${name} = case when v.${sql.raw(`h${i}`)} then v.${sql.raw(`v${i}`)} else ${tickets}.${name} end`,
    );
  });
  keys((m) => m.add).forEach((key, i) => {
    const name = sql.identifier(columnNameOf(key, ticketColumns[key]));
    arrays.push(
      sql`${arrayParam(moves.map((m) => (m.add as Record<string, number> | undefined)?.[key] ?? 0))}::int[]`,
    );
    names.push(`a${i}`);
    sets.push(sql`${name} = ${tickets}.${name} + v.${sql.raw(`a${i}`)}`);
  });
  // Nothing to write: the rows are still locked and checked, as an empty move of writeTransition.
  if (!sets.length) sets.push(sql`id = ${tickets}.id`);
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`update ${tickets} set ${sql.join(sets, sql`, `)}
          from unnest(${sql.join(arrays, sql`, `)}) as v(${sql.raw(names.join(', '))})
         where ${tickets.id} = v.id${options.still ? sql` and ${options.still}` : sql``}
        returning ${tickets}.*`,
  );
  const written = new Map(rows.map((raw) => [Number(raw.id), ticketRow(raw)]));
  return moves.map((move) => {
    const after = written.get(move.before.id);
    if (after)
      raiseMove(raise, move.before, after, {
        ...move,
        byUserId: options.byUserId,
        routed: options.routed,
      });
    return after;
  });
};
