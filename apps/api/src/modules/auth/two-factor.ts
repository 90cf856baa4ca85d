import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { loginChallenges, recoveryCodes, settings, users } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { verifyPassword } from '../../platform/passwords';
import { consume } from '../../platform/rate-limit';
import { audit, auditAs } from '../../platform/audit';
import type { AuthContext } from '../../platform/context';

// Two-factor sign-in (issue 37): TOTP per RFC 6238 (SHA-1, 6 digits, 30 s: what every authenticator
// app reads) through `otpauth`, and ten one-time recovery codes. Secrets are sealed with the server's
// key (platform/secrets.ts) and leave the server only while being enrolled; recovery codes are kept
// as keyed hashes. A code is accepted once: the time step of the last one accepted is kept on the
// user, moved forward by a conditional update, so two requests with the same code cannot both pass.

type Deps = Pick<AppDeps, 'db' | 'tokens' | 'secrets' | 'limits'>;
type UserRow = typeof users.$inferSelect;

const ISSUER = 'Atendi';
const PERIOD_SECONDS = 30;
const RECOVERY_CODES = 10;
// The sign-in's second step: minutes it lasts, and codes it takes before it must start again.
const CHALLENGE_TTL_MS = 5 * 60_000;
const CHALLENGE_ATTEMPTS = 5;

const totpOf = (secret: string, label: string) =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

// A new secret (160 bits, as RFC 4226 recommends) and what the app reads of it.
const newSecret = (label: string) => {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, label).toString() };
};

// The time step a code is good for (a step either side is allowed for clocks a little off).
const stepOf = (secret: string, code: string, now = Date.now()) => {
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
};

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const newRecoveryCode = () => {
  const chars = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
};
const recoveryHash = (deps: Pick<Deps, 'tokens'>, code: string) =>
  deps.tokens.hashOpaque(`recovery:${code.replace('-', '').toLowerCase()}`);

// Ten new codes for the user (the old ones go), answered once in clear.
const replaceRecoveryCodes = async (deps: Pick<Deps, 'tokens'>, tx: Db, userId: number) => {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: recoveryHash(deps, code) })));
  return codes;
};

// Whether the user's company (or, for a super user, the platform) requires a second factor.
export const twoFactorRequired = async (db: Db, user: Pick<UserRow, 'companyId' | 'super'>) => {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(
      and(
        eq(settings.companyId, user.companyId),
        or(eq(settings.key, 'twoFactor'), eq(settings.key, 'superTwoFactor')),
      ),
    );
  const value = (key: string) => rows.find((row) => row.key === key)?.value;
  return (
    value('twoFactor') === 'required' || (user.super && value('superTwoFactor') === 'required')
  );
};

