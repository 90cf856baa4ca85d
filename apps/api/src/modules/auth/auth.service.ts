import { randomInt, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { effectiveCompanyStatus, type TwoFactorStep } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { passwordResets, refreshTokens, users } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { hashPassword, verifyPassword } from '../../platform/passwords';
import { consume, KNOWN_ADDRESS_SECONDS } from '../../platform/rate-limit';
import { endSessions, revokeSessions } from '../../platform/sessions';
import { loadSessionUser, type SessionUser } from '../users';
import { startChallenge, twoFactorRequired } from './two-factor';
import { passwordLoginAllowed } from './sso-policy';
import { audit } from '../../platform/audit';
import {
  deviceIdOf,
  recordSession,
  sessionPolicyOf,
  touchSession,
  type LoginClient as SessionClient,
} from './sessions';

type Deps = Pick<AppDeps, 'db' | 'tokens' | 'realtime' | 'config' | 'limits' | 'mailer'>;

export type SessionResult = {
  token: string;
  refreshToken: string;
  user: SessionUser;
  companyStatus: SessionUser['company']['status'];
  companyDueDate: Date | null;
};

// A finished sign-in: the session, and the browser's cookies (`device`: it signed in, for the login
// limiter; `deviceId`: its id, for one session per device).
export type SignedIn = SessionResult & { device: string; deviceId: string };

// A refresh token reused within this window (two tabs refreshing at once) is not treated as theft.
const ROTATION_GRACE_MS = 10_000;
const RESET_CODE_TTL_MS = 30 * 60 * 1000;
const RESET_MAX_ATTEMPTS = 5;

// A fixed hash to verify against when the email is unknown, so timing does not reveal which emails exist.
let dummyHash: Promise<string> | undefined;

const issueSession = async (
  deps: Deps,
  userId: number,
  familyId: string,
): Promise<SessionResult> => {
  const user = await loadSessionUser(deps, userId);
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
    // The status the gate applies: an active company past its due date is already overdue.
    companyStatus: effectiveCompanyStatus(user.company),
    companyDueDate: user.company.dueDate,
  };
};

// The device cookie a successful login leaves: a nonce and its keyed hash, bound to the email.
const deviceSignature = (deps: Deps, email: string, nonce: string) =>
  deps.tokens.hashOpaque(`device:${email}:${nonce}`);
const newDeviceToken = (deps: Deps, email: string) => {
  const nonce = deps.tokens.newOpaqueToken();
  return `${nonce}.${deviceSignature(deps, email, nonce)}`;
};
const isKnownDevice = (deps: Deps, email: string, device: string | undefined) => {
  const [nonce, signature] = (device ?? '').split('.');
  return (
    !!nonce && !!signature && deps.tokens.sameHash(signature, deviceSignature(deps, email, nonce))
  );
};

type LoginClient = { ip: string; device?: string; userAgent?: string };

export const login = async (
  deps: Deps,
  input: { email: string; password: string },
  client: LoginClient,
): Promise<SignedIn | TwoFactorStep> => {
  const { ip } = client;
  const pair = `${ip}|${input.email}`;
  // Every attempt is counted before the password is checked, so parallel guesses cannot all pass
  // the check; a successful one gives its points back. Failures lock an email out only for the
  // address they came from; past the email's own (larger) limit, only a device or address that
  // signed in to it before may still try, so an attacker elsewhere cannot lock its owner out.
  await consume(deps.limits.loginIp, ip, 'Too many attempts from this address, try later');
  await consume(
    deps.limits.loginPair,
    pair,
    'Too many failed attempts for this account, try later',
  );
  await consume(
    deps.limits.loginEmail,
    input.email,
    'Too many failed attempts for this account: sign in from a device you used before, or reset the password',
    {
      unless: async () =>
        isKnownDevice(deps, input.email, client.device) ||
        (await deps.limits.loginKnown.get(pair)) !== null,
    },
  );

  const [user] = await deps.db.select().from(users).where(eq(users.email, input.email));
  dummyHash ??= hashPassword(randomUUID());
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password);
  // A company that signs in with SSO only refuses passwords, right or wrong (so the answer tells
  // nothing about the password).
  const ssoOnly = !!user && !(await passwordLoginAllowed(deps.db, user));
  if (!user || !valid || ssoOnly) {
    await audit(deps.db, {
      companyId: user?.companyId ?? null,
      userId: user?.id ?? null,
      action: 'auth.login_failed',
      detail: { email: input.email, ...(ssoOnly ? { reason: 'sso only' } : {}) },
      address: ip,
    });
    if (ssoOnly)
      throw new AppError('ERR_SSO_REQUIRED', 'Your company signs in with SSO: use its button');
    throw new AppError('ERR_INVALID_CREDENTIALS', 'Invalid email or password');
  }
  await Promise.all([
    deps.limits.loginPair.delete(pair),
    deps.limits.loginIp.reward(ip),
    deps.limits.loginEmail.reward(input.email),
    deps.limits.loginKnown.set(pair, 1, KNOWN_ADDRESS_SECONDS),
  ]);

  // A second factor (the user's, or the one their company requires): no session yet.
  if (user.totpEnabledAt || (await twoFactorRequired(deps.db, user))) {
    const purpose = user.totpEnabledAt ? 'verify' : 'enroll';
    return { twoFactor: purpose, challenge: await startChallenge(deps, user.id, purpose) };
  }
  return startSession(deps, user, client);
};

