import { companyTimeZone } from '../../../platform/time-zones';
import { sqlTime } from '../../../platform/sql-time';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../../deps';
import { contacts, tickets, whatsapps } from '../../../db/schema';
import { fillVariables } from './bot-texts';
import { closeInactive, timedTransfer, writeTransition } from '../core/ticket-transition';
import { sendAutomatic, transferTexts } from './ticket-automation';

// The timed ticket rules of a connection (SPEC §3 Whatsapp connection), run by the job runner:
// - timeToTransfer: a waiting ticket nobody took within that many minutes of its last activity moves
//   to transferQueueId (with the transfer message when sendMsgTransfTicket is enabled);
// - expiresTicket: an open conversation without activity for that many minutes is closed, with
//   expiresInactiveMessage.
// Each ticket is claimed by a conditional UPDATE that checks the rule again, so a message arriving
// meanwhile, or another node running the same sweep, wins cleanly.

type Deps = Pick<AppDeps, 'db' | 'outbox' | 'config' | 'ticketMessages' | 'events'>;
type TicketRow = typeof tickets.$inferSelect;

const BATCH = 200;

// The connection's setting, read again inside the claiming UPDATE (it may have changed meanwhile).
const ticketMinutes = (column: typeof whatsapps.timeToTransfer | typeof whatsapps.expiresTicket) =>
  sql`(select ${column} from ${whatsapps} where ${whatsapps.id} = ${tickets.whatsappId}) * interval '1 minute'`;

const transferWaiting = async (deps: Deps, now: Date) => {
  const due = await deps.db
    .select({ ticket: tickets, transferQueueId: whatsapps.transferQueueId })
    .from(tickets)
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(
      and(
        eq(tickets.status, 'pending'),
        sql`${tickets.userId} is null`,
        sql`${whatsapps.timeToTransfer} > 0`,
        sql`${whatsapps.transferQueueId} is not null`,
        sql`${tickets.queueId} is distinct from ${whatsapps.transferQueueId}`,
        sql`${tickets.updatedAt} <= ${sqlTime(now)} - ${whatsapps.timeToTransfer} * interval '1 minute'`,
      ),
    )
    .limit(BATCH);
  for (const { ticket, transferQueueId } of due) {
    if (!transferQueueId) continue;
    const moved = await claim(
      deps,
      ticket,
      timedTransfer(transferQueueId, now),
      and(
        eq(tickets.status, 'pending'),
        sql`${tickets.userId} is null`,
        sql`${tickets.updatedAt} <= ${sqlTime(now)} - ${ticketMinutes(whatsapps.timeToTransfer)}`,
      )!,
    );
    if (!moved) continue;
    await sendAutomatic(
      deps,
      moved,
      await transferTexts(deps.db, moved, { queueId: transferQueueId, userId: null }),
    );
  }
  return due.length;
};

const expireInactive = async (deps: Deps, now: Date) => {
  const due = await deps.db
    .select({
      ticket: tickets,
      message: whatsapps.expiresInactiveMessage,
      contactName: contacts.name,
    })
    .from(tickets)
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(
      and(
        eq(tickets.status, 'open'),
        sql`${whatsapps.expiresTicket} > 0`,
        sql`${tickets.updatedAt} <= ${sqlTime(now)} - ${whatsapps.expiresTicket} * interval '1 minute'`,
      ),
    )
    .limit(BATCH);
  for (const { ticket, message, contactName } of due) {
    const closed = await claim(
      deps,
      ticket,
      closeInactive(now),
      and(
        eq(tickets.status, 'open'),
        sql`${tickets.updatedAt} <= ${sqlTime(now)} - ${ticketMinutes(whatsapps.expiresTicket)}`,
      )!,
    );
    if (!closed) continue;
    if (!ticket.isGroup && message.trim())
      await sendAutomatic(deps, closed, [
        fillVariables(message, {
          contactName,
          now,
          timeZone: await companyTimeZone(deps, ticket.companyId),
        }),
      ]);
  }
  return due.length;
};

// The rule's change, applied only while the rule still holds on the row (`still`), with its
// ticket.changed event; undefined when it no longer does (a message arrived, another node got there
// first).
const claim = (
  deps: Deps,
  before: TicketRow,
  change: Partial<TicketRow>,
  still: SQL,
): Promise<TicketRow | undefined> =>
  deps.events.transaction(deps.db, (tx, raise) =>
    writeTransition(tx, raise, before, change, { byUserId: null, still }),
  );

export const TICKET_TIMERS_JOB = 'ticket-timers';

export const runTicketTimers = async (deps: Deps, now: Date) => {
  for (let round = 0; round < 50 && (await transferWaiting(deps, now)) === BATCH; round += 1);
  for (let round = 0; round < 50 && (await expireInactive(deps, now)) === BATCH; round += 1);
};
