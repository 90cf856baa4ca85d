import { and, eq, getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../../deps';
import { preparedPer } from '../../../db/prepared';
import { messageCreated, ticketChanged } from '../core/ticket-events';
import type { Db } from '../../../db/client';
import type { DomainEvent } from '../../../events/domain-events';
import {
  contacts,
  messages,
  tickets,
  userRatings,
  whatsappQueues,
  whatsapps,
} from '../../../db/schema';
import type { InboundMessage } from '../../../channels/driver';
import type { ChannelEventInput } from '../../../channels/manager';
import { getSettingValue } from '../../settings';
import { parseRating } from '../bots/bot-texts';

// The ingest pipeline: a driver's message → contact, ticket and message stored in one transaction →
// emitted. A redelivered message (same provider id on the connection) changes nothing, and concurrent
// first messages of one person end as one contact and one ticket (every step is an upsert on a
// unique index, so racing transactions meet at the index instead of creating twins).

type Deps = Pick<AppDeps, 'db' | 'events'>;
type ContactRow = typeof contacts.$inferSelect;
type TicketRow = typeof tickets.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

export type Ingested = {
  contact: ContactRow;
  ticket: TicketRow;
  message: MessageRow;
  ticketCreated: boolean;
  // The message answered a resolved ticket's rating question (1 to 3); it was stored on that ticket.
  rating?: number;
  // Screens hear of it after the queue bot's turn on it (awaitsBot of message.created).
  awaitsBot: boolean;
};

// Tickets whose conversation waits for a queue bot's turn still to come (the tickets engine's): their
// later messages wait behind it, so a chat shows its messages in order.
export type AwaitingBot = (ticketId: number) => boolean;

// Whether the queue bot takes a turn on this message at all: a contact's message in a waiting
// conversation nobody serves (an AI agent or an integration holds one until it hands it to a person).
export const botTakesTurn = ({ ticket, message }: Pick<Ingested, 'ticket' | 'message'>) =>
  !message.fromMe &&
  !ticket.isGroup &&
  ticket.status === 'pending' &&
  !ticket.userId &&
  !ticket.useIntegration &&
  !ticket.promptId;

// A message the bot may route to a queue (its conversation has none yet, and its connection has queues
// to route to): screens hear of it after the bot's turn, in the queue it is routed to, not first to
// everyone who sees queue-less tickets. On a connection without queues it stays where it is: shown
// with its store, not held for a turn that cannot move it.
export const mayBeRouted = (
  result: Pick<Ingested, 'ticket' | 'message' | 'rating'>,
  routable: boolean,
) => routable && !result.rating && result.ticket.queueId === null && botTakesTurn(result);

// Whether a ticket's connection has queues (the bot routes only to those), read with the ticket's row.
// The ticket's column is spelled out: in a one-table statement the builder leaves it unqualified, and
// `whatsapp_id` inside the subquery would then be the queue row's own (true wherever any connection
// has a queue).
export const routableSql = sql<boolean>`exists (select 1 from ${whatsappQueues} wq
  where wq.whatsapp_id = tickets.whatsapp_id)`;

// A redelivered message: the transaction rolls back whatever it began (a new ticket included).
class AlreadyStored extends Error {}

export type MessageInput = ChannelEventInput & { event: { type: 'message' } };

// How long after a resolution the contact's "1", "2" or "3" still counts as a rating.
const RATING_WINDOW_MS = 24 * 60 * 60 * 1000;

const isLidId = (from: string) => from.endsWith('@lid');

// A new contact's name: the one WhatsApp reports, else its number (a group's without its @g.us).
export const contactNameOf = (number: string, reported?: string) =>
  reported?.trim() || number.replace(/@.*$/, '');

// On an existing contact: one still named after its number takes the name WhatsApp reports.
const renamedContact = sql`case when ${contacts.name} = ${contacts.number} and excluded.name <> ''
  then excluded.name else ${contacts.name} end`;

// A contact's one active (not closed) ticket per connection: the unique index its upserts meet at.
const activeTicket = {
  target: [tickets.contactId, tickets.whatsappId],
  targetWhere: sql`status <> 'closed'`,
};

// The contact of a number, created when new (prepared: every inbound message runs it), and whether a
// resolved ticket of it on the connection waits for a rating (answerRating). A LID already held by
// another contact stays there; this one is then found by number. What the statement did comes back
// with the row, for contact.changed without another statement: `inserted` (xmax = 0 only on a row this
// statement inserted) and `nameBefore`, the name as the statement found it (a subquery reads the
// statement's snapshot, which does not see the statement's own update).
const contactUpsert = preparedPer((db) =>
  db
    .insert(contacts)
    .values({
      companyId: sql.placeholder('companyId'),
      number: sql.placeholder('number'),
      name: sql.placeholder('name'),
      isGroup: sql.placeholder('isGroup'),
      whatsappId: sql.placeholder('whatsappId'),
      lid: null,
    })
    .onConflictDoUpdate({
      target: [contacts.companyId, contacts.number],
      set: {
        name: renamedContact,
        // Explicit: a prepared statement would otherwise keep the time it was built at.
        updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
      },
    })
    .returning({
      ...getTableColumns(contacts),
      // Spelled out: the builder leaves the returned row's column names unqualified.
      ratingAsked: sql<boolean>`exists (select 1 from tickets t where t.contact_id = contacts.id
        and t.whatsapp_id = ${sql.placeholder('whatsappId')} and t.rating_at is not null)`,
      inserted: sql<boolean>`(xmax = 0)`,
      nameBefore: sql<string | null>`(select c.name from contacts c where c.id = contacts.id)`,
    })
    .prepare('ingest_contact'),
);

// An upsert's contact.changed, if it changed the contact: inserted it, or renamed it (every upsert
// touches updatedAt, which is no change). `nameBefore` null on a row it did not insert: another
// transaction inserted it after this statement began, so it is that one's news.
export const upsertedContact = (
  row: { id: number; companyId: number; name: string },
  inserted: boolean,
  nameBefore: string | null,
): DomainEvent | undefined =>
  inserted || (nameBefore !== null && nameBefore !== row.name)
    ? { type: 'contact.changed', companyId: row.companyId, contactId: row.id, created: inserted }
    : undefined;

// One person is one contact: by phone number, or by WhatsApp's LID while the number is hidden. A
// contact first known only by its LID takes the phone number once a message reveals both.
const upsertContact = async (
  tx: Db,
  raise: (event: DomainEvent) => void,
  companyId: number,
  whatsappId: number,
  who: { number: string; name?: string; lid?: string; isGroup: boolean },
): Promise<ContactRow & { ratingAsked?: boolean }> => {
  if (who.lid) {
    const [byLid] = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.lid, who.lid)))
      .for('update');
    if (byLid && (byLid.number === who.number || isLidId(who.number))) return byLid;
    if (byLid && isLidId(byLid.number)) {
      const [taken] = await tx
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.companyId, companyId), eq(contacts.number, who.number)));
      if (!taken) {
        const [promoted] = await tx
          .update(contacts)
          .set({ number: who.number, updatedAt: new Date() })
          .where(eq(contacts.id, byLid.id))
          .returning();
        raise({ type: 'contact.changed', companyId, contactId: promoted.id, created: false });
        return promoted;
      }
    }
  }
  const name = contactNameOf(who.number, who.name);
  const [upserted] = await contactUpsert(tx).execute({
    companyId,
    number: who.number,
    name,
    isGroup: who.isGroup,
    whatsappId,
    now: new Date().toISOString(),
  });
  const { ratingAsked, inserted, nameBefore, ...row } = upserted;
  const changed = upsertedContact(row, Boolean(inserted), nameBefore);
  if (changed) raise(changed);
  if (who.lid && !row.lid) {
    await tx
      .update(contacts)
      .set({ lid: who.lid })
      .where(
        and(
          eq(contacts.id, row.id),
          sql`not exists (select 1 from ${contacts} c where c.company_id = ${companyId} and c.lid = ${who.lid})`,
        ),
      );
  }
  return { ...row, ratingAsked };
};

