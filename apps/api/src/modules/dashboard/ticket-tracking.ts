import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ticketTracking } from '../../db/schema';
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
