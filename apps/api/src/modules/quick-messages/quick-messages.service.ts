import { asc, eq, ilike, inArray, isNotNull, or, type SQL } from 'drizzle-orm';
import {
  QUICK_MESSAGES_PAGE_SIZE,
  type QuickMessageInput,
  type QuickMessageUpdateInput,
  type QuickMessageView,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { queues, quickMessages } from '../../db/schema';
import { permissionRoom } from '../../realtime/realtime';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { containsPattern } from '../../platform/like';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import type { StoredFile, Uploads } from '../../platform/uploads';
import { updateReturning } from '../../platform/update';

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads'>;
type Row = typeof quickMessages.$inferSelect;

const serializeQuickMessage = (row: Row, uploads: Uploads): QuickMessageView => ({
  id: row.id,
  shortcode: row.shortcode,
  message: row.message,
  geral: row.geral,
  status: row.status,
  mediaPath: row.mediaPath,
  mediaName: row.mediaName,
  mediaUrl: uploads.urlFor(row.companyId, row.mediaPath),
  isMedia: Boolean(row.mediaPath),
  userId: row.userId,
  queueId: row.queueId,
  companyId: row.companyId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

// SPEC §6 names no key for quick messages: company-wide ones (and, issue 36, a queue's) are managed by
// admins only.
const managesCompanyWide = (ctx: AuthContext) => ctx.isSuper || ctx.profile === 'admin';

// A personal answer is its author's alone; company-wide ones are everyone's to read; a queue's, its
// agents' (and the admins', who manage them).
const visibleTo = (ctx: AuthContext, ...more: (SQL | undefined)[]) =>
  ofCompany(
    quickMessages,
    ctx,
    or(
      eq(quickMessages.geral, true),
      eq(quickMessages.userId, ctx.userId),
      managesCompanyWide(ctx)
        ? isNotNull(quickMessages.queueId)
        : ctx.queueIds?.length
          ? inArray(quickMessages.queueId, [...ctx.queueIds])
          : undefined,
    ),
    ...more,
  );

export const listQuickMessages = async (
  deps: Deps,
  ctx: AuthContext,
  query: { searchParam: string; pageNumber: number },
) => {
  const term = query.searchParam.trim();
  const rows = await deps.db
    .select()
    .from(quickMessages)
    .where(
      visibleTo(
        ctx,
        term
          ? or(
              ilike(quickMessages.shortcode, containsPattern(term)),
              ilike(quickMessages.message, containsPattern(term)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id))
    .limit(QUICK_MESSAGES_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * QUICK_MESSAGES_PAGE_SIZE);
  return {
    records: rows
      .slice(0, QUICK_MESSAGES_PAGE_SIZE)
      .map((row) => serializeQuickMessage(row, deps.uploads)),
    hasMore: rows.length > QUICK_MESSAGES_PAGE_SIZE,
  };
};

// The composer's "/" list: every answer the caller may use.
export const listAllQuickMessages = async (deps: Deps, ctx: AuthContext) =>
  (
    await deps.db
      .select()
      .from(quickMessages)
      .where(visibleTo(ctx))
      .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id))
  ).map((row) => serializeQuickMessage(row, deps.uploads));

const findVisible = async (deps: Deps, ctx: AuthContext, id: number) =>
  foundOr404(
    (
      await deps.db
        .select()
        .from(quickMessages)
        .where(visibleTo(ctx, eq(quickMessages.id, id)))
    )[0],
  );

export const getQuickMessage = async (deps: Deps, ctx: AuthContext, id: number) =>
  serializeQuickMessage(await findVisible(deps, ctx, id), deps.uploads);

const refuseCompanyWide = () =>
  new AppError('ERR_NO_PERMISSION', 'Only admins manage company-wide and queue quick messages');

// Who hears an answer's events: the company (company-wide), the queue's agents and the admins (a
// queue's), or its author (personal).
const audienceOf = (row: Row) =>
  row.geral ? 'company' : row.queueId ? `queue-${row.queueId}` : `user-${row.userId ?? 0}`;
const emitTo = (deps: Deps, row: Row, payload: { action: string } & Record<string, unknown>) => {
  if (row.geral) deps.realtime.toCompany(row.companyId).emit('quickemessage', payload);
  else if (row.queueId)
    deps.realtime
      .toRooms(row.companyId, [`queue-${row.queueId}`, permissionRoom('queues:manage')])
      .emit('quickemessage', payload);
  else if (row.userId)
    deps.realtime.toUser(row.companyId, row.userId).emit('quickemessage', payload);
};

// An answer whose audience changed is taken from the old one first.
const emitSaved = (deps: Deps, before: Row | null, row: Row) => {
  const record = serializeQuickMessage(row, deps.uploads);
  if (before && audienceOf(before) !== audienceOf(row))
    emitTo(deps, before, { action: 'delete', id: row.id });
  emitTo(deps, row, { action: before ? 'update' : 'create', record });
  return record;
};

// A queue named for an answer is the caller's company's; naming one is for admins.
const assertQueue = async (deps: Deps, ctx: AuthContext, queueId: number | null | undefined) => {
  if (!queueId) return;
  if (!managesCompanyWide(ctx)) throw refuseCompanyWide();
  const [found] = await deps.db
    .select({ id: queues.id })
    .from(queues)
    .where(ownedRow(queues, queueId, ctx));
  if (!found) throw new AppError('ERR_NOT_FOUND', 'Queue not found');
};

export const createQuickMessage = async (
  deps: Deps,
  ctx: AuthContext,
  input: QuickMessageInput,
) => {
  if (input.geral && !managesCompanyWide(ctx)) throw refuseCompanyWide();
  await assertQueue(deps, ctx, input.geral ? null : input.queueId);
  const [row] = await deps.db
    .insert(quickMessages)
    .values({
      ...input,
      // A company-wide answer is nobody's queue's.
      queueId: input.geral ? null : (input.queueId ?? null),
      companyId: ctx.companyId,
      userId: ctx.userId,
    })
    .returning();
  return emitSaved(deps, null, row);
};

// Editing (and attaching to) an answer: company-wide and queue ones are for admins only.
const assertMayEdit = (ctx: AuthContext, row: Row) => {
  if ((row.geral || row.queueId) && !managesCompanyWide(ctx)) throw refuseCompanyWide();
};

export const updateQuickMessage = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: QuickMessageUpdateInput,
) => {
  const before = await findVisible(deps, ctx, id);
  const becomesCompanyWide = input.geral === true && !before.geral;
  if ((before.geral || becomesCompanyWide) && !managesCompanyWide(ctx)) throw refuseCompanyWide();
  assertMayEdit(ctx, before);
  const geral = input.geral ?? before.geral;
  await assertQueue(deps, ctx, geral ? null : input.queueId);
  const [row] = await updateReturning(
    deps.db,
    quickMessages,
    { ...input, ...(geral ? { queueId: null } : {}) },
    ownedRow(quickMessages, id, ctx),
  );
  return emitSaved(deps, before, row);
};

export const deleteQuickMessage = async (deps: Deps, ctx: AuthContext, id: number) => {
  const row = await findVisible(deps, ctx, id);
  assertMayEdit(ctx, row);
  await deps.db.delete(quickMessages).where(ownedRow(quickMessages, id, ctx));
  await deps.uploads.remove(row.companyId, row.mediaPath);
  emitTo(deps, row, { action: 'delete', id });
};

// The company of an answer the caller may edit, checked before a file is read, so a refused upload stores nothing.
export const quickMessageMediaOwner = async (deps: Deps, ctx: AuthContext, id: number) => {
  const row = await findVisible(deps, ctx, id);
  assertMayEdit(ctx, row);
  return row.companyId;
};

// POST (a file) and DELETE (null) /quick-messages/{id}/media-upload.
export const setQuickMessageMedia = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  media: Pick<StoredFile, 'storedName' | 'originalName'> | null,
) => {
  // The row stays locked until the new file is recorded, so two uploads cannot both keep the old one.
  const { before, row } = await deps.db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(quickMessages)
      .where(visibleTo(ctx, eq(quickMessages.id, id)))
      .for('update');
    const current = foundOr404(locked);
    assertMayEdit(ctx, current);
    const [updated] = await tx
      .update(quickMessages)
      .set({ mediaPath: media?.storedName ?? null, mediaName: media?.originalName ?? null })
      .where(ownedRow(quickMessages, id, ctx))
      .returning();
    return { before: current, row: updated };
  });
  // The replaced file goes only once the new one is recorded.
  await deps.uploads.remove(before.companyId, before.mediaPath);
  return emitSaved(deps, before, row);
};