// Who converses with a new conversation of the connection: its integration with the contacts that
// start one (modules/queue-integrations), else its AI agent (modules/prompts/agent.ts). The values of a
// new ticket's columns, read from the connection by the insert itself.
const heldBy = (whatsappId: SQL | Placeholder | number) => ({
  integrationId: sql`(select ${whatsapps.integrationId} from ${whatsapps} where ${whatsapps.id} = ${whatsappId})`,
  useIntegration: sql`(select ${whatsapps.integrationId} is not null from ${whatsapps} where ${whatsapps.id} = ${whatsappId})`,
  promptId: sql`(select case when ${whatsapps.integrationId} is null then ${whatsapps.promptId} end from ${whatsapps} where ${whatsapps.id} = ${whatsappId})`,
});

// The contact's active ticket on the connection, created waiting when there is none; locked for the
// transaction either way. Prepared, one statement for conversations and one for groups.
const ticketUpsert = (isGroup: boolean) =>
  preparedPer((db) =>
    db
      .insert(tickets)
      .values({
        companyId: sql.placeholder('companyId'),
        contactId: sql.placeholder('contactId'),
        whatsappId: sql.placeholder('whatsappId'),
        isGroup,
        status: 'pending',
        ...(isGroup ? {} : heldBy(sql.placeholder('whatsappId'))),
      })
      .onConflictDoUpdate({
        ...activeTicket,
        // A no-op write, so the existing active ticket comes back (and is locked for this
        // transaction); updatedAt explicit, as a prepared statement would keep its build time.
        set: {
          contactId: sql`excluded.contact_id`,
          updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
        },
      })
      .returning({ ...getTableColumns(tickets), inserted: sql<boolean>`(xmax = 0)` })
      .prepare(isGroup ? 'ingest_group_ticket' : 'ingest_ticket'),
  );
