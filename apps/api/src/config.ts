import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createECDH, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseCidr, type AllowPrivate } from './platform/outbound';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));
const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};
const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

// Which proxies may tell the client address (X-Forwarded-For): none, all, the nearest N hops, or
// the listed addresses/CIDRs (and proxy-addr's names). Trusting every sender would let any client
// pick the address the per-address limits count.
export type TrustProxy = boolean | number | string[];
const proxyNames = ['loopback', 'linklocal', 'uniquelocal'];
const isProxyAddress = (entry: string) => {
  if (proxyNames.includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits) && isIP(bits) !== family) return false;
  return isIP(bits) === family || Number(bits) <= (family === 4 ? 32 : 128);
};
// Fastify no longer takes a hop count (it cannot tell a proxy from a direct client), so a count
// becomes proxy-addr's rule: the nearest N hops are proxies. README says when that is safe.
export const fastifyTrustProxy = (value: TrustProxy) =>
  typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
const trustProxy = z
  .string()
  .trim()
  .transform((raw, ctx): TrustProxy => {
    const value = raw.toLowerCase();
    if (['', 'false', '0', 'no', 'off'].includes(value)) return false;
    if (['true', 'yes', 'on'].includes(value)) return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = raw.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `Expected true, false, a hop count or addresses/CIDRs; not ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

// OUTBOUND_ALLOW_PRIVATE: which private networks company-supplied URLs may reach (none by default).
const allowPrivate = z
  .string()
  .trim()
  .transform((raw, ctx): AllowPrivate => {
    const value = raw.toLowerCase();
    if (['', 'false', '0', 'no', 'off'].includes(value)) return false;
    if (['true', 'yes', 'on'].includes(value)) return true;
    const entries = raw.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !parseCidr(entry));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `Expected true, false or addresses/CIDRs (e.g. 10.0.0.0/8,::1); not ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

// Every environment variable the product reads. README "Configuration" lists the same.
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  WEB_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  // Where uploaded and received files are kept: DATA_DIR/uploads, or an S3-compatible bucket.
  STORAGE_DRIVER: z.preprocess(emptyAsUndefined, z.enum(['local', 's3']).default('local')),
  // Unset: AWS itself (from S3_REGION); MinIO, R2 and the like give their address.
  S3_ENDPOINT: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  S3_REGION: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
  S3_BUCKET: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'Expected an S3 bucket name (3-63 of a-z 0-9 . -)',
      )
      .optional(),
  ),
  S3_ACCESS_KEY_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  // Bucket in the path (http://host/bucket/key) rather than the host name: MinIO wants it.
  S3_FORCE_PATH_STYLE: z.preprocess(emptyAsUndefined, bool.default(false)),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  REDIS_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().default('admin@atendi.local')),
  ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(8).optional()),
  JWT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32).optional()),
  JWT_REFRESH_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32).optional()),
  ACCESS_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(10)
    .default(15 * 60),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .default(7 * 24 * 3600),
  PUBLIC_API_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  PUBLIC_WEB_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  SMTP_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  MAIL_FROM: z.string().default('Atendi <no-reply@atendi.local>'),
  SIMULATOR_ENABLED: z.preprocess(emptyAsUndefined, bool.optional()),
  SESSION_CLAIM_INTERVAL: z.coerce.number().int().min(0).default(5),
  SESSION_HANDOVER_WAIT: z.coerce.number().min(0).max(60).default(8),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(1).max(600_000).default(5000),
  // IANA zone business hours are read in (SPEC §3 service hours); TZ, then the system's, when unset.
  TIME_ZONE: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((zone) => isTimeZone(zone), 'Unknown IANA time zone')
      .optional(),
  ),
  TICKET_TIMERS_INTERVAL: z.coerce.number().int().min(0).default(30),
  // Days the audit log keeps an entry (0: forever).
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(365),
  SCHEDULES_INTERVAL: z.coerce.number().int().min(0).default(5),
  PRESENCE_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(20),
  PRESENCE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  CAMPAIGNS_INTERVAL: z.coerce.number().int().min(0).default(5),
  CLOUD_API_MESSAGES_PER_SECOND: z.coerce.number().positive().max(1000).default(80),
  SERVE_WEB: z.preprocess(emptyAsUndefined, bool.default(true)),
  WEB_DIST: z.string().default(''),
  TRUST_PROXY: trustProxy.default(false),
  OUTBOUND_ALLOW_PRIVATE: allowPrivate.default(false),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  LOGIN_RATE_WINDOW: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  // External messages API: calls per connection token per minute.
  EXTERNAL_API_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
  API_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  // Uploads: MB one request's files may add up to, and MB a user (or an API token) may upload a minute.
  UPLOAD_REQUEST_MAX_MB: z.coerce.number().int().min(1).max(1024).default(40),
  UPLOAD_RATE_LIMIT_MB: z.coerce.number().int().min(1).max(100_000).default(100),
  // Billing through Stripe (modules/subscriptions): without the secret key payments are off.
  STRIPE_SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  STRIPE_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  // Another host for the Stripe SDK (a local stand-in in tests and demos), e.g. http://127.0.0.1:12111.
  STRIPE_API_BASE: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  BILLING_CURRENCY: z
    .string()
    .trim()
    .regex(/^[a-zA-Z]{3}$/, 'An ISO 4217 code such as usd')
    .transform((code) => code.toLowerCase())
    .default('usd'),
  BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  BILLING_INTERVAL: z.coerce.number().int().min(0).default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // A request taking at least this long is logged at info (the rest only at debug).
  SLOW_REQUEST_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  // After SIGTERM: seconds the node keeps serving while /health/ready answers 503, so a balancer
  // stops sending it requests before it closes (0: close at once, as `npm start` does).
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(0),
  // GET /metrics (Prometheus) answers only with `Authorization: Bearer <METRICS_TOKEN>`; off unset.
  METRICS_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(16).optional()),
  // Seals the secrets companies give the API (their AI provider keys); shared by every node.
  ENCRYPTION_KEY: z.preprocess(emptyAsUndefined, z.string().min(32).optional()),
  // AI agents (modules/prompts): the platform's OpenAI-compatible provider, for companies that set
  // none of their own. Without a key or a base URL, only companies with their own key get answers.
  OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  OPENAI_TRANSCRIPTION_MODEL: z.string().min(1).default('whisper-1'),
  // The knowledge base's embeddings (modules/knowledge): documents and questions are embedded with
  // this model of the same server; changing it leaves stored passages to text search until refreshed.
  OPENAI_EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
  // Live insight (modules/insight): the model that reads a live conversation's sentiment and data
  // (structured output) for companies that turned the liveInsight setting on.
  OPENAI_INSIGHT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  // How long after a contact's message its conversation is read, so a burst of messages is read once.
  INSIGHT_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  // The agents' co-pilot (reply suggestions, conversation summaries): a small, cheap chat model.
  OPENAI_COPILOT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  // Queue integrations (modules/queue-integrations): how long a flow may take to answer an event, and
  // the first wait before a failed delivery is tried again (then 3× longer each time, 5 attempts).
  INTEGRATION_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  INTEGRATION_RETRY_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(5000),
  // Outbound webhooks (modules/webhook-endpoints): how long a receiver may take to answer; the first
  // wait before a failed delivery is tried again (then 5× longer each time, at most 6 hours, 8
  // attempts); how long an endpoint may fail every attempt before it is turned off; and how many days
  // the delivery log keeps a delivery.
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(5000),
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(72),
  WEBHOOK_LOG_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  // Minutes a connection may stay reconnecting (TIMEOUT) before its company's admins are emailed.
  CONNECTION_ALERT_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(10),
  // Hours a built conversation export stays downloadable before its file is deleted.
  EXPORT_KEEP_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(72),
  // Spreadsheet imports (platform/spreadsheet.ts): how long one sheet may take to read in its worker
  // thread, and how many are read at once (by default two, leaving a core to the event loop).
  SPREADSHEET_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SPREADSHEET_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .max(16)
    .default(Math.min(2, Math.max(1, availableParallelism() - 1))),
  // Where Dialogflow ES is reached: host[:port], or an http(s):// address (a local stand-in in tests).
  DIALOGFLOW_API_ENDPOINT: z
    .string()
    .trim()
    .regex(/^(https?:\/\/)?[\w.-]+(:\d+)?\/?$/, 'A host[:port] or an http(s)://host:port address')
    .default('dialogflow.googleapis.com'),
  // Web Push (modules/push): the server's VAPID key pair (base64url, as `npx web-push
  // generate-vapid-keys` prints them; both or neither: generated once into DATA_DIR otherwise), and
  // the contact push services may write to about it (mailto: or https:, ADMIN_EMAIL by default).
  VAPID_PUBLIC_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{87}$/, 'An uncompressed P-256 public key in base64url')
      .optional(),
  ),
  VAPID_PRIVATE_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'A 32-byte P-256 private key in base64url')
      .optional(),
  ),
  VAPID_SUBJECT: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, 'A mailto: or https: address')
      .optional(),
  ),
});

