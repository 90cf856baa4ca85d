import { auditAs } from '../../platform/audit';
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray, ne, or, sql, type AnyColumn } from 'drizzle-orm';
import {
  can,
  defaultSchedules,
  type WhatsappInput,
  type WhatsappUpdateInput,
  type WhatsappView,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { preparedPer } from '../../db/prepared';
import { groupCommit } from '../../platform/group-commit';
import {
  prompts,
  queueIntegrations,
  queues,
  tickets,
  whatsappQueues,
  whatsapps,
} from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { isSealed, SEALED_PATTERN, type SecretBox } from '../../platform/secrets';
import { withOpenCloudSecrets } from '../../channels/cloud/credentials';
import { foreignReferences, foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import { assertPlanLimit } from '../plans';

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'channels' | 'secrets' | 'outbound' | 'events'>;
type Row = typeof whatsapps.$inferSelect;
type QueueRef = { id: number; name: string; color: string };

// The external-API bearer token: random, never empty, unique across the platform.
const newConnectionToken = () => randomBytes(24).toString('base64url');

const serializeWhatsapp = (
  row: Row,
  queueList: QueueRef[],
  viewer: Pick<AuthContext, 'profile' | 'isSuper'>,
): WhatsappView => {
  // The external-API token and Meta's verify token are secrets of those who edit connections.
  const editor = can(viewer, 'connections-page:editOrDeleteConnection');
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    isDefault: row.isDefault,
    qrcode: row.qrcode,
    pairingCode: row.pairingCode,
    retries: row.retries,
    number: row.number,
    provider: row.provider,
    greetingMessage: row.greetingMessage,
    complationMessage: row.complationMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    ratingMessage: row.ratingMessage,
    token: editor ? row.token : null,
    promptId: row.promptId,
    integrationId: row.integrationId,
    transferQueueId: row.transferQueueId,
    timeToTransfer: row.timeToTransfer,
    expiresTicket: row.expiresTicket,
    expiresInactiveMessage: row.expiresInactiveMessage,
    timeUseBotQueues: row.timeUseBotQueues,
    maxUseBotQueues: row.maxUseBotQueues,
    schedules: row.schedules,
    queues: queueList,
    queueIds: queueList.map((q) => q.id),
    cloudPhoneNumberId: row.cloudPhoneNumberId,
    cloudVerifyToken: editor ? row.cloudVerifyToken : null,
    cloudApiBaseUrl: row.cloudApiBaseUrl,
    cloudBusinessAccountId: row.cloudBusinessAccountId,
    hasCloudAccessToken: Boolean(row.cloudAccessToken),
    hasCloudAppSecret: Boolean(row.cloudAppSecret),
    cloudQualityRating: row.cloudQualityRating,
    cloudMessagingLimit: row.cloudMessagingLimit,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
};

const queuesOf = async (db: Db, ids: number[]) => {
  const byConnection = new Map<number, QueueRef[]>(ids.map((id) => [id, []]));
  if (!ids.length) return byConnection;
  const rows = await db
    .select({
      whatsappId: whatsappQueues.whatsappId,
      id: queues.id,
      name: queues.name,
      color: queues.color,
      orderQueue: queues.orderQueue,
    })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(inArray(whatsappQueues.whatsappId, ids))
    .orderBy(asc(queues.orderQueue), asc(queues.name));
  for (const { whatsappId, id, name, color } of rows)
    byConnection.get(whatsappId)?.push({ id, name, color });
  return byConnection;
};

const views = async (db: Db, ctx: AuthContext, rows: Row[]) => {
  const queueMap = await queuesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => serializeWhatsapp(row, queueMap.get(row.id) ?? [], ctx));
};

export const listWhatsapps = async (db: Db, ctx: AuthContext) =>
  views(
    db,
    ctx,
    await db.select().from(whatsapps).where(ofCompany(whatsapps, ctx)).orderBy(asc(whatsapps.name)),
  );

const findWhatsapp = async (db: Db, ctx: Pick<AuthContext, 'companyId'>, id: number) =>
  foundOr404(
    (
      await db
        .select()
        .from(whatsapps)
        .where(ownedRow(whatsapps, id, ctx))
    )[0],
    'ERR_NO_WAPP_FOUND',
  );

// The provider of the caller's company's connection (else 404), for the simulator's phone, whose
// every call asks it: prepared, and the calls that arrive together read in one statement.
const providersQuery = preparedPer((db) =>
  db
    .select({ n: sql<number>`x.n`, provider: whatsapps.provider })
    .from(
      sql`unnest(${sql.placeholder('ids')}::integer[], ${sql.placeholder('companyIds')}::integer[])
            with ordinality as x(id, company_id, n)`,
    )
    .innerJoin(
      whatsapps,
      and(eq(whatsapps.id, sql`x.id`), eq(whatsapps.companyId, sql`x.company_id`)),
    )
    .prepare('whatsapp_providers'),
);
const providersOf = new WeakMap<
  Db,
  (item: { id: number; companyId: number }) => Promise<string | undefined>
>();
export const providerOf = async (db: Db, ctx: Pick<AuthContext, 'companyId'>, id: number) => {
  let read = providersOf.get(db);
  if (!read) {
    read = groupCommit(async (items: { id: number; companyId: number }[]) => {
      const rows = await providersQuery(db).execute({
        ids: items.map((item) => item.id),
        companyIds: items.map((item) => item.companyId),
      });
      const byPosition = new Map(rows.map((row) => [Number(row.n), row.provider]));
      return items.map((_, i) => byPosition.get(i + 1));
    });
    providersOf.set(db, read);
  }
  return foundOr404(await read({ id, companyId: ctx.companyId }), 'ERR_NO_WAPP_FOUND');
};

export const getWhatsapp = async (db: Db, ctx: AuthContext, id: number) =>
  (await views(db, ctx, [await findWhatsapp(db, ctx, id)]))[0];

// The company's default connection (used when a ticket or message names none).
export const getDefaultWhatsapp = async (db: Db, companyId: number) =>
  foundOr404(
    (
      await db
        .select()
        .from(whatsapps)
        .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)))
    )[0],
    'ERR_NO_DEF_WAPP_FOUND',
  );