// Checks a code of the user's enabled factor: an app code not used before, or an unused recovery
// code (then spent). False when it is neither.
const acceptCode = async (deps: Deps, user: UserRow, code: string) => {
  if (!user.totpSecret) return false;
  if (/^\d{6}$/.test(code)) {
    const step = stepOf(deps.secrets.open(user.totpSecret), code);
    if (step === undefined) return false;
    const [moved] = await deps.db
      .update(users)
      .set({ totpLastStep: step })
      .where(
        and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))),
      )
      .returning({ id: users.id });
    return !!moved;
  }
  const [spent] = await deps.db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.userId, user.id),
        eq(recoveryCodes.codeHash, recoveryHash(deps, code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return !!spent;
};

// Every code tried counts against the user before it is checked (parallel guesses cannot all pass
// the check); a right one gives its point back.
const countAttempt = (deps: Deps, userId: number) =>
  consume(deps.limits.twoFactor, `user:${userId}`, 'Too many codes tried, wait and log in again');

const invalidCode = () =>
  new AppError('ERR_TWO_FACTOR_INVALID', 'The code is not right (or was used already)');

// --- The sign-in's second step ---

// A password that was right for an account with a second factor (or one its company requires):
// the token of the step that finishes the sign-in.
export const startChallenge = async (
  deps: Pick<Deps, 'db' | 'tokens'>,
  userId: number,
  purpose: 'verify' | 'enroll',
) => {
  const token = deps.tokens.newOpaqueToken();
  await deps.db.insert(loginChallenges).values({
    tokenHash: deps.tokens.hashOpaque(token),
    userId,
    purpose,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
  // Old steps of anyone are forgotten along the way.
  await deps.db
    .delete(loginChallenges)
    .where(lt(loginChallenges.expiresAt, new Date(Date.now() - CHALLENGE_TTL_MS)));
  return token;
};

const expired = () =>
  new AppError('ERR_TWO_FACTOR_EXPIRED', 'This sign-in step is over: log in again');

// The step named by the token, one more try counted on it (at most CHALLENGE_ATTEMPTS), and its user.
const tryChallenge = async (deps: Deps, token: string, purpose: 'verify' | 'enroll') => {
  const [challenge] = await deps.db
    .update(loginChallenges)
    .set({ attempts: sql`${loginChallenges.attempts} + 1` })
    .where(
      and(
        eq(loginChallenges.tokenHash, deps.tokens.hashOpaque(token)),
        eq(loginChallenges.purpose, purpose),
        isNull(loginChallenges.usedAt),
        gt(loginChallenges.expiresAt, new Date()),
        lt(loginChallenges.attempts, CHALLENGE_ATTEMPTS),
      ),
    )
    .returning();
  if (!challenge) throw expired();
  const [user] = await deps.db.select().from(users).where(eq(users.id, challenge.userId));
  if (!user) throw expired();
  return { challenge, user };
};

// Used once: of two requests finishing the same step, one wins.
const finishChallenge = async (deps: Deps, id: number) => {
  const [done] = await deps.db
    .update(loginChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(loginChallenges.id, id), isNull(loginChallenges.usedAt)))
    .returning({ id: loginChallenges.id });
  if (!done) throw expired();
};

// POST /auth/login/two-factor: the user whose sign-in this code finishes.
export const verifyChallenge = async (deps: Deps, token: string, code: string, address: string) => {
  const { challenge, user } = await tryChallenge(deps, token, 'verify');
  await countAttempt(deps, user.id);
  if (!(await acceptCode(deps, user, code))) {
    await audit(deps.db, {
      companyId: user.companyId,
      userId: user.id,
      action: 'auth.two_factor_failed',
      address,
    });
    throw invalidCode();
  }
  await deps.limits.twoFactor.delete(`user:${user.id}`);
  await finishChallenge(deps, challenge.id);
  return user;
};

// POST /auth/login/two-factor/setup: the secret of the factor the company requires (the same one if
// asked again within the step).
export const challengeSetup = async (
  deps: Deps,
  token: string,
): Promise<{ secret: string; uri: string }> => {
  const { challenge, user } = await tryChallenge(deps, token, 'enroll');
  if (challenge.secret) {
    const secret = deps.secrets.open(challenge.secret);
    return { secret, uri: totpOf(secret, user.email).toString() };
  }
  const setup = newSecret(user.email);
  const [kept] = await deps.db
    .update(loginChallenges)
    .set({ secret: deps.secrets.seal(setup.secret) })
    .where(and(eq(loginChallenges.id, challenge.id), isNull(loginChallenges.secret)))
    .returning({ id: loginChallenges.id });
  // Asked twice at once: the one that stored its secret stands.
  if (!kept) return challengeSetup(deps, token);
  return setup;
};

// Turns the factor on with its secret and first code, in one transaction with its recovery codes.
const enable = async (
  deps: Deps,
  tx: Db,
  user: UserRow,
  secret: string,
  code: string,
  address: string,
) => {
  const step = stepOf(secret, code);
  if (step === undefined) throw invalidCode();
  await audit(tx, {
    companyId: user.companyId,
    userId: user.id,
    action: 'auth.two_factor_enabled',
    target: `user:${user.id}`,
    address,
  });
  await tx
    .update(users)
    .set({
      totpSecret: deps.secrets.seal(secret),
      totpPending: null,
      totpEnabledAt: new Date(),
      totpLastStep: step,
    })
    .where(eq(users.id, user.id));
  return replaceRecoveryCodes(deps, tx, user.id);
};

// POST /auth/login/two-factor/enroll: the factor confirmed, its recovery codes, and the user whose
// sign-in it finishes.
export const enrollChallenge = async (deps: Deps, token: string, code: string, address: string) => {
  const { challenge, user } = await tryChallenge(deps, token, 'enroll');
  if (!challenge.secret) throw new AppError('ERR_VALIDATION', 'Start the enrolment first');
  await countAttempt(deps, user.id);
  const codes = await deps.db.transaction(async (tx) => {
    const [done] = await tx
      .update(loginChallenges)
      .set({ usedAt: new Date() })
      .where(and(eq(loginChallenges.id, challenge.id), isNull(loginChallenges.usedAt)))
      .returning({ id: loginChallenges.id });
    if (!done) throw expired();
    return enable(deps, tx, user, deps.secrets.open(challenge.secret!), code, address);
  });
  await deps.limits.twoFactor.delete(`user:${user.id}`);
  return { user, recoveryCodes: codes };
};

// --- The signed-in user's own second factor ---

const userRow = async (db: Db, userId: number) => {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('ERR_SESSION_EXPIRED');
  return user;
};

export const twoFactorStatus = async (deps: Deps, userId: number) => {
  const user = await userRow(deps.db, userId);
  const [left] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return {
    enabled: user.totpEnabledAt !== null,
    required: await twoFactorRequired(deps.db, user),
    recoveryCodesLeft: user.totpEnabledAt ? left.n : 0,
  };
};

// A new secret to enrol (replacing one being enrolled); the factor in use, if any, stays until the
// new one is confirmed.
export const setupTwoFactor = async (deps: Deps, userId: number) => {
  const user = await userRow(deps.db, userId);
  const setup = newSecret(user.email);
  await deps.db
    .update(users)
    .set({ totpPending: deps.secrets.seal(setup.secret) })
    .where(eq(users.id, userId));
  return setup;
};

export const enableTwoFactor = async (deps: Deps, ctx: AuthContext, code: string) => {
  const userId = ctx.userId;
  const user = await userRow(deps.db, userId);
  if (!user.totpPending) throw new AppError('ERR_VALIDATION', 'Start the enrolment first');
  await countAttempt(deps, userId);
  const codes = await deps.db.transaction(async (tx) => {
    // The secret being enrolled, still the one read (a second setup in between replaced it).
    const [still] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.totpPending, user.totpPending!)))
      .for('update');
    if (!still) throw invalidCode();
    return enable(deps, tx, user, deps.secrets.open(user.totpPending!), code, ctx.address ?? '');
  });
  await deps.limits.twoFactor.delete(`user:${userId}`);
  return { recoveryCodes: codes };
};

