import type { TicketUpdateInput } from '@atendi/shared';
import type { tickets } from '../../db/schema';

type TicketRow = typeof tickets.$inferSelect;

export type TransitionActor = { userId: number; seesAll: boolean };

export type TransitionPlan =
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

  const changes = Object.entries(next).filter(
    ([key, value]) => !sameValue(current[key as keyof TicketRow], value),
  );
  if (!changes.length) return { kind: 'unchanged' };
  return { kind: 'change', next: Object.fromEntries(changes) as Partial<TicketRow> };
};