// Every id a connection points at must be the company's own; a foreign id is refused like a typo.
const assertReferences = async (
  db: Db,
  ctx: AuthContext,
  input: Pick<WhatsappUpdateInput, 'queueIds' | 'transferQueueId' | 'promptId' | 'integrationId'>,
) => {
  const fields: Record<string, string[]> = {};
  const queueIds = [
    ...new Set([
      ...(input.queueIds ?? []),
      ...(input.transferQueueId ? [input.transferQueueId] : []),
    ]),
  ];
  if (queueIds.length) {
    const found = await db
      .select({ id: queues.id })
      .from(queues)
      .where(ofCompany(queues, ctx, inArray(queues.id, queueIds)));
    const known = new Set(found.map((q) => q.id));
    if (input.queueIds?.some((id) => !known.has(id))) fields.queueIds = ['ERR_NO_QUEUE_FOUND'];
    if (input.transferQueueId && !known.has(input.transferQueueId))
      fields.transferQueueId = ['ERR_NO_QUEUE_FOUND'];
  }
  Object.assign(
    fields,
    await foreignReferences(db, ctx, {
      promptId: { table: prompts, id: input.promptId },
      integrationId: { table: queueIntegrations, id: input.integrationId },
    }),
  );
  if (Object.keys(fields).length)
    throw new AppError('ERR_VALIDATION', 'Some referenced records do not exist', { fields });
};

