import { randomInt, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app';
import { passwordResets, refreshTokens, users } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { hashPassword, verifyPassword } from '../../platform/passwords';
import { loadSessionUser, type SessionUser } from '../users/users.service';

type Deps = Pick<AppDeps, 'db' | 'tokens' | 'realtime' | 'config' | 'rateLimiter' | 'mailer'>;

export type SessionResult = {
  token: string;
  refreshToken: string;
  user: SessionUser;
  companyStatus: SessionUser['company']['status'];
  companyDueDate: Date | null;
};

// A refresh token reused within this window (two tabs refreshing at once) is not treated as theft.
const ROTATION_GRACE_MS = 10_000;
const RESET_CODE_TTL_MS = 30 * 60 * 1000;
const RESET_MAX_ATTEMPTS = 5;

// A fixed hash to verify against when the email is unknown, so timing does not reveal which emails exist.
let dummyHash: Promise<string> | undefined;

const tooMany = (resetIn: number, message: string) =>
  new AppError('ERR_TOO_MANY_REQUESTS', message, {
    headers: { 'Retry-After': String(Math.max(resetIn, 1)) },
  });

const issueSession = async (
  deps: Deps,
  userId: number,
  familyId: string,
): Promise<SessionResult> => {
  const user = await loadSessionUser(deps.db, userId);
  if (!user) throw new AppError('ERR_SESSION_EXPIRED', 'This account no longer exists');
  const refreshToken = deps.tokens.newOpaqueToken();
  await deps.db.insert(refreshTokens).values({
    userId,
    companyId: user.companyId,
    familyId,
    tokenHash: deps.tokens.hashOpaque(refreshToken),
    expiresAt: new Date(Date.now() + deps.config.refreshTokenTtl * 1000),
  });
  const token = await deps.tokens.signAccess({
    id: user.id,
    companyId: user.companyId,
    profile: user.profile,
    super: user.super,
    sid: familyId,
  });
  return {
    token,
    refreshToken,
    user,
    companyStatus: user.company.status,
    companyDueDate: user.company.dueDate,
  };
};

const revokeFamily = (deps: Pick<Deps, 'db'>, familyId: string) =>
  deps.db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));

export const login = async (deps: Deps, input: { email: string; password: string }, ip: string) => {
  const { loginRateLimit: limit, loginRateWindow: window } = deps.config;
  const ipKey = `login-ip:${ip}`;
  const emailKey = `login-email:${input.email}`;
  const [byIp, byEmail] = await Promise.all([
    deps.rateLimiter.peek(ipKey),
    deps.rateLimiter.peek(emailKey),
  ]);
  if (byEmail.count >= limit)
    throw tooMany(byEmail.resetIn, 'Too many failed attempts for this account, try later');
  if (byIp.count >= limit * 3)
    throw tooMany(byIp.resetIn, 'Too many attempts from this address, try later');

  const [user] = await deps.db.select().from(users).where(eq(users.email, input.email));
  dummyHash ??= hashPassword(randomUUID());
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password);
  if (!user || !valid) {
    await Promise.all([
      deps.rateLimiter.hit(ipKey, window),
      deps.rateLimiter.hit(emailKey, window),
    ]);
    throw new AppError('ERR_INVALID_CREDENTIALS', 'Invalid email or password');
  }
  await deps.rateLimiter.reset(emailKey);

  const familyId = randomUUID();
  // One session per account: earlier logins lose their refresh tokens and their sockets are told.
  await deps.db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.userId, user.id),
        isNull(refreshTokens.revokedAt),
        ne(refreshTokens.familyId, familyId),
      ),
    );
  const session = await issueSession(deps, user.id, familyId);
  deps.realtime
    .toUser(user.companyId, user.id)
    .emit('auth', { action: 'update', user: { id: user.id }, sessionId: familyId });
  return session;
};

