import type { Config } from './config';
import type { ChannelManager } from './channels/manager';
import type { Db } from './db/client';
import type { messages, tickets } from './db/schema';
import type { Jobs } from './jobs/queue';
import type { DomainEvents } from './events/domain-events';
import type { ApiTokenScope, KnowledgeSearchResult } from '@atendi/shared';
import type { RouteAccess } from './platform/context';
import type { Health } from './platform/health';
import type { Mailer } from './platform/mailer';
import type { Metrics } from './platform/metrics';
import type { RateLimits } from './platform/rate-limit';
import type { SecretBox } from './platform/secrets';
import type { OutboundGuard } from './platform/outbound';
import type { SpreadsheetReader } from './platform/spreadsheet';
import type { TokenService } from './platform/tokens';
import type { FileStore } from './platform/file-store';
import type { Uploads } from './platform/uploads';
import type { Realtime } from './realtime/realtime';

// What every module is given (app.deps), declared apart from app.ts so that services depend on this
// list and never on the app that assembles it (eslint keeps it so). It imports no module: what a
// module provides to others through it is declared here as a port (Outbox, TicketMessages,
// CampaignAnswers, KnowledgeSearch), so no
// import cycle runs through this file.

export type MessageRow = typeof messages.$inferSelect;
export type OutgoingTicket = Pick<
  typeof tickets.$inferSelect,
  'id' | 'companyId' | 'whatsappId' | 'contactId'
>;

// The sender of queued messages (modules/messages/outbox.ts).
export type Outbox = {
  // A send was just stored: go now, without making its request wait.
  kick: () => void;
};

// What tickets needs of the messages module: messages implements it (messages.service.ts
// createTicketMessages) and app.ts hands it over, so messages depends on tickets and tickets never
// on messages (eslint keeps it so).
export type TicketMessages = {
  // Writes an outgoing text on the ticket and queues its send in the caller's transaction: an
  // automatic message is stored with the ticket change that causes it, or not at all. The caller
  // raises its message.created. `promptId` marks an AI agent's answer.
  queueText: (
    tx: Db,
    ticket: OutgoingTicket,
    body: string,
    options?: { promptId?: number },
  ) => Promise<MessageRow[]>;
  // queueText for several texts at once, on any tickets, in a statement per step for the set; answers
  // the messages in the order given.
  queueTexts: (tx: Db, items: { ticket: OutgoingTicket; body: string }[]) => Promise<MessageRow[]>;
};

// What the tickets engine asks of campaigns once an ingest stored contact messages: campaigns
// implements it (campaign-dispatcher.ts campaignAnswers) and app.ts hands it over, so tickets never
// import campaigns. The messages that opted their sender out of campaigns, each with the text that
// confirms it to them ('' to send none): neither the queue bot nor an AI agent nor an integration
// answers those.
export type CampaignAnswers = {
  optOutConfirmations: (db: Db, messageIds: number[]) => Promise<Map<number, string>>;
};

// What the AI agents ask of the knowledge base: modules/knowledge implements it (searchKnowledge) and
// app.ts hands it over, since knowledge reaches the provider through the prompts module and prompts
// cannot import knowledge back. The company's passages that best answer a question (of these
// documents only, when named), best first.
export type KnowledgeSearch = {
  search: (
    companyId: number,
    question: string,
    options?: { limit?: number; documentIds?: number[] },
  ) => Promise<KnowledgeSearchResult>;
};

export type AppDeps = {
  config: Config;
  channels: ChannelManager;
  // Sends what agents and bots queued (modules/messages/outbox.ts); kick() after queueing.
  outbox: Outbox;
  // The messages module's side of the tickets module's port (TicketMessages above):
  // automatic messages written in the transaction of the ticket change that causes them.
  ticketMessages: TicketMessages;
  // The campaigns module's side of CampaignAnswers above: opt-out answers, confirmed instead of
  // answered by a bot, an AI agent or an integration.
  campaignAnswers: CampaignAnswers;
  // The knowledge module's side of KnowledgeSearch above: what AI agents answer from.
  knowledge: KnowledgeSearch;
  // The one durable background queue (jobs/queue.ts): what runs on it is listed in background.ts.
  jobs: Jobs;
  // What happened (events/domain-events.ts): ticket changes, stored messages. Listeners subscribe
  // here instead of being called from the services that make the change.
  events: DomainEvents;
  // Where the simulator keeps media "sent from the phone" until the session takes it.
  simulatorSpool: string;
  db: Db;
  tokens: TokenService;
  realtime: Realtime;
  mailer: Mailer;
  // Attempt counters (login, password reset, sign-up): platform/rate-limit.ts.
  limits: RateLimits;
  // Where files are kept, the local folder or the S3 bucket (platform/file-store.ts); check() tells
  // whether it can be reached now. Modules go through uploads, which keys and counts the files.
  files: FileStore;
  uploads: Uploads;
  // Reads .xlsx files in worker threads, within limits (platform/spreadsheet.ts).
  spreadsheets: SpreadsheetReader;
  // Seals what companies entrust to the API (AI provider keys) with ENCRYPTION_KEY.
  secrets: SecretBox;
  // The one way to call a URL a company supplied (platform/outbound.ts).
  outbound: OutboundGuard;
  // Whether this node should get traffic (GET /health/ready; platform/health.ts).
  health: Health;
  // Counters and histograms GET /metrics shows (platform/metrics.ts).
  metrics: Metrics;
};

export type RouteInfo = {
  method: string;
  url: string;
  access: RouteAccess;
  // The scope an API token needs (issue 38); null: tokens cannot call it.
  apiScope: ApiTokenScope | null;
  schema?: { body?: unknown; params?: unknown; querystring?: unknown; operationId?: string };
};

/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    routeCatalog: RouteInfo[];
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */
