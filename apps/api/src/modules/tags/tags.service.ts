import { and, asc, count, desc, eq, ilike, inArray, ne } from 'drizzle-orm';
import {
  can,
  TAGS_PAGE_SIZE,
  type KanbanLanes,
  type KanbanTickets,
  type KanbanTicketsQuery,
  type TagEvent,
  type TagInput,
  type TagOption,
  type TagSyncInput,
  type TagUpdateInput,
  type TagView,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { DomainEvent } from '../../events/domain-events';
import type { Db } from '../../db/client';
import { tags, ticketTags, tickets } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { containsPattern } from '../../platform/like';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import {
  listScope,
  loadTicketViews,
  ticketUpdated,
  ticketViewer,
  visibleTicketRow,
} from '../tickets';

// Tags and the tags on tickets (SPEC §7 Tags, "Tags on tickets"). A ticket's tags change for whoever
// may see the ticket; the ticket's rooms hear the new tags at once (ticket.updated).

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads' | 'events'>;

const tagColumns = { id: tags.id, name: tags.name, color: tags.color, kanban: tags.kanban };

export const listTagOptions = async (db: Db, ctx: AuthContext): Promise<TagOption[]> =>
  db
    .select(tagColumns)
    .from(tags)
    .where(ofCompany(tags, ctx))
    .orderBy(asc(tags.name), asc(tags.id));

// SPEC §6: the kanban toggle of the tag form is for admins and supervisors.
const refuseKanbanChange = (ctx: AuthContext, kanban: number | undefined, before = 0) => {
  if (kanban !== undefined && kanban !== before && !can(ctx, 'tag-form:kanban'))
    throw new AppError('ERR_NO_PERMISSION');
};

// Names are unique inside a company (ignoring the tag being edited).
const refuseTakenName = async (deps: Deps, ctx: AuthContext, name: string, exceptId?: number) => {
  const [taken] = await deps.db
    .select({ id: tags.id })
    .from(tags)
    .where(ofCompany(tags, ctx, eq(tags.name, name), exceptId ? ne(tags.id, exceptId) : undefined));
  if (taken)
    throw new AppError('ERR_VALIDATION', 'A tag with this name already exists', {
      status: 409,
      fields: { name: ['Already in use'] },
    });
};

const emitTag = (deps: Deps, ctx: AuthContext, event: TagEvent) =>
  deps.realtime.toCompany(ctx.companyId).emit('tag', event);

export const createTag = async (deps: Deps, ctx: AuthContext, input: TagInput) => {
  refuseKanbanChange(ctx, input.kanban);
  await refuseTakenName(deps, ctx, input.name);
  const [row] = await deps.db
    .insert(tags)
    .values({ ...input, companyId: ctx.companyId, userId: ctx.userId })
    .returning(tagColumns);
  emitTag(deps, ctx, { action: 'create', tag: row });
  return row;
};

// The tags page: each tag with how many tickets carry it, counted in the same query.
const viewColumns = {
  ...tagColumns,
  userId: tags.userId,
  ticketsCount: count(ticketTags.ticketId),
};
const tagViews = (db: Db) =>
  db.select(viewColumns).from(tags).leftJoin(ticketTags, eq(ticketTags.tagId, tags.id)).$dynamic();

export const listTags = async (
  deps: Deps,
  ctx: AuthContext,
  query: { searchParam: string; pageNumber: number },
): Promise<{ tags: TagView[]; hasMore: boolean }> => {
  const term = query.searchParam.trim();
  const rows = await tagViews(deps.db)
    .where(ofCompany(tags, ctx, term ? ilike(tags.name, containsPattern(term)) : undefined))
    .groupBy(tags.id)
    .orderBy(asc(tags.name), asc(tags.id))
    .limit(TAGS_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * TAGS_PAGE_SIZE);
  return { tags: rows.slice(0, TAGS_PAGE_SIZE), hasMore: rows.length > TAGS_PAGE_SIZE };
};

export const getTag = async (deps: Deps, ctx: AuthContext, id: number): Promise<TagView> =>
  foundOr404(
    (
      await tagViews(deps.db)
        .where(ownedRow(tags, id, ctx))
        .groupBy(tags.id)
    )[0],
  );

export const updateTag = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: TagUpdateInput,
) => {
  const before = await getTag(deps, ctx, id);
  refuseKanbanChange(ctx, input.kanban, before.kanban);
  await refuseTakenName(deps, ctx, input.name, id);
  const [row] = await deps.db
    .update(tags)
    .set({
      name: input.name,
      ...(input.color !== undefined && { color: input.color }),
      ...(input.kanban !== undefined && { kanban: input.kanban }),
    })
    .where(ownedRow(tags, id, ctx))
    .returning(tagColumns);
  emitTag(deps, ctx, { action: 'update', tag: row });
  return { ...before, ...row };
};

// Deleting a tag takes it off every ticket (ticket_tags cascade); those tickets' rooms hear it.
export const deleteTag = async (deps: Deps, ctx: AuthContext, id: number) => {
  await getTag(deps, ctx, id);
  const tagged = await deps.db
    .select({ ticketId: ticketTags.ticketId })
    .from(ticketTags)
    .where(and(eq(ticketTags.tagId, id), eq(ticketTags.companyId, ctx.companyId)));
  await deps.events.transaction(deps.db, async (tx, raise) => {
    await tx.delete(tags).where(ownedRow(tags, id, ctx));
    for (const { ticketId } of tagged)
      raise(ticketUpdated({ id: ticketId, companyId: ctx.companyId }, 'tags'));
  });
  emitTag(deps, ctx, { action: 'delete', tagId: id });
};

