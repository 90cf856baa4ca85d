import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TagInput, TagOption, TagSyncInput } from '@atendi/shared';
import type { AppDeps } from '../../app';
import type { Db } from '../../db/client';
import { tags, ticketTags } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import { emitTicket } from '../tickets/tickets.engine';
import { loadTicketViews } from '../tickets/ticket-views';
import { visibleTicketRow } from '../tickets/tickets.service';

// Tags and the tags on tickets (SPEC §7 Tags, "Tags on tickets"). A ticket's tags change for whoever
// may see the ticket; the ticket's rooms hear the new tags at once.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads'>;

const tagColumns = { id: tags.id, name: tags.name, color: tags.color, kanban: tags.kanban };

export const listTagOptions = async (db: Db, ctx: AuthContext): Promise<TagOption[]> =>
  db
    .select(tagColumns)
    .from(tags)
    .where(ofCompany(tags, ctx))
    .orderBy(asc(tags.name), asc(tags.id));

export const createTag = async (deps: Deps, ctx: AuthContext, input: TagInput) => {
  const [taken] = await deps.db
    .select({ id: tags.id })
    .from(tags)
    .where(ofCompany(tags, ctx, eq(tags.name, input.name)));
  if (taken)
    throw new AppError('ERR_VALIDATION', 'A tag with this name already exists', {
      status: 409,
      fields: { name: ['Already in use'] },
    });
  const [row] = await deps.db
    .insert(tags)
    .values({ ...input, companyId: ctx.companyId, userId: ctx.userId })
    .returning(tagColumns);
  deps.realtime.toCompany(ctx.companyId).emit('tag', { action: 'create', tag: row });
  return row;
};

// The ticket as the lists and the chat show it, told to every room that shows it.
const announceTicket = async (deps: Deps, ctx: AuthContext, ticketId: number) => {
  const [view] = await loadTicketViews(deps.db, [ticketId]);
  emitTicket(deps, ctx.companyId, view);
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
  await deps.db.transaction(async (tx) => {
    await tx.delete(ticketTags).where(eq(ticketTags.ticketId, ticket.id));
    if (wanted.length)
      await tx
        .insert(ticketTags)
        .values(wanted.map((tagId) => ({ ticketId: ticket.id, tagId, companyId: ctx.companyId })));
  });
  return announceTicket(deps, ctx, ticket.id);
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
  await deps.db
    .insert(ticketTags)
    .values({ ticketId: ticket.id, tagId, companyId: ctx.companyId })
    .onConflictDoNothing();
  return announceTicket(deps, ctx, ticket.id);
};

export const clearTicketTags = async (deps: Deps, ctx: AuthContext, ticketId: number) => {
  const ticket = await visibleTicketRow(deps.db, ctx, ticketId);
  await deps.db
    .delete(ticketTags)
    .where(and(eq(ticketTags.ticketId, ticket.id), eq(ticketTags.companyId, ctx.companyId)));
  await announceTicket(deps, ctx, ticket.id);
};
