import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import {
  contacts,
  integrationSessions,
  messages,
  queueIntegrations,
  queues,
  tickets,
} from '../../db/schema';
import type { EventOf } from '../../events/domain-events';
import {
  enqueueJobsFrom,
  jobQueue,
  PermanentJobError,
  retryDelay,
  type Job,
  type QueueOptions,
} from '../../jobs/queue';
import {
  applyStep,
  integrationMode,
  recordDelivery,
  recordError,
  type FlowDeps,
  type IntegrationRow,
  type TicketRow,
} from './flow-tickets';
import { openSealed } from './queue-integrations.service';
import { typebotTurn } from './typebot-flow';
import { dialogflowTurn } from './dialogflow-flow';
import { postEvent, type WebhookAnswer, type WebhookEvent } from './webhook-adapter';

// Integrations conversing with contacts. A waiting ticket nobody serves whose
// `useIntegration` is on (its connection's integration for a new conversation, or a queue's when the
// queue bot enters it) hands each message of the contact to its integration:
// - a recorder of `message.created` writes an `integration.turn` job, keyed per ticket, in the
//   transaction that stores the message: a ticket's messages reach the flow one at a time, in order,
//   and none is lost if the node dies;
// - n8n and webhooks get the message POSTed, signed (webhook-adapter.ts); each attempt is recorded in
//   integration_deliveries; failures are retried with backoff (5 attempts), and after the last one the
//   ticket waits for a person in its queue with a note, and the integration shows the error to admins;
// - the receiver's answer may carry replies (sent through the outbox) and an action: transfer (a
//   person takes over, in the queue named) or close;
// - Typebot flows converse through typebot-flow.ts, bubble by bubble; Dialogflow agents through
//   dialogflow-flow.ts.

const INTEGRATION_TURN_QUEUE = 'integration.turn';
// The ticket, and the contact's message to hand on (null: nothing to hand on, the flow starts).
export const integrationTurnQueue = jobQueue(
  INTEGRATION_TURN_QUEUE,
  z.object({ ticketId: z.number().int(), messageId: z.number().int().nullable() }),
);
const MAX_ATTEMPTS = 5;

type Payload = z.infer<typeof integrationTurnQueue.payload>;

// Queues the message for the ticket's integration while one converses on it; answers the queue to wake.
// Without a message: the contact's newest (a ticket the queue bot just handed to the integration).
const queueTurn = async (tx: Db, ticketId: number, messageId: number | null) => {
  const message =
    messageId ??
    sql`(select max(m.id) from ${messages} m where m.ticket_id = t.id and not m.from_me)`;
  const inserted = await enqueueJobsFrom(tx, integrationTurnQueue, {
    from: sql`from ${tickets} t
      where t.id = ${ticketId} and t.use_integration and t.integration_id is not null
        and t.user_id is null and t.status = 'pending' and not t.is_group`,
    payload: sql`jsonb_build_object('ticketId', t.id, 'messageId', ${message}::int)`,
    key: sql`${`ticket:${ticketId}`}`,
    companyId: sql`t.company_id`,
  });
  return inserted.length ? INTEGRATION_TURN_QUEUE : undefined;
};

// The contact's messages from `fromId` on, each queued for the flow in order: the message that made
// the queue bot hand the ticket to the flow (the menu choice) and whatever the contact wrote before
// the flow held the ticket (their own turns were not queued then; later ones queue theirs).
const queueTurnsFrom = async (tx: Db, ticketId: number, fromId: number) => {
  const pending = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(eq(messages.ticketId, ticketId), eq(messages.fromMe, false), gte(messages.id, fromId)),
    )
    .orderBy(asc(messages.id));
  let woke: string | undefined;
  for (const message of pending) woke = (await queueTurn(tx, ticketId, message.id)) ?? woke;
  return woke;
};

// The integration's answer (n8n, webhook): its replies, then its action.
const applyAnswer = async (
  deps: FlowDeps,
  ticketId: number,
  integration: IntegrationRow,
  answer: WebhookAnswer,
) => {
  const [queue] = answer.queueId
    ? await deps.db
        .select({ id: queues.id })
        .from(queues)
        .where(and(eq(queues.id, answer.queueId), eq(queues.companyId, integration.companyId)))
    : [];
  await applyStep(deps, ticketId, integration, {
    write: async (tx, ticket) => {
      const written = [];
      for (const reply of answer.replies)
        written.push(...(await deps.ticketMessages.queueText(tx, ticket, reply.text)));
      return written;
    },
    leave: answer.action
      ? answer.action === 'close'
        ? { note: `${integration.name} cerró la conversación.`, close: true }
        : { note: `${integration.name}: transferido a una persona.`, queueId: queue?.id }
      : undefined,
  });
};

