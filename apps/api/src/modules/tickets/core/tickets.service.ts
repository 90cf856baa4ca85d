import { auditAs } from '../../../platform/audit';
import { and, desc, eq, exists, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import {
  canSeeTicket,
  type TicketCreateInput,
  type TicketListQuery,
  type TicketUpdateInput,
  type TicketViewer,
} from '@atendi/shared';
import type { AppDeps } from '../../../deps';
import { messageCreated, snapshotOf, ticketChanged, ticketUpdated } from './ticket-events';
import type { Db } from '../../../db/client';
import type { DomainEvent } from '../../../events/domain-events';
import { preparedPer } from '../../../db/prepared';
import {
  contacts,
  messages,
  prompts,
  queueIntegrations,
  queues,
  ticketNotes,
  ticketTags,
  tickets,
  users,
  whatsapps,
} from '../../../db/schema';
import type { AuthContext } from '../../../platform/context';
import { AppError, pgErrorOf, storeFailure } from '../../../platform/errors';
import { containsPattern } from '../../../platform/like';
import { foundOr404, ownedRow } from '../../../platform/tenancy';
import { getDefaultWhatsapp } from '../../whatsapps';
import { queueTransitionMessages } from '../bots/ticket-automation';
import { planTicketUpdate, writeTransition } from './ticket-transition';
import { loadTicketViews, selectTicketViews, toTicketView } from './ticket-views';
import { listScope, scopeFilter, seesAll, ticketViewer } from './visibility';

type Deps = Pick<AppDeps, 'db' | 'uploads'>;
type EventDeps = Deps & Pick<AppDeps, 'events'>;
type ChangeDeps = Deps & Pick<AppDeps, 'outbox' | 'config' | 'ticketMessages' | 'events'>;
type TicketRow = typeof tickets.$inferSelect;

const PAGE_SIZE = 40;

// How many of the newest tickets a first search page looks through before it asks the indexes.
const SEARCH_WINDOW = 2000;

// A search matches the contact's name or number, or the text of any message of the ticket (its body,
// or a voice note's transcript). The page
// is filled with distinct tickets, newest first.
// - Page 1 first walks the newest tickets (within the other filters) and checks each one's messages
//   through the (ticket_id, created_at) index: a common word fills the page after a few hundred
//   tickets. Finding a full page among the newest SEARCH_WINDOW tickets proves nothing older could
//   come before them.
// - Otherwise (a rare word, a later page) the candidates come from the trigram indexes on
//   messages.body and messages.transcript and the contacts' name and number, and are sorted.
const searchPage = async (
  db: Db,
  companyId: number,
  conditions: (SQL | undefined)[],
  term: string,
  pageNumber: number,
) => {
  if (pageNumber === 1) {
    const window = db
      .select({ id: tickets.id, updatedAt: tickets.updatedAt, contactId: tickets.contactId })
      .from(tickets)
      .where(and(...conditions))
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(SEARCH_WINDOW)
      .as('w');
    const walked = await db
      .select({ id: window.id })
      .from(window)
      .where(
        // Scalar subqueries, so each ticket is checked as it comes (an EXISTS here would be planned
        // as one hashed scan of every matching message, the cost this walk avoids).
        sql`(select count(*) from (select 1 from ${messages} m
              where m.ticket_id = ${window.id}
                and (m.body ilike ${term} or m.transcript ilike ${term}) limit 1) hit) > 0
          or (select count(*) from ${contacts} c where c.id = ${window.contactId}
              and (c.name ilike ${term} or c.number ilike ${term})) > 0`,
      )
      .orderBy(desc(window.updatedAt), desc(window.id))
      .limit(PAGE_SIZE + 1);
    if (walked.length > PAGE_SIZE) return walked;
  }
  return db
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        ...conditions,
        sql`${tickets.id} in (
          select m.ticket_id from ${messages} m where m.company_id = ${companyId} and m.body ilike ${term}
          union
          select m.ticket_id from ${messages} m
          where m.company_id = ${companyId} and m.transcript ilike ${term}
          union
          select t.id from ${tickets} t join ${contacts} c on c.id = t.contact_id
          where t.company_id = ${companyId} and (c.name ilike ${term} or c.number ilike ${term})
        )`,
      ),
    )
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE);
};

