import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { webhookDeliveries, webhookEndpoints, type WebhookAttempt } from '../../db/schema';
import type { Job, QueueOptions } from '../../jobs/queue';
import { mailCompanyAdmins } from '../../platform/admin-mail';
import { audit } from '../../platform/audit';
import { refusalIn } from '../../platform/outbound';

// Sending a delivery (issue 38): one signed POST per attempt, per the Standard Webhooks specification,
// from the job queue (queue `webhook.deliver`, keyed by endpoint and ticket). A failure is tried again
// with backoff and jitter, 8 attempts in all; an endpoint whose every attempt failed for
// WEBHOOK_DISABLE_AFTER_HOURS (and at least 5 in a row) is turned off and its admins are told.
// Redirects are not followed: a 3xx is a failed attempt that says where it pointed.

type Deps = Pick<AppDeps, 'db' | 'outbound' | 'secrets' | 'mailer' | 'config'>;

const WEBHOOK_MAX_ATTEMPTS = 8;
const DISABLE_AFTER_FAILURES = 5;
const MAX_DELAY_MS = 6 * 3600_000;
const RESPONSE_EXCERPT = 2000;
const LOG_ENTRIES = 20;

// base, 5×base, 25×base … (5 s, 25 s, 2 min, 10 min, 52 min, 4 h, 6 h with a 5 s base), less up to a
// quarter at random, so deliveries that failed together come back spread out.
export const webhookRetryDelay = (attempts: number, baseMs: number, random = Math.random) =>
  Math.round(
    Math.min(baseMs * 5 ** Math.max(0, attempts - 1), MAX_DELAY_MS) * (1 - 0.25 * random()),
  );

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

// The first characters of what the receiver answered (the rest is read and dropped).
const excerptOf = async (response: Response) => {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (text.length < RESPONSE_EXCERPT) text += decoder.decode(value, { stream: true });
  }
  return text.slice(0, RESPONSE_EXCERPT).replace(/\0/g, '');
};

// One POST of the delivery's body, signed now. Never throws.
export const attemptDelivery = async (
  deps: Pick<Deps, 'outbound' | 'secrets' | 'config'>,
  endpoint: Pick<EndpointRow, 'url' | 'secretSealed'>,
  delivery: Pick<DeliveryRow, 'messageId' | 'payload'>,
): Promise<WebhookAttempt & { refused: boolean }> => {
  const body = JSON.stringify(delivery.payload);
  const at = new Date();
  const signature = new Webhook(deps.secrets.open(endpoint.secretSealed)).sign(
    delivery.messageId,
    at,
    body,
  );
  const timeoutMs = deps.config.webhooks.timeoutMs;
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const response = await deps.outbound.fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Atendi-Webhooks/1',
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await excerptOf(response);
    const status = response.status;
    const ok = status >= 200 && status < 300;
    const location = response.headers.get('location');
    return {
      at: at.toISOString(),
      status,
      durationMs: took(),
      response: text,
      refused: false,
      error: ok
        ? null
        : status >= 300 && status < 400
          ? `Redirected (HTTP ${status}${location ? ` to ${location.slice(0, 300)}` : ''}): webhooks are not sent on to another address; register the final URL`
          : `HTTP ${status}`,
    };
  } catch (error) {
    const refusal = refusalIn(error);
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return {
      at: at.toISOString(),
      status: null,
      durationMs: took(),
      response: '',
      refused: Boolean(refusal),
      error: refusal
        ? `Not sent: ${refusal.message}`
        : timedOut
          ? `No answer within ${timeoutMs} ms`
          : 'The receiver cannot be reached',
    };
  }
};