// The integration could not be reached for good: a person takes the conversation.
const fallBack = async (
  deps: FlowDeps,
  log: FastifyBaseLogger,
  ticketId: number,
  integration: IntegrationRow,
  reason: string,
) => {
  log.warn(
    { ticketId, integrationId: integration.id, reason },
    'Integration failed; the ticket waits for a person',
  );
  await recordError(deps, integration, reason);
  await applyStep(deps, ticketId, integration, {
    leave: {
      note: `${integration.name} no respondió (${reason}); la conversación espera a una persona.`,
    },
  });
};

const eventOf = async (
  deps: FlowDeps,
  ticket: TicketRow,
  integration: IntegrationRow,
  messageId: number | null,
): Promise<WebhookEvent | undefined> => {
  if (!messageId) return undefined;
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
const loadTurn = async (deps: FlowDeps, payload: Payload) => {
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

// n8n and webhooks: the message POSTed, signed; the receiver's answer applied.
const webhookTurn = async (
  deps: FlowDeps,
  job: Job<Payload>,
  ticket: TicketRow,
  integration: IntegrationRow,
) => {
  const event = await eventOf(deps, ticket, integration, job.payload.messageId);
  if (!event) return;
  const secret = openSealed(deps.secrets, integration.signingSecretSealed);
  if (!secret) throw new PermanentJobError('The integration has no signing secret');
  const delivery = await postEvent(
    deps.outbound.fetch,
    integration.urlN8N,
    secret,
    event,
    deps.config.integrations.timeoutMs,
  );
  await recordDelivery(deps, ticket, integration, {
    messageId: event.message.id,
    event: event.event,
    // Counted when the job was claimed: this is attempt number job.attempts.
    attempt: job.attempts,
    status: delivery.status,
    ok: delivery.ok,
    durationMs: delivery.durationMs,
    error: delivery.error,
    replies: delivery.answer?.replies.map((reply) => reply.text),
  });
  deps.metrics.webhookDeliveries.inc({
    outcome: delivery.refused ? 'refused' : delivery.ok ? 'ok' : 'failed',
  });
  if (delivery.refused) throw new PermanentJobError(delivery.error ?? 'Not sent');
  if (!delivery.ok) throw new Error(delivery.error ?? 'Delivery failed');
  if (delivery.answer) await applyAnswer(deps, ticket.id, integration, delivery.answer);
};

// How a turn is handed to the integration (background.ts runs the queue).
export const integrationWorker = (
  deps: FlowDeps,
  log: FastifyBaseLogger,
): QueueOptions<Payload> => {
  const { timeoutMs, retryBaseMs } = deps.config.integrations;
  return {
    maxAttempts: MAX_ATTEMPTS,
    retryDelayMs: (attempts) => retryDelay(attempts, retryBaseMs),
    leaseMs: timeoutMs + 60_000,
    keepDoneMs: 24 * 3600_000,
    keepFailedMs: 7 * 24 * 3600_000,
    handle: async (job) => {
      const turn = await loadTurn(deps, job.payload);
      if (!turn) return;
      // A campaign recipient's opt-out word is confirmed by the tickets engine: not the flow's to
      // answer (the opt-out is written with the message, so a retry sees it too).
      const { messageId } = job.payload;
      if (messageId && (await deps.campaignAnswers.optOutConfirmations(deps.db, [messageId])).size)
        return;
      const { ticket, integration } = turn;
      const run =
        integration.type === 'typebot'
          ? typebotTurn
          : integration.type === 'dialogflow'
            ? dialogflowTurn
            : webhookTurn;
      const outcome = await run(deps, job, ticket, integration);
      // It answered: the error admins saw is over.
      if (integration.lastErrorCode) await recordError(deps, integration, null);
      return outcome;
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
  };
};

// A contact's message on a ticket a flow converses on is handed to it (a recorder).
export const queueIntegrationTurnForMessage = async (tx: Db, event: EventOf<'message.created'>) => {
  if (event.author !== 'contact') return undefined;
  // A ticket known to have no flow conversing, or to be someone's: no turn to queue.
  const { ticket } = event;
  if (ticket && (!ticket.integrationId || ticket.userId || ticket.status !== 'pending'))
    return undefined;
  return queueTurn(tx, event.ticketId, event.messageId);
};

// A ticket's integration changed: the old flow's session ends, a new flow starts (a recorder).
export const followIntegrationHandover = async (tx: Db, event: EventOf<'ticket.changed'>) => {
  const { before, after } = event;
  if (!before || before.integrationId === after.integrationId) return undefined;
  // A flow's session ends with its hold on the ticket (a person took it, it was closed or moved).
  if (before.integrationId)
    await tx.delete(integrationSessions).where(eq(integrationSessions.ticketId, event.ticketId));
  if (!after.integrationId) return undefined;
  return event.byMessageId
    ? queueTurnsFrom(tx, event.ticketId, event.byMessageId)
    : queueTurn(tx, event.ticketId, null);
};
