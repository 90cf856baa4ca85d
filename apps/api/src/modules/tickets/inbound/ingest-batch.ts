import { getTableColumns, sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps';
import { contacts, messages, tickets } from '../../../db/schema';
import { getSettingValue } from '../../settings';
import {
  activeTicket,
  answerRating,
  contactNameOf,
  heldBy,
  inboundRow,
  ingestMessage,
  mayBeRouted,
  previewOf,
  renamedContact,
  type AwaitingBot,
  type Ingested,
  type MessageInput,
} from './ingest';
import { messageCreated, ticketChanged } from '../core/ticket-events';

// Inbound messages stored together (ARCHITECTURE.md "Tickets"): the messages that arrive
// while a store is in flight go in the next one, one transaction with one statement per step for all
// of them (their contacts, their tickets, the messages, the tickets' list rows) instead of one
// transaction of five statements each. The per-message guarantees hold over the set:
// - one contact per number and one active ticket per contact and connection: every step is an upsert
//   on the unique index, rows sorted so that concurrent batches (other nodes) lock in one order;
// - a redelivered message changes nothing: what the connection already has is dropped before anything
//   is written, and a copy that another node stores meanwhile fails the batch (then every message is
//   stored on its own, where the redelivery is recognised);
// - a message is stored as the one before it left things: a contact's first message in the batch may
//   answer its rating question (answerRating), its name follows the first message that names it, a
//   quoted message stored earlier in the batch is linked, and the ticket's list row ends on the last.
// A message that needs the lookups of a LID (ingest.ts's upsertContact) is stored on its own.

type Deps = Pick<AppDeps, 'db' | 'events'>;
type ContactRow = typeof contacts.$inferSelect;
type TicketRow = typeof tickets.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

// Another transaction stored one of the messages meanwhile (a redelivery racing this one).
class BatchRaced extends Error {}

export const batchable = (input: MessageInput) => !input.event.message.lid;

const messageKey = (whatsappId: number, providerId: string) => `${whatsappId}:${providerId}`;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// The messages, stored in the order given; for each, what ingestMessage answers for it (null: a
// redelivery, or a group message the company ignores).
export const ingestBatch = async (
  deps: Deps,
  inputs: MessageInput[],
  awaiting: AwaitingBot = () => false,
): Promise<(Ingested | null)[]> => {
  if (inputs.some((input) => !batchable(input)))
    throw new Error('A message with a LID is stored on its own (ingestMessage)');
  // SPEC §9: "ignore group messages" (CheckMsgIsGroup enabled) drops them before anything is stored.
  const ignoresGroups = new Map<number, boolean>();
  for (const { connection, event } of inputs)
    if (event.message.isGroup && !ignoresGroups.has(connection.companyId))
      ignoresGroups.set(
        connection.companyId,
        (await getSettingValue(deps.db, connection.companyId, 'CheckMsgIsGroup')) === 'enabled',
      );
  // A message given twice is stored once: the copy answers null, as a redelivery does.
  const seen = new Set<string>();
  const wanted = inputs.filter(({ connection, event }) => {
    const key = messageKey(connection.id, event.message.providerId);
    if (seen.has(key) || (event.message.isGroup && ignoresGroups.get(connection.companyId)))
      return false;
    seen.add(key);
    return true;
  });
  if (!wanted.length) return inputs.map(() => null);

  const now = new Date();
  const stored = await deps.events.transaction(deps.db, async (tx, raise) => {
    const known = await tx
      .select({ whatsappId: messages.whatsappId, providerId: messages.providerId })
      .from(messages)
      .where(
        sql`(${messages.whatsappId}, ${messages.providerId}) in (${sql.join(
          wanted.map(
            ({ connection, event }) => sql`(${connection.id}::int, ${event.message.providerId})`,
          ),
          sql`, `,
        )})`,
      );
    const already = new Set(known.map((m) => messageKey(m.whatsappId, m.providerId!)));
    const fresh = wanted.filter(
      ({ connection, event }) => !already.has(messageKey(connection.id, event.message.providerId)),
    );
    if (!fresh.length) return new Map<MessageInput, Ingested>();

    // Contacts: the chat (a person, or a group) and, in a group, the person who wrote.
    type Who = {
      companyId: number;
      number: string;
      name: string;
      isGroup: boolean;
      whatsappId: number;
    };
    const people = new Map<string, Who>();
    const want = (
      companyId: number,
      whatsappId: number,
      number: string,
      isGroup: boolean,
      name?: string,
    ) => {
      const who = {
        companyId,
        number,
        name: contactNameOf(number, name),
        isGroup,
        whatsappId,
      };
      const key = `${companyId}:${number}`;
      const had = people.get(key);
      // A contact still named after its number takes the first name a message gives it.
      if (!had) people.set(key, who);
      else if (had.name === number && who.name !== number) had.name = who.name;
    };
    for (const { connection, event } of fresh) {
      const { message } = event;
      want(
        connection.companyId,
        connection.id,
        message.from,
        message.isGroup,
        message.isGroup ? undefined : message.contactName,
      );
      if (message.isGroup && message.participant && !message.fromMe)
        want(connection.companyId, connection.id, message.participant, false, message.contactName);
    }
    const contactRows = await tx
      .insert(contacts)
      .values(
        [...people.values()]
          .sort((a, b) => a.companyId - b.companyId || byText(a.number, b.number))
          .map((who) => ({ ...who, lid: null })),
      )
      .onConflictDoUpdate({
        target: [contacts.companyId, contacts.number],
        set: {
          name: renamedContact,
          updatedAt: now,
        },
      })
      .returning({
        ...getTableColumns(contacts),
        // Whether a resolved ticket of the contact waits for a rating (on any connection: answerRating
        // then looks on the message's). Spelled out: the builder leaves the row's columns unqualified.
        ratingAsked: sql<boolean>`exists (select 1 from tickets t where t.contact_id = contacts.id
          and t.rating_at is not null)`,
      });
    const contactOf = new Map(
      contactRows.map(({ ratingAsked, ...row }) => [
        `${row.companyId}:${row.number}`,
        { row: row as ContactRow, ratingAsked },
      ]),
    );
    const chatOf = (input: MessageInput) =>
      contactOf.get(`${input.connection.companyId}:${input.event.message.from}`)!;
    const senderOf = (input: MessageInput) => {
      const { message } = input.event;
      return message.isGroup && message.participant && !message.fromMe
        ? contactOf.get(`${input.connection.companyId}:${message.participant}`)!.row
        : chatOf(input).row;
    };

    // A contact's first message of the batch on a connection may be its answer to a rating question.
    const rated = new Map<MessageInput, { ticket: TicketRow; rate: number }>();
    const checked = new Set<string>();
    for (const input of fresh) {
      const { message } = input.event;
      const chat = chatOf(input);
      const asking = `${chat.row.id}:${input.connection.id}`;
      if (message.fromMe || message.isGroup || checked.has(asking)) continue;
      checked.add(asking);
      if (!chat.ratingAsked) continue;
      const answer = await answerRating(tx, {
        contactId: chat.row.id,
        whatsappId: input.connection.id,
        body: message.body,
        now,
      });
      if (answer) rated.set(input, answer);
    }

    // Tickets: the contact's active one on the connection, created waiting when there is none.
    const ticketKey = (input: MessageInput) => `${chatOf(input).row.id}:${input.connection.id}`;
    const conversations = new Map<string, MessageInput>();
    for (const input of fresh)
      if (!rated.has(input) && !conversations.has(ticketKey(input)))
        conversations.set(ticketKey(input), input);
    const ticketRows = conversations.size
      ? await tx
          .insert(tickets)
          .values(
            [...conversations.values()]
              .map((input) => ({ input, contactId: chatOf(input).row.id }))
              .sort(
                (a, b) =>
                  a.contactId - b.contactId || a.input.connection.id - b.input.connection.id,
              )
              .map(({ input, contactId }) => ({
                companyId: input.connection.companyId,
                contactId,
                whatsappId: input.connection.id,
                isGroup: input.event.message.isGroup,
                status: 'pending' as const,
                ...(input.event.message.isGroup ? {} : heldBy(input.connection.id)),
              })),
          )
          .onConflictDoUpdate({
            ...activeTicket,
            // A no-op write, so an existing active ticket comes back, locked for this transaction.
            set: { contactId: sql`excluded.contact_id`, updatedAt: now },
          })
          .returning({ ...getTableColumns(tickets), inserted: sql<boolean>`(xmax = 0)` })
      : [];
    const ticketOf = new Map(
      ticketRows.map(({ inserted, ...row }) => [
        `${row.contactId}:${row.whatsappId}`,
        { row: row as TicketRow, created: Boolean(inserted) },
      ]),
    );
    const ticketIdOf = (input: MessageInput) =>
      rated.get(input)?.ticket.id ?? ticketOf.get(ticketKey(input))!.row.id;

    // The messages, in order; a quoted message is looked up by the insert itself.
    const insertedRows = await tx
      .insert(messages)
      .values(
        fresh.map((input) => {
          const { message } = input.event;
          return {
            ...inboundRow(input),
            ticketId: ticketIdOf(input),
            contactId: message.fromMe ? null : senderOf(input).id,
            quotedMsgId: message.quotedId
              ? sql`(select q.id from messages q where q.whatsapp_id = ${input.connection.id}
                      and q.provider_id = ${message.quotedId})`
              : null,
            dataJson: message.raw ?? null,
          };
        }),
      )
      .onConflictDoNothing({ target: [messages.whatsappId, messages.providerId] })
      .returning();
    if (insertedRows.length < fresh.length) throw new BatchRaced();
    const rowOf = new Map(
      insertedRows.map((row) => [messageKey(row.whatsappId!, row.providerId!), row]),
    );
    const messageOf = (input: MessageInput) =>
      rowOf.get(messageKey(input.connection.id, input.event.message.providerId))!;
    // A message quoting one stored by this same statement (which its lookup could not see).
    for (const input of fresh) {
      const { quotedId } = input.event.message;
      const row = messageOf(input);
      const quoted = quotedId ? rowOf.get(messageKey(input.connection.id, quotedId)) : undefined;
      if (!quoted || row.quotedMsgId !== null) continue;
      await tx
        .update(messages)
        .set({ quotedMsgId: quoted.id })
        .where(sql`${messages.id} = ${row.id}`);
      row.quotedMsgId = quoted.id;
    }

    // The tickets' list rows follow their last message; each contact's message is one more unread.
    const bumps = new Map<number, { last: string; contactLast: string | null; unread: number }>();
    for (const input of fresh) {
      const { message } = input.event;
      const id = ticketIdOf(input);
      const bump = bumps.get(id) ?? { last: '', contactLast: null, unread: 0 };
      bump.last = previewOf(message);
      if (!message.fromMe) bump.contactLast = bump.last;
      if (!message.fromMe && !rated.has(input)) bump.unread += 1;
      bumps.set(id, bump);
    }
    const bumped = await tx
      .update(tickets)
      .set({
        lastMessage: sql`v.last_message`,
        lastContactMessage: sql`coalesce(v.contact_last, ${tickets.lastContactMessage})`,
        unreadMessages: sql`${tickets.unreadMessages} + v.unread`,
        updatedAt: now,
      })
      .from(
        sql`(values ${sql.join(
          [...bumps].map(
            ([id, b]) =>
              sql`(${id}::int, ${b.last}::text, ${b.contactLast}::text, ${b.unread}::int)`,
          ),
          sql`, `,
        )}) as v(id, last_message, contact_last, unread)`,
      )
      .where(sql`${tickets.id} = v.id`)
      .returning(getTableColumns(tickets));
    const bumpedOf = new Map(bumped.map((row) => [row.id, row]));

    const results = new Map<MessageInput, Ingested>();
    const announced = new Set<number>();
    for (const input of fresh) {
      const { message } = input.event;
      const stored: MessageRow = messageOf(input);
      const ticket = bumpedOf.get(stored.ticketId)!;
      const created = !rated.has(input) && ticketOf.get(ticketKey(input))!.created;
      // A new ticket is told once, with the first of its messages.
      const first = created && !announced.has(ticket.id);
      if (first) {
        announced.add(ticket.id);
        raise(ticketChanged(null, ticket, null));
      }
      const answer = rated.get(input);
      const rating = answer ? { rating: answer.rate } : {};
      const awaitsBot = mayBeRouted({ ticket, message: stored, ...rating }) || awaiting(ticket.id);
      raise(messageCreated(stored, message.fromMe ? 'phone' : 'contact', null, ticket, awaitsBot));
      results.set(input, {
        contact: chatOf(input).row,
        ticket,
        message: stored,
        ticketCreated: first,
        ...rating,
        awaitsBot,
      });
    }
    return results;
  });
  return inputs.map((input) => stored.get(input) ?? null);
};

// What becomes of one message of a batch: its result, or the error that stopped it.
export type Outcome = { ok: true; value: Ingested | null } | { ok: false; error: unknown };

const settle = (work: Promise<Ingested | null>): Promise<Outcome> =>
  work.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

// Stores the messages together (a single one through ingest.ts), or, when that fails (a racing
// redelivery, a message the database refuses), each on its own: one bad message fails only itself.
export const storeMessages = async (
  deps: Deps,
  inputs: MessageInput[],
  onBatchFailed: (error: unknown) => void,
  awaiting: AwaitingBot = () => false,
): Promise<Outcome[]> => {
  // One message alone takes the one-message path: its statements are prepared, and fewer.
  if (inputs.length === 1) return [await settle(ingestMessage(deps, inputs[0], awaiting))];
  try {
    const values = await ingestBatch(deps, inputs, awaiting);
    return values.map((value) => ({ ok: true, value }));
  } catch (error) {
    if (!(error instanceof BatchRaced)) onBatchFailed(error);
    const outcomes: Outcome[] = [];
    for (const input of inputs) outcomes.push(await settle(ingestMessage(deps, input, awaiting)));
    return outcomes;
  }
};
