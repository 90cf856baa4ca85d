import { and, eq, isNull, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { refreshTokens, users } from '../db/schema';
import type { Realtime } from '../realtime/realtime';

// A session is a login: the refresh-token family its access tokens name in `sid`. It is live while
// the family holds a token that was not revoked (logout, a newer login, a password change, theft).
// Checked in the query that already reads the caller, so it costs no extra round trip and needs no
// cache to invalidate across nodes.
export const sessionLiveSql = (
  userId: number | Placeholder,
  sessionId: string | Placeholder,
): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${sessionId} and ${refreshTokens.userId} = ${userId} and ${refreshTokens.revokedAt} is null)`;

// The same check on its own (the socket handshake): false also for a user that no longer exists.
export const isSessionLive = async (db: Db, userId: number, sessionId: string) => {
  const [row] = await db
    .select({ live: sessionLiveSql(userId, sessionId) })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(row?.live);
};

export type EndedSession = { companyId: number; sessionId: string };

// Revokes a user's live sessions (all, or all but `except`); pass the answer to
// realtime.endSessions() once the change is committed, which drops their sockets on every node.
export const revokeSessions = async (
  db: Db,
  filter: { userId: number; except?: string } | { sessionId: string },
): Promise<EndedSession[]> => {
  const where =
    'sessionId' in filter
      ? eq(refreshTokens.familyId, filter.sessionId)
      : and(
          eq(refreshTokens.userId, filter.userId),
          filter.except ? ne(refreshTokens.familyId, filter.except) : undefined,
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