const ticketUpserts = { conversation: ticketUpsert(false), group: ticketUpsert(true) };

const findOrCreateTicket = async (
  tx: Db,
  input: { companyId: number; contactId: number; whatsappId: number; isGroup: boolean },
) => {
  const upsert = input.isGroup ? ticketUpserts.group : ticketUpserts.conversation;
  const [row] = await upsert(tx).execute({ ...input, now: new Date().toISOString() });
  const { inserted, ...ticket } = row;
  return { ticket: ticket as TicketRow, created: Boolean(inserted) };
};

// A conversation the company starts from outside the inbox (the external messages API): the contact by
// number (created when new, named after its number) and its active ticket on the connection (created
// waiting, as a message typed on the phone would create it), locked for the caller's transaction.
// Concurrent calls for one new number meet at the unique indexes: one contact, one ticket.
export const conversationWith = async (
  tx: Db,
  raise: (event: DomainEvent) => void,
  input: { companyId: number; whatsappId: number; number: string },
) => {
  const { ratingAsked: _ratingAsked, ...contact } = await upsertContact(
    tx,
    raise,
    input.companyId,
    input.whatsappId,
    {
      number: input.number,
      isGroup: false,
    },
  );
  const { ticket, created } = await findOrCreateTicket(tx, {
    companyId: input.companyId,
    contactId: contact.id,
    whatsappId: input.whatsappId,
    isGroup: false,
  });
  if (created) raise(ticketChanged(null, ticket, null));
  return { contact, ticket, created };
};

// The newest of the contact's tickets on the connection that asked for a rating, locked.
const askedRatingQuery = preparedPer((db) =>
  db
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.contactId, sql.placeholder('contactId')),
        eq(tickets.whatsappId, sql.placeholder('whatsappId')),
        sql`${tickets.ratingAt} is not null`,
      ),
    )
    .orderBy(sql`${tickets.ratingAt} desc`)
    .limit(1)
    .for('update')
    .prepare('ingest_rating_asked'),
);

