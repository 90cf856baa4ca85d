import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from './deps';
import { pruneOutbound } from './channels/simulator/simulator-driver';
import { webhookQueue, webhookWorker } from './channels/cloud/inbox';
import { outboxWorker } from './modules/messages/outbox';
import { outboxQueue } from './modules/messages/sends';
import { pruneIdempotencyKeys } from './modules/messages/send-keys';
import { handleChannelEvent } from './modules/tickets/inbound/tickets.engine';
import { inboxProjector } from './modules/inbox/inbox.projector';
import { runTicketTimers, TICKET_TIMERS_JOB } from './modules/tickets/bots/ticket-timers';
import { runSchedules, SCHEDULES_JOB } from './modules/schedules/schedules.sender';
import {
  agentWorker,
  promptReplyQueue,
  queueAgentTurnForMessage,
  queueAgentTurnOnHandover,
} from './modules/prompts/agent';
import { queueVoiceNotes, voiceNoteQueue, voiceNoteWorker } from './modules/prompts/voice-notes';
import { queueSummaryOnHandover, summaryQueue, summaryWorker } from './modules/copilot/summaries';
import {
  followIntegrationHandover,
  integrationTurnQueue,
  integrationWorker,
  queueIntegrationTurnForMessage,
} from './modules/queue-integrations/integration-runtime';
import {
  DASHBOARD_FOLD_JOB,
  foldDashboardHours,
  recordFirstReply,
  recordTicketChange,
} from './modules/dashboard/ticket-tracking';
import { checkQueue, checkWorker } from './modules/contact-lists/contact-list-upload';
import {
  CAMPAIGNS_JOB,
  createCampaignDispatcher,
  dispatchQueue,
} from './modules/campaigns/campaign-dispatcher';
import { billingQueue, billingWorker } from './modules/subscriptions/billing-webhook';
import { LIFECYCLE_JOB, runCompanyLifecycle } from './modules/subscriptions/company-lifecycle';
import { stopBillingWorker } from './modules/subscriptions/subscriptions.service';
import { createStripeClient } from './modules/subscriptions/stripe-client';
import { stopBillingQueue } from './modules/companies/companies.service';
import { emitPresence, PRESENCE_SWEEP_JOB, sweepPresence } from './modules/presence/presence';
import {
  answeredOnPhone,
  REASSIGN_JOB,
  reassignUnanswered,
  routeOnPresence,
  routeTicketChanges,
  routingQueue,
  routingWorker,
} from './modules/routing/routing';
import { createSla, notifySla, SLA_WATCH_JOB, watchSla } from './modules/sla/sla';
import { AUDIT_PRUNE_JOB, pruneAudit } from './modules/audit/audit.service';
import { webhookDeliveryQueue } from './modules/webhook-endpoints/webhook-queue';
import {
  pruneWebhookLog,
  WEBHOOK_LOG_PRUNE_JOB,
  webhookDeliveryWorker,
} from './modules/webhook-endpoints/webhook-delivery';
import { createWebhookRecorders } from './modules/webhook-endpoints/webhook-events';
import {
  alertConnectionDrop,
  CONNECTION_WATCH_JOB,
  recordConnectionHistory,
  watchStuckConnections,
} from './modules/whatsapps/connection-health';
import {
  CONVERSATION_EXPORT_PRUNE_JOB,
  conversationExportQueue,
  conversationExportWorker,
  pruneConversationExports,
} from './modules/tickets/transcript/conversation-exports';
import { ingestQueue } from './modules/knowledge/ingest-queue';
import { ingestWorker } from './modules/knowledge/ingest';
import { KNOWLEDGE_SOURCES_JOB, refreshChangedSources } from './modules/knowledge/sources';
import { insightQueue, insightWorker, queueInsightForMessage } from './modules/insight/insight';
import {
  pushContactMessage,
  pushQueue,
  pushSlaWarning,
  pushTicketChange,
  pushWorker,
} from './modules/push/push-sender';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

