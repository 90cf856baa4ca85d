import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { APP_VERSION, MB } from '@atendi/shared';
import { fastifyTrustProxy, type Config } from './config';
import type { Database } from './db/client';
import { registerAuthHook } from './platform/auth-hook';
import { registerErrorHandling } from './platform/errors';
import { stripNul } from './platform/nul';
import { useDepthCheckedJson } from './platform/json-body';
import { createSecretBox } from './platform/secrets';
import { createOutboundGuard } from './platform/outbound';
import { createHealth } from './platform/health';
import { createMetrics } from './platform/metrics';
import { RequestLog, requestIdOf, requestSerializer } from './platform/log-redaction';
import { apiHelmetOptions, docsCsp } from './platform/security-headers';
import { createMailer, type Mailer } from './platform/mailer';
import { createRateLimits } from './platform/rate-limit';
import { socketIdentity } from './platform/sessions';
import { Redis } from 'ioredis';
import { createTokenService } from './platform/tokens';
import { createUploads } from './platform/uploads';
import { createFileStore } from './platform/storage-driver';
import { createSpreadsheetReader } from './platform/spreadsheet';
import { createRealtime } from './realtime/realtime';
import { authRoutes } from './modules/auth/auth.routes';
import { companiesRoutes } from './modules/companies/companies.routes';
import { announcementsRoutes } from './modules/announcements/announcements.routes';
import { helpsRoutes } from './modules/helps/helps.routes';
import { queuesRoutes } from './modules/queues/queues.routes';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { plansRoutes } from './modules/plans/plans.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { systemRoutes } from './modules/system/system.routes';
import { usersRoutes } from './modules/users/users.routes';
import { whatsappsRoutes } from './modules/whatsapps/whatsapps.routes';
import { messagesRoutes } from './modules/messages/messages.routes';
import { externalApiRoutes } from './modules/messages/external-api.routes';
import { createTicketMessages } from './modules/messages/messages.service';
import { campaignAnswers } from './modules/campaigns/campaign-dispatcher';
import { searchKnowledge } from './modules/knowledge/retrieval';
import { registerTicketsEngine } from './modules/tickets/inbound/tickets.engine';
import { ticketsRoutes } from './modules/tickets/core/tickets.routes';
import { ticketNotesRoutes } from './modules/tickets/notes/ticket-notes';
import { contactsRoutes } from './modules/contacts/contacts.routes';
import { tagsRoutes } from './modules/tags/tags.routes';
import { ticketBulkRoutes } from './modules/ticket-bulk/ticket-bulk.routes';
import { quickMessagesRoutes } from './modules/quick-messages/quick-messages.routes';
import { promptsRoutes } from './modules/prompts/prompts.routes';
import { queueIntegrationsRoutes } from './modules/queue-integrations/queue-integrations.routes';
import { schedulesRoutes } from './modules/schedules/schedules.routes';
import { filesRoutes } from './modules/files/files.routes';
import { subscriptionsRoutes } from './modules/subscriptions/subscriptions.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes';
import { conversationExportsRoutes } from './modules/tickets/transcript/conversation-exports.routes';
import { knowledgeRoutes } from './modules/knowledge/knowledge.routes';
import { insightRoutes } from './modules/insight/insight.routes';
import { copilotRoutes } from './modules/copilot/copilot.routes';
import { pushRoutes } from './modules/push/push.routes';
import { webhookOpenApi } from './modules/webhook-endpoints/webhook-openapi';
import { webhookEndpointsRoutes } from './modules/webhook-endpoints/webhook-endpoints.routes';
import { contactListsRoutes } from './modules/contact-lists/contact-lists.routes';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes';
import { templatesRoutes } from './modules/templates/templates.routes';
import { createChannelManager } from './channels/manager';
import { createOutbox } from './modules/messages/outbox';
import type { ChannelDriver } from './channels/driver';
import { createLocalLeases, createPgLeases } from './channels/leases';
import { createSimulatorDriver } from './channels/simulator/simulator-driver';
import { cloudDriver } from './channels/cloud/cloud-driver';
import { baileysDriver } from './channels/baileys/baileys-driver';
import { cloudWebhookRoutes } from './channels/cloud/webhook.routes';
import path from 'node:path';
import { createJobs, liveJobCounts } from './jobs/queue';
import { createDomainEvents } from './events/domain-events';
import { registerBackground } from './background';
import { createPresence } from './modules/presence/presence';
import { sealCloudSecrets } from './modules/whatsapps/whatsapps.service';
import type { RouteInfo } from './deps';

export type { RouteInfo };

export type App = FastifyInstance;

// A readiness probe slower than this counts as failed (orchestrators wait a few seconds at most).
const HEALTH_CHECK_TIMEOUT_MS = 2000;

type BuildAppOptions = {
  config: Config;
  database: Database;
  // Tests pass a stream to read what would be logged; the redacting serializer always applies.
  logStream?: NodeJS.WritableStream;
  logger?: FastifyServerOptions['logger'];
  mailer?: Mailer;
};