// The inbox's own lists (a status or none, the scope, the queue, user and unread filters; no search,
// tags or dates) are the hot path: one prepared statement per combination of those filters, the page
// and its rows in one round trip, no SQL built per request.
type InboxShape = {
  status: boolean;
  scoped: boolean;
  unread: boolean;
  queues: boolean;
  users: boolean;
  // The nearest SLA deadline first, those without one after (by recency).
  urgent: boolean;
};

const inboxShape = (query: TicketListQuery, viewer: TicketViewer): InboxShape | undefined => {
  if (query.searchParam || query.tags.length || query.date || query.updatedAt) return undefined;
  return {
    status: Boolean(query.status),
    scoped: !(query.showAll && viewer.seesAll),
    unread: Boolean(query.withUnreadMessages),
    queues: query.queueIds.length > 0,
    users: query.users.length > 0,
    urgent: query.sortBy === 'urgency',
  };
};

const listOrder = (urgent: boolean) => [
  ...(urgent ? [sql`${tickets.slaDueAt} asc nulls last`] : []),
  desc(tickets.updatedAt),
  desc(tickets.id),
];

const anyOf = (column: typeof tickets.queueId | typeof tickets.userId, name: string) =>
  sql`${column} = any(${sql.placeholder(name)}::integer[])`;

// The statement's name says its filters: inbox_page_status_scoped, …
const shapeName = (shape: InboxShape) =>
  Object.entries(shape)
    .filter(([, on]) => on)
    .map(([key]) => key)
    .join('_');

// The first page, asked for most, has its own statement with the page size written in: PostgreSQL
// can then plan it once (a generic plan) instead of at every request, as it must while the size of
// the page and its offset are parameters (their generic plan reads the whole table).
const FIRST_PAGE_LIMIT = sql.raw(String(PAGE_SIZE + 1)) as unknown as number;

const buildInboxPage = (db: Db, shape: InboxShape, first: boolean) => {
  const placeholder = sql.placeholder;
  const rows = db
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, placeholder('companyId')),
        shape.status ? eq(tickets.status, placeholder('status')) : undefined,
        shape.scoped
          ? scopeFilter(placeholder('userId'), placeholder('viewerQueueIds'))
          : undefined,
        shape.unread ? sql`${tickets.unreadMessages} > 0` : undefined,
        shape.queues ? anyOf(tickets.queueId, 'queueIds') : undefined,
        shape.users ? anyOf(tickets.userId, 'users') : undefined,
      ),
    )
    .orderBy(...listOrder(shape.urgent));
  const page = first
    ? rows.limit(FIRST_PAGE_LIMIT)
    : rows.limit(placeholder('limit')).offset(placeholder('offset'));
  return selectTicketViews(db)
    .where(inArray(tickets.id, page))
    .orderBy(...listOrder(shape.urgent))
    .prepare(`inbox_page_${shapeName(shape)}${first ? '_first' : ''}`);
};

const inboxPages = new Map<string, (db: Db) => ReturnType<typeof buildInboxPage>>();
const inboxPage = (db: Db, shape: InboxShape, first: boolean) => {
  const name = `${shapeName(shape)}${first ? '_first' : ''}`;
  let statement = inboxPages.get(name);
  if (!statement) {
    statement = preparedPer((handle) => buildInboxPage(handle, shape, first));
    inboxPages.set(name, statement);
  }
  return statement(db);
};

