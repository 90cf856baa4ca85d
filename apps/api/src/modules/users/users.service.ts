import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import {
  can,
  effectiveCompanyStatus,
  type UserCreateInput,
  type UserUpdateInput,
} from '@atendi/shared';
import type { Db } from '../../db/client';
import { arrayParam } from '../../db/rows';
import { companies, plans, queues, settings, userQueues, users, whatsapps } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { containsPattern } from '../../platform/like';
import { AppError } from '../../platform/errors';
import { hashPassword } from '../../platform/passwords';
import { revokeSessions } from '../../platform/sessions';
import { audit } from '../../platform/audit';
import { foundOr404, ofCompany } from '../../platform/tenancy';
import type { AppDeps } from '../../deps';
import { assertPlanLimit, serializePlan } from '../plans';
import { routeSoon } from '../routing';

type UserRow = typeof users.$inferSelect;
// A queue of the user, with their limit of open conversations in it (null: none of its own).
type QueueRef = { id: number; name: string; color: string; maxTickets: number | null };

const PAGE_SIZE = 20;

const sameIds = (a: number[], b: number[]) => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((id) => y.has(id));
};

const queuesOf = async (db: Db, userIds: number[]) => {
  const byUser = new Map<number, QueueRef[]>();
  if (!userIds.length) return byUser;
  const rows = await db
    .select({
      userId: userQueues.userId,
      id: queues.id,
      name: queues.name,
      color: queues.color,
      maxTickets: userQueues.maxTickets,
    })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(inArray(userQueues.userId, userIds))
    .orderBy(asc(queues.orderQueue), asc(queues.name));
  for (const { userId, ...queue } of rows) {
    byUser.set(userId, [...(byUser.get(userId) ?? []), queue]);
  }
  return byUser;
};

// The public shape of a user; never includes the password hash.
const serializeUser = (user: UserRow, userQueueList: QueueRef[]) => ({
  id: user.id,
  companyId: user.companyId,
  name: user.name,
  email: user.email,
  profile: user.profile,
  super: user.super,
  allTicket: user.allTicket,
  whatsappId: user.whatsappId,
  online: user.presence !== 'offline',
  presence: user.presence,
  availability: user.availability,
  maxTickets: user.maxTickets,
  queueLimits: userQueueList.flatMap(({ id, maxTickets }) =>
    maxTickets === null ? [] : [{ queueId: id, maxTickets }],
  ),
  queues: userQueueList.map(({ id, name, color }) => ({ id, name, color })),
  queueIds: userQueueList.map((q) => q.id),
  createdAt: user.createdAt,
  updatedAt: user.updatedAt,
});

const loadUserView = async (db: Db, userId: number) => {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  const list = await queuesOf(db, [user.id]);
  return serializeUser(user, list.get(user.id) ?? []);
};

// The session's user: the user plus their company, its settings and plan (login, refresh, /auth/me).
export const loadSessionUser = async (
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  userId: number,
) => {
  const user = await loadUserView(db, userId);
  if (!user) return undefined;
  const [row] = await db
    .select({ company: companies, plan: plans })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, user.companyId));
  const companySettings = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, user.companyId));
  const whatsapp = user.whatsappId
    ? (
        await db
          .select({ id: whatsapps.id, name: whatsapps.name })
          .from(whatsapps)
          .where(eq(whatsapps.id, user.whatsappId))
      )[0]
    : undefined;
  const status = effectiveCompanyStatus(row.company);
  return {
    ...user,
    whatsapp: whatsapp ?? null,
    company: {
      id: row.company.id,
      name: row.company.name,
      status,
      dueDate: row.company.dueDate,
      recurrence: row.company.recurrence,
      // Payment-provider keys are platform secrets; nobody's session carries them.
      settings: companySettings.filter((s) => s.key !== 'asaas'),
      plan: serializePlan(row.plan, config.billingCurrency),
    },
  };
};
export type SessionUser = NonNullable<Awaited<ReturnType<typeof loadSessionUser>>>;