// The names of every variable above (.env.example and README "Configuration" list the same).
export const environmentVariables = Object.keys(envSchema.shape);

export type S3StorageConfig = {
  driver: 's3';
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};
export type StorageConfig = { driver: 'local' } | S3StorageConfig;

export class ConfigError extends Error {}
// A start that cannot go on for a reason the operator can fix (a DATA_DIR in use): its message is
// the whole story, printed without a stack.
export class StartRefused extends Error {}

// STORAGE_DRIVER=s3 needs its bucket and credentials; a missing one stops the start with its name.
const storageOf = (e: z.infer<typeof envSchema>): StorageConfig => {
  if (e.STORAGE_DRIVER === 'local') return { driver: 'local' };
  const required = {
    S3_REGION: e.S3_REGION,
    S3_BUCKET: e.S3_BUCKET,
    S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY,
  };
  const missing = Object.entries(required).filter(([, value]) => !value);
  if (missing.length)
    throw new ConfigError(
      `Invalid environment:\n${missing
        .map(([name]) => `  ${name}: Required when STORAGE_DRIVER=s3`)
        .join('\n')}`,
    );
  return {
    driver: 's3',
    endpoint: e.S3_ENDPOINT,
    region: required.S3_REGION!,
    bucket: required.S3_BUCKET!,
    accessKeyId: required.S3_ACCESS_KEY_ID!,
    secretAccessKey: required.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
};

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  webPort: number;
  host: string;
  dataDir: string;
  // Where files are kept (platform/storage-driver.ts).
  storage: StorageConfig;
  databaseUrl?: string;
  redisUrl?: string;
  adminEmail: string;
  adminPassword?: string;
  jwtSecret: string;
  jwtRefreshSecret: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  publicApiUrl: string;
  publicWebUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  simulatorEnabled: boolean;
  // Seconds between a node's looks for WhatsApp sessions no node runs (PostgreSQL; 0 = never).
  sessionClaimInterval: number;
  // Seconds a call on a session between nodes waits for the next owner before answering 503.
  sessionHandoverWait: number;
  // First wait before a failed send is retried; each later wait is three times longer (capped at 10 min).
  outboxRetryBaseMs: number;
  // Business hours are read in this zone.
  timeZone: string;
  // Seconds between sweeps of the timed ticket rules (transfer, expiry; 0 = never).
  ticketTimersInterval: number;
  auditRetentionDays: number;
  // Seconds between runs of the scheduled-message sender (0 = never).
  schedulesInterval: number;
  // Seconds an agent whose last socket closed stays as they were (a reload, a network blip) before
  // going offline.
  presenceGraceSeconds: number;
  // Seconds between a node's heartbeats; a node silent for three is taken for dead, its sockets gone.
  presenceHeartbeatSeconds: number;
  // Seconds between looks for campaigns whose time came (0 = only when one is saved or restarted).
  campaignsInterval: number;
  // The most messages a campaign sends per second through a Cloud API connection (Meta's default
  // throughput is 80; a number upgraded by Meta may take more).
  cloudApiMessagesPerSecond: number;
  serveWeb: boolean;
  webDist: string;
  // Fastify's trustProxy: who may set X-Forwarded-For (off by default).
  trustProxy: TrustProxy;
  // Private networks company-supplied URLs may reach (platform/outbound.ts).
  outboundAllowPrivate: AllowPrivate;
  loginRateLimit: number;
  externalApiRateLimit: number;
  // REST API calls per API token per minute.
  apiTokenRateLimit: number;
  // MB: one request's files together; a user's (or API token's) uploads per minute.
  uploadRequestMaxMb: number;
  uploadRateLimitMb: number;
  loginRateWindow: number;
  logLevel: string;
  slowRequestMs: number;
  shutdownDrainSeconds: number;
  metricsToken?: string;
  stripe: {
    secretKey?: string;
    webhookSecret?: string;
    apiBase?: string;
  };
  // Prices are created in this currency (ISO 4217, lower case).
  billingCurrency: string;
  // Days an overdue company keeps working before it is suspended.
  billingGraceDays: number;
  // Seconds between runs of the company lifecycle (overdue, suspended; 0 = never).
  billingInterval: number;
  encryptionKey: string;
  openAi: {
    apiKey?: string;
    baseUrl?: string;
    timeoutMs: number;
    maxRetries: number;
    transcriptionModel: string;
    embeddingModel: string;
    insightModel: string;
    insightDelayMs: number;
    copilotModel: string;
  };
  integrations: { timeoutMs: number; retryBaseMs: number; dialogflowEndpoint: string };
  webhooks: { timeoutMs: number; retryBaseMs: number; disableAfterHours: number; logDays: number };
  // Hours a conversation export is kept for download.
  exportKeepHours: number;
  // Minutes a connection may stay reconnecting before its admins are told.
  connectionAlertMinutes: number;
  // Spreadsheet imports: a sheet's time limit; the worker threads reading at once.
  spreadsheets: { timeoutMs: number; workers: number };
  // Web Push's VAPID keys (base64url) and contact (modules/push).
  vapid: { publicKey: string; privateKey: string; subject: string };
};

