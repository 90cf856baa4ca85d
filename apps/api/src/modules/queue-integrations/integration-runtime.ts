import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import {
  contacts,
  integrationDeliveries,
  jobs,
  messages,
  queueIntegrations,
  queues,
  tickets,
} from '../../db/schema';
import { PermanentJobError, retryDelay } from '../../jobs/queue';
import {
  addBotNote,
  announceBotTurn,
  messageCreated,
  ticketChanged,
} from '../tickets/tickets.service';
import { openSealed } from './queue-integrations.service';
import { postEvent, type WebhookAnswer, type WebhookEvent } from './webhook-adapter';

// Integrations conversing with contacts (issue 18). A waiting ticket nobody serves whose
// `useIntegration` is on (its connection's integration for a new conversation, or a queue's when the
// queue bot enters it) hands each message of the contact to its integration:
// - a recorder of `message.created` writes an `integration.turn` job, keyed per ticket, in the
//   transaction that stores the message: a ticket's messages reach the flow one at a time, in order,
//   and none is lost if the node dies;
// - n8n and webhooks get the message POSTed, signed (webhook-adapter.ts); each attempt is recorded in
//   integration_deliveries; failures are retried with backoff (5 attempts), and after the last one the
//   ticket waits for a person in its queue with a note, and the integration shows the error to admins;
// - the receiver's answer may carry replies (sent through the outbox) and an action: transfer (a
//   person takes over, in the queue named) or close.
// Typebot and Dialogflow conversations are the next part of issue 18.

export const INTEGRATION_TURN_QUEUE = 'integration.turn';
const MAX_ATTEMPTS = 5;

type Deps = Pick<
  AppDeps,
  | 'db'
  | 'realtime'
  | 'config'
  | 'secrets'
  | 'jobs'
  | 'events'
  | 'ticketMessages'
  | 'outbox'
  | 'uploads'
>;
type TicketRow = typeof tickets.$inferSelect;
type IntegrationRow = typeof queueIntegrations.$inferSelect;
type Payload = { ticketId: number; messageId: number };

const integrationMode = (
  ticket: Pick<TicketRow, 'useIntegration' | 'integrationId' | 'userId' | 'status' | 'isGroup'>,
) =>
  ticket.useIntegration &&
  Boolean(ticket.integrationId) &&
  !ticket.userId &&
  ticket.status === 'pending' &&
  !ticket.isGroup;

// Queues the message for the ticket's integration while one converses on it; answers the queue to wake.
// Without a message: the contact's newest (a ticket the queue bot just handed to the integration).
const queueTurn = async (tx: Db, ticketId: number, messageId: number | null) => {
  const message =
    messageId ??
    sql`(select max(m.id) from ${messages} m where m.ticket_id = t.id and not m.from_me)`;
  const inserted = await tx.execute(sql`
    insert into ${jobs} (queue, key, company_id, payload)
    select ${INTEGRATION_TURN_QUEUE}, ${`ticket:${ticketId}`}, t.company_id,
      jsonb_build_object('ticketId', t.id, 'messageId', ${message}::int)
    from ${tickets} t
    where t.id = ${ticketId} and t.use_integration and t.integration_id is not null
      and t.user_id is null and t.status = 'pending' and not t.is_group
    returning id`);
  return (inserted as unknown as { rows: unknown[] }).rows.length
    ? INTEGRATION_TURN_QUEUE
    : undefined;
};

const recordError = (deps: Deps, integration: IntegrationRow, error: string | null) =>
  deps.db
    .update(queueIntegrations)
    .set(
      error
        ? {
            lastErrorCode: 'ERR_INTEGRATION_FAILED',
            lastErrorMessage: error,
            lastErrorAt: new Date(),
          }
        : { lastErrorCode: null, lastErrorMessage: null, lastErrorAt: null },
    )
    .where(eq(queueIntegrations.id, integration.id));

// The integration's answer, applied if the ticket is still its to handle.
const applyAnswer = async (
  deps: Deps,
  ticketId: number,
  integration: IntegrationRow,
  answer: WebhookAnswer,
) => {
  const queueIds = answer.queueId
    ? (
        await deps.db
          .select({ id: queues.id })
          .from(queues)
          .where(and(eq(queues.id, answer.queueId), eq(queues.companyId, integration.companyId)))
      ).map((q) => q.id)
    : [];
  const changed = await deps.events.transaction(deps.db, async (tx, raise) => {
    const [before] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
    if (!before || !integrationMode(before) || before.integrationId !== integration.id)
      return undefined;
    const written = [];
    for (const reply of answer.replies)
      written.push(...(await deps.ticketMessages.queueText(tx, before, reply.text)));
    let after = before;
    if (answer.action) {
      const closing = answer.action === 'close';
      [after] = await tx
        .update(tickets)
        .set({
          useIntegration: false,
          integrationId: null,
          chatbot: false,
          ...(closing ? { status: 'closed' as const } : {}),
          ...(!closing && queueIds[0] ? { queueId: queueIds[0] } : {}),
        })
        .where(eq(tickets.id, ticketId))
        .returning();
      raise(ticketChanged(before, after, null));
      await addBotNote(
        tx,
        before,
        closing
          ? `${integration.name} cerró la conversación.`
          : `${integration.name}: transferido a una persona.`,
      );
    }
    written.forEach((row) => raise(messageCreated(row, 'platform')));
    return { before, written };
  });
  if (changed) await announceBotTurn(deps, changed.before, changed.written);
};

