import { inArray } from 'drizzle-orm';
import type { ChatMessageView } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { messages } from '../../db/schema';
import { roomsOf } from '../tickets/tickets.engine';
import { loadTicketViews, serializeMessage } from '../tickets/ticket-views';
import { failedSends } from './sends';

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads'>;
export type MessageRow = typeof messages.$inferSelect;

// Serialises rows as a chat shows them (ChatMessageView: SPEC's fields plus a failed send's error),
// with their quoted messages, keeping the order given.
export const viewMessages = async (deps: Deps, rows: MessageRow[]): Promise<ChatMessageView[]> => {
  if (!rows.length) return [];
  const quotedIds = [...new Set(rows.flatMap((r) => (r.quotedMsgId ? [r.quotedMsgId] : [])))];
  const quoted = quotedIds.length
    ? await deps.db.select().from(messages).where(inArray(messages.id, quotedIds))
    : [];
  const quotedById = new Map(quoted.map((q) => [q.id, q]));
  const failed = await failedSends(
    deps.db,
    rows.filter((r) => r.fromMe).map((r) => r.id),
  );
  return rows.map((row) => ({
    ...serializeMessage(
      deps.uploads,
      row,
      row.quotedMsgId ? quotedById.get(row.quotedMsgId) : null,
    ),
    error: failed.has(row.id) ? 'ERR_SENDING_WAPP_MSG' : null,
  }));
};

// company-{id}-appMessage to every screen that shows the message's ticket (as the tickets engine does).
export const emitMessages = async (
  deps: Deps,
  companyId: number,
  action: 'create' | 'update',
  rows: MessageRow[],
) => {
  if (!rows.length) return;
  const views = await viewMessages(deps, rows);
  const ticketViews = await loadTicketViews(deps.db, [...new Set(rows.map((r) => r.ticketId))]);
  const ticketsById = new Map(ticketViews.map((t) => [t.id, t]));
  for (const message of views) {
    const ticket = ticketsById.get(message.ticketId);
    if (!ticket) continue;
    deps.realtime
      .toRooms(companyId, [...roomsOf(ticket)])
      .emit('appMessage', { action, message, ticket, contact: ticket.contact });
  }
};