export const listUsers = async (
  db: Db,
  ctx: AuthContext,
  query: { searchParam: string; pageNumber: number },
) => {
  const term = query.searchParam.trim();
  const where = ofCompany(
    users,
    ctx,
    term
      ? or(ilike(users.name, containsPattern(term)), ilike(users.email, containsPattern(term)))
      : undefined,
  );
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * PAGE_SIZE);
  const page = rows.slice(0, PAGE_SIZE);
  const [{ value: total }] = await db.select({ value: count() }).from(users).where(where);
  const list = await queuesOf(
    db,
    page.map((u) => u.id),
  );
  return {
    users: page.map((u) => serializeUser(u, list.get(u.id) ?? [])),
    count: total,
    hasMore: rows.length > PAGE_SIZE,
  };
};

// A short list for pickers (transfer, filters); super users may ask for another company.
export const listUsersBrief = async (db: Db, ctx: AuthContext, companyId?: number) => {
  const target = ctx.isSuper && companyId ? companyId : ctx.companyId;
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      profile: users.profile,
      online: sql<boolean>`${users.presence} <> 'offline'`,
      presence: users.presence,
    })
    .from(users)
    .where(eq(users.companyId, target))
    .orderBy(asc(users.name));
};

const findUser = async (db: Db, ctx: AuthContext, id: number) => {
  const [user] = await db
    .select()
    .from(users)
    .where(
      ctx.isSuper ? eq(users.id, id) : and(eq(users.id, id), eq(users.companyId, ctx.companyId)),
    );
  return foundOr404(user, 'ERR_NO_USER_FOUND');
};

export const getUser = async (db: Db, ctx: AuthContext, id: number) => {
  const user = await findUser(db, ctx, id);
  if (user.id !== ctx.userId && !can(ctx, 'users:manage')) throw new AppError('ERR_NO_PERMISSION');
  const list = await queuesOf(db, [user.id]);
  return serializeUser(user, list.get(user.id) ?? []);
};

const assertEmailFree = async (db: Db, email: string, exceptId?: number) => {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptId ? and(eq(users.email, email), ne(users.id, exceptId)) : eq(users.email, email));
  if (existing)
    throw new AppError('ERR_EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
};

// Queues and the default connection must belong to the user's company.
const assertOwnedRefs = async (
  db: Db,
  companyId: number,
  queueIds?: number[],
  whatsappId?: number | null,
) => {
  if (queueIds?.length) {
    const unique = [...new Set(queueIds)];
    const found = await db
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), inArray(queues.id, unique)));
    if (found.length !== unique.length) throw new AppError('ERR_NOT_FOUND', 'Queue not found');
  }
  if (whatsappId) {
    const [found] = await db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)));
    if (!found) throw new AppError('ERR_NO_WAPP_FOUND');
  }
};

type QueueLimits = Map<number, number>;
const limitsOf = (list: { queueId: number; maxTickets: number }[] = []): QueueLimits =>
  new Map(list.map(({ queueId, maxTickets }) => [queueId, maxTickets]));
const sameLimits = (a: QueueLimits, b: QueueLimits) =>
  a.size === b.size && [...a].every(([queueId, max]) => b.get(queueId) === max);

// A limit belongs to one of the user's queues.
const assertLimitsOfQueues = (limits: QueueLimits, queueIds: number[]) => {
  const strangers = [...limits.keys()].filter((queueId) => !queueIds.includes(queueId));
  if (strangers.length)
    throw new AppError('ERR_VALIDATION', 'A queue limit names a queue the user is not in', {
      fields: { queueLimits: [`Not a queue of the user: ${strangers.join(', ')}`] },
    });
};