// SPEC §8: with more than one queue the connection's greeting lists them, so it cannot be empty.
const assertGreeting = (queueIds: number[], greeting: string) => {
  if (queueIds.length > 1 && !greeting.trim())
    throw new AppError(
      'ERR_WAPP_GREETING_REQUIRED',
      'A greeting is required with more than one queue',
      {
        fields: { greetingMessage: ['ERR_WAPP_GREETING_REQUIRED'] },
      },
    );
};

const assertProvider = (deps: Deps, provider: Row['provider']) => {
  if (!deps.channels.hasDriver(provider))
    throw new AppError(
      'ERR_PROVIDER_UNAVAILABLE',
      `Provider ${provider} is not available on this server`,
      {
        fields: { provider: ['ERR_PROVIDER_UNAVAILABLE'] },
      },
    );
};

const assertCloudCredentials = (values: Partial<Row>) => {
  if (values.provider !== 'cloud') return;
  const missing = (
    ['cloudPhoneNumberId', 'cloudAccessToken', 'cloudAppSecret', 'cloudVerifyToken'] as const
  ).filter((key) => !values[key]);
  if (missing.length)
    throw new AppError(
      'ERR_VALIDATION',
      'The Cloud API needs its phone number id, access token, app secret and verify token',
      {
        fields: Object.fromEntries(missing.map((key) => [key, ['Required']])),
      },
    );
};

const setQueues = async (db: Db, companyId: number, whatsappId: number, queueIds: number[]) => {
  await db.delete(whatsappQueues).where(eq(whatsappQueues.whatsappId, whatsappId));
  if (queueIds.length)
    await db
      .insert(whatsappQueues)
      .values([...new Set(queueIds)].map((queueId) => ({ whatsappId, queueId, companyId })));
};

const emitWhatsapp = (
  deps: Deps,
  companyId: number,
  payload: { action: string } & Record<string, unknown>,
) => deps.realtime.toCompany(companyId).emit('whatsapp', payload);

// Everyone in the company hears the change; secrets never travel on a socket, so the broadcast
// carries the view without the tokens and admins read them through the API.
const broadcast = async (deps: Deps, ctx: AuthContext, id: number, action: 'create' | 'update') => {
  const row = await findWhatsapp(deps.db, ctx, id);
  const [view] = await views(deps.db, { ...ctx, profile: 'user', isSuper: false }, [row]);
  emitWhatsapp(deps, ctx.companyId, { action, whatsapp: view });
};

const rowValues = (deps: Deps, input: WhatsappUpdateInput) => {
  const { queueIds: _ignored, ...rest } = input;
  void _ignored;
  // Write-only secrets, sealed at rest: an empty or absent value keeps the stored one.
  const values: Partial<Row> = { ...rest };
  if (input.cloudAccessToken) values.cloudAccessToken = deps.secrets.seal(input.cloudAccessToken);
  else delete values.cloudAccessToken;
  if (input.cloudAppSecret) values.cloudAppSecret = deps.secrets.seal(input.cloudAppSecret);
  else delete values.cloudAppSecret;
  return values;
};

// Connections saved before their Cloud API credentials were sealed: sealed at start, each row only
// while it still holds the plain value read (nodes starting together seal it once). Only rows with
// a value not shaped like a sealed one are read (none, once every row is sealed).
export const sealCloudSecrets = async (db: Db, secrets: SecretBox) => {
  const plain = (column: AnyColumn) => sql`${column} !~ ${SEALED_PATTERN}`;
  const rows = await db
    .select({
      id: whatsapps.id,
      cloudAccessToken: whatsapps.cloudAccessToken,
      cloudAppSecret: whatsapps.cloudAppSecret,
    })
    .from(whatsapps)
    .where(or(plain(whatsapps.cloudAccessToken), plain(whatsapps.cloudAppSecret)));
  let sealed = 0;
  for (const row of rows) {
    for (const column of ['cloudAccessToken', 'cloudAppSecret'] as const) {
      const plain = row[column];
      if (!plain || isSealed(plain)) continue;
      const done = await db
        .update(whatsapps)
        .set({ [column]: secrets.seal(plain) })
        .where(and(eq(whatsapps.id, row.id), eq(whatsapps[column], plain)))
        .returning({ id: whatsapps.id });
      sealed += done.length;
    }
  }
  return sealed;
};

