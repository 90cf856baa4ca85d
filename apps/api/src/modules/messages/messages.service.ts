import path from 'node:path';
import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  MESSAGES_PAGE_SIZE,
  replyWindowAt,
  type ChatMessageView,
  type MediaType,
  type MessageForwardInput,
} from '@atendi/shared';
import type { AppDeps, OutgoingTicket, TicketMessages } from '../../deps';
import { queryRows, type Db } from '../../db/client';
import { contacts, messages, tickets, whatsapps } from '../../db/schema';
import { preparedPer } from '../../db/prepared';
import { arrayParam, insertRows } from '../../db/rows';
import type { AuthContext } from '../../platform/context';
import { AppError, storeFailure } from '../../platform/errors';
import { foundOr404, ownedRow } from '../../platform/tenancy';
import {
  assertVisible,
  selectTicketViews,
  toTicketView,
  messageCreated,
  messageUpdated,
  storeReaction,
  createTicket,
  loadTicketViews,
  previewOf,
  ticketUpdated,
  visibleTicketRow,
} from '../tickets';
import { discardMedia, mimetypeOf, type MessageForm, type OutgoingMedia } from './message-form';
import { viewMessages, type MessageRow } from './message-views';
import { getSettingValue } from '../settings';
import { assertReplyWindow, lastInboundSql } from './reply-window';
import { earlierSend, rememberSend, sendDigest, type SendKey } from './send-keys';
import { queueSends, retrySend, withdrawSend } from './sends';
import type { TemplateSend } from '../../channels/driver';

type Deps = Pick<AppDeps, 'db' | 'uploads' | 'channels' | 'events'>;
type TicketRow = typeof tickets.$inferSelect;

// The ticket a message route works on: the caller's company's (else 404) and one they may see (else
// 403), as the tickets routes decide it.
export const visibleTicket = visibleTicketRow;

// Agents write only in tickets they serve (SPEC §4: a pending ticket is accepted first).
export const assertWritable = (ticket: Pick<TicketRow, 'status'>) => {
  if (ticket.status === 'pending') throw new AppError('ERR_VALIDATION', 'Accept the ticket first');
  if (ticket.status === 'closed') throw new AppError('ERR_VALIDATION', 'Reopen the ticket first');
};

// The caller's company's message in a ticket they may see.
const visibleMessage = async (db: Db, ctx: AuthContext, id: number) => {
  const message = foundOr404(
    (
      await db
        .select()
        .from(messages)
        .where(ownedRow(messages, id, ctx))
    )[0],
    'ERR_NOT_FOUND',
  );
  const ticket = await visibleTicket(db, ctx, message.ticketId);
  return { message, ticket };
};

// Opening a conversation reads it: no unread badge, inbound messages read here and on the phone. One
// statement marks both (the chat is the inbox's most frequent call) and answers the ticket's new
// version, whether anything was unread, and the ids read, oldest first, the newest last (WhatsApp
// marks everything before the newest one read as well: a long backlog needs no more than the newest
// 100). Answers the ticket's new version, or undefined when someone else read it first.
const markTicketRead = async (
  deps: Deps,
  ticket: TicketRow,
  contactNumber: string,
  log: FastifyBaseLogger,
) => {
  const marked = await deps.events.transaction(deps.db, async (tx, raise) => {
    const [row] = await queryRows<{ version: number | null; read: number; provider_ids: string[] }>(
      tx,
      sql`with lazy as (
            -- A read mark may be lost in a crash (the badge comes back): its commit does not wait
            -- for the disk, the page answers ~1 ms sooner (set_config: no round trip of its own).
            select set_config('synchronous_commit', 'off', true)
          ), marked as (
            update ${messages} set read = true
             where ticket_id = ${ticket.id} and not from_me and not read
            returning id, provider_id, created_at
          ), badge as (
            -- Reading is not activity: the ticket keeps its place in the lists (updated_at).
            update ${tickets} set unread_messages = 0
             where id = ${ticket.id} and unread_messages <> 0
            returning version
          )
          select (select version from badge) as version, (select count(*) from marked)::int as read,
                 (select count(*) from lazy) as lazy,
                 array(select provider_id from (select * from marked where provider_id is not null
                                                 order by created_at desc, id desc limit 100) newest
                        order by created_at, id) as provider_ids`,
    );
    if (row.version === null && row.read === 0) return undefined;
    raise(ticketUpdated(ticket, 'read'));
    return row;
  });
  if (
    marked?.provider_ids.length &&
    (await getSettingValue(deps.db, ticket.companyId, 'readReceipts')) === 'enabled'
  )
    // Best effort: blue ticks on the phone are not worth failing (or slowing) the page for.
    deps.channels
      .markRead(ticket.whatsappId, { from: contactNumber, providerIds: marked.provider_ids })
      .catch((err: unknown) => log.debug({ err, ticketId: ticket.id }, 'read receipts not sent'));
  return marked && { version: marked.version ?? ticket.version };
};