export const listTickets = async (db: Db, ctx: AuthContext, query: TicketListQuery) => {
  const viewer = await ticketViewer(db, ctx);
  const term = query.searchParam ? containsPattern(query.searchParam) : '';
  const conditions = [
    eq(tickets.companyId, ctx.companyId),
    listScope(viewer, query.showAll),
    query.status ? eq(tickets.status, query.status) : undefined,
    query.withUnreadMessages ? sql`${tickets.unreadMessages} > 0` : undefined,
    query.queueIds.length ? inArray(tickets.queueId, query.queueIds) : undefined,
    query.users.length ? inArray(tickets.userId, query.users) : undefined,
    query.tags.length
      ? exists(
          db
            .select({ one: sql`1` })
            .from(ticketTags)
            .where(and(eq(ticketTags.ticketId, tickets.id), inArray(ticketTags.tagId, query.tags))),
        )
      : undefined,
    query.date ? sql`${tickets.createdAt}::date = ${query.date.slice(0, 10)}::date` : undefined,
    query.updatedAt
      ? sql`${tickets.updatedAt}::date = ${query.updatedAt.slice(0, 10)}::date`
      : undefined,
  ];
  const shape = inboxShape(query, viewer);
  if (shape) {
    const rows = await inboxPage(db, shape, query.pageNumber === 1).execute({
      companyId: ctx.companyId,
      status: query.status ?? '',
      userId: viewer.userId,
      viewerQueueIds: viewer.queueIds,
      queueIds: query.queueIds,
      users: query.users,
      limit: PAGE_SIZE + 1,
      offset: (query.pageNumber - 1) * PAGE_SIZE,
    });
    const page = rows.slice(0, PAGE_SIZE).map(toTicketView);
    return { tickets: page, count: page.length, hasMore: rows.length > PAGE_SIZE };
  }
  const rows = term
    ? await searchPage(db, ctx.companyId, conditions, term, query.pageNumber)
    : await db
        .select({ id: tickets.id })
        .from(tickets)
        .where(and(...conditions))
        .orderBy(...listOrder(query.sortBy === 'urgency'))
        .limit(PAGE_SIZE + 1)
        .offset((query.pageNumber - 1) * PAGE_SIZE);
  const hasMore = rows.length > PAGE_SIZE;
  const page = await loadTicketViews(
    db,
    rows.slice(0, PAGE_SIZE).map((r) => r.id),
  );
  return { tickets: page, count: page.length, hasMore };
};

// The caller's company's ticket (else 404) that they may see (else 403).
export const assertVisible = async <
  T extends Pick<TicketRow, 'companyId' | 'status' | 'queueId' | 'userId'>,
>(
  db: Db,
  ctx: AuthContext,
  ticket: T | undefined,
) => {
  const found = foundOr404(
    ticket?.companyId === ctx.companyId ? ticket : undefined,
    'ERR_NO_TICKET_FOUND',
  );
  // SPEC §8: outside one's queues the ticket exists but is not theirs to open.
  if (!canSeeTicket(await ticketViewer(db, ctx), found))
    throw new AppError('ERR_NO_PERMISSION', 'This ticket belongs to a queue you are not in');
  return found;
};

const findTicket = async (db: Db, ctx: AuthContext, where: SQL, options?: { lock: boolean }) => {
  const query = db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, ctx.companyId), where));
  return assertVisible(db, ctx, (options?.lock ? await query.for('update') : await query)[0]);
};

// The ticket row, if the caller may see it (404 / 403 otherwise).
export const visibleTicketRow = (db: Db, ctx: AuthContext, id: number) =>
  findTicket(db, ctx, eq(tickets.id, id));

const viewOf = async (db: Db, id: number) => (await loadTicketViews(db, [id]))[0];

export const getTicket = async (db: Db, ctx: AuthContext, id: number) =>
  viewOf(db, (await findTicket(db, ctx, eq(tickets.id, id))).id);

export const getTicketByUuid = async (db: Db, ctx: AuthContext, uuid: string) =>
  viewOf(db, (await findTicket(db, ctx, eq(tickets.uuid, uuid))).id);

