import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  effectiveCompanyStatus,
  type ExternalMessageStatus,
  type ExternalSendResponse,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { companies, plans, tickets, whatsapps } from '../../db/schema';
import { AppError, storeFailure } from '../../platform/errors';
import { consume } from '../../platform/rate-limit';
import { readTypedNumber } from '../settings';
import { conversationWith, messageCreated } from '../tickets';
import { discardMedia, type MessageForm } from './message-form';
import type { MessageRow } from './message-views';
import { earlierSend, rememberSend, sendDigest, type SendKey } from './send-keys';
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
  sendDigest([number, form.body, form.medias.map((m) => [m.fileName, m.mimetype])]);

type Sent = { replayed: boolean; answer: ExternalSendResponse };

// Sends `form` to `typedNumber` through the connection. With an idempotency key (send-keys.ts), a call
// already answered within a day is answered again from what it stored (files of the retry are dropped).
export const sendExternal = async (
  deps: Deps,
  connection: ApiConnection,
  input: { number: string; form: MessageForm; idempotencyKey: string | null },
  options: { kick: () => void; log: FastifyBaseLogger },
): Promise<Sent> => {
  const { form, idempotencyKey } = input;
  // As WhatsApp knows it; typed without its country code, a number of the company's country.
  const number = await readTypedNumber(deps.db, connection.companyId, input.number).catch(
    async (error: unknown) => {
      await discardMedia(deps.uploads, connection.companyId, form.medias);
      throw error;
    },
  );
  const once: SendKey | null = idempotencyKey
    ? {
        owner: { kind: 'connection', whatsappId: connection.id },
        key: idempotencyKey,
        hash: requestHash(number, form),
      }
    : null;
  let sent: {
    replayed: boolean;
    ticketId: number;
    contactId: number;
    rows: MessageRow[];
  };
  try {
    sent = await deps.events.transaction(deps.db, async (tx, raise) => {
      if (once) {
        const earlier = await earlierSend(tx, once);
        if (earlier) {
          const [ticket] = await tx
            .select({ contactId: tickets.contactId })
            .from(tickets)
            .where(eq(tickets.id, earlier.ticketId));
          return {
            replayed: true,
            ticketId: earlier.ticketId,
            contactId: ticket?.contactId ?? 0,
            rows: earlier.rows,
          };
        }
      }
      const { contact, ticket } = await conversationWith(tx, raise, {
        companyId: connection.companyId,
        whatsappId: connection.id,
        number,
      });
      const rows = await queueOutgoing(tx, ticket, { ...form, quotedMsgId: null });
      rows.forEach((row) => raise(messageCreated(row, 'api')));
      if (once)
        await rememberSend(tx, once, {
          companyId: connection.companyId,
          ticketId: ticket.id,
          rows,
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