// Secrets that were not configured are generated once and kept in DATA_DIR, so tokens survive restarts.
const persistedSecret = (
  dataDir: string,
  name: string,
  make = () => randomBytes(48).toString('base64url'),
): string => {
  const file = path.join(dataDir, 'secrets', name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = make();
  // Several nodes sharing DATA_DIR may start at once (compose replicas on one volume): the first
  // write wins (exclusive create), and the others read what it wrote.
  const staged = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(staged, secret, { mode: 0o600 });
  try {
    linkSync(staged, file);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  } finally {
    rmSync(staged, { force: true });
  }
  return readFileSync(file, 'utf8').trim();
};

// A VAPID key pair as web-push's generateVAPIDKeys makes it: the uncompressed P-256 public key and
// the 32-byte private key, base64url.
const newVapidKeys = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: ecdh.getPrivateKey().toString('base64url').padStart(43, 'A'),
  };
};

// The configured VAPID keys, or those generated once and kept in DATA_DIR like the token secrets:
// browsers' subscriptions are bound to the public key, so it must not change between restarts.
const vapidKeysOf = (
  dataDir: string,
  e: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string },
) => {
  if (e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY)
    return { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY };
  if (e.VAPID_PUBLIC_KEY || e.VAPID_PRIVATE_KEY)
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither');
  return JSON.parse(
    persistedSecret(dataDir, 'vapid', () => JSON.stringify(newVapidKeys())),
  ) as ReturnType<typeof newVapidKeys>;
};