export const disableTwoFactor = async (
  deps: Deps,
  ctx: AuthContext,
  input: { password: string; code: string },
) => {
  const userId = ctx.userId;
  const user = await userRow(deps.db, userId);
  if (!user.totpEnabledAt) return;
  if (await twoFactorRequired(deps.db, user))
    throw new AppError('ERR_TWO_FACTOR_REQUIRED', 'Your company requires the second factor');
  await countAttempt(deps, userId);
  if (!(await verifyPassword(user.passwordHash, input.password)))
    throw new AppError('ERR_INVALID_CREDENTIALS', 'The password is not right');
  if (!(await acceptCode(deps, user, input.code))) throw invalidCode();
  await removeTwoFactor(deps.db, userId, (tx) =>
    auditAs(tx, ctx, { action: 'auth.two_factor_disabled', target: `user:${userId}` }),
  );
  await deps.limits.twoFactor.delete(`user:${userId}`);
};

// Off, with its codes (disabled by the user, or reset by a super user).
const removeTwoFactor = async (db: Db, userId: number, record: (tx: Db) => Promise<void>) => {
  await db.transaction(async (tx) => {
    await record(tx);
    await tx
      .update(users)
      .set({ totpSecret: null, totpPending: null, totpEnabledAt: null, totpLastStep: null })
      .where(eq(users.id, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  });
};

// DELETE /users/{id}/two-factor (super users): a user who lost their phone and their codes signs in
// with the password again, and enrols again if their company requires it.
export const resetTwoFactor = async (db: Db, ctx: AuthContext, userId: number) => {
  const [user] = await db
    .select({ id: users.id, companyId: users.companyId })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  await removeTwoFactor(db, userId, (tx) =>
    audit(tx, {
      companyId: user.companyId,
      userId: ctx.userId,
      action: 'auth.two_factor_reset',
      target: `user:${userId}`,
      address: ctx.address,
    }),
  );
};
