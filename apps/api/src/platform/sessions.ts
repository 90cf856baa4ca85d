import { and, eq, inArray, isNull, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { refreshTokens, userQueues, userSessions, users } from '../db/schema';
import type { Realtime, SocketIdentity } from '../realtime/realtime';
import type { AccessClaims } from './tokens';

// A session is a login: the refresh-token family its access tokens name in `sid`. It is live while
// the family holds a token that was not revoked (logout, a newer login, a password change, theft).
// Checked in the query that already reads the caller, so it costs no extra round trip and needs no
// cache to invalidate across nodes.
const sessionLiveSql = (
  userId: number | Placeholder,
  sessionId: string | Placeholder,
): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${sessionId} and ${refreshTokens.userId} = ${userId} and ${refreshTokens.revokedAt} is null)`;

// Who a socket's token names now (the handshake): profile, company and queues as the database holds
// them, so a token issued before a change carries no stale rights; null when its session has ended
// or the user is gone.
export const socketIdentity = async (
  db: Db,
  claims: AccessClaims,
): Promise<SocketIdentity | null> => {
  const [row] = await db
    .select({
      live: sessionLiveSql(claims.id, claims.sid),
      companyId: users.companyId,
      profile: users.profile,
      isSuper: users.super,
      queueIds: sql<
        number[]
      >`array(select ${userQueues.queueId} from ${userQueues} where ${userQueues.userId} = ${users.id} order by 1)`,
    })
    .from(users)
    .where(eq(users.id, claims.id));
  if (!row?.live) return null;
  return {
    userId: claims.id,
    companyId: row.companyId,
    profile: row.profile,
    isSuper: row.isSuper,
    sessionId: claims.sid,
    queueIds: row.queueIds,
  };
};

type EndedSession = { companyId: number; sessionId: string };

// Revokes a user's live sessions (all, all but `except`, or those signed in from one browser, by
// the key of its id); pass the answer to realtime.endSessions() once the change is committed, which
// drops their sockets on every node.
export const revokeSessions = async (
  db: Db,
  filter: { userId: number; except?: string; deviceKey?: string } | { sessionId: string },
): Promise<EndedSession[]> => {
  const where =
    'sessionId' in filter
      ? eq(refreshTokens.familyId, filter.sessionId)
      : and(
          eq(refreshTokens.userId, filter.userId),
          filter.except ? ne(refreshTokens.familyId, filter.except) : undefined,
          filter.deviceKey
            ? inArray(
                refreshTokens.familyId,
                db
                  .select({ familyId: userSessions.familyId })
                  .from(userSessions)
                  .where(
                    and(
                      eq(userSessions.userId, filter.userId),
                      eq(userSessions.deviceKey, filter.deviceKey),
                    ),
                  ),
              )
            : undefined,
        );
  const rows = await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(where, isNull(refreshTokens.revokedAt)))
    .returning({ companyId: refreshTokens.companyId, sessionId: refreshTokens.familyId });
  const unique = new Map(rows.map((row) => [`${row.companyId}:${row.sessionId}`, row]));
  return [...unique.values()];
};

export const endSessions = async (
  deps: { db: Db; realtime: Realtime },
  filter: Parameters<typeof revokeSessions>[1],
) => {
  const ended = await revokeSessions(deps.db, filter);
  deps.realtime.endSessions(ended);
  return ended;
};