const setQueues = async (
  db: Db,
  userId: number,
  companyId: number,
  queueIds: number[],
  limits: QueueLimits,
) => {
  await db.delete(userQueues).where(eq(userQueues.userId, userId));
  const unique = [...new Set(queueIds)];
  if (unique.length) {
    await db.insert(userQueues).values(
      unique.map((queueId) => ({
        userId,
        queueId,
        companyId,
        maxTickets: limits.get(queueId) ?? null,
      })),
    );
  }
};

// New limits on the same queues: when each was last given one stays (round robin's turn).
const setLimits = async (db: Db, userId: number, limits: QueueLimits) => {
  await db.execute(sql`
    update ${userQueues} uq set max_tickets = v.max_tickets
      from (select q.queue_id, l.max_tickets
              from ${userQueues} q
              left join unnest(${arrayParam([...limits.keys()])}::int[],
                               ${arrayParam([...limits.values()])}::int[]) as l(queue_id, max_tickets)
                on l.queue_id = q.queue_id
             where q.user_id = ${userId}) v
     where uq.user_id = ${userId} and uq.queue_id = v.queue_id`);
};

// To those who manage users, and to the user's own sockets (each reads that record over HTTP).
const emitUser = (
  deps: Pick<AppDeps, 'realtime'>,
  companyId: number,
  userId: number,
  action: string,
  payload: Record<string, unknown>,
) => deps.realtime.toCompany(companyId, { alsoUser: userId }).emit('user', { action, ...payload });

export const createUser = async (
  deps: Pick<AppDeps, 'db' | 'realtime'>,
  ctx: AuthContext,
  input: UserCreateInput,
) => {
  // Only platform operators choose another company or grant the super flag.
  const companyId = ctx.isSuper && input.companyId ? input.companyId : ctx.companyId;
  if (input.super && !ctx.isSuper)
    throw new AppError('ERR_NO_PERMISSION', 'Only super users grant the super flag');
  if (input.profile && input.profile !== 'user' && !can(ctx, 'user-modal:editProfile')) {
    throw new AppError('ERR_NO_PERMISSION');
  }
  if (
    (input.maxTickets != null || input.queueLimits?.length) &&
    !can(ctx, 'user-modal:editQueues')
  ) {
    throw new AppError('ERR_NO_PERMISSION', 'Queues, connection and limits need an admin');
  }
  const limits = limitsOf(input.queueLimits);
  assertLimitsOfQueues(limits, input.queueIds ?? []);
  await assertEmailFree(deps.db, input.email);
  await assertOwnedRefs(deps.db, companyId, input.queueIds, input.whatsappId);
  const passwordHash = await hashPassword(input.password);
  const created = await deps.db.transaction(async (tx) => {
    await assertPlanLimit(tx, companyId, 'users');
    const [user] = await tx
      .insert(users)
      .values({
        companyId,
        name: input.name,
        email: input.email,
        passwordHash,
        profile: input.profile ?? 'user',
        super: ctx.isSuper ? (input.super ?? false) : false,
        allTicket: input.allTicket ?? 'desabled',
        whatsappId: input.whatsappId ?? null,
        maxTickets: input.maxTickets ?? null,
      })
      .returning();
    await setQueues(tx, user.id, companyId, input.queueIds ?? [], limits);
    await audit(tx, {
      companyId,
      userId: ctx.userId,
      action: 'user.created',
      target: `user:${user.id}`,
      detail: { email: user.email, profile: user.profile },
      address: ctx.address,
    });
    return user;
  });
  const view = (await loadUserView(deps.db, created.id))!;
  emitUser(deps, companyId, view.id, 'create', { user: view });
  return view;
};

