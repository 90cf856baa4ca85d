import { createHash } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  effectiveCompanyStatus,
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_KEY_TTL_HOURS,
  type ExternalMessageStatus,
  type ExternalSendResponse,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import {
  apiIdempotencyKeys,
  messageSendKeys,
  companies,
  messages,
  plans,
  tickets,
  whatsapps,
} from '../../db/schema';
import { normalizeNumber } from '../../channels/numbers';
import { AppError, storeFailure } from '../../platform/errors';
import { consume } from '../../platform/rate-limit';
import { sqlTime } from '../../platform/sql-time';
import { conversationWith, messageCreated } from '../tickets/tickets.service';
import { discardMedia, type MessageForm } from './message-form';
import type { MessageRow } from './message-views';
import { failedSends } from './sends';
import { queueOutgoing } from './messages.service';

// SPEC §7 External messages API: a company's own systems send WhatsApp messages through one of its
// connections, named by that connection's token. The message takes the path an agent's does (stored
// with its send job in one transaction, sent by the outbox, shown live in the contact's ticket).

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads' | 'events' | 'limits' | 'tokens'>;

export type ApiConnection = { id: number; companyId: number };

const unauthorized = (message: string) => new AppError('ERR_INVALID_API_TOKEN', message);

// The connection a bearer token names, once its company may use the API; then one call is counted
// against the token's limit. Nothing of the request body has been read yet.
export const authorizeApiCall = async (
  deps: Deps,
  authorization: string | undefined,
): Promise<ApiConnection> => {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const token = match?.[1];
  if (!token)
    throw unauthorized('Send the connection token as the header Authorization: Bearer {token}');
  const [row] = await deps.db
    .select({
      id: whatsapps.id,
      companyId: whatsapps.companyId,
      token: whatsapps.token,
      status: companies.status,
      dueDate: companies.dueDate,
      useExternalApi: plans.useExternalApi,
    })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(whatsapps.token, token))
    .limit(1);
  // The index found it by equality; the comparison that decides is constant-time all the same.
  if (!row?.token || !deps.tokens.sameHash(row.token, token))
    throw unauthorized('This token is unknown or was replaced');
  const status = effectiveCompanyStatus({ status: row.status, dueDate: row.dueDate });
  if (status !== 'active')
    throw new AppError('ERR_COMPANY_INACTIVE', `The company's subscription is ${status}`);
  if (!row.useExternalApi)
    throw new AppError(
      'ERR_PLAN_FEATURE_DISABLED',
      "The company's plan does not include the external messages API",
    );
  await consume(
    deps.limits.externalApi,
    `whatsapp:${row.id}`,
    'Too many calls with this token: wait and try again',
  );
  return { id: row.id, companyId: row.companyId };
};

// An Idempotency-Key header: 1 to 255 visible characters, or none.
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

const statusOf = (row: MessageRow, failed: Set<number>): ExternalMessageStatus => {
  if (row.ack >= 4) return 'read';
  if (row.ack === 3) return 'delivered';
  if (row.ack >= 1) return 'sent';
  return failed.has(row.id) ? 'failed' : 'queued';
};

const answerOf = async (
  db: Db,
  conversation: { ticketId: number; contactId: number; number: string },
  rows: MessageRow[],
): Promise<ExternalSendResponse> => {
  const failed = await failedSends(
    db,
    rows.filter((row) => !row.providerId).map((row) => row.id),
  );
  return {
    ...conversation,
    messages: rows.map((row) => ({
      id: row.id,
      status: statusOf(row, failed),
      body: row.body,
      mediaType: row.mediaType,
      createdAt: row.createdAt.toISOString(),
    })),
  };
};

// What makes two calls the same call: the number, the text, and each file's name and type.
const requestHash = (number: string, form: MessageForm) =>
  createHash('sha256')
    .update(JSON.stringify([number, form.body, form.medias.map((m) => [m.fileName, m.mimetype])]))
    .digest('base64url');

type Sent = { replayed: boolean; answer: ExternalSendResponse };