// Every background reaction of the API, in one list: the queues this node helps run, the recurring
// jobs, and the listeners of domain events and of the channels. Routes register routes only; app.ts
// calls this once, and the jobs start when the app is ready (jobs.start in its onReady hook).
// Recorders of one event type run in the order listed here, inside the transaction that raised it.
export const registerBackground = (deps: AppDeps, log: FastifyBaseLogger) => {
  const { jobs, events, config } = deps;
  const campaigns = createCampaignDispatcher(deps, log);
  const sla = createSla(deps);
  const webhooks = createWebhookRecorders(deps);

  // Queues: work stored with what caused it, run at least once, retried with backoff.

  // Outgoing messages to WhatsApp (the outbox), one ticket's at a time, retried while it is down.
  jobs.define(outboxQueue, outboxWorker(deps, log, config.outboxRetryBaseMs));
  // Cloud API webhooks stored by POST /webhooks/whatsapp, handed to their connection.
  jobs.define(webhookQueue, webhookWorker(deps));
  // An AI agent's answer to a contact's turn (queued by the agent's recorders below).
  jobs.define(promptReplyQueue, agentWorker(deps, log));
  // A voice note written down by the company's AI provider (queued by its recorder below).
  jobs.define(voiceNoteQueue, voiceNoteWorker(deps, log));
  // A conversation that changed hands summarised as a note (queued by its recorder below).
  jobs.define(summaryQueue, summaryWorker(deps, log));
  // A contact's message handed to the ticket's integration (queued by its recorders below).
  jobs.define(integrationTurnQueue, integrationWorker(deps, log));
  // Stripe events stored by POST /subscriptions/webhook, applied one company at a time.
  jobs.define(billingQueue, billingWorker(deps));
  // A cancelled or deleted company's Stripe subscriptions, cancelled at Stripe.
  jobs.define(stopBillingQueue, stopBillingWorker({ stripe: createStripeClient(config) }, log));
  // WhatsApp lookups of an uploaded contact list's new numbers, a batch per job.
  jobs.define(checkQueue, checkWorker(deps, log));
  // A running campaign's sends, a paced step per run.
  jobs.define(dispatchQueue, campaigns.worker);
  // A company's automatic assignment pass (one at a time per company; asked for by the recorders below).
  jobs.define(routingQueue, routingWorker(deps));
  // Outbound webhooks: one event to one endpoint, signed, in order per ticket (recorded below).
  jobs.define(webhookDeliveryQueue, webhookDeliveryWorker(deps, log));
  // A company's conversations for a range of days, written to a file of the file store.
  jobs.define(conversationExportQueue, conversationExportWorker(deps));
  // A knowledge base document read, split, embedded and stored (one version, one at a time per document).
  jobs.define(ingestQueue, ingestWorker(deps));
  // Live insight: a conversation's sentiment and data read by the AI, and its rules applied.
  jobs.define(insightQueue, insightWorker(deps, log));
  // Web Push: one notification to one device of an agent (queued by its recorders below).
  jobs.define(pushQueue, pushWorker(deps, log));

  // Recurring jobs: one node at a time, right after start and then every everyMs.

  // Waiting tickets moved to another queue, idle conversations closed (the connection's timers).
  jobs.every({
    name: TICKET_TIMERS_JOB,
    everyMs: config.ticketTimersInterval * 1000,
    run: (now) => runTicketTimers(deps, now),
  });
  // Scheduled messages whose time came, sent.
  jobs.every({
    name: SCHEDULES_JOB,
    everyMs: config.schedulesInterval * 1000,
    run: (now) => runSchedules(deps, now, log),
  });
  // Scheduled campaigns whose time came, started (and running ones without a job, given one).
  jobs.every({
    name: CAMPAIGNS_JOB,
    everyMs: config.campaignsInterval * 1000,
    run: campaigns.startDue,
  });
  // Companies past their due date made overdue, then suspended after the grace days.
  jobs.every({
    name: LIFECYCLE_JOB,
    everyMs: config.billingInterval * 1000,
    run: (now) => runCompanyLifecycle(deps, now, log),
  });
  // The dashboard's hours folded into one row per hour and user.
  jobs.every({
    name: DASHBOARD_FOLD_JOB,
    everyMs: 10 * 60_000,
    run: async (now) => {
      while ((await foldDashboardHours(deps.db, now)) > 0);
    },
  });
  // Companies' storage counts matched to the files the store holds.
  jobs.every({
    name: 'storage-reconcile',
    everyMs: DAY_MS,
    run: (now) => deps.uploads.reconcile(now),
  });
  // Idempotency keys of the external API and the inbox forgotten after their day.
  jobs.every({
    name: 'api-idempotency-prune',
    everyMs: HOUR_MS,
    run: (now) => pruneIdempotencyKeys(deps.db, now),
  });
  // The simulator's phone forgets what it received more than a week ago.
  jobs.every({
    name: 'simulator-prune',
    everyMs: DAY_MS,
    run: async (now) => {
      await pruneOutbound(deps.db, new Date(now.getTime() - 7 * DAY_MS));
    },
  });

  // Routed conversations whose agent did not answer in the queue's minutes go to the next candidate.
  jobs.every({
    name: REASSIGN_JOB,
    everyMs: config.ticketTimersInterval * 1000,
    run: (now) => reassignUnanswered(deps, now),
  });
  // Audit entries past AUDIT_RETENTION_DAYS go.
  jobs.every({
    name: AUDIT_PRUNE_JOB,
    everyMs: DAY_MS,
    run: async (now) => {
      await pruneAudit(deps.db, now, config.auditRetentionDays);
    },
  });
  // The webhook delivery log forgets deliveries older than WEBHOOK_LOG_DAYS.
  jobs.every({
    name: WEBHOOK_LOG_PRUNE_JOB,
    everyMs: DAY_MS,
    run: (now) => pruneWebhookLog(deps, now),
  });
  // Connections reconnecting for CONNECTION_ALERT_MINUTES: their admins are emailed.
  jobs.every({
    name: CONNECTION_WATCH_JOB,
    everyMs: 60_000,
    run: (now) => watchStuckConnections(deps, log, now),
  });
  // Conversation exports past EXPORT_KEEP_HOURS go, with their files.
  jobs.every({
    name: CONVERSATION_EXPORT_PRUNE_JOB,
    everyMs: HOUR_MS,
    run: (now) => pruneConversationExports(deps, now),
  });
  // Knowledge base sources (quick messages, file lists) whose records changed, read again.
  jobs.every({
    name: KNOWLEDGE_SOURCES_JOB,
    everyMs: 60_000,
    run: () => refreshChangedSources(deps),
  });
  // SLA deadlines passed become breaches, those near are warned of.
  jobs.every({
    name: SLA_WATCH_JOB,
    everyMs: config.ticketTimersInterval * 1000,
    run: (now) => watchSla(deps, now),
  });
  // Agents whose last socket closed more than the grace ago go offline; dead nodes' sockets go.
  jobs.every({
    name: PRESENCE_SWEEP_JOB,
    everyMs: config.presenceHeartbeatSeconds * 1000,
    run: (now) =>
      sweepPresence(deps, now, {
        graceMs: config.presenceGraceSeconds * 1000,
        heartbeatMs: config.presenceHeartbeatSeconds * 1000,
      }),
  });

  // Domain events: recorders write in the raising transaction; `on` listeners run after the commit.

  // A contact's message on an AI agent's ticket queues the agent's turn.
  events.record('message.created', queueAgentTurnForMessage);
  // A ticket handed to an AI agent queues its first turn.
  events.record('ticket.changed', queueAgentTurnOnHandover);
  // A voice note of a company that has them written down queues its transcription.
  events.recordAll('message.created', queueVoiceNotes);
  // A ticket handed from an AI agent to people, or transferred, queues its summary.
  events.record('ticket.changed', queueSummaryOnHandover);
  // A contact's message on an integration's ticket is queued for the integration.
  events.record('message.created', queueIntegrationTurnForMessage);
  // A contact's message on a live conversation queues its analysis (companies with live insight on).
  events.record('message.created', queueInsightForMessage(config.openAi));
  // A ticket whose integration changed ends the old flow's session and starts the new one.
  events.record('ticket.changed', followIntegrationHandover);
  // The dashboard's conversation history: started, accepted, finished.
  events.record('ticket.changed', recordTicketChange);
  // The dashboard's conversation history: first answered by a person.
  events.record('message.created', recordFirstReply);
  // Campaign recipients' answers: opt-outs, and confirmations that send the campaign's message.
  events.recordAll('message.created', campaigns.recordAnswers);
  // Automatic assignment: a conversation waiting in a routed queue, or an agent with room again.
  events.recordAll('ticket.changed', routeTicketChanges);
  // SLA clocks: started, moved and stopped with the conversation's queue and status, and by answers.
  events.recordAll('ticket.changed', sla.onTicketChanges);
  events.recordAll('message.created', sla.onMessages);
  // Web Push to agents' devices: a contact's message on their conversation, a conversation given to
  // them or waiting in their queues, a deadline of theirs near (modules/push).
  events.record('message.created', pushContactMessage);
  events.record('ticket.changed', pushTicketChange);
  events.record('ticket.sla', pushSlaWarning);
  // The agent (or the queue's members) hears of a deadline near or missed.
  events.on('ticket.sla', notifySla(deps));
  // Reassignment: a reply typed on the connected phone answers a routed conversation.
  events.recordAll('message.created', answeredOnPhone);
  // A connection's status changes, kept with why (its history).
  events.record('connection.status', recordConnectionHistory);
  // A number that dropped: its company's admins are emailed (once an hour a connection at most).
  events.on('connection.status', alertConnectionDrop(deps, log));
  // Outbound webhooks: what happened, stored for the endpoints that hear it, in the order it happened
  // (after each round's other recorders: it sees what they wrote, and the SLA breaches they raised).
  events.recordInOrder(webhooks.recorder);
  // Automatic assignment: an agent who comes online.
  events.record('user.presence', routeOnPresence);
  // Who is online, to every screen of the company.
  events.on('user.presence', emitPresence(deps));
  // The screens: after each commit, the tickets and messages it changed, to the sockets that show them
  // (modules/inbox/inbox.projector.ts, the only code that emits them).
  events.afterCommit(inboxProjector(deps));
  // The messages counter of GET /metrics, by direction and author.
  events.on('message.created', (event) => {
    deps.metrics.messages.inc({
      direction: event.fromMe ? 'outbound' : 'inbound',
      author: event.author,
    });
  });

  // Channels: what WhatsApp reports (messages, acks, edits, typing) goes to the tickets engine.
  deps.channels.onEvent((input) => handleChannelEvent(deps, input));
  // Delivery reports on campaign messages: the campaign's report (sent, delivered, read).
  deps.channels.onEvent(campaigns.recordAck);
};