// The attempt in the delivery's row (its log keeps the newest 20) and the endpoint's health. Answers
// whether this attempt turned the endpoint off.
export const recordAttempt = async (
  deps: Pick<Deps, 'db' | 'config'>,
  delivery: Pick<DeliveryRow, 'id' | 'endpointId' | 'log'>,
  result: WebhookAttempt,
  outcome: 'delivered' | 'pending' | 'failed',
) =>
  deps.db.transaction(async (tx) => {
    const at = new Date(result.at);
    const { refused: _refused, ...entry } = result as WebhookAttempt & { refused?: boolean };
    await tx
      .update(webhookDeliveries)
      .set({
        status: outcome,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error,
        lastAttemptAt: at,
        deliveredAt: outcome === 'delivered' ? at : null,
        log: [...delivery.log, entry].slice(-LOG_ENTRIES),
      })
      .where(eq(webhookDeliveries.id, delivery.id));
    if (outcome === 'delivered') {
      await tx
        .update(webhookEndpoints)
        .set({ consecutiveFailures: 0, failingSince: null, lastDeliveryAt: at })
        .where(eq(webhookEndpoints.id, delivery.endpointId));
      return undefined;
    }
    await tx
      .update(webhookEndpoints)
      .set({
        consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)`,
        lastDeliveryAt: at,
      })
      .where(eq(webhookEndpoints.id, delivery.endpointId));
    const cutoff = new Date(at.getTime() - deps.config.webhooks.disableAfterHours * 3600_000);
    // Off once it has failed long enough: only the attempt that turns it off gets the row back.
    const [disabled] = await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledAt: at, disabledReason: 'failures' })
      .where(
        and(
          eq(webhookEndpoints.id, delivery.endpointId),
          eq(webhookEndpoints.enabled, true),
          gt(webhookEndpoints.consecutiveFailures, DISABLE_AFTER_FAILURES - 1),
          lte(webhookEndpoints.failingSince, cutoff),
        ),
      )
      .returning();
    if (!disabled) return undefined;
    await audit(tx, {
      companyId: disabled.companyId,
      userId: null,
      action: 'webhook.disabled',
      target: `webhook:${disabled.id}`,
      detail: {
        url: disabled.url,
        consecutiveFailures: disabled.consecutiveFailures,
        failingSince: disabled.failingSince?.toISOString() ?? null,
      },
    });
    return disabled;
  });

// An endpoint the platform turned off: its admins hear of it by email (and Settings › Webhooks shows
// it off, and why).
export const noticeDisabled = async (
  deps: Pick<Deps, 'db' | 'mailer'>,
  endpoint: EndpointRow,
  log: FastifyBaseLogger,
) => {
  const since = endpoint.failingSince?.toISOString() ?? '—';
  await mailCompanyAdmins(
    deps,
    endpoint.companyId,
    {
      subject: 'Webhook desactivado / Webhook turned off / Webhook desativado',
      es:
        `El endpoint de webhooks ${endpoint.url} de {company} falló en todos los intentos desde ` +
        `${since} y fue desactivado. Revise el registro de entregas en Configuración › Webhooks, ` +
        `corrija el receptor y vuelva a activarlo; las entregas fallidas pueden reenviarse desde allí.`,
      en:
        `The webhook endpoint ${endpoint.url} failed every attempt since ${since} and was turned ` +
        `off. Check its delivery log in Settings › Webhooks, fix the receiver and turn it on again; ` +
        `failed deliveries can be sent again from there.`,
      pt:
        `O endpoint de webhooks ${endpoint.url} falhou em todas as tentativas desde ${since} e foi ` +
        `desativado. Verifique o registro de entregas em Configurações › Webhooks, corrija o receptor ` +
        `e ative-o novamente; as entregas com falha podem ser reenviadas de lá.`,
    },
    (err) => log.warn({ err, endpointId: endpoint.id }, 'webhook disabled notice not sent'),
  );
};

const loadDelivery = async (db: Db, id: number) =>
  (
    await db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, id))
  )[0];

const TURNED_OFF = 'The endpoint is turned off';

export const webhookDeliveryWorker = (
  deps: Deps,
  log: FastifyBaseLogger,
): Omit<QueueOptions<{ deliveryId: number }>, 'handle'> & {
  handle: (job: Job<{ deliveryId: number }>) => Promise<void>;
} => {
  const handle = async (job: Job<{ deliveryId: number }>) => {
    const found = await loadDelivery(deps.db, job.payload.deliveryId);
    // Gone with its endpoint, or done by an earlier run.
    if (!found || found.delivery.status === 'delivered') return;
    const { delivery, endpoint } = found;
    if (!endpoint.enabled) {
      await deps.db
        .update(webhookDeliveries)
        .set({ status: 'failed', error: TURNED_OFF })
        .where(eq(webhookDeliveries.id, delivery.id));
      return;
    }
    const result = await attemptDelivery(deps, endpoint, delivery);
    const final = result.refused || job.attempts >= WEBHOOK_MAX_ATTEMPTS;
    const outcome = result.error === null ? 'delivered' : final ? 'failed' : 'pending';
    const disabled = await recordAttempt(deps, delivery, result, outcome);
    if (disabled) {
      // This attempt turned the endpoint off: the delivery is not tried again (a replay can, once
      // the endpoint is on again).
      await deps.db
        .update(webhookDeliveries)
        .set({ status: 'failed' })
        .where(eq(webhookDeliveries.id, delivery.id));
      await noticeDisabled(deps, disabled, log);
      return;
    }
    // Tried again later (the job's retry, with the queue's backoff).
    if (outcome === 'pending') throw new Error(result.error ?? 'not delivered');
  };
  return {
    handle,
    // A batch's deliveries go out side by side: a slow receiver holds up only its own.
    handleBatch: (jobs) => Promise.allSettled(jobs.map(handle)),
    batchSize: 20,
    batchesAtOnce: 4,
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
    retryDelayMs: (attempts) => webhookRetryDelay(attempts, deps.config.webhooks.retryBaseMs),
    // Failed for a reason of our own (the database): the log says so.
    onFailed: async (job, error) => {
      await deps.db
        .update(webhookDeliveries)
        .set({ status: 'failed', error: error instanceof Error ? error.message : String(error) })
        .where(
          and(
            eq(webhookDeliveries.id, job.payload.deliveryId),
            eq(webhookDeliveries.status, 'pending'),
          ),
        );
    },
    keepDoneMs: 24 * 3600_000,
    keepFailedMs: 7 * 24 * 3600_000,
  };
};

// Deliveries older than WEBHOOK_LOG_DAYS go (daily).
export const WEBHOOK_LOG_PRUNE_JOB = 'webhook-log-prune';
export const pruneWebhookLog = async (deps: Pick<Deps, 'db' | 'config'>, now: Date) => {
  const cutoff = new Date(now.getTime() - deps.config.webhooks.logDays * 24 * 3600_000);
  await deps.db
    .delete(webhookDeliveries)
    .where(
      and(lte(webhookDeliveries.createdAt, cutoff), sql`${webhookDeliveries.status} <> 'pending'`),
    );
};