// Everything the chat's page needs of its ticket, in one round trip: the row (who may see it), its
// view, whether anything is left to mark read, and on Cloud API connections the contact's newest
// message (the reply window). Opening a chat is the inbox's most frequent call.
const chatTicketQuery = preparedPer((db) =>
  selectTicketViews(db, {
    hasUnread: sql<boolean>`exists (select 1 from ${messages} m
      where m.ticket_id = ${tickets.id} and not m.from_me and not m.read)`,
    provider: whatsapps.provider,
    lastInbound: lastInboundSql(whatsapps.provider, tickets.contactId, tickets.whatsappId),
  })
    .where(eq(tickets.id, sql.placeholder('id')))
    .prepare('chat_ticket'),
);

// A page of the chat, newest first, with the ticket's message count (every page, not this one's).
const chatPageQuery = preparedPer((db) =>
  db
    .select({
      message: messages,
      total: sql<number>`(select count(*) from ${messages} m where m.ticket_id = ${sql.placeholder('ticketId')})::integer`,
    })
    .from(messages)
    .where(eq(messages.ticketId, sql.placeholder('ticketId')))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('chat_page'),
);

const countMessages = async (db: Db, ticketId: number) =>
  (await db.select({ total: count() }).from(messages).where(eq(messages.ticketId, ticketId)))[0]
    .total;

// GET /messages/{ticketId}: page 1 is the latest MESSAGES_PAGE_SIZE messages; each page oldest first.
export const listMessages = async (
  deps: Deps,
  ctx: AuthContext,
  ticketId: number,
  pageNumber: number,
  log: FastifyBaseLogger,
  markRead = true,
) => {
  const [found] = await chatTicketQuery(deps.db).execute({ id: ticketId });
  const ticket = await assertVisible(deps.db, ctx, found?.ticket);
  let view = toTicketView(found);
  const marked =
    pageNumber === 1 && markRead && (found.hasUnread || ticket.unreadMessages > 0)
      ? await markTicketRead(deps, ticket, found.contact.number, log)
      : undefined;
  if (marked) view = { ...view, unreadMessages: 0, version: marked.version };
  const rows = await chatPageQuery(deps.db).execute({
    ticketId: ticket.id,
    limit: MESSAGES_PAGE_SIZE,
    offset: (pageNumber - 1) * MESSAGES_PAGE_SIZE,
  });
  // A page past the end has no row to carry the count.
  const total = rows[0]?.total ?? (await countMessages(deps.db, ticket.id));
  return {
    messages: await viewMessages(deps, rows.map((row) => row.message).reverse()),
    ticket: view,
    count: total,
    hasMore: total > pageNumber * MESSAGES_PAGE_SIZE,
    replyWindow: found.provider === 'cloud' ? replyWindowAt(found.lastInbound) : null,
  };
};

// A quoted message must belong to the same conversation: this contact on this connection.
const assertQuotable = async (db: Db, ticket: TicketRow, quotedMsgId: number) => {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .where(
      and(
        eq(messages.id, quotedMsgId),
        eq(messages.companyId, ticket.companyId),
        eq(tickets.contactId, ticket.contactId),
        eq(tickets.whatsappId, ticket.whatsappId),
      ),
    );
  if (!row)
    throw new AppError('ERR_VALIDATION', 'The quoted message is not part of this conversation', {
      fields: { quotedMsg: ['Not a message of this conversation'] },
    });
};

