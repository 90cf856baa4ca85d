import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_TOKEN_PREFIX, can, effectiveCompanyStatus, scopesAllow } from '@atendi/shared';
import type { Db } from '../db/client';
import { companies, plans, refreshTokens, users } from '../db/schema';
import { callerColumns } from './caller-columns';
import type { AuthContext } from './context';
import { AppError } from './errors';
import { groupCommit } from './group-commit';
import type { TokenService } from './tokens';
import { prepareApiTokenPrincipal, touchApiToken } from './api-tokens';
import { consume, type RateLimits } from './rate-limit';

const bearer = (request: FastifyRequest) => {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
};

// Reads who the caller is and what they may reach, every request: profile, company and plan
// changes, and the end of the token's session, take effect at once, not when the token expires. Every
// private request runs it, so it is built once and prepared (named): the server parses and plans it
// once per connection, and no request pays for building its SQL. It reads several callers at once
// (position n of the arrays): the requests that arrive while one read is in flight go together in
// the next (groupCommit), each still read after it arrived.
const preparePrincipals = (db: Db) =>
  db
    .select({
      n: sql<number>`x.n`,
      sessionLive: sql<boolean>`exists (select 1 from ${refreshTokens}
        where ${refreshTokens.familyId} = x.sid and ${refreshTokens.userId} = x.uid
          and ${refreshTokens.revokedAt} is null)`,
      ...callerColumns,
    })
    .from(
      sql`unnest(${sql.placeholder('userIds')}::integer[], ${sql.placeholder('sessionIds')}::text[])
            with ordinality as x(uid, sid, n)`,
    )
    .innerJoin(users, eq(users.id, sql`x.uid`))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(plans, eq(plans.id, companies.planId))
    .prepare('auth_principals');

// Wraps the private route tree: no session or an ended one → 401, bad or expired token → 403 (the
// client refreshes once and retries), then the route's declared access (permission, super, company
// gate, plan flag).
export const registerAuthHook = (
  app: FastifyInstance,
  deps: { db: Db; tokens: TokenService; limits: RateLimits },
) => {
  app.decorateRequest('auth', null as unknown as AuthContext);
  const principalsQuery = preparePrincipals(deps.db);
  const apiTokenQuery = prepareApiTokenPrincipal(deps.db);

  // Issue 38: an API token acts as the admin who made it, within its scopes, in its company only
  // (never with a super user's reach), limited per token; unknown, revoked or expired is 401.
  const apiTokenCaller = async (request: FastifyRequest, token: string) => {
    const [row] = await apiTokenQuery.execute({ tokenHash: deps.tokens.hashOpaque(token) });
    if (!row) throw new AppError('ERR_INVALID_API_TOKEN', 'Unknown, revoked or expired API token');
    const needed = request.routeOptions.config.apiScope;
    if (!needed) throw new AppError('ERR_API_TOKEN_SCOPE', 'API tokens cannot call this operation');
    if (!scopesAllow(row.scopes, needed))
      throw new AppError('ERR_API_TOKEN_SCOPE', `This token lacks the scope ${needed}`, {
        details: { scope: needed },
      });
    await consume(deps.limits.apiToken, `token:${row.tokenId}`, 'Too many calls for this token');
    await touchApiToken(deps.db, row.tokenId, row.lastUsedAt);
    return { ...row, isSuper: false, sessionId: `api-token:${row.tokenId}` };
  };

  const sessionCaller = async (token: string) => {
    const claims = await deps.tokens.verifyAccess(token);
    if (claims === 'expired') throw new AppError('ERR_INVALID_TOKEN', 'Token expired');
    if (claims === 'invalid') throw new AppError('ERR_INVALID_TOKEN', 'Invalid token');
    const principal = await principalOf({ userId: claims.id, sessionId: claims.sid });
    if (!principal) throw new AppError('ERR_SESSION_EXPIRED', 'This account no longer exists');
    // 401, not 403: refreshing cannot bring an ended session back, the client signs out.
    if (!principal.sessionLive) throw new AppError('ERR_SESSION_EXPIRED', 'This session has ended');
    return { ...principal, sessionId: claims.sid, tokenId: undefined };
  };
  const principalOf = groupCommit(async (callers: { userId: number; sessionId: string }[]) => {
    const rows = await principalsQuery.execute({
      userIds: callers.map((c) => c.userId),
      sessionIds: callers.map((c) => c.sessionId),
    });
    const byPosition = new Map(rows.map((row) => [Number(row.n), row]));
    return callers.map((_, i) => byPosition.get(i + 1));
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access ?? {};
    if (access.public) return;
    const token = bearer(request);
    if (!token) throw new AppError('ERR_SESSION_EXPIRED', 'No session: log in');
    const principal = token.startsWith(API_TOKEN_PREFIX)
      ? await apiTokenCaller(request, token)
      : await sessionCaller(token);
    request.auth = {
      userId: principal.userId,
      companyId: principal.companyId,
      profile: principal.profile,
      isSuper: principal.isSuper,
      sessionId: principal.sessionId,
      address: request.ip,
      queueIds: principal.queueIds,
      ...(principal.tokenId ? { apiTokenId: principal.tokenId } : {}),
    };
    if (principal.isSuper) return;
    if (access.superOnly)
      throw new AppError('ERR_SUPER_ONLY', 'Only platform operators may do this');
    const status = effectiveCompanyStatus({
      status: principal.companyStatus,
      dueDate: principal.dueDate,
    });
    if (status !== 'active' && !access.allowInactiveCompany) {
      throw new AppError('ERR_COMPANY_INACTIVE', `The company's subscription is ${status}`);
    }
    if (access.planFeature && !principal.plan[access.planFeature]) {
      throw new AppError(
        'ERR_PLAN_FEATURE_DISABLED',
        'This company has no permission to use this feature',
      );
    }
    if (access.permission && !can(request.auth, access.permission)) {
      throw new AppError('ERR_NO_PERMISSION');
    }
  });
};
