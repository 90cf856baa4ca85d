import { createHash } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_TTL_HOURS } from '@atendi/shared';
import type { Db } from '../../db/client';
import { apiIdempotencyKeys, messageSendKeys, messages } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { sqlTime } from '../../platform/sql-time';
import type { MessageRow } from './message-views';

// Idempotency-Key on a send: a retried call (the client never saw the answer) answers what the first
// call stored instead of sending again. Two callers, one rule:
// - an agent's send from the inbox (POST /messages/{ticketId}): keys are the agent's own;
// - the external API (POST /api/messages/send): keys are the connection's (its token's).
// Concurrent calls with one key wait for each other (a transaction-scoped lock on the key), so exactly
// one of them sends; a key is remembered for IDEMPOTENCY_KEY_TTL_HOURS, then forgotten (pruned, or
// replaced by the next call that uses it).

// The header: 1 to 255 visible ASCII characters, or none.
export const idempotencyKeyOf = (header: string | string[] | undefined) => {
  if (header === undefined) return null;
  const key = (Array.isArray(header) ? header.join(',') : header).trim();
  if (!key || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key))
    throw new AppError(
      'ERR_VALIDATION',
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters`,
      { fields: { 'Idempotency-Key': ['Invalid'] } },
    );
  return key;
};

// Whose keys: an agent's (inbox) or a connection's (external API).
export type KeyOwner =
  { kind: 'agent'; userId: number } | { kind: 'connection'; whatsappId: number };

export type SendKey = {
  owner: KeyOwner;
  key: string;
  // What makes two calls the same call (sendDigest): the same key with another request is refused.
  hash: string;
};

export const sendDigest = (parts: unknown[]) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url');

const storeOf = (owner: KeyOwner) =>
  owner.kind === 'agent'
    ? {
        lock: `send:${owner.userId}`,
        table: messageSendKeys,
        mine: eq(messageSendKeys.userId, owner.userId),
        ownerColumns: { userId: owner.userId },
        different: 'This Idempotency-Key was used for a different message',
      }
    : {
        lock: `api:${owner.whatsappId}`,
        table: apiIdempotencyKeys,
        mine: eq(apiIdempotencyKeys.whatsappId, owner.whatsappId),
        ownerColumns: { whatsappId: owner.whatsappId },
        different: 'This Idempotency-Key was used for a different request',
      };

// The earlier call with this key, when this one is its retry: its ticket and the messages it stored.
// Undefined when the key is new or forgotten. Takes the key's lock until the transaction ends, so call
// it first in the transaction that sends, and `rememberSend` in that same transaction.
export const earlierSend = async (
  tx: Db,
  once: SendKey,
): Promise<{ ticketId: number; rows: MessageRow[] } | undefined> => {
  const store = storeOf(once.owner);
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${store.lock}:${once.key}`}, 0))`,
  );
  const [earlier] = await tx
    .select()
    .from(store.table)
    .where(and(store.mine, eq(store.table.key, once.key)));
  if (!earlier) return undefined;
  if (Date.now() - earlier.createdAt.getTime() >= IDEMPOTENCY_KEY_TTL_HOURS * 3600 * 1000) {
    await tx.delete(store.table).where(eq(store.table.id, earlier.id));
    return undefined;
  }
  if (earlier.requestHash !== once.hash)
    throw new AppError('ERR_IDEMPOTENCY_KEY_REUSED', store.different);
  const rows = await tx
    .select()
    .from(messages)
    .where(inArray(messages.id, earlier.messageIds))
    .orderBy(messages.id);
  return { ticketId: earlier.ticketId, rows };
};

export const rememberSend = async (
  tx: Db,
  once: SendKey,
  sent: { companyId: number; ticketId: number; rows: MessageRow[] },
) => {
  const common = {
    companyId: sent.companyId,
    key: once.key,
    requestHash: once.hash,
    ticketId: sent.ticketId,
    messageIds: sent.rows.map((row) => row.id),
  };
  if (once.owner.kind === 'agent')
    await tx.insert(messageSendKeys).values({ ...common, userId: once.owner.userId });
  else await tx.insert(apiIdempotencyKeys).values({ ...common, whatsappId: once.owner.whatsappId });
};

// Keys older than their day are forgotten (a recurring job), both kinds.
export const pruneIdempotencyKeys = async (db: Db, now: Date) => {
  const dayBefore = sql`${sqlTime(now)} - make_interval(hours => ${IDEMPOTENCY_KEY_TTL_HOURS}::int)`;
  await db.delete(apiIdempotencyKeys).where(lt(apiIdempotencyKeys.createdAt, dayBefore));
  await db.delete(messageSendKeys).where(lt(messageSendKeys.createdAt, dayBefore));
};
