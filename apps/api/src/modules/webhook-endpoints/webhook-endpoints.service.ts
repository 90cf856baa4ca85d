import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, count, desc, eq } from 'drizzle-orm';
import {
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryStatus,
  type WebhookEndpointCreateInput,
  type WebhookEndpointUpdateInput,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { enqueueJobs } from '../../jobs/queue';
import { auditAs } from '../../platform/audit';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { attemptDelivery, noticeDisabled, recordAttempt } from './webhook-delivery';
import { webhookDeliveryQueue } from './webhook-queue';

// Issue 38: a company's outbound webhook endpoints and their delivery log, for its admins. URLs go
// through the outbound guard when saved (and again at every call: webhook-delivery.ts); the signing
// secret is sealed and answered only to an admin who asks for it.

type Deps = Pick<AppDeps, 'db' | 'outbound' | 'secrets' | 'config' | 'jobs' | 'mailer'>;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const PAGE_SIZE = 20;

const view = (row: EndpointRow) => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabledReason: row.disabledReason ?? null,
  disabledAt: row.disabledAt,
  consecutiveFailures: row.consecutiveFailures,
  failingSince: row.failingSince,
  lastDeliveryAt: row.lastDeliveryAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const deliveryView = (row: DeliveryRow) => ({
  id: row.id,
  messageId: row.messageId,
  type: row.eventType,
  status: row.status,
  attempts: row.attempts,
  responseStatus: row.responseStatus,
  durationMs: row.durationMs,
  error: row.error,
  createdAt: row.createdAt,
  lastAttemptAt: row.lastAttemptAt,
  deliveredAt: row.deliveredAt,
});

const deliveryDetail = (row: DeliveryRow) => ({
  ...deliveryView(row),
  payload: row.payload as {
    type: string;
    timestamp: string;
    companyId: number;
    data: Record<string, unknown>;
  },
  log: row.log,
});

// Standard Webhooks' secret form: `whsec_` and the base64 of 32 random bytes.
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const ownEndpoint = async (db: Db, ctx: AuthContext, id: number, lock = false) => {
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.companyId, ctx.companyId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('ERR_NOT_FOUND', 'No such webhook endpoint');
  return row;
};

export const listWebhookEndpoints = async (deps: Deps, ctx: AuthContext) => {
  const rows = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.companyId, ctx.companyId))
    .orderBy(desc(webhookEndpoints.id));
  return { endpoints: rows.map(view) };
};

export const createWebhookEndpoint = async (
  deps: Deps,
  ctx: AuthContext,
  input: WebhookEndpointCreateInput,
) => {
  await deps.outbound.check(input.url, 'url');
  const secret = newSecret();
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        companyId: ctx.companyId,
        url: input.url,
        description: input.description ?? '',
        events: [...input.events],
        enabled: input.enabled ?? true,
        secretSealed: deps.secrets.seal(secret),
      })
      .returning();
    await auditAs(tx, ctx, {
      action: 'webhook.created',
      target: `webhook:${created.id}`,
      detail: { url: created.url, events: created.events, enabled: created.enabled },
    });
    return created;
  });
  return { ...view(row), secret };
};

