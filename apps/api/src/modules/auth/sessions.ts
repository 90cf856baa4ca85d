import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { SessionPolicy } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { refreshTokens, settings, userSessions, users } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { revokeSessions } from '../../platform/sessions';
import { audit } from '../../platform/audit';

// Sessions as their owner sees them (issue 37): each login with the device and address it signed in
// from and when it was last used (its access token last refreshed). Ending one revokes its refresh
// family: the auth hook refuses its access token at the next request and its sockets are dropped on
// every node (platform/sessions.ts).

type Deps = Pick<AppDeps, 'db' | 'realtime'>;
// `deviceId`: the browser's own id as its cookie presents it (unchecked; see deviceIdOf).
export type LoginClient = { ip: string; userAgent?: string; deviceId?: string };

// The id a browser keeps in its cookie across sign-ins (issue 41): a random UUID of its own. One it
// did not send, or not in that shape, is replaced by a new one.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const deviceIdOf = (presented: string | undefined) =>
  presented && UUID.test(presented) ? presented : randomUUID();

// A login's device as its browser names itself, short enough to list.
const deviceOf = (userAgent?: string) => (userAgent ?? '').slice(0, 300);

const liveSql = sql<boolean>`exists (select 1 from ${refreshTokens}
  where ${refreshTokens.familyId} = ${userSessions.familyId}
    and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > now())`;

// A new login's record; the user's ended ones are forgotten along the way. `deviceKey`: the keyed
// hash of the browser's id, which a later login from the same browser finds.
export const recordSession = async (
  db: Db,
  session: { familyId: string; userId: number; companyId: number; deviceKey: string },
  client: LoginClient,
) => {
  await db
    .delete(userSessions)
    .where(and(eq(userSessions.userId, session.userId), sql`not ${liveSql}`));
  await db.insert(userSessions).values({
    ...session,
    device: deviceOf(client.userAgent),
    address: client.ip,
  });
};

// A refresh of the session: used now, from this address.
export const touchSession = async (db: Db, familyId: string, client: LoginClient) => {
  await db
    .update(userSessions)
    .set({ lastUsedAt: new Date(), address: client.ip })
    .where(eq(userSessions.familyId, familyId));
};

// Which of a user's sessions a new login ends (the company's `singleSession`): all of them (SPEC's
// rule, the default), only the one of the same browser ('device': the desktop and the installed
// app stay signed in together), or none.
export const sessionPolicyOf = async (db: Db, companyId: number): Promise<SessionPolicy> => {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, 'singleSession')));
  return row?.value === 'device' || row?.value === 'disabled' ? row.value : 'enabled';
};

export const listSessions = async (db: Db, ctx: AuthContext) => {
  const rows = await db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, ctx.userId), liveSql))
    .orderBy(desc(userSessions.lastUsedAt));
  return {
    sessions: rows.map((row) => ({
      id: row.familyId,
      device: row.device,
      address: row.address,
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt,
      current: row.familyId === ctx.sessionId,
    })),
  };
};

export const endOwnSession = async (deps: Deps, ctx: AuthContext, id: string) => {
  const [own] = await deps.db
    .select({ id: userSessions.familyId })
    .from(userSessions)
    .where(and(eq(userSessions.familyId, id), eq(userSessions.userId, ctx.userId), liveSql));
  if (!own) throw new AppError('ERR_NOT_FOUND', 'No such session');
  await endAudited(deps, ctx, { sessionId: id }, `session:${id}`);
};

export const endOwnOtherSessions = async (deps: Deps, ctx: AuthContext) => {
  await endAudited(deps, ctx, { userId: ctx.userId, except: ctx.sessionId }, `user:${ctx.userId}`);
};

// Ends sessions with their audit entry, in one transaction; their sockets drop after the commit.
const endAudited = async (
  deps: Deps,
  ctx: AuthContext,
  filter: Parameters<typeof revokeSessions>[1],
  target: string,
  // The company the sessions belong to (a super user may end another company's user's).
  companyId = ctx.companyId,
) => {
  const ended = await deps.db.transaction(async (tx) => {
    const revoked = await revokeSessions(tx, filter);
    await audit(tx, {
      companyId,
      userId: ctx.userId,
      action: 'auth.session_ended',
      target,
      detail: { sessions: revoked.length },
      address: ctx.address,
    });
    return revoked;
  });
  deps.realtime.endSessions(ended);
};

// An admin ends every session of a user of their company (a super user, of anyone's).
export const endUserSessions = async (deps: Deps, ctx: AuthContext, userId: number) => {
  const [user] = await deps.db
    .select({ id: users.id, companyId: users.companyId, isSuper: users.super })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || (!ctx.isSuper && user.companyId !== ctx.companyId))
    throw new AppError('ERR_NO_USER_FOUND');
  // A platform operator's sessions are ended only by a platform operator.
  if (user.isSuper && !ctx.isSuper) throw new AppError('ERR_NO_PERMISSION');
  await endAudited(deps, ctx, { userId }, `user:${userId}`, user.companyId);
};
