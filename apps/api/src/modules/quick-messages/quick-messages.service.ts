import { asc, eq, ilike, or, type SQL } from 'drizzle-orm';
import {
  QUICK_MESSAGES_PAGE_SIZE,
  type QuickMessageInput,
  type QuickMessageUpdateInput,
  type QuickMessageView,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { quickMessages } from '../../db/schema';
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
  companyId: row.companyId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

// SPEC §6 names no key for quick messages: company-wide ones are managed by admins only.
const managesCompanyWide = (ctx: AuthContext) => ctx.isSuper || ctx.profile === 'admin';

// A personal answer is its author's alone; company-wide ones are everyone's to read.
const visibleTo = (ctx: AuthContext, ...more: (SQL | undefined)[]) =>
  ofCompany(
    quickMessages,
    ctx,
    or(eq(quickMessages.geral, true), eq(quickMessages.userId, ctx.userId)),
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
  new AppError('ERR_NO_PERMISSION', 'Only admins manage company-wide quick messages');

// Personal answers reach only their author's sockets; company-wide ones the whole company.
const emitSaved = (deps: Deps, before: Row | null, row: Row) => {
  const record = serializeQuickMessage(row, deps.uploads);
  const action = before ? 'update' : 'create';
  if (before?.geral && !row.geral) {
    deps.realtime.toCompany(row.companyId).emit('quickemessage', { action: 'delete', id: row.id });
  }
  if (row.geral) {
    deps.realtime.toCompany(row.companyId).emit('quickemessage', { action, record });
  } else if (row.userId) {
    deps.realtime.toUser(row.companyId, row.userId).emit('quickemessage', { action, record });
  }
  return record;
};

export const createQuickMessage = async (
  deps: Deps,
  ctx: AuthContext,
  input: QuickMessageInput,
) => {
  if (input.geral && !managesCompanyWide(ctx)) throw refuseCompanyWide();
  const [row] = await deps.db
    .insert(quickMessages)
    .values({ ...input, companyId: ctx.companyId, userId: ctx.userId })
    .returning();
  return emitSaved(deps, null, row);
};

// Editing (and attaching to) an answer: company-wide ones are for admins only.
const assertMayEdit = (ctx: AuthContext, row: Row) => {
  if (row.geral && !managesCompanyWide(ctx)) throw refuseCompanyWide();
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
  const [row] = await updateReturning(
    deps.db,
    quickMessages,
    input,
    ownedRow(quickMessages, id, ctx),
  );
  return emitSaved(deps, before, row);
};

export const deleteQuickMessage = async (deps: Deps, ctx: AuthContext, id: number) => {
  const row = await findVisible(deps, ctx, id);
  assertMayEdit(ctx, row);
  await deps.db.delete(quickMessages).where(ownedRow(quickMessages, id, ctx));
  await deps.uploads.remove(row.companyId, row.mediaPath);
  const payload = { action: 'delete', id };
  if (row.geral) deps.realtime.toCompany(row.companyId).emit('quickemessage', payload);
  else if (row.userId)
    deps.realtime.toUser(row.companyId, row.userId).emit('quickemessage', payload);
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