export const createWhatsapp = async (deps: Deps, ctx: AuthContext, input: WhatsappInput) => {
  assertProvider(deps, input.provider);
  if (input.cloudApiBaseUrl) await deps.outbound.check(input.cloudApiBaseUrl, 'cloudApiBaseUrl');
  await assertReferences(deps.db, ctx, input);
  assertGreeting(input.queueIds, input.greetingMessage);
  const values = rowValues(deps, input);
  assertCloudCredentials(values);
  const id = await deps.events.transaction(deps.db, async (tx, raise) => {
    await assertPlanLimit(tx, ctx.companyId, 'connections');
    const [existingDefault] = await tx
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(ofCompany(whatsapps, ctx, eq(whatsapps.isDefault, true)));
    // The first connection is the default; a new default takes the flag from the old one.
    const isDefault = input.isDefault || !existingDefault;
    if (isDefault && existingDefault)
      await tx
        .update(whatsapps)
        .set({ isDefault: false })
        .where(eq(whatsapps.id, existingDefault.id));
    const [row] = await tx
      .insert(whatsapps)
      .values({
        ...values,
        name: input.name,
        companyId: ctx.companyId,
        isDefault,
        token: newConnectionToken(),
        schedules: input.schedules ?? defaultSchedules(),
        status: 'DISCONNECTED',
      })
      .returning();
    await setQueues(tx, ctx.companyId, row.id, input.queueIds);
    // A new connection's first status (before it had none).
    raise({
      type: 'connection.status',
      companyId: ctx.companyId,
      whatsappId: row.id,
      before: null,
      after: row.status,
      cause: null,
      detail: '',
    });
    await auditAs(tx, ctx, {
      action: 'connection.created',
      target: `connection:${row.id}`,
      detail: { name: row.name, provider: row.provider },
    });
    return row.id;
  });
  await broadcast(deps, ctx, id, 'create');
  // A new connection starts pairing at once, as the QR button then has something to show.
  await deps.channels.restart(id).catch(() => undefined);
  return getWhatsapp(deps.db, ctx, id);
};

export const updateWhatsapp = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: WhatsappUpdateInput,
) => {
  const current = await findWhatsapp(deps.db, ctx, id);
  if (input.cloudApiBaseUrl) await deps.outbound.check(input.cloudApiBaseUrl, 'cloudApiBaseUrl');
  if (input.provider && input.provider !== current.provider) assertProvider(deps, input.provider);
  await assertReferences(deps.db, ctx, input);
  const currentQueues = (await queuesOf(deps.db, [id])).get(id)?.map((q) => q.id) ?? [];
  assertGreeting(input.queueIds ?? currentQueues, input.greetingMessage ?? current.greetingMessage);
  if (input.isDefault === false && current.isDefault)
    throw new AppError(
      'ERR_NO_OTHER_WHATSAPP',
      'Choose another connection as the default instead',
      {
        fields: { isDefault: ['ERR_NO_OTHER_WHATSAPP'] },
      },
    );
  const values = rowValues(deps, input);
  assertCloudCredentials({ ...current, ...values });
  await deps.db.transaction(async (tx) => {
    if (input.isDefault && !current.isDefault)
      await tx
        .update(whatsapps)
        .set({ isDefault: false })
        .where(ofCompany(whatsapps, ctx, eq(whatsapps.isDefault, true), ne(whatsapps.id, id)));
    if (Object.keys(values).length)
      await tx
        .update(whatsapps)
        .set({ ...values, updatedAt: new Date() })
        .where(ownedRow(whatsapps, id, ctx));
    if (input.queueIds) await setQueues(tx, ctx.companyId, id, input.queueIds);
    // The fields changed, never their values (some are credentials).
    const fields = Object.keys(input).filter(
      (key) => (input as Record<string, unknown>)[key] !== undefined,
    );
    if (fields.length)
      await auditAs(tx, ctx, {
        action: 'connection.updated',
        target: `connection:${id}`,
        detail: { fields },
      });
  });
  if (input.isDefault && !current.isDefault) {
    // The old default changed too: its row must show the flag gone.
    const others = await deps.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(ofCompany(whatsapps, ctx, ne(whatsapps.id, id)));
    for (const other of others) await broadcast(deps, ctx, other.id, 'update');
  }
  await broadcast(deps, ctx, id, 'update');
  // New credentials or a new provider only take effect in a new session.
  const stored = withOpenCloudSecrets(deps.secrets, current);
  const sessionChanged =
    (input.provider && input.provider !== current.provider) ||
    (current.provider === 'cloud' &&
      (['cloudPhoneNumberId', 'cloudAccessToken', 'cloudApiBaseUrl'] as const).some(
        (key) => key in values && input[key] !== stored[key],
      ));
  if (sessionChanged) {
    if (input.provider && input.provider !== current.provider)
      await deps.channels.disconnect(id).catch(() => undefined);
    await deps.channels.restart(id).catch(() => undefined);
  }
  return getWhatsapp(deps.db, ctx, id);
};