// Issue 37: the account a company's SSO makes at a person's first sign-in (profile user, no queues,
// a password nobody knows: they sign in through their provider). Null when the email was taken
// meanwhile (a second sign-in at the same moment made it); the plan's user limit holds.
export const createSsoUser = async (
  deps: Pick<AppDeps, 'db' | 'realtime'>,
  companyId: number,
  input: { name: string; email: string },
  address: string,
) => {
  const passwordHash = await hashPassword(randomUUID());
  const created = await deps.db.transaction(async (tx) => {
    await assertPlanLimit(tx, companyId, 'users');
    const [user] = await tx
      .insert(users)
      .values({ companyId, name: input.name, email: input.email, passwordHash, profile: 'user' })
      .onConflictDoNothing()
      .returning();
    if (!user) return null;
    await audit(tx, {
      companyId,
      userId: user.id,
      action: 'user.created',
      target: `user:${user.id}`,
      detail: { email: user.email, profile: user.profile, via: 'sso' },
      address,
    });
    return user;
  });
  if (created) {
    const view = (await loadUserView(deps.db, created.id))!;
    emitUser(deps, companyId, view.id, 'create', { user: view });
  }
  return created;
};

export const updateUser = async (
  deps: Pick<AppDeps, 'db' | 'realtime' | 'jobs'>,
  ctx: AuthContext,
  id: number,
  input: UserUpdateInput,
) => {
  const user = await findUser(deps.db, ctx, id);
  const isSelf = user.id === ctx.userId;
  const manages = can(ctx, 'users:manage');
  if (!isSelf && !manages) throw new AppError('ERR_NO_PERMISSION');
  // A platform operator's account (email, password) is changed only by a platform operator.
  if (user.super && !ctx.isSuper) throw new AppError('ERR_NO_PERMISSION');
  // Nobody raises their own rights: profile, super flag and company change only through someone above.
  if (input.super !== undefined && input.super !== user.super && (!ctx.isSuper || isSelf)) {
    throw new AppError('ERR_NO_PERMISSION', 'The super flag cannot be changed here');
  }
  if (input.companyId !== undefined && input.companyId !== user.companyId && !ctx.isSuper) {
    throw new AppError('ERR_NO_PERMISSION', 'The company cannot be changed');
  }
  if (input.profile !== undefined && input.profile !== user.profile) {
    if (!can(ctx, 'user-modal:editProfile') || (isSelf && !ctx.isSuper)) {
      throw new AppError('ERR_NO_PERMISSION', 'The profile cannot be changed');
    }
  }
  const changesQueues = input.queueIds !== undefined || input.queueLimits !== undefined;
  const current = changesQueues ? ((await queuesOf(deps.db, [user.id])).get(user.id) ?? []) : [];
  const currentQueueIds = current.map((q) => q.id);
  const queuesDiffer = input.queueIds !== undefined && !sameIds(currentQueueIds, input.queueIds);
  const finalQueueIds = input.queueIds ?? currentQueueIds;
  const currentLimits: QueueLimits = new Map(
    current.flatMap((q) => (q.maxTickets === null ? [] : [[q.id, q.maxTickets] as const])),
  );
  // Limits given replace the old ones; otherwise those of the queues kept stay.
  const limits = input.queueLimits
    ? limitsOf(input.queueLimits)
    : new Map([...currentLimits].filter(([queueId]) => finalQueueIds.includes(queueId)));
  assertLimitsOfQueues(limits, finalQueueIds);
  const queueLimitsDiffer = !sameLimits(limits, currentLimits);
  const connectionDiffers = input.whatsappId !== undefined && input.whatsappId !== user.whatsappId;
  const visibilityDiffers = input.allTicket !== undefined && input.allTicket !== user.allTicket;
  const limitDiffers = input.maxTickets !== undefined && input.maxTickets !== user.maxTickets;
  if (
    (queuesDiffer || connectionDiffers || visibilityDiffers || limitDiffers || queueLimitsDiffer) &&
    !can(ctx, 'user-modal:editQueues')
  ) {
    throw new AppError(
      'ERR_NO_PERMISSION',
      'Queues, connection, ticket visibility and limits need an admin',
    );
  }
  if (input.email && input.email !== user.email)
    await assertEmailFree(deps.db, input.email, user.id);
  const companyId = ctx.isSuper && input.companyId ? input.companyId : user.companyId;
  await assertOwnedRefs(deps.db, companyId, input.queueIds, input.whatsappId);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  // A user moved to another company keeps nothing of the old one: its queues and connection go.
  const movesCompany = companyId !== user.companyId;
  const ended = await deps.db.transaction(async (tx) => {
    if (movesCompany) await assertPlanLimit(tx, companyId, 'users');
    await tx
      .update(users)
      .set({
        name: input.name,
        email: input.email,
        profile: input.profile,
        super: ctx.isSuper && !isSelf ? input.super : undefined,
        allTicket: input.allTicket,
        maxTickets: input.maxTickets,
        whatsappId: movesCompany ? (input.whatsappId ?? null) : input.whatsappId,
        companyId,
        ...(passwordHash ? { passwordHash } : {}),
      })
      .where(eq(users.id, user.id));
    if (queuesDiffer || movesCompany)
      await setQueues(tx, user.id, companyId, input.queueIds ?? [], limits);
    else if (queueLimitsDiffer) await setLimits(tx, user.id, limits);
    const changed = Object.keys(input).filter(
      (key) => key !== 'password' && (input as Record<string, unknown>)[key] !== undefined,
    );
    const entry = {
      companyId,
      userId: ctx.userId,
      target: `user:${user.id}`,
      address: ctx.address,
    };
    if (changed.length)
      await audit(tx, {
        ...entry,
        action: 'user.updated',
        detail: {
          fields: changed,
          ...(input.profile && input.profile !== user.profile
            ? { profile: { from: user.profile, to: input.profile } }
            : {}),
        },
      });
    if (passwordHash) await audit(tx, { ...entry, action: 'user.password_changed' });
    // A new password ends the user's other logins (the one changing its own stays); a move to
    // another company ends all, since its sockets sit in the old company's rooms.
    if (movesCompany) return revokeSessions(tx, { userId: user.id });
    if (passwordHash)
      return revokeSessions(tx, { userId: user.id, except: isSelf ? ctx.sessionId : undefined });
    return [];
  });
  deps.realtime.endSessions(ended);
  if (movesCompany) emitUser(deps, user.companyId, user.id, 'delete', { userId: user.id });
  const view = (await loadUserView(deps.db, user.id))!;
  emitUser(deps, companyId, user.id, 'update', { user: view });
  // Their sockets joined rooms by the old rights: dropped (after hearing the update), they reconnect
  // with the new ones.
  const superDiffers = view.super !== user.super;
  const profileDiffers = view.profile !== user.profile;
  if (profileDiffers || superDiffers || queuesDiffer || visibilityDiffers || movesCompany)
    deps.realtime.dropUser(user.companyId, user.id);
  // New queues or a higher limit may give them waiting conversations.
  if (queuesDiffer || limitDiffers || queueLimitsDiffer) await routeSoon(deps, companyId);
  return view;
};

export const deleteUser = async (
  deps: Pick<AppDeps, 'db' | 'realtime'>,
  ctx: AuthContext,
  id: number,
) => {
  const user = await findUser(deps.db, ctx, id);
  if (user.id === ctx.userId)
    throw new AppError('ERR_CANNOT_DELETE_SELF', 'You cannot delete your own account');
  if (user.super && !ctx.isSuper) throw new AppError('ERR_NO_PERMISSION');
  // Its sockets are dropped too; its sessions go with the row.
  const ended = await deps.db.transaction(async (tx) => {
    const revoked = await revokeSessions(tx, { userId: user.id });
    await tx.delete(users).where(eq(users.id, user.id));
    await audit(tx, {
      companyId: user.companyId,
      userId: ctx.userId,
      action: 'user.deleted',
      target: `user:${user.id}`,
      detail: { email: user.email },
      address: ctx.address,
    });
    return revoked;
  });
  deps.realtime.endSessions(ended);
  deps.realtime.dropUser(user.companyId, user.id);
  emitUser(deps, user.companyId, user.id, 'delete', { userId: user.id });
};
