import { companyTimeZone } from '../../../platform/time-zones';
import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../../deps';
import type { Db } from '../../../db/client';
import { contacts, queues, tickets, users, whatsapps } from '../../../db/schema';
import { getSettingValue } from '../../settings';
import {
  acceptGreeting,
  fillVariables,
  ratingPrompt,
  ratingThanks,
  transferNotice,
} from './bot-texts';
import type { MessageRow, OutgoingTicket } from '../../../deps';
import { messageCreated } from '../core/ticket-events';

// What the platform says to the contact when a ticket changes hands (SPEC §4, §9 settings):
// - accept (pending → open) with sendGreetingAccepted: a greeting naming the attendant;
// - transfer to another queue or person with sendMsgTransfTicket: where the conversation went;
// - resolve: the connection's completion message (or the queue's), then, with userRating, the rating
//   question; the contact's 1–3 answer is recorded by the ingest pipeline (ingest.ts).
// Never to groups. Messages go through the outbox like an agent's (deps.ticketMessages).

type Deps = Pick<AppDeps, 'db' | 'outbox' | 'config' | 'ticketMessages' | 'events'>;
type TicketRow = typeof tickets.$inferSelect;

const DEFAULT_RATING_QUESTION = '¿Cómo evaluarías nuestra atención?';

const namesOf = async (db: Db, ticket: TicketRow) => {
  const [contact] = await db
    .select({ name: contacts.name })
    .from(contacts)
    .where(eq(contacts.id, ticket.contactId));
  const [connection] = await db.select().from(whatsapps).where(eq(whatsapps.id, ticket.whatsappId));
  const [queue] = ticket.queueId
    ? await db.select().from(queues).where(eq(queues.id, ticket.queueId))
    : [];
  const [user] = ticket.userId
    ? await db.select({ name: users.name }).from(users).where(eq(users.id, ticket.userId))
    : [];
  return { contactName: contact?.name ?? '', connection, queue, userName: user?.name ?? '' };
};

// Queues the texts on the ticket (and an optional change of it) inside the caller's transaction.
const queueTexts = async (
  deps: Pick<Deps, 'ticketMessages'>,
  tx: Db,
  ticket: OutgoingTicket,
  texts: string[],
  change?: Partial<TicketRow>,
) => {
  if (change) await tx.update(tickets).set(change).where(eq(tickets.id, ticket.id));
  const rows: MessageRow[] = [];
  for (const body of texts.map((t) => t.trim()).filter(Boolean))
    rows.push(...(await deps.ticketMessages.queueText(tx, ticket, body)));
  return rows;
};

// Queues the texts on the ticket in one transaction, then wakes the outbox.
export const sendAutomatic = async (deps: Deps, ticket: OutgoingTicket, texts: string[]) => {
  if (!texts.some((t) => t.trim())) return;
  const sent = await deps.events.transaction(deps.db, async (tx, raise) => {
    const rows = await queueTexts(deps, tx, ticket, texts);
    rows.forEach((row) => raise(messageCreated(row, 'platform')));
    return rows;
  });
  if (sent.length) deps.outbox.kick();
};

const enabled = async (db: Db, companyId: number, key: Parameters<typeof getSettingValue>[2]) =>
  (await getSettingValue(db, companyId, key)) === 'enabled';

export const transferTexts = async (
  db: Db,
  ticket: TicketRow,
  to: { queueId: number | null; userId: number | null },
) => {
  if (ticket.isGroup || !(await enabled(db, ticket.companyId, 'sendMsgTransfTicket'))) return [];
  const [queue] = to.queueId
    ? await db.select({ name: queues.name }).from(queues).where(eq(queues.id, to.queueId))
    : [];
  const [user] = to.userId
    ? await db.select({ name: users.name }).from(users).where(eq(users.id, to.userId))
    : [];
  if (!queue && !user) return [];
  return [transferNotice({ queueName: queue?.name, userName: user?.name })];
};

// Queues, inside the transaction that changed the ticket, what the change tells the contact; the
// caller raises their message.created and wakes the outbox after commit.
export const queueTransitionMessages = async (
  db: Db,
  deps: Pick<Deps, 'config' | 'ticketMessages'>,
  actorId: number,
  before: TicketRow,
  after: TicketRow,
): Promise<MessageRow[]> => {
  if (after.isGroup) return [];
  const now = new Date();
  const accepted = before.status === 'pending' && after.status === 'open';
  const resolved = before.status !== 'closed' && after.status === 'closed';
  const handedToOther =
    after.userId !== null && after.userId !== before.userId && after.userId !== actorId;
  const movedQueue = after.queueId !== null && after.queueId !== before.queueId;
  const transferred = after.status !== 'closed' && (handedToOther || movedQueue);

  if (resolved) {
    const names = await namesOf(db, after);
    const timeZone = await companyTimeZone({ db, config: deps.config }, after.companyId);
    const fill = (text: string) =>
      fillVariables(text, { contactName: names.contactName, now, timeZone });
    const completion =
      names.connection?.complationMessage.trim() || names.queue?.completion.trim() || '';
    const texts = completion ? [fill(completion)] : [];
    let change: Partial<TicketRow> | undefined;
    if (after.userId && (await enabled(db, after.companyId, 'userRating'))) {
      const question =
        names.connection?.ratingMessage.trim() ||
        names.queue?.ratingMessage.trim() ||
        DEFAULT_RATING_QUESTION;
      texts.push(ratingPrompt(fill(question)));
      change = { ratingAt: now };
    }
    return queueTexts(deps, db, after, texts, change);
  }
  if (transferred) {
    const texts = await transferTexts(db, after, {
      queueId: movedQueue ? after.queueId : null,
      userId: handedToOther ? after.userId : null,
    });
    return queueTexts(deps, db, after, texts);
  }
  if (accepted && (await enabled(db, after.companyId, 'sendGreetingAccepted'))) {
    const names = await namesOf(db, after);
    if (!names.userName) return [];
    return queueTexts(deps, db, after, [
      acceptGreeting({
        contactName: names.contactName,
        userName: names.userName,
        now,
        timeZone: await companyTimeZone({ db, config: deps.config }, after.companyId),
      }),
    ]);
  }
  return [];
};

export const thankForRating = (deps: Deps, ticket: OutgoingTicket) =>
  sendAutomatic(deps, ticket, [ratingThanks]);

// A campaign recipient who answered an opt-out word is told it was heard (the company's text).
export const confirmOptOut = (deps: Deps, ticket: OutgoingTicket, text: string) =>
  sendAutomatic(deps, ticket, [text]);
