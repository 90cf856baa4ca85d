import { getTableColumns, inArray } from 'drizzle-orm';
import type { ChatMessageView, MessageView } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { messages } from '../../db/schema';
import type { Uploads } from '../../platform/uploads';
import { loadReactions } from '../tickets';
import { failedSends } from './sends';

type Deps = Pick<AppDeps, 'db' | 'uploads'>;
export type MessageRow = typeof messages.$inferSelect;
// What a view is made of: the row without the provider's raw payload.
type ShownMessageRow = Omit<MessageRow, 'dataJson'>;

const { dataJson: _dataJson, ...shownColumns } = getTableColumns(messages);

// The messages as a view needs them, in the order of the ids given (one statement).
export const loadShownMessages = async (db: Db, ids: number[]): Promise<ShownMessageRow[]> => {
  if (!ids.length) return [];
  const rows = await db.select(shownColumns).from(messages).where(inArray(messages.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
};

// What the API answers and emits for a message (SPEC §3 Message). Media links are signed
// (platform/uploads.ts): a browser fetches them without a bearer token.
const serializeMessage = (
  uploads: Uploads,
  row: ShownMessageRow,
  quoted?: ShownMessageRow | null,
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
  transcript: row.isDeleted ? null : row.transcript,
  quotedMsgId: row.quotedMsgId,
  quotedMsg: quoted ? serializeMessage(uploads, quoted) : null,
  isDeleted: row.isDeleted,
  isEdited: row.isEdited,
  isForwarded: row.isForwarded,
  ack: row.ack,
  remoteJid: row.remoteJid,
  scheduled: row.scheduled,
  promptId: row.promptId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

// Serialises rows as a chat shows them (ChatMessageView: SPEC's fields plus a failed send's error
// and the reactions), with their quoted messages, keeping the order given.
// Messages just created (`fresh`: the projector's, the inbound path's) have no reactions yet and
// cost no read for them.
export const viewMessages = async (
  deps: Deps,
  rows: ShownMessageRow[],
  fresh?: ReadonlySet<number>,
): Promise<ChatMessageView[]> => {
  if (!rows.length) return [];
  const quotedIds = [...new Set(rows.flatMap((r) => (r.quotedMsgId ? [r.quotedMsgId] : [])))];
  const quoted = await loadShownMessages(deps.db, quotedIds);
  const quotedById = new Map(quoted.map((q) => [q.id, q]));
  // Only a message of ours that WhatsApp never took (no provider id) can have failed: acks and
  // received messages cost no lookup.
  const [failed, reactions] = await Promise.all([
    failedSends(
      deps.db,
      rows.filter((r) => r.fromMe && !r.providerId).map((r) => r.id),
    ),
    loadReactions(
      deps.db,
      rows.flatMap((r) => (fresh?.has(r.id) ? [] : [r.id])),
    ),
  ]);
  return rows.map((row) => ({
    ...serializeMessage(
      deps.uploads,
      row,
      row.quotedMsgId ? quotedById.get(row.quotedMsgId) : null,
    ),
    error: failed.has(row.id) ? 'ERR_SENDING_WAPP_MSG' : null,
    reactions: reactions.get(row.id) ?? [],
  }));
};