// The contact's resolved ticket waiting for a rating: a 1–3 answer is recorded there (and stored on it)
// instead of opening a new conversation; anything else ends the wait and goes the usual way.
export const answerRating = async (
  tx: Db,
  raise: (event: DomainEvent) => void,
  input: { contactId: number; whatsappId: number; body: string; now: Date },
) => {
  const [asked] = await askedRatingQuery(tx).execute(input);
  if (!asked) return undefined;
  await tx
    .update(tickets)
    .set({ ratingAt: null })
    .where(and(eq(tickets.contactId, input.contactId), sql`${tickets.ratingAt} is not null`));
  const rate = parseRating(input.body);
  const fresh =
    asked.status === 'closed' &&
    asked.ratingAt &&
    input.now.getTime() - asked.ratingAt.getTime() <= RATING_WINDOW_MS;
  if (!rate || !fresh) return undefined;
  await tx.insert(userRatings).values({
    companyId: asked.companyId,
    ticketId: asked.id,
    userId: asked.userId,
    rate,
  });
  raise({
    type: 'ticket.rated',
    companyId: asked.companyId,
    ticketId: asked.id,
    userId: asked.userId,
    rate,
  });
  return { ticket: { ...asked, ratingAt: null }, rate };
};

// What a list shows of a message: its text, or what kind of file it is.
export const previewOf = (message: Pick<InboundMessage, 'body' | 'mediaType'>) =>
  message.body.trim() || (message.mediaType === 'chat' ? '' : `[${message.mediaType}]`);

// The columns of an inbound message's row that come from the message itself (this file's insert and the
// batch's, ingest-batch.ts, add its ticket, sender, quoted message and raw payload).
export const inboundRow = ({
  connection,
  event: { message },
  media,
  mediaError,
}: MessageInput) => ({
  companyId: connection.companyId,
  providerId: message.providerId,
  whatsappId: connection.id,
  body: message.body,
  fromMe: message.fromMe,
  mediaType: message.mediaType,
  mediaUrl: media?.storedName ?? null,
  mediaName: media?.fileName ?? message.media?.fileName ?? null,
  mediaError: media ? null : (mediaError ?? null),
  read: message.fromMe,
  ack: message.fromMe ? 2 : 0,
  remoteJid: message.from,
  participant: message.participant ?? null,
  createdAt: message.timestamp,
});

// The message, unless the connection already has it (a redelivery: nothing comes back).
const messageInsert = preparedPer((db) =>
  db
    .insert(messages)
    .values({
      companyId: sql.placeholder('companyId'),
      providerId: sql.placeholder('providerId'),
      ticketId: sql.placeholder('ticketId'),
      contactId: sql.placeholder('contactId'),
      whatsappId: sql.placeholder('whatsappId'),
      body: sql.placeholder('body'),
      fromMe: sql.placeholder('fromMe'),
      mediaType: sql.placeholder('mediaType'),
      mediaUrl: sql.placeholder('mediaUrl'),
      mediaName: sql.placeholder('mediaName'),
      mediaError: sql.placeholder('mediaError'),
      quotedMsgId: sql.placeholder('quotedMsgId'),
      read: sql.placeholder('read'),
      ack: sql.placeholder('ack'),
      remoteJid: sql.placeholder('remoteJid'),
      participant: sql.placeholder('participant'),
      // As JSON text or null: the column's encoder would turn null into JSON's null.
      dataJson: sql`${sql.placeholder('dataJson')}::jsonb`,
      createdAt: sql.placeholder('createdAt'),
    })
    .onConflictDoNothing({ target: [messages.whatsappId, messages.providerId] })
    .returning()
    .prepare('ingest_message'),
);