// Stores outgoing messages with their outbox rows and moves the ticket, all or nothing. One message
// per file, the text riding as the first file's caption (as WhatsApp shows it); text alone is one
// message. Other modules (greetings, schedules) queue their sends through this too.
// A template (Cloud API) is one message: the text it makes, sent as the template.
export const queueOutgoing = async (
  tx: Db,
  ticket: OutgoingTicket,
  form: MessageForm,
  template?: TemplateSend,
  // Written by the agent in the inbox: a routed conversation has its agent's answer.
  byAgent = false,
) => {
  const parts =
    form.forwards ??
    (form.medias.length
      ? form.medias.map((media, index) => ({ body: index === 0 ? form.body : '', media }))
      : [{ body: form.body, media: null }]);
  const rows = (
    await tx
      .insert(messages)
      .values(
        parts.map(({ body, media }) => ({
          ...outgoingRow(ticket, body, { media, quotedMsgId: form.quotedMsgId }),
          isForwarded: Boolean(form.forwards),
        })),
      )
      .returning()
  ).sort((a, b) => a.id - b.id);
  await queueSends(
    tx,
    rows.map((row, index) => ({
      ticket,
      messageId: row.id,
      media: parts[index].media,
      ...(template ? { template } : {}),
    })),
  );
  await showLastMessages(tx, rows, byAgent);
  return rows;
};

// An outgoing message's row, as the outbox (sends.ts) sends it.
const outgoingRow = (
  ticket: OutgoingTicket,
  body: string,
  extra: { media?: OutgoingMedia | null; quotedMsgId?: number | null; promptId?: number | null },
) => ({
  companyId: ticket.companyId,
  ticketId: ticket.id,
  whatsappId: ticket.whatsappId,
  body,
  fromMe: true,
  read: true,
  ack: 0,
  mediaType: extra.media?.mediaType ?? ('chat' as const),
  mediaUrl: extra.media?.storedName ?? null,
  mediaName: extra.media?.fileName ?? null,
  quotedMsgId: extra.quotedMsgId ?? null,
  promptId: extra.promptId ?? null,
});

// The tickets' list rows end on the last of their messages just written: one statement for any
// number of tickets.
const showLastMessages = async (tx: Db, rows: MessageRow[], byAgent = false) => {
  const last = new Map(rows.map((row) => [row.ticketId, previewOf(row).slice(0, 500)]));
  await tx.execute(
    sql`update ${tickets} set last_message = v.last_message,
                              updated_at = ${new Date().toISOString()}::timestamptz
                              ${byAgent ? sql`, routed_at = null` : sql``}
          from unnest(${arrayParam([...last.keys()])}::int[], ${arrayParam([...last.values()])}::text[])
               as v(id, last_message)
         where ${tickets.id} = v.id`,
  );
};

// What makes two sends from the inbox the same send: the ticket, the text, the quoted message and each
// file's name and type.
const sendDigestOf = (ticketId: number, form: MessageForm) =>
  sendDigest([
    ticketId,
    form.body,
    form.quotedMsgId ?? null,
    form.medias.map((m) => [m.fileName, m.mimetype]),
  ]);

// POST /messages/{ticketId}. The caller has already checked the ticket (visibleTicket, assertWritable)
// and stored the form's files; a refusal here removes them again.
export const sendMessages = async (
  deps: Deps & Pick<AppDeps, 'events'>,
  ticket: TicketRow,
  form: MessageForm,
  options: {
    kick: () => void;
    log: FastifyBaseLogger;
    // Who writes: an agent in the inbox (their id), or a company system through the external API.
    author: { kind: 'agent'; userId: number } | { kind: 'api' };
    // An approved template (Cloud API), whose text the form's body is.
    template?: TemplateSend;
    // The agent's Idempotency-Key: a retried call answers what the first one stored (send-keys.ts).
    once?: { userId: number; key: string };
  },
): Promise<{ replayed: boolean; messages: ChatMessageView[] }> => {
  const once: SendKey | undefined = options.once && {
    owner: { kind: 'agent', userId: options.once.userId },
    key: options.once.key,
    hash: sendDigestOf(ticket.id, form),
  };
  let replayed = false;
  let rows: MessageRow[];
  try {
    rows = await deps.events.transaction(deps.db, async (tx, raise) => {
      if (once) {
        const earlier = await earlierSend(tx, once);
        if (earlier) {
          replayed = true;
          return earlier.rows;
        }
      }
      // Outside the contact's 24-hour window only a template reaches them (Cloud API).
      if (!options.template) await assertReplyWindow(tx, ticket);
      if (form.quotedMsgId) await assertQuotable(tx, ticket, form.quotedMsgId);
      // Locked, so a ticket closed meanwhile refuses the send instead of taking it.
      const [current] = await tx
        .select({ status: tickets.status })
        .from(tickets)
        .where(eq(tickets.id, ticket.id))
        .for('update');
      if (!current) throw new AppError('ERR_NO_TICKET_FOUND');
      assertWritable(current);
      const written = await queueOutgoing(
        tx,
        ticket,
        form,
        options.template,
        options.author.kind === 'agent',
      );
      const { author } = options;
      written.forEach((row) =>
        raise(
          author.kind === 'agent'
            ? messageCreated(row, 'agent', author.userId)
            : messageCreated(row, 'api'),
        ),
      );
      if (once)
        await rememberSend(tx, once, {
          companyId: ticket.companyId,
          ticketId: ticket.id,
          rows: written,
        });
      return written;
    });
  } catch (error) {
    await discardMedia(deps.uploads, ticket.companyId, form.medias);
    throw storeFailure(error, 'ERR_CREATING_MESSAGE', 'The message could not be stored');
  }
  // A retry: its own copies of the files are not needed, the first call's are being sent.
  if (replayed) await discardMedia(deps.uploads, ticket.companyId, form.medias);
  // After the commit, whose message.created screens have heard: never a delivery before the message.
  else options.kick();
  return { replayed, messages: await viewMessages(deps, rows) };
};

