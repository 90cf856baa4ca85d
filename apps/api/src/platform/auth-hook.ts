import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, effectiveCompanyStatus } from '@atendi/shared';
import type { Db } from '../db/client';
import { companies, plans, userQueues, users } from '../db/schema';
import type { AuthContext } from './context';
import { AppError } from './errors';
import { sessionLiveSql } from './sessions';
import type { TokenService } from './tokens';

const bearer = (request: FastifyRequest) => {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
};

// Reads who the caller is and what they may reach, every request: profile, company and plan
// changes, and the end of the token's session, take effect at once, not when the token expires. Every
// private request runs it, so it is built once and prepared (named): the server parses and plans it
// once per connection, and no request pays for building its SQL.
const preparePrincipal = (db: Db) =>
  db
    .select({
      userId: users.id,
      sessionLive: sessionLiveSql(sql.placeholder('userId'), sql.placeholder('sessionId')),
      companyId: users.companyId,
      profile: users.profile,
      isSuper: users.super,
      companyStatus: companies.status,
      dueDate: companies.dueDate,
      queueIds: sql<
        number[]
      >`array(select ${userQueues.queueId} from ${userQueues} where ${userQueues.userId} = ${users.id})`,
      plan: {
        useCampaigns: plans.useCampaigns,
        useKanban: plans.useKanban,
        useOpenAi: plans.useOpenAi,
        useIntegrations: plans.useIntegrations,
        useSchedules: plans.useSchedules,
        useExternalApi: plans.useExternalApi,
      },
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('auth_principal');

// Wraps the private route tree: no session or an ended one → 401, bad or expired token → 403 (the
// client refreshes once and retries), then the route's declared access (permission, super, company
// gate, plan flag).
export const registerAuthHook = (app: FastifyInstance, deps: { db: Db; tokens: TokenService }) => {
  app.decorateRequest('auth', null as unknown as AuthContext);
  const principalQuery = preparePrincipal(deps.db);
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access ?? {};
    if (access.public) return;
    const token = bearer(request);
    if (!token) throw new AppError('ERR_SESSION_EXPIRED', 'No session: log in');
    const claims = await deps.tokens.verifyAccess(token);
    if (claims === 'expired') throw new AppError('ERR_INVALID_TOKEN', 'Token expired');
    if (claims === 'invalid') throw new AppError('ERR_INVALID_TOKEN', 'Invalid token');
    const [principal] = await principalQuery.execute({ userId: claims.id, sessionId: claims.sid });
    if (!principal) throw new AppError('ERR_SESSION_EXPIRED', 'This account no longer exists');
    // 401, not 403: refreshing cannot bring an ended session back, the client signs out.
    if (!principal.sessionLive) throw new AppError('ERR_SESSION_EXPIRED', 'This session has ended');
    request.auth = {
      userId: principal.userId,
      companyId: principal.companyId,
      profile: principal.profile,
      isSuper: principal.isSuper,
      sessionId: claims.sid,
      queueIds: principal.queueIds,
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