// The sign-in done (password, and the second factor if any): a new session, the others ended.
export const startSession = async (
  deps: Deps,
  user: { id: number; companyId: number; email: string },
  client: SessionClient,
  // How the sign-in was completed besides a password: a second factor, or the company's SSO
  // instead of a password (the audit log says so).
  via?: 'totp' | 'enrolment' | 'sso',
): Promise<SignedIn> => {
  const familyId = randomUUID();
  const deviceId = deviceIdOf(client.deviceId);
  const deviceKey = deps.tokens.hashOpaque(`device-id:${deviceId}`);
  const policy = await sessionPolicyOf(deps.db, user.companyId);
  const { session, ended } = await deps.db.transaction(async (tx) => {
    // One session per account (SPEC; a company may keep one per device, or allow several): earlier
    // logins end, and their sockets are dropped. Under the user's row lock, so two sign-ins at the
    // same moment end one another in turn (the later one holds) instead of both staying.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const ended =
      policy === 'enabled'
        ? await revokeSessions(tx, { userId: user.id })
        : policy === 'device'
          ? await revokeSessions(tx, { userId: user.id, deviceKey })
          : [];
    const session = await issueSession({ ...deps, db: tx }, user.id, familyId);
    await recordSession(
      tx,
      { familyId, userId: user.id, companyId: user.companyId, deviceKey },
      client,
    );
    await audit(tx, {
      companyId: user.companyId,
      userId: user.id,
      action: 'auth.login',
      target: `session:${familyId}`,
      detail: { device: client.userAgent ?? '', ...(via ? { with: via } : {}) },
      address: client.ip,
    });
    return { session, ended };
  });
  // SPEC §7: the other browsers say "account used elsewhere" and sign out. Only under SPEC's rule:
  // where sessions may live side by side, nobody else is signed out (the same browser's earlier
  // session, which the 'device' rule ends, shares this one's cookie and carries on with it).
  if (policy === 'enabled')
    deps.realtime
      .toUser(user.companyId, user.id)
      .emit('auth', { action: 'update', user: { id: user.id }, sessionId: familyId });
  deps.realtime.endSessions(ended);
  return { ...session, device: newDeviceToken(deps, user.email), deviceId };
};

export const refresh = async (deps: Deps, presented: string | undefined, client: SessionClient) => {
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
  if (rotated) {
    await touchSession(deps.db, rotated.familyId, client);
    return issueSession(deps, rotated.userId, rotated.familyId);
  }

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
  await endSessions(deps, { sessionId: known.familyId });
  throw new AppError('ERR_SESSION_EXPIRED', 'Session expired, log in again');
};

export const logout = async (deps: Deps, presented: string | undefined, sessionId?: string) => {
  if (sessionId) await endSessions(deps, { sessionId });
  if (!presented) return;
  const [known] = await deps.db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, deps.tokens.hashOpaque(presented)));
  if (known) await endSessions(deps, { sessionId: known.familyId });
};

const resetCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const requestPasswordReset = async (deps: Deps, email: string, ip: string) => {
  await consume(deps.limits.forgotIp, ip, 'Too many reset requests, try later');
  await consume(deps.limits.forgotEmail, email, 'Too many reset requests, try later');
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
    subject:
      'Código para restablecer su contraseña / Password reset code / Código para redefinir sua senha',
    text:
      `Hola ${user.name},\n\nSu código para restablecer la contraseña es: ${code}\n` +
      `Vence en 30 minutos. Si usted no lo pidió, ignore este mensaje.\n\n` +
      `Your password reset code is: ${code} (valid for 30 minutes).\n\n` +
      `Seu código para redefinir a senha é: ${code} (válido por 30 minutos). Se você não o ` +
      `pediu, ignore esta mensagem.\n`,
  });
};

export const resetPassword = async (
  deps: Deps,
  input: { email: string; token: string; newPassword: string },
  ip: string,
) => {
  // Counted like code requests (the same budget per address), so neither route can be used to
  // learn which emails have accounts faster than the other.
  await consume(deps.limits.forgotIp, ip, 'Too many reset attempts, try later');
  await consume(deps.limits.resetEmail, input.email, 'Too many reset attempts, try later');
  const [user] = await deps.db
    .select({ id: users.id, companyId: users.companyId })
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
  if (!pending) throw invalid;
  // A try is counted with one conditional update before the code is compared, so parallel
  // guesses get at most RESET_MAX_ATTEMPTS comparisons.
  const [counted] = await deps.db
    .update(passwordResets)
    .set({ attempts: sql`${passwordResets.attempts} + 1` })
    .where(
      and(
        eq(passwordResets.id, pending.id),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, new Date()),
        lt(passwordResets.attempts, RESET_MAX_ATTEMPTS),
      ),
    )
    .returning({ id: passwordResets.id });
  if (!counted) throw invalid;
  if (
    !deps.tokens.sameHash(pending.codeHash, deps.tokens.hashOpaque(`${user.id}:${input.token}`))
  ) {
    throw invalid;
  }
  const passwordHash = await hashPassword(input.newPassword);
  const ended = await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.id, pending.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    if (!claimed) throw invalid;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await audit(tx, {
      companyId: user.companyId,
      userId: user.id,
      action: 'auth.password_reset',
      target: `user:${user.id}`,
      address: ip,
    });
    // A new password ends every existing login.
    return revokeSessions(tx, { userId: user.id });
  });
  deps.realtime.endSessions(ended);
  // Whoever proved they own the mailbox may sign in again at once.
  await Promise.all([
    deps.limits.loginEmail.delete(input.email),
    deps.limits.loginPair.delete(`${ip}|${input.email}`),
  ]);
};
