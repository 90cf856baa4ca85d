import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { AnnouncementInput } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { announcements } from '../../db/schema';
import { everyCompanyId } from '../companies';
import type { AuthContext } from '../../platform/context';
import { containsPattern } from '../../platform/like';
import { foundOr404 } from '../../platform/tenancy';
import type { Uploads } from '../../platform/uploads';
import { updateReturning } from '../../platform/update';

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads'>;
type Row = typeof announcements.$inferSelect;
const PAGE_SIZE = 20;

// Announcements are platform-wide: super users write them (their company owns the row and the image),
// every company reads the active ones.
const serializeAnnouncement = (row: Row, uploads: Uploads) => ({
  id: row.id,
  title: row.title,
  text: row.text,
  priority: row.priority,
  status: row.status,
  mediaName: row.mediaName,
  mediaUrl: uploads.urlFor(row.companyId, row.mediaPath),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const visibleTo = (ctx: AuthContext): SQL | undefined =>
  ctx.isSuper ? undefined : eq(announcements.status, true);

export const listAnnouncements = async (
  deps: Deps,
  ctx: AuthContext,
  query: { searchParam: string; pageNumber: number },
) => {
  const term = query.searchParam.trim();
  const where = and(
    visibleTo(ctx),
    term
      ? or(
          ilike(announcements.title, containsPattern(term)),
          ilike(announcements.text, containsPattern(term)),
        )
      : undefined,
  );
  const rows = await deps.db
    .select()
    .from(announcements)
    .where(where)
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * PAGE_SIZE);
  const [{ value }] = await deps.db.select({ value: count() }).from(announcements).where(where);
  return {
    records: rows.slice(0, PAGE_SIZE).map((r) => serializeAnnouncement(r, deps.uploads)),
    count: value,
    hasMore: rows.length > PAGE_SIZE,
  };
};

const find = async (deps: Deps, ctx: AuthContext, id: number) =>
  foundOr404(
    (
      await deps.db
        .select()
        .from(announcements)
        .where(and(eq(announcements.id, id), visibleTo(ctx)))
    )[0],
    'ERR_NO_ANNOUNCEMENT_FOUND',
  );

// Its image lives in the folder of the company that owns the announcement.
export const announcementOwner = async (deps: Deps, ctx: AuthContext, id: number) =>
  (await find(deps, ctx, id)).companyId;

export const getAnnouncement = async (deps: Deps, ctx: AuthContext, id: number) =>
  serializeAnnouncement(await find(deps, ctx, id), deps.uploads);

const broadcast = async (deps: Deps, payload: { action: string } & Record<string, unknown>) =>
  deps.realtime.toCompanies(await everyCompanyId(deps.db)).emit('announcement', payload);

// An inactive announcement is read by super users alone: the others hear that it is gone.
const saved = async (deps: Deps, row: Row, action: 'create' | 'update') => {
  const record = serializeAnnouncement(row, deps.uploads);
  if (row.status) await broadcast(deps, { action, record });
  else {
    const companyIds = await everyCompanyId(deps.db);
    for (const companyId of companyIds)
      deps.realtime.toRooms(companyId, ['super']).emit('announcement', { action, record });
    deps.realtime
      .toCompanies(companyIds, { except: ['super'] })
      .emit('announcement', { action: 'delete', id: row.id });
  }
  return record;
};

export const createAnnouncement = async (
  deps: Deps,
  ctx: AuthContext,
  input: AnnouncementInput,
) => {
  const [row] = await deps.db
    .insert(announcements)
    .values({ ...input, companyId: ctx.companyId })
    .returning();
  return saved(deps, row, 'create');
};

export const updateAnnouncement = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: Partial<AnnouncementInput>,
) => {
  await find(deps, ctx, id);
  const [row] = await updateReturning(deps.db, announcements, input, eq(announcements.id, id));
  return saved(deps, row, 'update');
};

export const deleteAnnouncement = async (deps: Deps, ctx: AuthContext, id: number) => {
  const row = await find(deps, ctx, id);
  await deps.db.delete(announcements).where(eq(announcements.id, id));
  await deps.uploads.remove(row.companyId, row.mediaPath);
  await broadcast(deps, { action: 'delete', id });
};

export const setAnnouncementMedia = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  media: { storedName: string; originalName: string } | null,
) => {
  const row = await find(deps, ctx, id);
  const [updated] = await deps.db
    .update(announcements)
    .set({ mediaPath: media?.storedName ?? null, mediaName: media?.originalName ?? null })
    .where(eq(announcements.id, id))
    .returning();
  // The replaced image goes only once the new one is recorded.
  await deps.uploads.remove(row.companyId, row.mediaPath);
  return saved(deps, updated, 'update');
};