export const regenerateToken = async (deps: Deps, ctx: AuthContext, id: number) => {
  await findWhatsapp(deps.db, ctx, id);
  const token = newConnectionToken();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(whatsapps)
      .set({ token, updatedAt: new Date() })
      .where(ownedRow(whatsapps, id, ctx));
    await auditAs(tx, ctx, { action: 'connection.token_changed', target: `connection:${id}` });
  });
  return { token };
};

export const deleteWhatsapp = async (deps: Deps, ctx: AuthContext, id: number) => {
  const current = await findWhatsapp(deps.db, ctx, id);
  // Conversations keep pointing at the number they happened on; deleting it would orphan them.
  const [{ value: ticketCount }] = await deps.db
    .select({ value: count() })
    .from(tickets)
    .where(eq(tickets.whatsappId, id));
  if (ticketCount > 0)
    throw new AppError(
      'ERR_WAPP_IN_USE',
      `This connection has ${ticketCount} tickets; disconnect it instead`,
    );
  await deps.channels.remove(id).catch(() => undefined);
  const promoted = await deps.db.transaction(async (tx) => {
    await tx.delete(whatsapps).where(ownedRow(whatsapps, id, ctx));
    await auditAs(tx, ctx, {
      action: 'connection.deleted',
      target: `connection:${id}`,
      detail: { name: current.name },
    });
    if (!current.isDefault) return undefined;
    // Someone must stay the default: the oldest remaining connection takes the flag.
    const [next] = await tx
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(ofCompany(whatsapps, ctx))
      .orderBy(asc(whatsapps.id))
      .limit(1);
    if (next) await tx.update(whatsapps).set({ isDefault: true }).where(eq(whatsapps.id, next.id));
    return next?.id;
  });
  emitWhatsapp(deps, ctx.companyId, { action: 'delete', whatsappId: id });
  if (promoted) await broadcast(deps, ctx, promoted, 'update');
};

// --- Session actions (SPEC §7 /whatsappsession) ---

export const sessionAction = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  action: 'restart' | 'newQr' | 'disconnect',
  phoneNumber?: string,
) => {
  const row = await findWhatsapp(deps.db, ctx, id);
  assertProvider(deps, row.provider);
  if (action === 'restart') await deps.channels.restart(id);
  else if (action === 'newQr') await deps.channels.newQr(id, phoneNumber);
  else await deps.channels.disconnect(id);
  return {
    message: {
      restart: 'Starting session.',
      newQr: 'Starting session.',
      disconnect: 'Session disconnected.',
    }[action],
  };
};

export { findWhatsapp };