// The API's address as browsers reach it: PUBLIC_API_URL, else this machine on PORT (8080 unless set).
// `npm run stripe:local` posts its webhooks here too, so both follow the same variables and default.
const publicApiUrlOf = (e: { PUBLIC_API_URL?: string; PORT: number }) =>
  (e.PUBLIC_API_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');

// The same, read from the environment alone (no secrets are read or made).
export const publicApiUrlFromEnv = (source: NodeJS.ProcessEnv = process.env) => {
  const parsed = envSchema.pick({ PORT: true, PUBLIC_API_URL: true }).safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return publicApiUrlOf(parsed.data);
};

export const loadConfig = (source: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicApiUrl = publicApiUrlOf(e);
  const publicWebUrl = (e.PUBLIC_WEB_URL ?? `http://localhost:${e.WEB_PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    webPort: e.WEB_PORT,
    host: e.HOST,
    dataDir,
    storage: storageOf(e),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET ?? persistedSecret(dataDir, 'jwt'),
    jwtRefreshSecret: e.JWT_REFRESH_SECRET ?? persistedSecret(dataDir, 'jwt-refresh'),
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    publicApiUrl,
    publicWebUrl,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    // The simulator is on by default only on the embedded database (the zero-setup demo).
    simulatorEnabled: e.SIMULATOR_ENABLED ?? !e.DATABASE_URL,
    sessionClaimInterval: e.SESSION_CLAIM_INTERVAL,
    sessionHandoverWait: e.SESSION_HANDOVER_WAIT,
    outboxRetryBaseMs: e.OUTBOX_RETRY_BASE_MS,
    timeZone:
      e.TIME_ZONE ??
      (source.TZ && isTimeZone(source.TZ)
        ? source.TZ
        : Intl.DateTimeFormat().resolvedOptions().timeZone),
    ticketTimersInterval: e.TICKET_TIMERS_INTERVAL,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    schedulesInterval: e.SCHEDULES_INTERVAL,
    presenceGraceSeconds: e.PRESENCE_GRACE_SECONDS,
    presenceHeartbeatSeconds: e.PRESENCE_HEARTBEAT_SECONDS,
    campaignsInterval: e.CAMPAIGNS_INTERVAL,
    cloudApiMessagesPerSecond: e.CLOUD_API_MESSAGES_PER_SECOND,
    serveWeb: e.SERVE_WEB,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : '',
    trustProxy: e.TRUST_PROXY,
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    externalApiRateLimit: e.EXTERNAL_API_RATE_LIMIT,
    apiTokenRateLimit: e.API_TOKEN_RATE_LIMIT,
    uploadRequestMaxMb: e.UPLOAD_REQUEST_MAX_MB,
    uploadRateLimitMb: e.UPLOAD_RATE_LIMIT_MB,
    loginRateWindow: e.LOGIN_RATE_WINDOW,
    logLevel: e.LOG_LEVEL,
    slowRequestMs: e.SLOW_REQUEST_MS,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
    },
    billingCurrency: e.BILLING_CURRENCY,
    billingGraceDays: e.BILLING_GRACE_DAYS,
    billingInterval: e.BILLING_INTERVAL,
    encryptionKey: e.ENCRYPTION_KEY ?? persistedSecret(dataDir, 'encryption'),
    openAi: {
      apiKey: e.OPENAI_API_KEY,
      baseUrl: e.OPENAI_BASE_URL,
      timeoutMs: e.OPENAI_TIMEOUT_MS,
      maxRetries: e.OPENAI_MAX_RETRIES,
      transcriptionModel: e.OPENAI_TRANSCRIPTION_MODEL,
      embeddingModel: e.OPENAI_EMBEDDING_MODEL,
      insightModel: e.OPENAI_INSIGHT_MODEL,
      insightDelayMs: e.INSIGHT_DELAY_MS,
      copilotModel: e.OPENAI_COPILOT_MODEL,
    },
    integrations: {
      timeoutMs: e.INTEGRATION_TIMEOUT_MS,
      retryBaseMs: e.INTEGRATION_RETRY_BASE_MS,
      dialogflowEndpoint: e.DIALOGFLOW_API_ENDPOINT,
    },
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      disableAfterHours: e.WEBHOOK_DISABLE_AFTER_HOURS,
      logDays: e.WEBHOOK_LOG_DAYS,
    },
    exportKeepHours: e.EXPORT_KEEP_HOURS,
    connectionAlertMinutes: e.CONNECTION_ALERT_MINUTES,
    spreadsheets: { timeoutMs: e.SPREADSHEET_TIMEOUT_MS, workers: e.SPREADSHEET_WORKERS },
    vapid: {
      ...vapidKeysOf(dataDir, e),
      subject: e.VAPID_SUBJECT ?? `mailto:${e.ADMIN_EMAIL.toLowerCase()}`,
    },
  };
};