// The ticket's list row follows its newest message; a contact's message is one more unread.
const ticketBump = preparedPer((db) =>
  db
    .update(tickets)
    .set({
      lastMessage: sql`${sql.placeholder('lastMessage')}::text`,
      lastContactMessage: sql`coalesce(${sql.placeholder('contactMessage')}::text, ${tickets.lastContactMessage})`,
      unreadMessages: sql`${tickets.unreadMessages} + ${sql.placeholder('unread')}::int`,
      updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
    })
    .where(eq(tickets.id, sql.placeholder('id')))
    .returning({ ...getTableColumns(tickets), routable: routableSql })
    .prepare('ingest_ticket_bump'),
);

export const ingestMessage = async (
  deps: Deps,
  input: MessageInput,
  awaiting: AwaitingBot = () => false,
): Promise<Ingested | null> => {
  const { connection } = input;
  const message = input.event.message;
  const companyId = connection.companyId;
  // SPEC §9: "ignore group messages" (CheckMsgIsGroup enabled) drops them before anything is stored.
  if (
    message.isGroup &&
    (await getSettingValue(deps.db, companyId, 'CheckMsgIsGroup')) === 'enabled'
  )
    return null;

  const now = new Date();
  return deps.events
    .transaction(deps.db, async (tx, raise) => {
      const { ratingAsked, ...chat } = await upsertContact(tx, raise, companyId, connection.id, {
        number: message.from,
        name: message.isGroup ? undefined : message.contactName,
        lid: message.isGroup ? undefined : message.lid,
        isGroup: message.isGroup,
      });
      const sender =
        message.isGroup && message.participant && !message.fromMe
          ? await upsertContact(tx, raise, companyId, connection.id, {
              number: message.participant,
              name: message.contactName,
              lid: message.lid,
              isGroup: false,
            })
          : chat;
      // Only a contact whose resolved ticket asked for a rating (unknown: found by LID) may be answering.
      const rated =
        message.fromMe || message.isGroup || ratingAsked === false
          ? undefined
          : await answerRating(tx, raise, {
              contactId: chat.id,
              whatsappId: connection.id,
              body: message.body,
              now,
            });
      const { ticket, created } = rated
        ? { ticket: rated.ticket, created: false }
        : await findOrCreateTicket(tx, {
            companyId,
            contactId: chat.id,
            whatsappId: connection.id,
            isGroup: message.isGroup,
          });
      let quotedMsgId: number | null = null;
      if (message.quotedId) {
        const [quoted] = await tx
          .select({ id: messages.id })
          .from(messages)
          .where(
            and(eq(messages.whatsappId, connection.id), eq(messages.providerId, message.quotedId)),
          );
        quotedMsgId = quoted?.id ?? null;
      }
      const [stored] = await messageInsert(tx).execute({
        ...inboundRow(input),
        ticketId: ticket.id,
        contactId: message.fromMe ? null : sender.id,
        quotedMsgId,
        dataJson: message.raw ? JSON.stringify(message.raw) : null,
      });
      // Already stored: a redelivery. Nothing moves, nothing is emitted again.
      if (!stored) throw new AlreadyStored();
      const [{ routable, ...bumped }] = await ticketBump(tx).execute({
        id: ticket.id,
        lastMessage: previewOf(message),
        contactMessage: message.fromMe ? null : previewOf(message),
        unread: message.fromMe || rated ? 0 : 1,
        now: new Date().toISOString(),
      });
      const rating = rated ? { rating: rated.rate } : {};
      const awaitsBot =
        mayBeRouted({ ticket: bumped, message: stored, ...rating }, routable) ||
        awaiting(bumped.id);
      if (created) raise(ticketChanged(null, bumped!, null));
      raise(messageCreated(stored, message.fromMe ? 'phone' : 'contact', null, bumped, awaitsBot));
      return {
        contact: chat,
        ticket: bumped,
        message: stored,
        ticketCreated: created,
        ...rating,
        awaitsBot,
      };
    })
    .catch((error: unknown) => {
      if (error instanceof AlreadyStored) return null;
      throw error;
    });
};