// POST /messages/{id}/retry: a message whose send was given up goes back to the outbox, due now.
export const retryMessage = async (deps: Deps, ctx: AuthContext, id: number, kick: () => void) => {
  const { message } = await visibleMessage(deps.db, ctx, id);
  const retried =
    message.fromMe &&
    (await deps.events.transaction(deps.db, async (tx, raise) => {
      const again = await retrySend(tx, message.id);
      if (again) raise(messageUpdated(message, 'retried'));
      return again;
    }));
  if (!retried)
    throw new AppError('ERR_VALIDATION', 'Only a message that failed to send can be retried');
  kick();
  return (await viewMessages(deps, [message]))[0];
};

// DELETE /messages/{id}: deleted for everyone on WhatsApp, kept here marked isDeleted (SPEC §3).
export const deleteMessage = async (deps: Deps, ctx: AuthContext, id: number) => {
  const { message, ticket } = await visibleMessage(deps.db, ctx, id);
  if (!message.fromMe)
    throw new AppError('ERR_DELETE_WAPP_MSG', 'Only messages sent from here can be deleted');
  if (message.isDeleted) return (await viewMessages(deps, [message]))[0];
  if (message.providerId) {
    const [contact] = await deps.db
      .select({ number: contacts.number })
      .from(contacts)
      .where(eq(contacts.id, ticket.contactId));
    if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
    // A ChannelError (session down, WhatsApp refused) answers with its own code; nothing changes here.
    await deps.channels.deleteMessage(message.whatsappId, {
      to: contact.number,
      providerId: message.providerId,
      fromMe: true,
    });
  }
  const updated = await deps.events.transaction(deps.db, async (tx, raise) => {
    // Never sent: withdrawn from the outbox, unless a worker is handing it to WhatsApp right now.
    if (!message.providerId && (await withdrawSend(tx, message.id)) === 'started')
      throw new AppError(
        'ERR_DELETE_WAPP_MSG',
        'The message is being sent right now; try again in a moment',
      );
    const rows = await tx
      .update(messages)
      .set({ isDeleted: true })
      .where(eq(messages.id, message.id))
      .returning();
    rows.forEach((row) => raise(messageUpdated(row, 'deleted')));
    return rows;
  });
  return (await viewMessages(deps, updated))[0];
};

