import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { contacts, queues, tickets, users, whatsapps } from '../../db/schema';
import { getSettingValue } from '../settings/settings.service';
import { queueOutgoing } from '../messages/messages.service';
import { emitMessages } from '../messages/message-views';
import {
  acceptGreeting,
  fillVariables,
  ratingPrompt,
  ratingThanks,
  transferNotice,
} from './bot-texts';

// What the platform says to the contact when a ticket changes hands (SPEC §4, §9 settings):
// - accept (pending → open) with sendGreetingAccepted: a greeting naming the attendant;
// - transfer to another queue or person with sendMsgTransfTicket: where the conversation went;
// - resolve: the connection's completion message (or the queue's), then, with userRating, the rating
//   question; the contact's 1–3 answer is recorded by the ingest pipeline (ingest.ts).
// Never to groups. Messages go through the outbox like an agent's.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads' | 'outbox' | 'config'>;
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

type Outgoing = Awaited<ReturnType<typeof queueOutgoing>>;

// Queues the texts on the ticket (and an optional change of it) inside the caller's transaction.
const queueTexts = async (
  tx: Db,
  ticket: Pick<TicketRow, 'id' | 'companyId' | 'whatsappId' | 'contactId'>,
  texts: string[],
  change?: Partial<TicketRow>,
) => {
  if (change) await tx.update(tickets).set(change).where(eq(tickets.id, ticket.id));
  const rows: Outgoing = [];
  for (const body of texts.map((t) => t.trim()).filter(Boolean))
    rows.push(...(await queueOutgoing(tx, ticket, { body, quotedMsgId: null, medias: [] })));
  return rows;
};

// After the transaction: tells the chat and wakes the outbox.
export const announceAutomatic = async (deps: Deps, companyId: number, sent: Outgoing) => {
  if (!sent.length) return;
  await emitMessages(deps, companyId, 'create', sent);
  deps.outbox.kick();
};

// Queues the texts on the ticket in one transaction (with an optional change of the ticket), then
// tells the chat and wakes the outbox.
export const sendAutomatic = async (
  deps: Deps,
  ticket: Pick<TicketRow, 'id' | 'companyId' | 'whatsappId' | 'contactId'>,
  texts: string[],
  change?: Partial<TicketRow>,
) => {
  if (!texts.some((t) => t.trim()) && !change) return;
  const sent = await deps.db.transaction((tx) => queueTexts(tx, ticket, texts, change));
  await announceAutomatic(deps, ticket.companyId, sent);
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
// caller announces the returned messages after commit (announceAutomatic).
export const queueTransitionMessages = async (
  db: Db,
  deps: Pick<Deps, 'config'>,
  actorId: number,
  before: TicketRow,
  after: TicketRow,
): Promise<Outgoing> => {
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
    const fill = (text: string) =>
      fillVariables(text, { contactName: names.contactName, now, timeZone: deps.config.timeZone });
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
    return queueTexts(db, after, texts, change);
  }
  if (transferred) {
    const texts = await transferTexts(db, after, {
      queueId: movedQueue ? after.queueId : null,
      userId: handedToOther ? after.userId : null,
    });
    return queueTexts(db, after, texts);
  }
  if (accepted && (await enabled(db, after.companyId, 'sendGreetingAccepted'))) {
    const names = await namesOf(db, after);
    if (!names.userName) return [];
    return queueTexts(db, after, [
      acceptGreeting({
        contactName: names.contactName,
        userName: names.userName,
        now,
        timeZone: deps.config.timeZone,
      }),
    ]);
  }
  return [];
};

export const thankForRating = (
  deps: Deps,
  ticket: Pick<TicketRow, 'id' | 'companyId' | 'whatsappId' | 'contactId'>,
) => sendAutomatic(deps, ticket, [ratingThanks]);