// Sends `form` to `typedNumber` through the connection. With an idempotency key, a call already
// answered within a day is answered again from what it stored (files of the retry are dropped), and
// concurrent calls with one key wait for each other (a transaction-scoped lock on the key), so
// exactly one of them sends.
export const sendExternal = async (
  deps: Deps,
  connection: ApiConnection,
  input: { number: string; form: MessageForm; idempotencyKey: string | null },
  options: { kick: () => void; log: FastifyBaseLogger },
): Promise<Sent> => {
  const { form, idempotencyKey } = input;
  const number = normalizeNumber(input.number);
  const hash = requestHash(number, form);
  let sent: {
    replayed: boolean;
    ticketId: number;
    contactId: number;
    rows: MessageRow[];
  };
  try {
    sent = await deps.events.transaction(deps.db, async (tx, raise) => {
      if (idempotencyKey) {
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtextextended(${`api:${connection.id}:${idempotencyKey}`}, 0))`,
        );
        const [earlier] = await tx
          .select()
          .from(apiIdempotencyKeys)
          .where(
            and(
              eq(apiIdempotencyKeys.whatsappId, connection.id),
              eq(apiIdempotencyKeys.key, idempotencyKey),
            ),
          );
        const fresh =
          earlier &&
          Date.now() - earlier.createdAt.getTime() < IDEMPOTENCY_KEY_TTL_HOURS * 3600 * 1000;
        if (earlier && fresh) {
          if (earlier.requestHash !== hash)
            throw new AppError(
              'ERR_IDEMPOTENCY_KEY_REUSED',
              'This Idempotency-Key was used for a different request',
            );
          const rows = await tx
            .select()
            .from(messages)
            .where(inArray(messages.id, earlier.messageIds))
            .orderBy(messages.id);
          const [ticket] = await tx
            .select({ contactId: tickets.contactId })
            .from(tickets)
            .where(eq(tickets.id, earlier.ticketId));
          return {
            replayed: true,
            ticketId: earlier.ticketId,
            contactId: ticket?.contactId ?? 0,
            rows,
          };
        }
        if (earlier)
          await tx.delete(apiIdempotencyKeys).where(eq(apiIdempotencyKeys.id, earlier.id));
      }
      const { contact, ticket } = await conversationWith(tx, raise, {
        companyId: connection.companyId,
        whatsappId: connection.id,
        number,
      });
      const rows = await queueOutgoing(tx, ticket, { ...form, quotedMsgId: null });
      rows.forEach((row) => raise(messageCreated(row, 'api')));
      if (idempotencyKey)
        await tx.insert(apiIdempotencyKeys).values({
          companyId: connection.companyId,
          whatsappId: connection.id,
          key: idempotencyKey,
          requestHash: hash,
          ticketId: ticket.id,
          messageIds: rows.map((row) => row.id),
        });
      return { replayed: false, ticketId: ticket.id, contactId: contact.id, rows };
    });
  } catch (error) {
    await discardMedia(deps.uploads, connection.companyId, form.medias);
    if (error instanceof AppError) throw error;
    throw storeFailure(error, 'ERR_CREATING_MESSAGE', 'The message could not be stored');
  }
  if (sent.replayed) {
    // The retry's own copies of the files are not needed: the first call's are being sent.
    await discardMedia(deps.uploads, connection.companyId, form.medias);
  } else {
    // After the commit, whose message.created screens have heard: never a delivery before the message.
    options.kick();
  }
  return {
    replayed: sent.replayed,
    answer: await answerOf(
      deps.db,
      { ticketId: sent.ticketId, contactId: sent.contactId, number },
      sent.rows,
    ),
  };
};

// Keys older than their day are forgotten (a recurring job): the external API's and the inbox's
// (POST /messages/{ticketId}).
export const pruneIdempotencyKeys = async (db: Db, now: Date) => {
  const dayBefore = sql`${sqlTime(now)} - make_interval(hours => ${IDEMPOTENCY_KEY_TTL_HOURS}::int)`;
  await db.delete(apiIdempotencyKeys).where(lt(apiIdempotencyKeys.createdAt, dayBefore));
  await db.delete(messageSendKeys).where(lt(messageSendKeys.createdAt, dayBefore));
};
