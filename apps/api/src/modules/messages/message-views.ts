import { inArray } from 'drizzle-orm';
import type { ChatMessageView, MessageView } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { messages } from '../../db/schema';
import type { Uploads } from '../../platform/uploads';
import { loadTicketViews, roomsOf, type TicketView } from '../tickets/tickets.service';
import { failedSends } from './sends';

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads'>;
export type MessageRow = typeof messages.$inferSelect;

// What the API answers and emits for a message (SPEC §3 Message). Media links are signed
// (platform/uploads.ts): a browser fetches them without a bearer token.
export const serializeMessage = (
  uploads: Uploads,
  row: MessageRow,
  quoted?: MessageRow | null,
): MessageView => ({
  id: row.id,
  ticketId: row.ticketId,
  contactId: row.contactId,
  body: row.body,
  fromMe: row.fromMe,
  read: row.read,
  mediaType: row.mediaType,
  mediaUrl: uploads.urlFor(row.companyId, row.mediaUrl),
  mediaName: row.mediaName,
  mediaError: row.mediaError,
  quotedMsgId: row.quotedMsgId,
  quotedMsg: quoted ? serializeMessage(uploads, quoted) : null,
  isDeleted: row.isDeleted,
  isEdited: row.isEdited,
  ack: row.ack,
  remoteJid: row.remoteJid,
  scheduled: row.scheduled,
  promptId: row.promptId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

// Serialises rows as a chat shows them (ChatMessageView: SPEC's fields plus a failed send's error),
// with their quoted messages, keeping the order given.
export const viewMessages = async (deps: Deps, rows: MessageRow[]): Promise<ChatMessageView[]> => {
  if (!rows.length) return [];
  const quotedIds = [...new Set(rows.flatMap((r) => (r.quotedMsgId ? [r.quotedMsgId] : [])))];
  const quoted = quotedIds.length
    ? await deps.db.select().from(messages).where(inArray(messages.id, quotedIds))
    : [];
  const quotedById = new Map(quoted.map((q) => [q.id, q]));
  // Only a message of ours that WhatsApp never took (no provider id) can have failed: acks and
  // received messages cost no lookup.
  const failed = await failedSends(
    deps.db,
    rows.filter((r) => r.fromMe && !r.providerId).map((r) => r.id),
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

// company-{id}-appMessage to every screen that shows the message's ticket (the tickets engine's too,
// through deps.ticketMessages).
export const emitMessages = async (
  deps: Deps,
  companyId: number,
  action: 'create' | 'update',
  rows: MessageRow[],
  // The tickets as just loaded, when the caller has them (saves loading them again).
  loaded?: TicketView[],
) => {
  if (!rows.length) return;
  const views = await viewMessages(deps, rows);
  const ticketIds = [...new Set(rows.map((r) => r.ticketId))];
  const ticketViews =
    loaded && ticketIds.every((id) => loaded.some((t) => t.id === id))
      ? loaded
      : await loadTicketViews(deps.db, ticketIds);
  const ticketsById = new Map(ticketViews.map((t) => [t.id, t]));
  for (const message of views) {
    const ticket = ticketsById.get(message.ticketId);
    if (!ticket) continue;
    deps.realtime
      .toRooms(companyId, [...roomsOf(ticket)])
      .emit('appMessage', { action, message, ticket, contact: ticket.contact });
  }
};
