import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { MessageReactionView } from '@atendi/shared';
import type { Db } from '../../../db/client';
import { contacts, messageReactions, users } from '../../../db/schema';

// Reactions on messages (issue 39). WhatsApp keeps one reaction per account on a message, replaced
// by a new one and taken back with an empty text; reports can arrive late and out of order (a
// redelivered webhook, the echo of our own send), so the newest report by WhatsApp's time wins and an
// older one changes nothing.

type ReactionInput = {
  companyId: number;
  messageId: number;
  fromMe: boolean;
  // The reacting member's or contact's number; ignored for the company's own number.
  sender: string;
  emoji: string;
  // The person of the company who chose it (fromMe from the inbox).
  userId?: number | null;
  reactedAt: Date;
};

// Stores a reaction; answers whether what the message shows changed (a repeated or older report does
// not). One statement, so two reports at once leave the newer.
export const storeReaction = async (db: Db, input: ReactionInput): Promise<boolean> => {
  const r = messageReactions;
  const rows = await db
    .insert(r)
    .values({
      companyId: input.companyId,
      messageId: input.messageId,
      fromMe: input.fromMe,
      sender: input.fromMe ? '' : input.sender,
      emoji: input.emoji,
      userId: input.userId ?? null,
      reactedAt: input.reactedAt,
    })
    .onConflictDoUpdate({
      target: [r.messageId, r.fromMe, r.sender],
      set: {
        emoji: sql`excluded.emoji`,
        userId: sql`excluded.user_id`,
        reactedAt: sql`excluded.reacted_at`,
        updatedAt: new Date(),
      },
      // The echo of the company's own reaction (same emoji) keeps who chose it.
      setWhere: sql`excluded.reacted_at >= ${r.reactedAt} and excluded.emoji <> ${r.emoji}`,
    })
    .returning({ id: r.id });
  return rows.length > 0;
};

// The reactions shown on each of these messages, oldest first. Named by the person who chose the
// company's reaction, or the contact (their number when the company has no contact by it).
export const loadReactions = async (
  db: Db,
  messageIds: number[],
): Promise<Map<number, MessageReactionView[]>> => {
  const byMessage = new Map<number, MessageReactionView[]>();
  if (!messageIds.length) return byMessage;
  const r = messageReactions;
  const rows = await db
    .select({
      messageId: r.messageId,
      emoji: r.emoji,
      fromMe: r.fromMe,
      userName: users.name,
      contactName: contacts.name,
      sender: r.sender,
      at: r.reactedAt,
    })
    .from(r)
    .leftJoin(users, eq(users.id, r.userId))
    .leftJoin(
      contacts,
      and(eq(contacts.companyId, r.companyId), eq(contacts.number, r.sender), eq(r.fromMe, false)),
    )
    .where(and(inArray(r.messageId, messageIds), ne(r.emoji, '')))
    .orderBy(asc(r.reactedAt), asc(r.id));
  for (const row of rows) {
    const list = byMessage.get(row.messageId) ?? [];
    list.push({
      emoji: row.emoji,
      fromMe: row.fromMe,
      name: row.fromMe ? row.userName : row.contactName || row.sender || null,
      at: row.at.toISOString(),
    });
    byMessage.set(row.messageId, list);
  }
  return byMessage;
};
