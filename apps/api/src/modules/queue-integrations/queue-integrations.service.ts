import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, ilike, ne, sql } from 'drizzle-orm';
import {
  INTEGRATION_DELIVERIES_PAGE_SIZE,
  INTEGRATION_OPTIONS_MAX,
  INTEGRATIONS_PAGE_SIZE,
  integrationProblems,
  parseServiceAccount,
  type IntegrationEvent,
  type IntegrationDeliveriesPage,
  type IntegrationInput,
  type IntegrationOption,
  type IntegrationUpdateInput,
  type IntegrationView,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { integrationDeliveries, messages, queueIntegrations } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { containsPattern } from '../../platform/like';
import { openOrNull, type SecretBox } from '../../platform/secrets';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import { updateReturning } from '../../platform/update';

// SPEC §7 Integrations: the company's chatbot flows (Typebot, n8n, webhooks, Dialogflow). The
// Dialogflow key and the signing secret of posted events are sealed at rest; the key never leaves.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'secrets' | 'outbound'>;
type IntegrationRow = typeof queueIntegrations.$inferSelect;

// Values stored before keys were sealed (plain JSON) still open.
export const openSealed = (secrets: SecretBox, value: string | null) =>
  value && !value.startsWith('v1.') ? value : (openOrNull(secrets, value) ?? '');

const postsEvents = (type: IntegrationRow['type']) => type === 'n8n' || type === 'webhook';

const serializeIntegration = (row: IntegrationRow, secrets: SecretBox): IntegrationView => {
  const serviceAccount = row.jsonContent
    ? parseServiceAccount(openSealed(secrets, row.jsonContent))
    : null;
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    projectName: row.projectName,
    jsonContent: '',
    hasJsonContent: Boolean(row.jsonContent),
    clientEmail: serviceAccount?.client_email ?? null,
    language: row.language,
    urlN8N: row.urlN8N,
    typebotSlug: row.typebotSlug,
    typebotExpires: row.typebotExpires,
    typebotDelayMessage: row.typebotDelayMessage,
    typebotKeywordFinish: row.typebotKeywordFinish,
    typebotKeywordRestart: row.typebotKeywordRestart,
    typebotUnknownMessage: row.typebotUnknownMessage,
    typebotRestartMessage: row.typebotRestartMessage,
    signingSecret: postsEvents(row.type)
      ? openSealed(secrets, row.signingSecretSealed) || null
      : null,
    lastError:
      row.lastErrorAt && row.lastErrorMessage
        ? { message: row.lastErrorMessage, at: row.lastErrorAt.toISOString() }
        : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
};

export const findIntegrationRow = async (db: Db, ctx: Pick<AuthContext, 'companyId'>, id: number) =>
  foundOr404(
    (
      await db
        .select()
        .from(queueIntegrations)
        .where(ownedRow(queueIntegrations, id, ctx))
    )[0],
    'ERR_NO_INTEGRATION_FOUND',
  );

// No secret travels on a socket: the signing secret is read over HTTP.
const emitIntegration = (deps: Deps, companyId: number, event: IntegrationEvent) =>
  deps.realtime
    .toCompany(companyId)
    .emit(
      'queueIntegration',
      event.action === 'delete'
        ? event
        : { ...event, queueIntegration: { ...event.queueIntegration, signingSecret: null } },
    );

export const listIntegrations = async (
  deps: Deps,
  ctx: AuthContext,
  query: { searchParam: string; pageNumber: number },
) => {
  const term = query.searchParam.trim();
  const rows = await deps.db
    .select()
    .from(queueIntegrations)
    .where(
      ofCompany(
        queueIntegrations,
        ctx,
        term ? ilike(queueIntegrations.name, containsPattern(term)) : undefined,
      ),
    )
    .orderBy(asc(queueIntegrations.name), asc(queueIntegrations.id))
    .limit(INTEGRATIONS_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * INTEGRATIONS_PAGE_SIZE);
  return {
    queueIntegrations: rows
      .slice(0, INTEGRATIONS_PAGE_SIZE)
      .map((row) => serializeIntegration(row, deps.secrets)),
    hasMore: rows.length > INTEGRATIONS_PAGE_SIZE,
  };
};

// Every integration of the company by name (pickers of queues and connections).
export const integrationOptions = (deps: Deps, ctx: AuthContext): Promise<IntegrationOption[]> =>
  deps.db
    .select({
      id: queueIntegrations.id,
      name: queueIntegrations.name,
      type: queueIntegrations.type,
    })
    .from(queueIntegrations)
    .where(ofCompany(queueIntegrations, ctx))
    .orderBy(asc(queueIntegrations.name), asc(queueIntegrations.id))
    .limit(INTEGRATION_OPTIONS_MAX);

// The longest text of a delivery's messages the list shows.
const DELIVERY_TEXT_MAX = 500;

// The integration's exchanges with its flow, newest first (another company's integration: 404).
export const listDeliveries = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  query: { pageNumber: number; failed: boolean },
): Promise<IntegrationDeliveriesPage> => {
  await findIntegrationRow(deps.db, ctx, id);
  const rows = await deps.db
    .select({
      delivery: integrationDeliveries,
      // The contact's message the exchange was about (cut: a page holds many).
      received: {
        id: messages.id,
        body: sql<string>`left(${messages.body}, ${DELIVERY_TEXT_MAX})`,
        mediaType: messages.mediaType,
      },
    })
    .from(integrationDeliveries)
    .leftJoin(
      messages,
      and(
        eq(messages.id, integrationDeliveries.messageId),
        eq(messages.companyId, integrationDeliveries.companyId),
      ),
    )
    .where(
      and(
        eq(integrationDeliveries.integrationId, id),
        query.failed ? eq(integrationDeliveries.ok, false) : undefined,
      ),
    )
    .orderBy(desc(integrationDeliveries.createdAt), desc(integrationDeliveries.id))
    .limit(INTEGRATION_DELIVERIES_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * INTEGRATION_DELIVERIES_PAGE_SIZE);
  return {
    deliveries: rows.slice(0, INTEGRATION_DELIVERIES_PAGE_SIZE).map(({ delivery, received }) => ({
      id: delivery.id,
      ticketId: delivery.ticketId,
      messageId: delivery.messageId,
      event: delivery.event,
      attempt: delivery.attempt,
      status: delivery.status,
      ok: delivery.ok,
      durationMs: delivery.durationMs,
      error: delivery.error,
      received: received?.id ? { body: received.body, mediaType: received.mediaType } : null,
      sent: (delivery.replies ?? []).map((text) => text.slice(0, DELIVERY_TEXT_MAX)),
      createdAt: delivery.createdAt.toISOString(),
    })),
    hasMore: rows.length > INTEGRATION_DELIVERIES_PAGE_SIZE,
  };
};

