import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { IntegrationTestSessionInput, IntegrationTestSessionResult } from '@atendi/shared';
import { messages } from '../../db/schema';
import { PermanentJobError, type Job } from '../../jobs/queue';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import {
  DialogflowError,
  detectIntent,
  parseDialogflowKey,
  type DialogflowTarget,
} from './dialogflow-adapter';
import {
  applyStep,
  recordDelivery,
  type FlowDeps,
  type IntegrationRow,
  type TicketRow,
} from './flow-tickets';
import { findIntegrationRow, openSealed } from './queue-integrations.service';

// A Dialogflow ES agent conversing with a contact: each message of the contact is one
// detectIntent in the session named by the ticket's uuid (Dialogflow keeps the contexts); the
// fulfilment texts go back to the contact. An intent marked "end of conversation", or one whose action
// is `handoff` (or a custom payload `{"action": "handoff"}`), hands the ticket to its queue after its
// texts. Messages without text (media) are not sent: Dialogflow ES reads text.

type Payload = { ticketId: number; messageId: number | null };

const targetOf = (
  deps: FlowDeps,
  integration: Pick<IntegrationRow, 'projectName' | 'language'>,
  keyJson: string,
): DialogflowTarget | undefined => {
  const key = parseDialogflowKey(keyJson);
  if (!key) return undefined;
  return {
    key,
    projectName: integration.projectName,
    language: integration.language,
    endpoint: deps.config.integrations.dialogflowEndpoint,
    timeoutMs: deps.config.integrations.timeoutMs,
  };
};

export const dialogflowTurn = async (
  deps: FlowDeps,
  job: Job<Payload>,
  ticket: TicketRow,
  integration: IntegrationRow,
) => {
  const [message] = job.payload.messageId
    ? await deps.db
        .select({ body: messages.body })
        .from(messages)
        .where(and(eq(messages.id, job.payload.messageId), eq(messages.ticketId, ticket.id)))
    : [];
  const text = (message?.body ?? '').trim().slice(0, 256);
  if (!text) return;
  const target = targetOf(deps, integration, openSealed(deps.secrets, integration.jsonContent));
  if (!target) throw new PermanentJobError('The integration has no usable service-account key');
  const started = Date.now();
  const record = (ok: boolean, error: string | null, replies?: string[]) =>
    recordDelivery(deps, ticket, integration, {
      messageId: job.payload.messageId,
      event: 'dialogflow.detectIntent',
      attempt: job.attempts,
      status: null,
      ok,
      durationMs: Date.now() - started,
      error,
      replies,
    });
  let answer;
  try {
    // Dialogflow allows 256 characters per query; a longer message is cut.
    answer = await detectIntent(target, ticket.uuid, text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'Dialogflow failed';
    await record(false, reason);
    if (error instanceof DialogflowError && !error.retryable) throw new PermanentJobError(reason);
    throw error;
  }
  await record(true, null, answer.texts);
  const ends = answer.endConversation || answer.handoff;
  await applyStep(deps, ticket.id, integration, {
    write: async (tx, locked) => {
      const written = [];
      for (const reply of answer.texts)
        written.push(...(await deps.ticketMessages.queueText(tx, locked, reply.slice(0, 4096))));
      return written;
    },
    leave: ends
      ? {
          note: answer.handoff
            ? `${integration.name}: el contacto pidió una persona (${answer.intent ?? 'handoff'}).`
            : `${integration.name}: fin de la conversación; espera a una persona.`,
        }
      : undefined,
  });
};

const dialogflowStatus: Record<DialogflowError['code'], 400 | 424> = {
  ERR_DIALOGFLOW_AUTH: 400,
  ERR_DIALOGFLOW_NOT_FOUND: 400,
  ERR_DIALOGFLOW_INVALID: 400,
  ERR_DIALOGFLOW_UNAVAILABLE: 424,
};

const GREETING: Record<string, string> = { es: 'Hola', pt: 'Olá', en: 'Hello' };

// POST /queueIntegration/testSession: one greeting in a new session, to prove the settings work.
export const testDialogflowSession = async (
  deps: FlowDeps,
  ctx: AuthContext,
  input: IntegrationTestSessionInput,
): Promise<IntegrationTestSessionResult> => {
  let keyJson = input.jsonContent.trim();
  if (!keyJson && input.integrationId) {
    const stored = await findIntegrationRow(deps.db, ctx, input.integrationId);
    keyJson = openSealed(deps.secrets, stored.jsonContent);
  }
  const target = targetOf(deps, input, keyJson);
  if (!target)
    throw new AppError('ERR_VALIDATION', 'Give the service-account JSON key', {
      fields: { jsonContent: ['ERR_INVALID_SERVICE_ACCOUNT'] },
    });
  try {
    const answer = await detectIntent(
      target,
      `test-${randomUUID()}`,
      GREETING[input.language.slice(0, 2).toLowerCase()] ?? GREETING.en,
    );
    return { ok: true, intent: answer.intent, texts: answer.texts, durationMs: answer.durationMs };
  } catch (error) {
    if (error instanceof DialogflowError)
      throw new AppError(error.code, error.message, { status: dialogflowStatus[error.code] });
    throw error;
  }
};
