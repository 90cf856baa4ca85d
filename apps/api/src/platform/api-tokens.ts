import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiTokens, companies, plans, users } from '../db/schema';
import { callerColumns } from './caller-columns';

// Reads an API token's caller (issue 38) every request, like a session's (auth-hook.ts): a revoked
// or expired token, a change of its maker's profile or company, take effect at once on every node.
export const prepareApiTokenPrincipal = (db: Db) =>
  db
    .select({
      tokenId: apiTokens.id,
      scopes: apiTokens.scopes,
      lastUsedAt: apiTokens.lastUsedAt,
      ...callerColumns,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.createdBy))
    .innerJoin(companies, eq(companies.id, apiTokens.companyId))
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(
      and(
        eq(apiTokens.tokenHash, sql.placeholder('tokenHash')),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql`now()`)),
        // A token's maker moved to another company: the token stays with the old one, unused.
        eq(users.companyId, apiTokens.companyId),
      ),
    )
    .prepare('api_token_principal');

// Last use, written at most once a minute per token (a busy integration does not write every call).
const TOUCH_EVERY_MS = 60_000;
export const touchApiToken = async (db: Db, tokenId: number, lastUsedAt: Date | null) => {
  if (lastUsedAt && Date.now() - lastUsedAt.getTime() < TOUCH_EVERY_MS) return;
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiTokens.id, tokenId),
        or(
          isNull(apiTokens.lastUsedAt),
          sql`${apiTokens.lastUsedAt} < now() - interval '1 minute'`,
        ),
      ),
    );
};