// Changes a ticket's tags and tells the rooms that show it; answers the ticket as they show it.
const retag = async (
  deps: Deps,
  ticket: { id: number; companyId: number },
  change: (tx: Db) => Promise<unknown>,
) => {
  await deps.events.transaction(deps.db, async (tx, raise) => {
    await change(tx);
    raise(ticketUpdated(ticket, 'tags'));
  });
  const [view] = await loadTicketViews(deps.db, [ticket.id]);
  return view;
};

export const syncTicketTags = async (deps: Deps, ctx: AuthContext, input: TagSyncInput) => {
  const ticket = await visibleTicketRow(deps.db, ctx, input.ticketId);
  const wanted = [...new Set(input.tags.map((tag) => tag.id))];
  const found = wanted.length
    ? await deps.db
        .select({ id: tags.id })
        .from(tags)
        .where(ofCompany(tags, ctx, inArray(tags.id, wanted)))
    : [];
  if (found.length !== wanted.length)
    throw new AppError('ERR_VALIDATION', 'Some tags do not exist', {
      fields: { tags: ['ERR_NOT_FOUND'] },
    });
  return retag(deps, ticket, async (tx) => {
    await tx.delete(ticketTags).where(eq(ticketTags.ticketId, ticket.id));
    if (wanted.length)
      await tx
        .insert(ticketTags)
        .values(wanted.map((tagId) => ({ ticketId: ticket.id, tagId, companyId: ctx.companyId })));
  });
};

export const addTicketTag = async (
  deps: Deps,
  ctx: AuthContext,
  ticketId: number,
  tagId: number,
) => {
  const ticket = await visibleTicketRow(deps.db, ctx, ticketId);
  foundOr404(
    (
      await deps.db
        .select({ id: tags.id })
        .from(tags)
        .where(ownedRow(tags, tagId, ctx))
    )[0],
  );
  return retag(deps, ticket, (tx) => insertTicketTag(tx, ticket, tagId));
};

// The tag on the ticket unless it is there already; answers whether it was added.
const insertTicketTag = async (tx: Db, ticket: { id: number; companyId: number }, tagId: number) =>
  (
    await tx
      .insert(ticketTags)
      .values({ ticketId: ticket.id, tagId, companyId: ticket.companyId })
      .onConflictDoNothing()
      .returning({ tagId: ticketTags.tagId })
  ).length > 0;

type Raise = (event: DomainEvent) => void;

// What the platform does to a ticket's tags on its own (live insight's rules), in the caller's
// transaction: the ticket's screens hear of a change with its commit, as they do of a person's. The
// tag is the company's (the caller checked it). Answers whether anything changed, so a repeated or
// concurrent call changes nothing twice (ticket_tags' key holds one row per ticket and tag).
export const tagTicketIn = async (
  tx: Db,
  raise: Raise,
  ticket: { id: number; companyId: number },
  tagId: number,
) => {
  const added = await insertTicketTag(tx, ticket, tagId);
  if (added) raise(ticketUpdated(ticket, 'tags'));
  return added;
};

// Moves the ticket's kanban card to the lane of `laneTagId` (SPEC §2 Kanban: a lane is a tag marked
// kanban): the ticket gets the lane's tag and loses its other lanes' tags; its other tags stay.
export const moveToLaneIn = async (
  tx: Db,
  raise: Raise,
  ticket: { id: number; companyId: number },
  laneTagId: number,
) => {
  const otherLanes = tx
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, ticket.companyId), eq(tags.kanban, 1), ne(tags.id, laneTagId)));
  const left = await tx
    .delete(ticketTags)
    .where(and(eq(ticketTags.ticketId, ticket.id), inArray(ticketTags.tagId, otherLanes)))
    .returning({ tagId: ticketTags.tagId });
  const added = await insertTicketTag(tx, ticket, laneTagId);
  if (added || left.length) raise(ticketUpdated(ticket, 'tags'));
  return added || left.length > 0;
};

export const clearTicketTags = async (deps: Deps, ctx: AuthContext, ticketId: number) => {
  const ticket = await visibleTicketRow(deps.db, ctx, ticketId);
  await retag(deps, ticket, (tx) =>
    tx
      .delete(ticketTags)
      .where(and(eq(ticketTags.ticketId, ticket.id), eq(ticketTags.companyId, ctx.companyId))),
  );
};

// SPEC §2 Kanban: the lanes are the company's tags marked kanban, by name.
export const listKanbanLanes = async (db: Db, ctx: AuthContext): Promise<KanbanLanes> => ({
  lista: await db
    .select(tagColumns)
    .from(tags)
    .where(ofCompany(tags, ctx, eq(tags.kanban, 1)))
    .orderBy(asc(tags.name), asc(tags.id)),
});

// The newest conversations a board loads; older ones stay reachable from the ticket lists.
const KANBAN_TICKETS_LIMIT = 1000;

// The board's cards: open and waiting tickets, scoped exactly as the ticket list scopes them
// (SPEC §6: a user sees their queues' tickets, an admin with show-all every ticket).
export const listKanbanTickets = async (
  db: Db,
  ctx: AuthContext,
  query: KanbanTicketsQuery,
): Promise<KanbanTickets> => {
  const rows = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, ctx.companyId),
        inArray(tickets.status, ['open', 'pending']),
        listScope(await ticketViewer(db, ctx), query.showAll),
        query.queueIds.length ? inArray(tickets.queueId, query.queueIds) : undefined,
      ),
    )
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(KANBAN_TICKETS_LIMIT);
  return {
    tickets: await loadTicketViews(
      db,
      rows.map((row) => row.id),
    ),
  };
};