export const refresh = async (deps: Deps, presented: string | undefined) => {
  if (!presented) throw new AppError('ERR_SESSION_EXPIRED', 'No session: log in');
  const tokenHash = deps.tokens.hashOpaque(presented);
  const now = new Date();
  // Rotation is one conditional update, so two concurrent uses cannot both win.
  const [rotated] = await deps.db
    .update(refreshTokens)
    .set({ rotatedAt: now })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.rotatedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning();
  if (rotated) return issueSession(deps, rotated.userId, rotated.familyId);

  const [known] = await deps.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash));
  if (!known || known.revokedAt || known.expiresAt <= now) {
    throw new AppError('ERR_SESSION_EXPIRED', 'Session expired, log in again');
  }
  if (known.rotatedAt && now.getTime() - known.rotatedAt.getTime() <= ROTATION_GRACE_MS) {
    return issueSession(deps, known.userId, known.familyId);
  }
  // A rotated token presented again means it leaked: end that whole login.
  await revokeFamily(deps, known.familyId);
  throw new AppError('ERR_SESSION_EXPIRED', 'Session expired, log in again');
};

export const logout = async (deps: Deps, presented: string | undefined, sessionId?: string) => {
  if (sessionId) await revokeFamily(deps, sessionId);
  if (!presented) return;
  const [known] = await deps.db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, deps.tokens.hashOpaque(presented)));
  if (known) await revokeFamily(deps, known.familyId);
};

const resetCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const requestPasswordReset = async (deps: Deps, email: string, ip: string) => {
  const limited = await deps.rateLimiter.hit(`forgot:${email}`, deps.config.loginRateWindow);
  const limitedIp = await deps.rateLimiter.hit(`forgot-ip:${ip}`, deps.config.loginRateWindow);
  if (limited.count > 5) throw tooMany(limited.resetIn, 'Too many reset requests, try later');
  if (limitedIp.count > 20) throw tooMany(limitedIp.resetIn, 'Too many reset requests, try later');
  const [user] = await deps.db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(eq(users.email, email));
  // SPEC §7: an unknown email answers 404 (the form tells the person).
  if (!user) throw new AppError('ERR_EMAIL_NOT_FOUND', 'No account with this email');
  const code = resetCode();
  await deps.db.transaction(async (tx) => {
    // A new code replaces any earlier one.
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await tx.insert(passwordResets).values({
      userId: user.id,
      codeHash: deps.tokens.hashOpaque(`${user.id}:${code}`),
      expiresAt: new Date(Date.now() + RESET_CODE_TTL_MS),
    });
  });
  await deps.mailer.send({
    to: email,
    subject: 'Código para restablecer su contraseña / Password reset code',
    text:
      `Hola ${user.name},\n\nSu código para restablecer la contraseña es: ${code}\n` +
      `Vence en 30 minutos. Si usted no lo pidió, ignore este mensaje.\n\n` +
      `Your password reset code is: ${code} (valid for 30 minutes).\n`,
  });
};

export const resetPassword = async (
  deps: Deps,
  input: { email: string; token: string; newPassword: string },
) => {
  const [user] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, input.email));
  if (!user) throw new AppError('ERR_EMAIL_NOT_FOUND', 'No account with this email');
  const [pending] = await deps.db
    .select()
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.userId, user.id),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(passwordResets.createdAt))
    .limit(1);
  const invalid = new AppError('ERR_INVALID_RESET_CODE', 'The code is wrong or has expired');
  if (!pending || pending.attempts >= RESET_MAX_ATTEMPTS) throw invalid;
  if (
    !deps.tokens.sameHash(pending.codeHash, deps.tokens.hashOpaque(`${user.id}:${input.token}`))
  ) {
    await deps.db
      .update(passwordResets)
      .set({ attempts: sql`${passwordResets.attempts} + 1` })
      .where(eq(passwordResets.id, pending.id));
    throw invalid;
  }
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.id, pending.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    if (!claimed) throw invalid;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    // A new password ends every existing login.
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, user.id), isNull(refreshTokens.revokedAt)));
  });
};
