import { and, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import {
  SCHEDULES_PAGE_SIZE,
  type ScheduleInput,
  type ScheduleStatus,
  type ScheduleUpdateInput,
  type ScheduleView,
  type SchedulesQuery,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { contacts, schedules, users } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { containsPattern } from '../../platform/like';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import type { StoredFile, Uploads } from '../../platform/uploads';

// SPEC §7 "Schedules": every user of the company sees and manages the company's schedules.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads'>;
export type ScheduleRow = typeof schedules.$inferSelect;

const columns = {
  schedule: schedules,
  contact: { id: contacts.id, name: contacts.name, number: contacts.number },
  user: { id: users.id, name: users.name },
};
type Joined = {
  schedule: ScheduleRow;
  contact: { id: number; name: string; number: string } | null;
  user: { id: number; name: string } | null;
};

const serializeSchedule = (
  { schedule: row, contact, user }: Joined,
  uploads: Uploads,
): ScheduleView => ({
  id: row.id,
  body: row.body,
  contactId: row.contactId,
  contact,
  sendAt: row.sendAt.toISOString(),
  sentAt: row.sentAt?.toISOString() ?? null,
  status: row.status as ScheduleStatus,
  mediaPath: row.mediaPath,
  mediaName: row.mediaName,
  mediaUrl: uploads.urlFor(row.companyId, row.mediaPath),
  userId: row.userId,
  user,
  ticketId: row.ticketId,
  whatsappId: row.whatsappId,
  companyId: row.companyId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const selectJoined = (db: Db) =>
  db
    .select(columns)
    .from(schedules)
    .leftJoin(contacts, eq(contacts.id, schedules.contactId))
    .leftJoin(users, eq(users.id, schedules.userId));

// The schedule as screens show it; undefined once it is gone.
const loadScheduleView = async (deps: Pick<Deps, 'db' | 'uploads'>, id: number) => {
  const [joined] = await selectJoined(deps.db).where(eq(schedules.id, id));
  return joined ? serializeSchedule(joined, deps.uploads) : undefined;
};

// company-{id}-schedule to every user of the company.
export const emitSchedule = async (
  deps: Deps,
  companyId: number,
  action: 'create' | 'update',
  id: number,
) => {
  const schedule = await loadScheduleView(deps, id);
  if (schedule) deps.realtime.toCompany(companyId).emit('schedule', { action, schedule });
  return schedule;
};

// GET /schedules: newest send time first, so a contact's upcoming ones lead the first page.
export const listSchedules = async (deps: Deps, ctx: AuthContext, query: SchedulesQuery) => {
  const term = query.searchParam ? containsPattern(query.searchParam) : '';
  const byContact = query.contactId !== undefined;
  const page = byContact ? query.schedulePageNumber : query.pageNumber;
  const where = ofCompany(
    schedules,
    ctx,
    byContact ? eq(schedules.contactId, query.contactId!) : undefined,
    term
      ? or(ilike(schedules.body, term), ilike(contacts.name, term), ilike(contacts.number, term))
      : undefined,
  );
  const [{ total }] = await deps.db
    .select({ total: sql<number>`count(*)::int` })
    .from(schedules)
    .leftJoin(contacts, eq(contacts.id, schedules.contactId))
    .where(where);
  const rows = await selectJoined(deps.db)
    .where(where)
    .orderBy(desc(schedules.sendAt), desc(schedules.id))
    .limit(SCHEDULES_PAGE_SIZE + 1)
    .offset((page - 1) * SCHEDULES_PAGE_SIZE);
  return {
    schedules: rows.slice(0, SCHEDULES_PAGE_SIZE).map((r) => serializeSchedule(r, deps.uploads)),
    hasMore: rows.length > SCHEDULES_PAGE_SIZE,
    count: total,
  };
};

const findOwned = async (db: Db, ctx: AuthContext, id: number) =>
  foundOr404(
    (
      await db
        .select()
        .from(schedules)
        .where(ownedRow(schedules, id, ctx))
    )[0],
  );

export const getSchedule = async (deps: Deps, ctx: AuthContext, id: number) => {
  await findOwned(deps.db, ctx, id);
  return (await loadScheduleView(deps, id))!;
};

const invalid = (field: string, message: string) =>
  new AppError('ERR_VALIDATION', message, { fields: { [field]: [message] } });

const refuseSent = () =>
  new AppError('ERR_SCHEDULE_SENT', 'This schedule was already sent and can no longer change');

const assertFuture = (sendAt: Date) => {
  if (sendAt.getTime() <= Date.now())
    throw invalid('sendAt', 'The send time must be in the future');
};

const assertContact = async (db: Db, ctx: AuthContext, contactId: number) => {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(ownedRow(contacts, contactId, ctx));
  if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
};

const assertUser = async (db: Db, ctx: AuthContext, userId: number) => {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(ownedRow(users, userId, ctx));
  if (!row) throw invalid('userId', 'ERR_NOT_FOUND');
};

export const createSchedule = async (deps: Deps, ctx: AuthContext, input: ScheduleInput) => {
  const sendAt = new Date(input.sendAt);
  await assertContact(deps.db, ctx, input.contactId);
  assertFuture(sendAt);
  const userId = input.userId ?? ctx.userId;
  if (input.userId) await assertUser(deps.db, ctx, input.userId);
  const [row] = await deps.db
    .insert(schedules)
    .values({
      companyId: ctx.companyId,
      body: input.body,
      contactId: input.contactId,
      sendAt,
      userId,
    })
    .returning();
  return (await emitSchedule(deps, ctx.companyId, 'create', row.id))!;
};

// Still unsent: a sent schedule is history. One that failed goes back to waiting once edited.
const unsent = (ctx: AuthContext, id: number) =>
  and(ownedRow(schedules, id, ctx), isNull(schedules.sentAt)) as SQL;

export const updateSchedule = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: ScheduleUpdateInput,
) => {
  const before = await findOwned(deps.db, ctx, id);
  if (before.sentAt) throw refuseSent();
  const next: Partial<ScheduleRow> = { status: 'PENDENTE', updatedAt: new Date() };
  if (input.body !== undefined) next.body = input.body;
  if (input.contactId !== undefined && input.contactId !== before.contactId) {
    await assertContact(deps.db, ctx, input.contactId);
    next.contactId = input.contactId;
  }
  if (input.sendAt !== undefined) {
    next.sendAt = new Date(input.sendAt);
    if (next.sendAt.getTime() !== before.sendAt.getTime()) assertFuture(next.sendAt);
  }
  if (input.userId !== undefined) {
    if (input.userId) await assertUser(deps.db, ctx, input.userId);
    next.userId = input.userId ?? ctx.userId;
  }
  // The sender may have claimed it since it was read: then it stays as sent.
  const [row] = await deps.db.update(schedules).set(next).where(unsent(ctx, id)).returning();
  if (!row) throw refuseSent();
  return (await emitSchedule(deps, ctx.companyId, 'update', id))!;
};

export const deleteSchedule = async (deps: Deps, ctx: AuthContext, id: number) => {
  const [row] = await deps.db
    .delete(schedules)
    .where(ownedRow(schedules, id, ctx))
    .returning();
  if (!row) throw new AppError('ERR_NOT_FOUND');
  // A sent schedule's message keeps its own copy of the file (schedules.sender.ts).
  await deps.uploads.remove(row.companyId, row.mediaPath);
  deps.realtime.toCompany(ctx.companyId).emit('schedule', { action: 'delete', scheduleId: id });
};

// The company owning an unsent schedule, checked before a file is read, so a refused upload stores nothing.
export const scheduleMediaOwner = async (deps: Deps, ctx: AuthContext, id: number) => {
  const row = await findOwned(deps.db, ctx, id);
  if (row.sentAt) throw refuseSent();
  return row.companyId;
};

// POST (a file) and DELETE (null) /schedules/{id}/media-upload.
export const setScheduleMedia = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  media: Pick<StoredFile, 'storedName' | 'originalName'> | null,
) => {
  const before = await findOwned(deps.db, ctx, id);
  if (before.sentAt) throw refuseSent();
  const [row] = await deps.db
    .update(schedules)
    .set({
      mediaPath: media?.storedName ?? null,
      mediaName: media?.originalName ?? null,
      updatedAt: new Date(),
    })
    .where(unsent(ctx, id))
    .returning();
  if (!row) throw refuseSent();
  // The replaced file goes only once the new one is recorded.
  await deps.uploads.remove(before.companyId, before.mediaPath);
  return (await emitSchedule(deps, ctx.companyId, 'update', id))!;
};