// The contact's active ticket on the connection, described so the screen can say who holds it.
const otherOpenTicket = async (
  db: Db,
  contactId: number,
  whatsappId: number,
  exceptId?: number,
) => {
  const [row] = await db
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      status: tickets.status,
      userName: users.name,
      queueName: queues.name,
    })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .where(
      and(
        eq(tickets.contactId, contactId),
        eq(tickets.whatsappId, whatsappId),
        ne(tickets.status, 'closed'),
        exceptId ? ne(tickets.id, exceptId) : undefined,
      ),
    );
  if (!row) return;
  throw new AppError(
    'ERR_OTHER_OPEN_TICKET',
    'The contact already has an open ticket on this connection',
    {
      details: {
        ticket: { id: row.id, uuid: row.uuid, status: row.status },
        user: row.userName ? { name: row.userName } : null,
        queue: row.queueName ? { name: row.queueName } : null,
      },
    },
  );
};

// Every id a ticket points at must exist in the caller's company.
const assertRefs = async (
  db: Db,
  ctx: AuthContext,
  refs: {
    queueId?: number | null;
    userId?: number | null;
    whatsappId?: number | null;
    promptId?: number | null;
    integrationId?: number | null;
  },
) => {
  const fields: Record<string, string[]> = {};
  const check = async (
    key: keyof typeof refs,
    table:
      typeof queues | typeof users | typeof whatsapps | typeof prompts | typeof queueIntegrations,
  ) => {
    const id = refs[key];
    if (!id) return;
    const [row] = await db
      .select({ id: table.id })
      .from(table)
      .where(ownedRow(table, id, ctx));
    if (!row) fields[key] = ['ERR_NOT_FOUND'];
  };
  await check('queueId', queues);
  await check('userId', users);
  await check('whatsappId', whatsapps);
  await check('promptId', prompts);
  await check('integrationId', queueIntegrations);
  if (Object.keys(fields).length)
    throw new AppError('ERR_VALIDATION', 'Some referenced records do not exist', { fields });
};

// A bot (AI agent, integration) that answered or handed over a ticket: a note agents read on it,
// signed with the bot's name, written in the caller's transaction. The ticket's update says its notes
// changed (`changed: ['notes']` on the screens' event), so an open contact drawer reads them again.
export const addBotNote = (
  tx: Db,
  raise: (event: DomainEvent) => void,
  ticket: Pick<TicketRow, 'id' | 'companyId' | 'contactId'>,
  botName: string,
  note: string,
) => {
  raise(ticketUpdated(ticket, 'notes'));
  return tx.insert(ticketNotes).values({
    companyId: ticket.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    userId: null,
    botName,
    note: note.slice(0, 2000),
  });
};

export const createTicket = async (deps: EventDeps, ctx: AuthContext, input: TicketCreateInput) => {
  const [contact] = await deps.db
    .select()
    .from(contacts)
    .where(ownedRow(contacts, input.contactId, ctx));
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  // SPEC §5 New ticket: only admins may leave the queue out.
  if (!input.queueId && !seesAll(ctx))
    throw new AppError('ERR_VALIDATION', 'Choose a queue', { fields: { queueId: ['Required'] } });
  await assertRefs(deps.db, ctx, input);
  const [me] = await deps.db
    .select({ whatsappId: users.whatsappId })
    .from(users)
    .where(eq(users.id, ctx.userId));
  const whatsappId =
    input.whatsappId ?? me?.whatsappId ?? (await getDefaultWhatsapp(deps.db, ctx.companyId)).id;
  await otherOpenTicket(deps.db, contact.id, whatsappId);
  const status = input.status;
  const userId = status === 'pending' ? null : (input.userId ?? ctx.userId);
  let row: TicketRow;
  try {
    row = await deps.events.transaction(deps.db, async (tx, raise) => {
      const [inserted] = await tx
        .insert(tickets)
        .values({
          companyId: ctx.companyId,
          contactId: contact.id,
          whatsappId,
          queueId: input.queueId ?? null,
          userId,
          status,
          isGroup: contact.isGroup,
        })
        .returning();
      raise(ticketChanged(null, inserted!, ctx.userId));
      return inserted!;
    });
  } catch (error) {
    // Two people opening the same contact's conversation at once meet at the unique index: the
    // loser is told who holds it, as a sequential second try would be.
    if (pgErrorOf(error)?.code === '23505') await otherOpenTicket(deps.db, contact.id, whatsappId);
    throw storeFailure(error, 'ERR_CREATING_TICKET', 'The ticket could not be stored');
  }
  return viewOf(deps.db, row.id);
};

