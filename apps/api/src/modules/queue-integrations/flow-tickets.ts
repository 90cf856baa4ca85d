import { eq } from 'drizzle-orm';
import type { AppDeps, MessageRow } from '../../deps';
import type { Db } from '../../db/client';
import {
  integrationDeliveries,
  integrationSessions,
  queueIntegrations,
  tickets,
} from '../../db/schema';
import { addBotNote, handOverFromIntegration, messageCreated, writeTransition } from '../tickets';

// What every integration type does with the ticket it converses on (integration-runtime.ts runs the
// turns; the adapters speak to the flows).

export type FlowDeps = Pick<
  AppDeps,
  | 'db'
  | 'config'
  | 'secrets'
  | 'jobs'
  | 'events'
  | 'ticketMessages'
  | 'outbox'
  | 'uploads'
  | 'outbound'
  | 'metrics'
  | 'campaignAnswers'
>;
export type TicketRow = typeof tickets.$inferSelect;
export type IntegrationRow = typeof queueIntegrations.$inferSelect;

// A waiting ticket nobody serves, handed to an integration.
export const integrationMode = (
  ticket: Pick<TicketRow, 'useIntegration' | 'integrationId' | 'userId' | 'status' | 'isGroup'>,
) =>
  ticket.useIntegration &&
  Boolean(ticket.integrationId) &&
  !ticket.userId &&
  ticket.status === 'pending' &&
  !ticket.isGroup;

export const recordError = (deps: FlowDeps, integration: IntegrationRow, error: string | null) =>
  deps.db
    .update(queueIntegrations)
    .set(
      error
        ? {
            lastErrorCode: 'ERR_INTEGRATION_FAILED',
            lastErrorMessage: error.slice(0, 500),
            lastErrorAt: new Date(),
          }
        : { lastErrorCode: null, lastErrorMessage: null, lastErrorAt: null },
    )
    .where(eq(queueIntegrations.id, integration.id));

// One exchange with a flow, for the integration's deliveries (admins read why a flow did not answer).
export const recordDelivery = (
  deps: FlowDeps,
  ticket: TicketRow,
  integration: IntegrationRow,
  delivery: {
    messageId: number | null;
    event: string;
    attempt: number;
    status: number | null;
    ok: boolean;
    durationMs: number;
    error: string | null;
    // The texts the flow answered for the contact.
    replies?: string[];
  },
) =>
  deps.db.insert(integrationDeliveries).values({
    companyId: ticket.companyId,
    integrationId: integration.id,
    ticketId: ticket.id,
    ...delivery,
    error: delivery.error?.slice(0, 2000) ?? null,
    replies: delivery.replies?.length ? delivery.replies : null,
  });

type FlowStep = {
  // Messages for the contact, written in this step's transaction.
  write?: (tx: Db, ticket: TicketRow) => Promise<MessageRow[]>;
  // The integration lets go of the ticket: it waits for a person in its queue (transfer, or the flow
  // ended), optionally in another queue of the company, or it is closed.
  leave?: { note: string; close?: boolean; queueId?: number };
  // Runs in the same transaction while the ticket is still the integration's.
  also?: (tx: Db) => Promise<unknown>;
};

// Applies a step of the flow under the ticket's row lock, only while the ticket is still this
// integration's (a person may have taken it meanwhile): answers whether it was applied.
export const applyStep = async (
  deps: FlowDeps,
  ticketId: number,
  integration: IntegrationRow,
  step: FlowStep,
) => {
  const changed = await deps.events.transaction(deps.db, async (tx, raise) => {
    const [before] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
    if (!before || !integrationMode(before) || before.integrationId !== integration.id)
      return undefined;
    const written = step.write ? await step.write(tx, before) : [];
    await step.also?.(tx);
    if (step.leave) {
      await writeTransition(tx, raise, before, handOverFromIntegration(step.leave), {
        byUserId: null,
      });
      await tx.delete(integrationSessions).where(eq(integrationSessions.ticketId, ticketId));
      await addBotNote(tx, raise, before, integration.name, step.leave.note);
    }
    written.forEach((row) => raise(messageCreated(row, 'platform')));
    return { written };
  });
  if (changed?.written.length) deps.outbox.kick();
  return Boolean(changed);
};
