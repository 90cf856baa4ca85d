import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps';
import { queryRows } from '../../../db/client';
import { arrayParam, rowMapper } from '../../../db/rows';
import { contacts, messages, tickets, whatsapps } from '../../../db/schema';
import { getSettingValue } from '../../settings';
import {
  answerRating,
  contactNameOf,
  inboundRow,
  ingestMessage,
  mayBeRouted,
  routableSql,
  previewOf,
  upsertedContact,
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
type TicketRow = typeof tickets.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

const contactRow = rowMapper(contacts);
const ticketRow = rowMapper(tickets);
const messageRow = rowMapper(messages);

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
    const known = await queryRows<{ whatsapp_id: number; provider_id: string }>(
      tx,
      sql`select m.whatsapp_id, m.provider_id from ${messages} m
            join unnest(${arrayParam(wanted.map((w) => w.connection.id))}::int[],
                        ${arrayParam(wanted.map((w) => w.event.message.providerId))}::text[])
                 as x(whatsapp_id, provider_id)
              on m.whatsapp_id = x.whatsapp_id and m.provider_id = x.provider_id`,
    );
    const already = new Set(known.map((m) => messageKey(m.whatsapp_id, m.provider_id)));
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
    const who = [...people.values()].sort(
      (a, b) => a.companyId - b.companyId || byText(a.number, b.number),
    );
    // In the order sorted (concurrent batches lock in one order); a contact still named after its
    // number takes the name a message gives it (renamedContact). Whether the row was inserted, and its
    // name before, come back for contact.changed (ingest.ts contactUpsert).
    const contactRows = await queryRows<
      Record<string, unknown> & {
        rating_asked: boolean;
        inserted: boolean;
        name_before: string | null;
      }
    >(
      tx,
      sql`insert into ${contacts} (company_id, number, name, is_group, whatsapp_id)
          select x.company_id, x.number, x.name, x.is_group, x.whatsapp_id
            from unnest(${arrayParam(who.map((w) => w.companyId))}::int[],
                        ${arrayParam(who.map((w) => w.number))}::text[],
                        ${arrayParam(who.map((w) => w.name))}::text[],
                        ${arrayParam(who.map((w) => w.isGroup))}::boolean[],
                        ${arrayParam(who.map((w) => w.whatsappId))}::int[])
                 with ordinality as x(company_id, number, name, is_group, whatsapp_id, n)
           order by x.n
          on conflict (company_id, number) do update
            set name = case when contacts.name = contacts.number and excluded.name <> ''
                            then excluded.name else contacts.name end,
                updated_at = ${now.toISOString()}::timestamptz
          returning *, exists (select 1 from tickets t where t.contact_id = contacts.id
                                 and t.rating_at is not null) as rating_asked,
                    (xmax = 0) as inserted,
                    (select c.name from contacts c where c.id = contacts.id) as name_before`,
    );
    const contactOf = new Map(
      contactRows.map((raw) => {
        const row = contactRow(raw);
        const changed = upsertedContact(row, Boolean(raw.inserted), raw.name_before);
        if (changed) raise(changed);
        return [`${row.companyId}:${row.number}`, { row, ratingAsked: raw.rating_asked }];
      }),
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
      const answer = await answerRating(tx, raise, {
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
    const opening = [...conversations.values()]
      .map((input) => ({ input, contactId: chatOf(input).row.id }))
      .sort((a, b) => a.contactId - b.contactId || a.input.connection.id - b.input.connection.id);
    // A conversation (not a group) starts held by the connection's integration or AI agent (heldBy).
    // The no-op update makes an existing active ticket come back, locked for this transaction.
    const ticketRows = opening.length
      ? await queryRows<Record<string, unknown> & { inserted: boolean }>(
          tx,
          sql`insert into ${tickets} (company_id, contact_id, whatsapp_id, is_group, status,
                                      integration_id, use_integration, prompt_id)
              select x.company_id, x.contact_id, x.whatsapp_id, x.is_group, 'pending',
                     case when not x.is_group then w.integration_id end,
                     not x.is_group and w.integration_id is not null,
                     case when not x.is_group and w.integration_id is null then w.prompt_id end
                from unnest(${arrayParam(opening.map((o) => o.input.connection.companyId))}::int[],
                            ${arrayParam(opening.map((o) => o.contactId))}::int[],
                            ${arrayParam(opening.map((o) => o.input.connection.id))}::int[],
                            ${arrayParam(opening.map((o) => o.input.event.message.isGroup))}::boolean[])
                     with ordinality as x(company_id, contact_id, whatsapp_id, is_group, n)
                join ${whatsapps} w on w.id = x.whatsapp_id
               order by x.n
              on conflict (contact_id, whatsapp_id) where status <> 'closed' do update
                set contact_id = excluded.contact_id, updated_at = ${now.toISOString()}::timestamptz
              returning *, (xmax = 0) as inserted`,
        )
      : [];
    const ticketOf = new Map(
      ticketRows.map((raw) => {
        const row = ticketRow(raw);
        return [`${row.contactId}:${row.whatsappId}`, { row, created: Boolean(raw.inserted) }];
      }),
    );
    const ticketIdOf = (input: MessageInput) =>
      rated.get(input)?.ticket.id ?? ticketOf.get(ticketKey(input))!.row.id;

    // The messages, in order; a quoted message is looked up by the insert itself.
    const rows = fresh.map((input) => {
      const { message } = input.event;
      return {
        ...inboundRow(input),
        ticketId: ticketIdOf(input),
        contactId: message.fromMe ? null : senderOf(input).id,
        quotedId: message.quotedId ?? null,
        dataJson: message.raw ? JSON.stringify(message.raw) : null,
      };
    });
    const column = <K extends keyof (typeof rows)[number]>(key: K) =>
      arrayParam(rows.map((row) => row[key]));
    const insertedRows = (
      await queryRows<Record<string, unknown>>(
        tx,
        sql`insert into ${messages} (company_id, provider_id, whatsapp_id, body, from_me, media_type,
                                     media_url, media_name, media_error, read, ack, remote_jid,
                                     participant, created_at, ticket_id, contact_id, quoted_msg_id,
                                     data_json)
            select x.company_id, x.provider_id, x.whatsapp_id, x.body, x.from_me, x.media_type,
                   x.media_url, x.media_name, x.media_error, x.read, x.ack, x.remote_jid,
                   x.participant, x.created_at, x.ticket_id, x.contact_id,
                   (select q.id from messages q where q.whatsapp_id = x.whatsapp_id
                       and q.provider_id = x.quoted_id),
                   x.data_json
              from unnest(${column('companyId')}::int[], ${column('providerId')}::text[],
                          ${column('whatsappId')}::int[], ${column('body')}::text[],
                          ${column('fromMe')}::boolean[], ${column('mediaType')}::text[],
                          ${column('mediaUrl')}::text[], ${column('mediaName')}::text[],
                          ${column('mediaError')}::text[], ${column('read')}::boolean[],
                          ${column('ack')}::int[], ${column('remoteJid')}::text[],
                          ${column('participant')}::text[],
                          ${arrayParam(rows.map((row) => row.createdAt.toISOString()))}::timestamptz[],
                          ${column('ticketId')}::int[], ${column('contactId')}::int[],
                          ${column('quotedId')}::text[], ${column('dataJson')}::jsonb[])
                   with ordinality as x(company_id, provider_id, whatsapp_id, body, from_me,
                                        media_type, media_url, media_name, media_error, read, ack,
                                        remote_jid, participant, created_at, ticket_id, contact_id,
                                        quoted_id, data_json, n)
             order by x.n
            on conflict (whatsapp_id, provider_id) do nothing
            returning *`,
      )
    ).map(messageRow);
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
    const bumpList = [...bumps];
    const bumped = (
      await queryRows<Record<string, unknown>>(
        tx,
        sql`update ${tickets}
               set last_message = v.last_message,
                   last_contact_message = coalesce(v.contact_last, tickets.last_contact_message),
                   unread_messages = tickets.unread_messages + v.unread,
                   updated_at = ${now.toISOString()}::timestamptz
              from unnest(${arrayParam(bumpList.map(([id]) => id))}::int[],
                          ${arrayParam(bumpList.map(([, b]) => b.last))}::text[],
                          ${arrayParam(bumpList.map(([, b]) => b.contactLast))}::text[],
                          ${arrayParam(bumpList.map(([, b]) => b.unread))}::int[])
                   as v(id, last_message, contact_last, unread)
             where tickets.id = v.id
            returning tickets.*, ${routableSql} as routable`,
      )
    ).map((raw) => ({ ...ticketRow(raw), routable: Boolean(raw.routable) }));
    const bumpedOf = new Map(bumped.map((row) => [row.id, row]));

    const results = new Map<MessageInput, Ingested>();
    const announced = new Set<number>();
    for (const input of fresh) {
      const { message } = input.event;
      const stored: MessageRow = messageOf(input);
      const { routable, ...ticket } = bumpedOf.get(stored.ticketId)!;
      const created = !rated.has(input) && ticketOf.get(ticketKey(input))!.created;
      // A new ticket is told once, with the first of its messages.
      const first = created && !announced.has(ticket.id);
      if (first) {
        announced.add(ticket.id);
        raise(ticketChanged(null, ticket, null));
      }
      const answer = rated.get(input);
      const rating = answer ? { rating: answer.rate } : {};
      const awaitsBot =
        mayBeRouted({ ticket, message: stored, ...rating }, routable) || awaiting(ticket.id);
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