export const buildApp = async (options: BuildAppOptions): Promise<App> => {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      // "level":"info" rather than pino's numbers: what log stores and people read.
      formatters: { level: (label: string) => ({ level: label }) },
      serializers: { req: requestSerializer },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // One line per request, at debug (at info they buried the start banner), unless it failed with
    // a 5xx or was slow.
    logController: new RequestLog(config.slowRequestMs),
    // Every request has an id, the caller's X-Request-Id when it is a plain token: on its log lines
    // and in the answer's X-Request-Id, so a report and a log line can be matched.
    genReqId: (request) => requestIdOf(request.headers['x-request-id']),
    requestIdHeader: false,
    // Only configured proxies may set the client address (X-Forwarded-For): TRUST_PROXY.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  useDepthCheckedJson(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Routes by their pattern (/tickets/:id), so a series is a route, not a ticket.
  app.addHook('onResponse', async (request, reply) => {
    app.deps.metrics.http.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  const tokens = createTokenService({
    secret: config.jwtSecret,
    refreshSecret: config.jwtRefreshSecret,
    accessTtlSeconds: config.accessTokenTtl,
  });
  const corsOrigin = [
    ...new Set([
      config.publicWebUrl,
      `http://localhost:${config.webPort}`,
      `http://127.0.0.1:${config.webPort}`,
    ]),
  ];
  const realtime = createRealtime({
    tokens,
    corsOrigin,
    log: app.log,
    redisUrl: config.redisUrl,
    identify: (claims) => socketIdentity(database.db, claims),
  });
  // Several API nodes (REDIS_URL) must share attempt counters, or each node allows its own quota.
  const limiterRedis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 })
    : undefined;
  // Redis down or restarting: ioredis reconnects, readiness says so; an unheard 'error' would end
  // the process.
  limiterRedis?.on('error', (error: Error) =>
    app.log.warn({ err: error.message }, 'redis (rate limits) connection error'),
  );
  const limits = createRateLimits({
    redis: limiterRedis,
    loginLimit: config.loginRateLimit,
    windowSeconds: config.loginRateWindow,
    externalApiLimit: config.externalApiRateLimit,
    apiTokenLimit: config.apiTokenRateLimit,
    uploadLimitMb: config.uploadRateLimitMb,
  });
  const files = createFileStore({ dataDir: config.dataDir, storage: config.storage });
  const uploads = createUploads({
    files,
    publicApiUrl: config.publicApiUrl,
    secret: `${config.jwtRefreshSecret}:uploads`,
    db: database.db,
    rateLimit: limits.uploadKib,
    requestMaxBytes: config.uploadRequestMaxMb * MB,
  });
  const spreadsheets = createSpreadsheetReader(config.spreadsheets);
  const simulatorSpool = path.join(config.dataDir, 'simulator');
  const drivers: ChannelDriver[] = [
    baileysDriver,
    cloudDriver,
    ...(config.simulatorEnabled ? [createSimulatorDriver({ spoolDir: simulatorSpool })] : []),
  ];
  // Several nodes share PostgreSQL: session ownership goes through it. PGlite means one process.
  const leases = database.connectionString
    ? await createPgLeases({ connectionString: database.connectionString, log: app.log })
    : createLocalLeases();
  const secrets = createSecretBox(config.encryptionKey);
  const outbound = createOutboundGuard({ allowPrivate: config.outboundAllowPrivate });
  await sealCloudSecrets(database.db, secrets);
  const metrics = createMetrics();
  const jobs = createJobs({
    db: database.db,
    log: app.log,
    nodeKey: leases.nodeKey,
    onFailure: (queue, final) => metrics.jobFailures.inc({ queue, final: String(final) }),
  });
  // Before the channels: a session's status change is a domain event (connection.status).
  const events = createDomainEvents({ jobs, log: app.log });
  const channels = createChannelManager({
    db: database.db,
    log: app.log,
    realtime,
    uploads,
    leases,
    drivers,
    secrets,
    events,
    fetch: outbound.fetch,
    claimIntervalMs: database.connectionString ? config.sessionClaimInterval * 1000 : 0,
    handoverWaitMs: config.sessionHandoverWait * 1000,
  });
  const outbox = createOutbox(jobs);
  // Who is online: this node's sockets, its heartbeat, and the settles that follow them.
  const presence = createPresence(
    { db: database.db, events },
    {
      graceMs: config.presenceGraceSeconds * 1000,
      heartbeatMs: config.presenceHeartbeatSeconds * 1000,
      log: app.log,
    },
  );
  realtime.setPresence(presence);
  const health = createHealth({
    timeoutMs: HEALTH_CHECK_TIMEOUT_MS,
    checks: {
      database: () => database.db.execute(sql`select 1`),
      ...(limiterRedis ? { redis: () => limiterRedis.ping() } : {}),
      storage: () => files.check(),
    },
  });
  metrics.readFrom({
    jobs: () => liveJobCounts(database.db),
    sessions: channels.sessionsHere,
    sockets: realtime.socketsHere,
  });
  app.decorate('deps', {
    config,
    channels,
    outbox,
    // Tickets write their automatic messages through the messages module without importing it.
    ticketMessages: createTicketMessages(),
    // And learn which contact messages opted out of campaigns without importing campaigns.
    campaignAnswers,
    // And AI agents search the knowledge base without importing it (it imports them).
    knowledge: {
      search: (companyId, question, searchOptions) =>
        searchKnowledge(app.deps, companyId, question, searchOptions),
    },
    jobs,
    events,
    simulatorSpool,
    db: database.db,
    tokens,
    realtime,
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        dataDir: config.dataDir,
        log: app.log,
      }),
    limits,
    files,
    uploads,
    secrets,
    outbound,
    spreadsheets,
    health,
    metrics,
  });

  // Every route is recorded with its declared access so tests can walk the whole API.
  app.decorate('routeCatalog', [] as RouteInfo[]);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) {
      route.config = { ...route.config, access: { public: true } };
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      app.routeCatalog.push({
        method,
        url: route.url,
        access: route.config?.access ?? {},
        apiScope: route.config?.apiScope ?? null,
        schema: route.schema as RouteInfo['schema'],
      });
    }
  });

  await app.register(cookie);
  // Browser security headers on every answer (platform/security-headers.ts).
  await app.register(helmet, apiHelmetOptions);
  // Per-route limits are set where a file is read (platform/uploads.ts); this is the outer bound.
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 1, fields: 20 } });
  await app.register(cors, {
    origin: corsOrigin,
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    // The web app reads these on another origin: how long a 429 asks it to wait, and a replayed send.
    exposedHeaders: ['Retry-After', 'Idempotent-Replayed'],
  });
  const webhookDocs = webhookOpenApi();
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Atendi API',
        version: APP_VERSION,
        description: 'Multi-tenant WhatsApp customer-service platform',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // GET /metrics: the operator's METRICS_TOKEN.
          metricsToken: { type: 'http', scheme: 'bearer' },
          // POST /api/messages/send: a connection's external-API token.
          connectionToken: { type: 'http', scheme: 'bearer' },
          // Issue 38: a company's API token (atd_…); each operation it may call names its scope.
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API token made in Settings › API (atd_…). It acts as the admin who made it, within its scopes: each operation a token may call says the scope it needs (writing an area includes reading it).',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
    // Issue 38: what the outbound webhooks send, one schema per event type (webhook-openapi.ts).
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const doc = document.openapiObject;
      return Object.assign({}, doc, {
        components: {
          ...doc.components,
          schemas: { ...doc.components?.schemas, ...webhookDocs.schemas },
        },
        'x-webhooks': webhookDocs.webhooks,
      });
    },
  });
  // The docs page loads scripts and styles: it gets its own policy instead of the API's 'none'.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: docsCsp });

  registerAuthHook(app, { db: database.db, tokens, limits });
  // Text from outside never carries NUL into PostgreSQL (platform/nul.ts); before validation, so
  // schemas judge what will be stored.
  app.addHook('preValidation', async (request) => {
    request.body = stripNul(request.body);
    request.query = stripNul(request.query);
    request.params = stripNul(request.params);
  });

  await app.register(systemRoutes);
  await app.register(authRoutes);
  await app.register(companiesRoutes);
  await app.register(plansRoutes);
  await app.register(usersRoutes);
  await app.register(settingsRoutes);
  await app.register(helpsRoutes);
  await app.register(queuesRoutes);
  await app.register(announcementsRoutes);
  await app.register(uploadsRoutes);
  await app.register(whatsappsRoutes);
  await app.register(messagesRoutes);
  await app.register(templatesRoutes);
  await app.register(externalApiRoutes);
  await app.register(cloudWebhookRoutes);
  registerTicketsEngine(app);
  await app.register(ticketsRoutes);
  await app.register(ticketBulkRoutes);
  await app.register(ticketNotesRoutes);
  await app.register(copilotRoutes);
  await app.register(contactsRoutes);
  await app.register(tagsRoutes);
  await app.register(quickMessagesRoutes);
  await app.register(promptsRoutes);
  await app.register(queueIntegrationsRoutes);
  await app.register(schedulesRoutes);
  await app.register(filesRoutes);
  await app.register(subscriptionsRoutes);
  await app.register(dashboardRoutes);
  await app.register(auditRoutes);
  await app.register(apiTokensRoutes);
  await app.register(webhookEndpointsRoutes);
  await app.register(conversationExportsRoutes);
  await app.register(knowledgeRoutes);
  await app.register(insightRoutes);
  await app.register(contactListsRoutes);
  await app.register(campaignsRoutes);
  await app.register(pushRoutes);
  // Every queue, recurring job and event listener (background.ts); they run once jobs start below.
  registerBackground(app.deps, app.log);

  realtime.attach(app.server);
  // Sessions resume once the app is ready, and stop (keeping their pairing) before the database closes.
  app.addHook('onReady', async () => {
    await channels.start();
    await jobs.start();
    await presence.start();
    health.started();
  });
  app.addHook('preClose', async () => {
    await jobs.stop();
    await channels.close();
    await realtime.close();
    await presence.stop();
    await spreadsheets.close();
  });
  app.addHook('onClose', async () => {
    await limiterRedis?.quit().catch(() => undefined);
    await outbound.close();
  });
  return app;
};
