import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { API_TOKEN_PREFIX, type ApiTokenCreateInput } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { apiTokens, users } from '../../db/schema';
import { auditAs } from '../../platform/audit';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';

// Issue 38: a company's API tokens. The token is 32 random bytes after `atd_`, answered once; the
// database keeps its keyed hash (platform/tokens.ts) and its first characters to tell it apart.

type Deps = Pick<AppDeps, 'db' | 'tokens'>;

const PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6;

const view = (row: typeof apiTokens.$inferSelect, maker: { id: number; name: string } | null) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  expiresAt: row.expiresAt,
  lastUsedAt: row.lastUsedAt,
  createdAt: row.createdAt,
  createdBy: maker,
});

// The company's tokens not revoked (expired ones too, marked by their date), newest first.
export const listApiTokens = async (deps: Deps, ctx: AuthContext) => {
  const rows = await deps.db
    .select({ token: apiTokens, maker: { id: users.id, name: users.name } })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .where(and(eq(apiTokens.companyId, ctx.companyId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.id));
  return { tokens: rows.map((row) => view(row.token, row.maker)) };
};

export const createApiToken = async (deps: Deps, ctx: AuthContext, input: ApiTokenCreateInput) => {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiTokens)
      .values({
        companyId: ctx.companyId,
        createdBy: ctx.userId,
        name: input.name,
        tokenHash: deps.tokens.hashOpaque(token),
        prefix: token.slice(0, PREFIX_LENGTH),
        scopes: [...input.scopes],
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      })
      .returning();
    await auditAs(tx, ctx, {
      action: 'api_token.created',
      target: `api-token:${created.id}`,
      detail: {
        name: created.name,
        prefix: created.prefix,
        scopes: created.scopes,
        expiresAt: created.expiresAt?.toISOString() ?? null,
      },
    });
    return created;
  });
  const [maker] = await deps.db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(eq(users.id, ctx.userId));
  return { ...view(row, maker ?? null), token };
};

// Revoked at once: every node reads the token's row on each call (platform/api-tokens.ts).
export const revokeApiToken = async (deps: Deps, ctx: AuthContext, id: number) => {
  await deps.db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(apiTokens.id, id),
          eq(apiTokens.companyId, ctx.companyId),
          isNull(apiTokens.revokedAt),
        ),
      )
      .returning();
    if (!revoked) throw new AppError('ERR_NOT_FOUND', 'No such API token');
    await auditAs(tx, ctx, {
      action: 'api_token.revoked',
      target: `api-token:${id}`,
      detail: { name: revoked.name, prefix: revoked.prefix },
    });
  });
};