// POST /messages/forward: messages of conversations the caller sees, forwarded to a contact in the
// order they were written (issue 39). Into the contact's open conversation on the first message's
// connection when the caller sees it, else a new one held by the caller (as POST /tickets makes it,
// refused the same way when someone else holds the contact). Each file is copied, so the two
// messages' files live and go independently. One send: all of them are queued, or none.
export const forwardMessages = async (
  deps: Deps & Pick<AppDeps, 'events'>,
  ctx: AuthContext,
  input: MessageForwardInput,
  options: { kick: () => void; log: FastifyBaseLogger },
) => {
  const ids = [...new Set(input.messageIds)];
  const rows = await deps.db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, ctx.companyId), inArray(messages.id, ids)))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  if (rows.length !== ids.length) throw new AppError('ERR_NOT_FOUND', 'Message not found');
  for (const ticketId of new Set(rows.map((row) => row.ticketId)))
    await visibleTicket(deps.db, ctx, ticketId);
  if (rows.some((row) => row.isDeleted))
    throw new AppError('ERR_VALIDATION', 'A deleted message cannot be forwarded');
  const [source] = rows;
  const [contact] = await deps.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(ownedRow(contacts, input.contactId, ctx));
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  // Checked before anything is written: a refused forward leaves no new conversation behind.
  await assertReplyWindow(deps.db, { whatsappId: source.whatsappId, contactId: contact.id });

  const copies: OutgoingMedia[] = [];
  const forwards: NonNullable<MessageForm['forwards']> = [];
  let target: TicketRow;
  try {
    for (const row of rows) {
      if (!row.mediaUrl || !fileTypes.has(row.mediaType)) {
        forwards.push({ body: row.body, media: null });
        continue;
      }
      const data = await deps.uploads.read(row.companyId, row.mediaUrl);
      if (!data)
        throw new AppError('ERR_VALIDATION', 'The file of a message is no longer stored', {
          details: { messageId: row.id },
        });
      const mimetype = mimetypeOf(undefined, path.extname(row.mediaUrl).toLowerCase());
      const fileName = row.mediaName ?? row.mediaUrl;
      const stored = await deps.uploads.store(row.companyId, data, { fileName, mimetype });
      const media = { storedName: stored.storedName, fileName, mimetype, mediaType: row.mediaType };
      copies.push(media);
      forwards.push({ body: row.body, media });
    }
    const [from] = await deps.db
      .select({ queueId: tickets.queueId })
      .from(tickets)
      .where(eq(tickets.id, source.ticketId));
    target = await forwardTarget(deps, ctx, {
      contactId: contact.id,
      whatsappId: source.whatsappId,
      queueId: from?.queueId ?? null,
    });
    assertWritable(target);
  } catch (error) {
    await discardMedia(deps.uploads, ctx.companyId, copies);
    throw error;
  }
  const sent = await sendMessages(
    deps,
    target,
    { body: '', quotedMsgId: null, medias: copies, forwards },
    { ...options, author: { kind: 'agent', userId: ctx.userId } },
  );
  const [ticket] = await loadTicketViews(deps.db, [target.id]);
  return { ticket: ticket!, messages: sent.messages };
};

// The files a message can carry on (locations, contacts and calls are their text).
const fileTypes = new Set<MediaType>(['image', 'audio', 'video', 'application']);

// The conversation forwarded messages go to: the contact's open one on the connection when the caller
// sees it; else a new one, held by the caller in the source conversation's queue. Two forwards at
// once to a contact without one meet at the unique index: the loser goes into the winner's.
const forwardTarget = async (
  deps: Deps & Pick<AppDeps, 'events'>,
  ctx: AuthContext,
  to: { contactId: number; whatsappId: number; queueId: number | null },
): Promise<TicketRow> => {
  const open = async () => {
    const [row] = await deps.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(
          eq(tickets.contactId, to.contactId),
          eq(tickets.whatsappId, to.whatsappId),
          ne(tickets.status, 'closed'),
        ),
      );
    return row ? visibleTicket(deps.db, ctx, row.id).catch(() => undefined) : undefined;
  };
  const existing = await open();
  if (existing) return existing;
  try {
    const created = await createTicket(deps, ctx, {
      contactId: to.contactId,
      whatsappId: to.whatsappId,
      queueId: to.queueId,
      status: 'open',
    });
    return await visibleTicket(deps.db, ctx, created!.id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'ERR_OTHER_OPEN_TICKET') {
      const winner = await open();
      if (winner) return winner;
    }
    throw error;
  }
};

// "typing…" goes to WhatsApp at most this often while an agent writes (WhatsApp shows it for a few
// seconds; the browser may tell on every key).
const TYPING_EVERY_MS = 4000;