export const updateWebhookEndpoint = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: WebhookEndpointUpdateInput,
) => {
  if (input.url !== undefined) await deps.outbound.check(input.url, 'url');
  return deps.db.transaction(async (tx) => {
    const before = await ownEndpoint(tx, ctx, id, true);
    const turnedOn = input.enabled === true && !before.enabled;
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.events !== undefined ? { events: [...input.events] } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        // Off or on again by a person: the platform's reason and the failure count start afresh.
        ...(input.enabled !== undefined && input.enabled !== before.enabled
          ? { disabledAt: input.enabled ? null : new Date(), disabledReason: null }
          : {}),
        ...(turnedOn ? { consecutiveFailures: 0, failingSince: null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    const changed = Object.fromEntries(
      (['url', 'description', 'events', 'enabled'] as const)
        .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(row[key]))
        .map((key) => [key, { from: before[key], to: row[key] }]),
    );
    if (Object.keys(changed).length)
      await auditAs(tx, ctx, {
        action: 'webhook.updated',
        target: `webhook:${id}`,
        detail: changed,
      });
    return view(row);
  });
};

// The endpoint and its log go; its deliveries not yet made are dropped (their jobs find no row).
export const deleteWebhookEndpoint = async (deps: Deps, ctx: AuthContext, id: number) => {
  await deps.db.transaction(async (tx) => {
    const row = await ownEndpoint(tx, ctx, id, true);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    await auditAs(tx, ctx, {
      action: 'webhook.deleted',
      target: `webhook:${id}`,
      detail: { url: row.url },
    });
  });
};

export const getWebhookEndpointSecret = async (deps: Deps, ctx: AuthContext, id: number) => {
  const row = await ownEndpoint(deps.db, ctx, id);
  await auditAs(deps.db, ctx, {
    action: 'webhook.secret_viewed',
    target: `webhook:${id}`,
    detail: { url: row.url },
  });
  return { secret: deps.secrets.open(row.secretSealed) };
};

// A webhook.test event sent now, whatever the endpoint hears (also when it is off), logged like any
// other delivery; its outcome is answered. It counts towards the endpoint's health like the others.
export const testWebhookEndpoint = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  log: FastifyBaseLogger,
) => {
  const endpoint = await ownEndpoint(deps.db, ctx, id);
  const [delivery] = await deps.db
    .insert(webhookDeliveries)
    .values({
      companyId: ctx.companyId,
      endpointId: id,
      messageId: `msg_${randomUUID().replaceAll('-', '')}`,
      eventType: WEBHOOK_TEST_EVENT,
      orderKey: 'test',
      payload: {
        type: WEBHOOK_TEST_EVENT,
        timestamp: new Date().toISOString(),
        companyId: ctx.companyId,
        data: { endpointId: id, message: 'Atendi test event' },
      },
    })
    .returning();
  const result = await attemptDelivery(deps, endpoint, delivery);
  const disabled = await recordAttempt(
    deps,
    delivery,
    result,
    result.error === null ? 'delivered' : 'failed',
  );
  if (disabled) await noticeDisabled(deps, disabled, log);
  return getWebhookDelivery(deps, ctx, id, delivery.id);
};

export const listWebhookDeliveries = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  query: { status?: WebhookDeliveryStatus; pageNumber: number },
) => {
  await ownEndpoint(deps.db, ctx, id);
  const where = and(
    eq(webhookDeliveries.endpointId, id),
    query.status ? eq(webhookDeliveries.status, query.status) : undefined,
  );
  const [rows, [{ total }]] = [
    await deps.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.id))
      .limit(PAGE_SIZE)
      .offset((query.pageNumber - 1) * PAGE_SIZE),
    await deps.db.select({ total: count() }).from(webhookDeliveries).where(where),
  ];
  return {
    deliveries: rows.map(deliveryView),
    count: total,
    hasMore: query.pageNumber * PAGE_SIZE < total,
  };
};

const ownDelivery = async (db: Db, ctx: AuthContext, endpointId: number, deliveryId: number) => {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.companyId, ctx.companyId),
      ),
    );
  if (!row) throw new AppError('ERR_NOT_FOUND', 'No such delivery');
  return row;
};

export const getWebhookDelivery = async (
  deps: Deps,
  ctx: AuthContext,
  endpointId: number,
  deliveryId: number,
) => deliveryDetail(await ownDelivery(deps.db, ctx, endpointId, deliveryId));

// The delivery again: the same body and webhook-id, signed anew, queued behind the endpoint's other
// deliveries of the same ticket. One already waiting to be sent is left as it is; an endpoint that is
// off refuses (turn it on first).
export const replayWebhookDelivery = async (
  deps: Deps,
  ctx: AuthContext,
  endpointId: number,
  deliveryId: number,
) => {
  const endpoint = await ownEndpoint(deps.db, ctx, endpointId);
  if (!endpoint.enabled)
    throw new AppError('ERR_WEBHOOK_DISABLED', 'Turn the endpoint on before sending again');
  await deps.db.transaction(async (tx) => {
    const row = await ownDelivery(tx, ctx, endpointId, deliveryId);
    await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', deliveredAt: null })
      .where(eq(webhookDeliveries.id, row.id));
    await enqueueJobs(
      tx,
      webhookDeliveryQueue,
      [
        {
          payload: { deliveryId: row.id },
          key: `${row.endpointId}:${row.orderKey}`,
          ref: `webhook-delivery:${row.id}`,
          companyId: row.companyId,
        },
      ],
      { skipLiveRefs: true },
    );
  });
  deps.jobs.kick(webhookDeliveryQueue.name);
  return getWebhookDelivery(deps, ctx, endpointId, deliveryId);
};