// The integration could not be reached for good: a person takes the conversation.
const fallBack = async (
  deps: Deps,
  log: FastifyBaseLogger,
  ticketId: number,
  integration: IntegrationRow,
  reason: string,
) => {
  const changed = await deps.events.transaction(deps.db, async (tx, raise) => {
    const [before] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
    if (!before || !integrationMode(before) || before.integrationId !== integration.id)
      return undefined;
    const [after] = await tx
      .update(tickets)
      .set({ useIntegration: false, integrationId: null, chatbot: false })
      .where(eq(tickets.id, ticketId))
      .returning();
    raise(ticketChanged(before, after, null));
    await addBotNote(
      tx,
      before,
      `${integration.name} no respondió (${reason}); la conversación espera a una persona.`,
    );
    return before;
  });
  log.warn(
    { ticketId, integrationId: integration.id, reason },
    'Integration failed; the ticket waits for a person',
  );
  await recordError(deps, integration, reason);
  if (changed) await announceBotTurn(deps, changed, []);
};

const eventOf = async (
  deps: Deps,
  ticket: TicketRow,
  integration: IntegrationRow,
  messageId: number,
): Promise<WebhookEvent | undefined> => {
  const [message] = await deps.db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.ticketId, ticket.id)));
  const [contact] = await deps.db.select().from(contacts).where(eq(contacts.id, ticket.contactId));
  if (!message || !contact) return undefined;
  return {
    event: 'message.received',
    company: { id: ticket.companyId },
    integration: { id: integration.id, name: integration.name, type: integration.type },
    ticket: {
      id: ticket.id,
      uuid: ticket.uuid,
      status: ticket.status,
      queueId: ticket.queueId,
      whatsappId: ticket.whatsappId,
    },
    contact: { id: contact.id, name: contact.name, number: contact.number },
    message: {
      id: message.id,
      body: message.body,
      mediaType: message.mediaType,
      createdAt: message.createdAt.toISOString(),
    },
  };
};

// Answers the integration a job is for while its ticket is still the integration's.
const loadTurn = async (deps: Deps, payload: Payload) => {
  const [ticket] = await deps.db.select().from(tickets).where(eq(tickets.id, payload.ticketId));
  if (!ticket || !integrationMode(ticket)) return undefined;
  const [integration] = await deps.db
    .select()
    .from(queueIntegrations)
    .where(
      and(
        eq(queueIntegrations.id, ticket.integrationId!),
        eq(queueIntegrations.companyId, ticket.companyId),
      ),
    );
  return integration ? { ticket, integration } : undefined;
};

export const registerIntegrationRuntime = (deps: Deps, log: FastifyBaseLogger) => {
  const { timeoutMs, retryBaseMs } = deps.config.integrations;
  deps.jobs.define<Payload>({
    name: INTEGRATION_TURN_QUEUE,
    maxAttempts: MAX_ATTEMPTS,
    retryDelayMs: (attempts) => retryDelay(attempts, retryBaseMs),
    leaseMs: timeoutMs + 60_000,
    keepDoneMs: 24 * 3600_000,
    keepFailedMs: 7 * 24 * 3600_000,
    handle: async (job) => {
      const turn = await loadTurn(deps, job.payload);
      if (!turn) return;
      const { ticket, integration } = turn;
      // Typebot and Dialogflow converse through their own adapters (the next part of issue 18).
      if (integration.type !== 'n8n' && integration.type !== 'webhook') return;
      const event = await eventOf(deps, ticket, integration, job.payload.messageId);
      if (!event) return;
      const secret = openSealed(deps.secrets, integration.signingSecretSealed);
      if (!secret) throw new PermanentJobError('The integration has no signing secret');
      const delivery = await postEvent(integration.urlN8N, secret, event, timeoutMs);
      await deps.db.insert(integrationDeliveries).values({
        companyId: ticket.companyId,
        integrationId: integration.id,
        ticketId: ticket.id,
        messageId: event.message.id,
        event: event.event,
        // Counted when the job was claimed: this is attempt number job.attempts.
        attempt: job.attempts,
        status: delivery.status,
        ok: delivery.ok,
        durationMs: delivery.durationMs,
        error: delivery.error,
      });
      if (!delivery.ok) throw new Error(delivery.error ?? 'Delivery failed');
      if (integration.lastErrorCode) await recordError(deps, integration, null);
      if (delivery.answer) await applyAnswer(deps, ticket.id, integration, delivery.answer);
    },
    onFailed: async (job, error) => {
      const turn = await loadTurn(deps, job.payload);
      if (turn)
        await fallBack(
          deps,
          log,
          turn.ticket.id,
          turn.integration,
          error instanceof Error ? error.message : 'it failed',
        );
    },
  });
  deps.events.record('message.created', async (tx, event) =>
    event.author === 'contact' ? queueTurn(tx, event.ticketId, event.messageId) : undefined,
  );
  deps.events.record('ticket.changed', async (tx, event) => {
    const { before, after } = event;
    if (!before || !after.integrationId || before.integrationId === after.integrationId)
      return undefined;
    return queueTurn(tx, event.ticketId, null);
  });
};