// POST /messages/{ticketId}/typing (issue 39): the contact sees "typing…" while an agent of the open
// conversation writes, unless the company turned it off. What this node last told each conversation
// is remembered so a busy composer does not reach WhatsApp on every key; best effort: a session that
// is down or a refusal is logged, never shown to the agent.
export const createTypingRelay = (deps: Deps) => {
  const shown = new Map<number, { typing: boolean; at: number }>();
  return async (ctx: AuthContext, ticketId: number, typing: boolean, log: FastifyBaseLogger) => {
    const ticket = await visibleTicket(deps.db, ctx, ticketId);
    if (ticket.status !== 'open') return;
    const now = Date.now();
    const last = shown.get(ticket.id);
    if (last && last.typing === typing && (!typing || now - last.at < TYPING_EVERY_MS)) return;
    if (shown.size >= 10_000) shown.clear();
    shown.set(ticket.id, { typing, at: now });
    if ((await getSettingValue(deps.db, ticket.companyId, 'typingToContact')) !== 'enabled') return;
    const [chat] = await deps.db
      .select({ number: contacts.number, isGroup: contacts.isGroup, provider: whatsapps.provider })
      .from(contacts)
      .innerJoin(whatsapps, eq(whatsapps.id, ticket.whatsappId))
      .where(eq(contacts.id, ticket.contactId));
    if (!chat) return;
    // The Cloud API's indicator marks the contact's last message read: only where receipts go.
    let lastInboundId: string | undefined;
    if (chat.provider === 'cloud') {
      if ((await getSettingValue(deps.db, ticket.companyId, 'readReceipts')) !== 'enabled') return;
      const [last] = await deps.db
        .select({ providerId: messages.providerId })
        .from(messages)
        .where(
          and(
            eq(messages.ticketId, ticket.id),
            eq(messages.fromMe, false),
            sql`${messages.providerId} is not null`,
          ),
        )
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(1);
      lastInboundId = last?.providerId ?? undefined;
    }
    await deps.channels
      .sendPresence(ticket.whatsappId, {
        to: chat.number,
        isGroup: chat.isGroup,
        typing,
        ...(lastInboundId ? { lastInboundId } : {}),
      })
      .catch((err: unknown) => log.debug({ err, ticketId: ticket.id }, 'typing not shown'));
  };
};

// PUT /messages/{id}/reaction: the company's reaction to a message (issue 39), '' to take it back.
// WhatsApp takes it first (a refusal answers its error and changes nothing); then it is stored and
// every screen of the chat sees it. WhatsApp keeps one reaction per account: the company's number has
// one, whoever of its people chose it last.
export const reactToMessage = async (deps: Deps, ctx: AuthContext, id: number, emoji: string) => {
  const { message, ticket } = await visibleMessage(deps.db, ctx, id);
  if (!message.providerId || message.isDeleted)
    throw new AppError(
      'ERR_VALIDATION',
      message.isDeleted
        ? 'A deleted message cannot be reacted to'
        : 'The message has not reached WhatsApp yet',
    );
  // A reaction is a message to the contact: on the Cloud API only within their 24-hour window.
  await assertReplyWindow(deps.db, ticket);
  const [contact] = await deps.db
    .select({ number: contacts.number, isGroup: contacts.isGroup })
    .from(contacts)
    .where(eq(contacts.id, ticket.contactId));
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  const reactedAt = new Date();
  await deps.channels.react(message.whatsappId, {
    to: contact.number,
    isGroup: contact.isGroup,
    providerId: message.providerId,
    fromMe: message.fromMe,
    participant: message.participant ?? undefined,
    emoji,
  });
  await deps.events.transaction(deps.db, async (tx, raise) => {
    const changed = await storeReaction(tx, {
      companyId: message.companyId,
      messageId: message.id,
      fromMe: true,
      sender: '',
      emoji,
      userId: ctx.userId,
      reactedAt,
    });
    if (changed) raise(messageUpdated(message, 'reaction'));
  });
  return (await viewMessages(deps, [message]))[0];
};

// The tickets module's port (TicketMessages in deps.ts), handed to it by app.ts as
// deps.ticketMessages: greetings, bot texts and timed messages are queued as an agent's are.
export const createTicketMessages = (): TicketMessages => ({
  queueText: (tx, ticket, body, options) =>
    queueTexts(tx, [{ ticket, body, promptId: options?.promptId }]),
  queueTexts,
});

// Texts on many tickets at once (the queue bot's replies to a batch of messages): the messages, their
// sends and the tickets' list rows in a statement each, whatever the number; in the order given.
const queueTexts = async (
  tx: Db,
  items: { ticket: OutgoingTicket; body: string; promptId?: number }[],
) => {
  if (!items.length) return [];
  const rows = await insertRows(
    tx,
    messages,
    items.map(({ ticket, body, promptId }) => outgoingRow(ticket, body, { promptId })),
  );
  await queueSends(
    tx,
    rows.map((row, index) => ({ ticket: items[index].ticket, messageId: row.id, media: null })),
  );
  await showLastMessages(tx, rows);
  return rows;
};
