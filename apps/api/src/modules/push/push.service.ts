import { and, eq, sql } from 'drizzle-orm';
import {
  pushPreferenceDefaults,
  type Language,
  type PushPreferences,
  type PushSubscriptionInput,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { pushPreferences, pushSubscriptions } from '../../db/schema';
import { AppError } from '../../platform/errors';
import type { AuthContext } from '../../platform/context';

// Issue 41, Web Push: the signed-in user's devices (their browsers' subscriptions) and what they are
// pushed about. Sending is push-sender.ts's.

type Deps = Pick<AppDeps, 'db' | 'config' | 'outbound'>;
type Caller = Pick<AuthContext, 'userId' | 'companyId'>;

export const vapidPublicKey = (deps: Pick<AppDeps, 'config'>) => ({
  publicKey: deps.config.vapid.publicKey,
});

const invalid = (field: string, message: string) =>
  new AppError('ERR_PUSH_SUBSCRIPTION_INVALID', message, { fields: { [field]: [message] } });

// base64url (padding allowed, as some browsers send it) of exactly `bytes` bytes, or null.
const decoded = (value: string, bytes: number) => {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return null;
  const buffer = Buffer.from(value.replace(/=+$/, ''), 'base64url');
  return buffer.length === bytes ? buffer : null;
};

// The endpoint is an address from outside that the server will POST to: https only, and never a
// private network (the outbound guard refuses one when sending, too). A literal address the operator
// let through (OUTBOUND_ALLOW_PRIVATE: a local push service) may answer on plain http.
const checkEndpoint = async (deps: Deps, raw: string) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('endpoint', 'The endpoint is not a URL');
  }
  const local = url.protocol === 'http:' && deps.outbound.allowsPrivateAddress(url.hostname);
  if (url.protocol !== 'https:' && !local)
    throw invalid('endpoint', 'The endpoint must be an https address');
  await deps.outbound.check(raw, 'endpoint');
};

// Registers this device for the caller, or refreshes it (the browser renewed its keys). An endpoint
// is one browser: registered by another user (a shared computer), it becomes the caller's.
export const registerSubscription = async (
  deps: Deps,
  caller: Caller,
  input: PushSubscriptionInput,
  userAgent: string,
) => {
  await checkEndpoint(deps, input.endpoint);
  const p256dh = decoded(input.keys.p256dh, 65);
  if (!p256dh || p256dh[0] !== 0x04)
    throw invalid('keys.p256dh', 'Not an uncompressed P-256 public key');
  if (!decoded(input.keys.auth, 16)) throw invalid('keys.auth', 'Not a 16-byte secret');
  const values = {
    companyId: caller.companyId,
    userId: caller.userId,
    endpoint: input.endpoint,
    p256dh: p256dh.toString('base64url'),
    auth: decoded(input.keys.auth, 16)!.toString('base64url'),
    device: (input.device || userAgent).slice(0, 200),
    language: input.language ?? 'es',
  };
  const [row] = await deps.db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { ...values, lastFailureAt: null, updatedAt: sql`now()` },
    })
    .returning();
  return { endpoint: row!.endpoint, device: row!.device, createdAt: row!.createdAt.toISOString() };
};

// The language of the caller's device's pushes; another user's endpoint is left alone (and the
// answer is the same).
export const updateLanguage = async (
  deps: Deps,
  caller: Caller,
  input: { endpoint: string; language: Language },
) => {
  await deps.db
    .update(pushSubscriptions)
    .set({ language: input.language, updatedAt: sql`now()` })
    .where(
      and(
        eq(pushSubscriptions.endpoint, input.endpoint),
        eq(pushSubscriptions.userId, caller.userId),
      ),
    );
};

// Stops pushes to the caller's device; another user's endpoint is left alone (and the answer is the
// same, so it tells nothing of others' devices).
export const deleteSubscription = async (deps: Deps, caller: Caller, endpoint: string) => {
  await deps.db
    .delete(pushSubscriptions)
    .where(
      and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, caller.userId)),
    );
};

export const preferencesOf = async (db: Db, userId: number): Promise<PushPreferences> => {
  const [row] = await db.select().from(pushPreferences).where(eq(pushPreferences.userId, userId));
  if (!row) return { ...pushPreferenceDefaults };
  return {
    newMessage: row.newMessage,
    assigned: row.assigned,
    transferred: row.transferred,
    waitingInQueues: row.waitingInQueues,
    slaWarning: row.slaWarning,
  };
};

export const updatePreferences = async (deps: Deps, caller: Caller, input: PushPreferences) => {
  const values = {
    newMessage: input.newMessage,
    assigned: input.assigned,
    transferred: input.transferred,
    waitingInQueues: input.waitingInQueues,
    slaWarning: input.slaWarning,
  };
  await deps.db
    .insert(pushPreferences)
    .values({ userId: caller.userId, companyId: caller.companyId, ...values })
    .onConflictDoUpdate({ target: pushPreferences.userId, set: values });
  return preferencesOf(deps.db, caller.userId);
};