export const getIntegration = async (deps: Deps, ctx: AuthContext, id: number) =>
  serializeIntegration(await findIntegrationRow(deps.db, ctx, id), deps.secrets);

// SPEC §5: the name is the company's once, and each type has the fields it needs.
const assertValid = async (
  db: Db,
  ctx: AuthContext,
  values: Pick<
    IntegrationInput,
    'name' | 'type' | 'urlN8N' | 'typebotSlug' | 'projectName' | 'language'
  > & { jsonContent?: string; hasJsonContent: boolean },
  exceptId?: number,
) => {
  const fields = integrationProblems(values);
  if (Object.keys(fields).length)
    throw new AppError('ERR_VALIDATION', 'Some fields this type needs are missing or wrong', {
      fields,
    });
  const [taken] = await db
    .select({ id: queueIntegrations.id })
    .from(queueIntegrations)
    .where(
      ofCompany(
        queueIntegrations,
        ctx,
        eq(queueIntegrations.name, values.name),
        exceptId ? ne(queueIntegrations.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken)
    throw new AppError('ERR_INTEGRATION_NAME_EXISTS', 'Another integration has this name', {
      fields: { name: ['ERR_INTEGRATION_NAME_EXISTS'] },
    });
};

// The address a flow is called at may not lead to the server's own networks (platform/outbound.ts).
const assertReachable = async (deps: Deps, url: string | undefined) => {
  if (url) await deps.outbound.check(url, 'urlN8N');
};

export const createIntegration = async (deps: Deps, ctx: AuthContext, input: IntegrationInput) => {
  await assertValid(deps.db, ctx, { ...input, hasJsonContent: false });
  if (input.type !== 'dialogflow') await assertReachable(deps, input.urlN8N);
  const [row] = await deps.db
    .insert(queueIntegrations)
    .values({
      ...input,
      companyId: ctx.companyId,
      jsonContent: input.jsonContent ? deps.secrets.seal(input.jsonContent) : '',
      signingSecretSealed: deps.secrets.seal(`whsec_${randomBytes(24).toString('base64url')}`),
    })
    .returning();
  const view = serializeIntegration(row, deps.secrets);
  emitIntegration(deps, ctx.companyId, { action: 'create', queueIntegration: view });
  return view;
};

export const updateIntegration = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: IntegrationUpdateInput,
) => {
  await assertReachable(deps, input.urlN8N);
  const row = await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(queueIntegrations)
      .where(ownedRow(queueIntegrations, id, ctx))
      .for('update');
    if (!current) throw new AppError('ERR_NO_INTEGRATION_FOUND');
    // An empty key keeps the stored one (the API never hands it back to be sent again).
    const { jsonContent, ...rest } = input;
    const next = { ...current, ...rest };
    await assertValid(
      tx,
      ctx,
      {
        ...next,
        jsonContent: jsonContent || undefined,
        hasJsonContent: Boolean(current.jsonContent),
      },
      id,
    );
    const [updated] = await updateReturning(
      tx,
      queueIntegrations,
      {
        ...rest,
        ...(jsonContent ? { jsonContent: deps.secrets.seal(jsonContent) } : {}),
        // Only Dialogflow keeps a key: another type drops it.
        ...(next.type !== 'dialogflow' && current.jsonContent ? { jsonContent: '' } : {}),
      },
      ownedRow(queueIntegrations, id, ctx),
    );
    return updated;
  });
  const view = serializeIntegration(row, deps.secrets);
  emitIntegration(deps, ctx.companyId, { action: 'update', queueIntegration: view });
  return view;
};

// Queues, connections and conversations that used it go on without it (foreign keys set null).
export const deleteIntegration = async (deps: Deps, ctx: AuthContext, id: number) => {
  await findIntegrationRow(deps.db, ctx, id);
  await deps.db.delete(queueIntegrations).where(ownedRow(queueIntegrations, id, ctx));
  emitIntegration(deps, ctx.companyId, { action: 'delete', integrationId: id });
  return { message: 'Integration deleted' };
};