export const updateTicket = async (
  deps: ChangeDeps,
  ctx: AuthContext,
  id: number,
  input: TicketUpdateInput,
) => {
  await assertRefs(deps.db, ctx, input);
  // The ticket is locked while the change is decided and written with its automatic messages, so two
  // agents (or tabs) acting at once are applied one after the other, each to the state the other left.
  const result = await deps.events.transaction(deps.db, async (tx, raise) => {
    const before = await findTicket(tx, ctx, eq(tickets.id, id), { lock: true });
    const plan = planTicketUpdate(before, input, { userId: ctx.userId, seesAll: seesAll(ctx) });
    if (plan.kind === 'forbidden')
      throw new AppError('ERR_NO_PERMISSION', 'This ticket is being served by someone else');
    if (plan.kind === 'taken') {
      const [holder] = await tx
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(eq(users.id, plan.holderId));
      throw new AppError(
        'ERR_TICKET_TAKEN',
        `This ticket is already being served by ${holder?.name ?? 'someone else'}`,
        {
          details: {
            ticket: { id: before.id, uuid: before.uuid, status: before.status },
            user: holder ?? null,
          },
        },
      );
    }
    if (plan.kind === 'unchanged') return [];
    const merged = { ...before, ...plan.next };
    if (merged.status !== 'closed' && before.status === 'closed')
      await otherOpenTicket(tx, before.contactId, merged.whatsappId, before.id);
    else if (merged.whatsappId !== before.whatsappId && merged.status !== 'closed')
      await otherOpenTicket(tx, before.contactId, merged.whatsappId, before.id);
    const after = await writeTransition(
      tx,
      raise,
      before,
      { ...plan.next, updatedAt: new Date() },
      { byUserId: ctx.userId, detail: 'details' },
    );
    if (!after) throw new AppError('ERR_NO_TICKET_FOUND');
    const sent = await queueTransitionMessages(tx, deps, ctx.userId, before, after);
    sent.forEach((message) => raise(messageCreated(message, 'platform')));
    return sent;
  });
  if (result.length) deps.outbox.kick();
  return viewOf(deps.db, id);
};

// The files of tickets' messages: the rows cascade with a ticket, the files are removed after it.
export const messageFilesOf = async (db: Db, companyId: number, ticketIds: number[]) =>
  ticketIds.length
    ? (
        await db
          .select({ name: messages.mediaUrl })
          .from(messages)
          .where(
            and(
              eq(messages.companyId, companyId),
              inArray(messages.ticketId, ticketIds),
              isNotNull(messages.mediaUrl),
            ),
          )
      ).map((row) => row.name!)
    : [];

export const deleteTicket = async (deps: EventDeps, ctx: AuthContext, id: number) => {
  const before = await findTicket(deps.db, ctx, eq(tickets.id, id));
  const files = await messageFilesOf(deps.db, ctx.companyId, [id]);
  await deps.events.transaction(deps.db, async (tx, raise) => {
    await tx.delete(tickets).where(ownedRow(tickets, id, ctx));
    await auditAs(tx, ctx, {
      action: 'ticket.deleted',
      target: `ticket:${id}`,
      detail: { contactId: before.contactId },
    });
    raise({
      type: 'ticket.deleted',
      companyId: ctx.companyId,
      ticketId: id,
      before: snapshotOf(before),
    });
  });
  for (const name of files) await deps.uploads.remove(ctx.companyId, name);
};
