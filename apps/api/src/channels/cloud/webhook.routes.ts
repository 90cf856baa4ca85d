import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { webhooksContract as webhooks } from '@atendi/shared';
import { preparedPer } from '../../db/prepared';
import { whatsapps } from '../../db/schema';
import { contractRoutes } from '../../platform/contract-routes';
import { AppError } from '../../platform/errors';
import { openOrNull } from '../../platform/secrets';
import { useDepthCheckedJson } from '../../platform/json-body';
import { createWebhookInbox, type WebhookConnection } from './inbox';
import { accountConnections, applyAccountUpdates } from './account-updates';
import { accountUpdatesOf, mapWebhook, phoneNumberIdsOf, WebhookPayloadError } from './payloads';
import { verifySignature } from './signature';

// Meta's webhook for every Cloud API connection of the platform (one callback URL per Meta app).
// A POST is stored first and answered 200 only once stored; processing happens afterwards (inbox.ts),
// so a slow database of tickets never makes Meta time out and redeliver.

const rawBodies = new WeakMap<FastifyRequest, Buffer>();

// The connections of a payload's phone numbers, when the route does not remember them or they
// changed: only what the route needs, prepared (Meta may post hundreds of webhooks a second).
const connectionsQuery = preparedPer((db) =>
  db
    .select({
      id: whatsapps.id,
      companyId: whatsapps.companyId,
      cloudPhoneNumberId: whatsapps.cloudPhoneNumberId,
      cloudAppSecret: whatsapps.cloudAppSecret,
    })
    .from(whatsapps)
    .where(
      and(
        eq(whatsapps.provider, 'cloud'),
        sql`${whatsapps.cloudPhoneNumberId} = any(${sql.placeholder('phoneIds')}::text[])`,
      ),
    )
    .prepare('cloud_webhook_connections'),
);

// Every connection the payload touches must vouch for it, or one tenant's app could post messages
// into another's. `open` is the app secret of a sealed value (remembered by the route).
const vouchedBy = (
  open: (sealed: string | null) => string | null,
  connections: WebhookConnection[],
  raw: Buffer,
  header: string | undefined,
) =>
  connections.every((c) => {
    const appSecret = open(c.cloudAppSecret);
    return appSecret && verifySignature(raw, header, appSecret);
  });

// The payload's events by phone number id, or null when it does not map (the route answers 400).
const mapped = (body: unknown) => {
  try {
    return eventsByPhone(body);
  } catch (error) {
    if (error instanceof WebhookPayloadError) return null;
    throw error;
  }
};

const eventsByPhone = (body: unknown) =>
  new Map(mapWebhook(body).map((group) => [group.phoneNumberId, group.events]));

// A payload that is not a Cloud API webhook is bad input (400), not a server error.
const validated = <T>(read: () => T): T => {
  try {
    return read();
  } catch (error) {
    if (error instanceof WebhookPayloadError) throw new AppError('ERR_VALIDATION', error.message);
    throw error;
  }
};

// Meta's webhook: verified, stored as jobs of the inbox's queue (background.ts runs it), answered.
export const cloudWebhookRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const { db } = app.deps;
  const inbox = createWebhookInbox({ db, jobs: app.deps.jobs });

  // The signature covers the exact bytes Meta sent, so this plugin (and only it) keeps them.
  useDepthCheckedJson(app, (request, raw) => rawBodies.set(request, raw));

  route(webhooks.verifyCloudWebhook, async (request, reply) => {
    const query = request.query;
    const token = query['hub.verify_token'];
    const matches =
      query['hub.mode'] === 'subscribe' && !!token
        ? await db
            .select({ id: whatsapps.id })
            .from(whatsapps)
            .where(and(eq(whatsapps.provider, 'cloud'), eq(whatsapps.cloudVerifyToken, token)))
            .limit(1)
        : [];
    if (!matches.length)
      throw new AppError('ERR_NO_PERMISSION', 'The verify token does not match any connection');
    return reply.type('text/plain').send(query['hub.challenge'] ?? '');
  });

  // The connection each phone number id had when last read (one per Cloud API number of the
  // platform). Only a shortcut past the lookup: a webhook is stored through it only if the row still
  // says the same when the job is inserted (inbox.storeIfCurrent), otherwise the route reads the
  // database as it would without it. So a changed app secret or phone number id, made on this node
  // or another, holds for the very next webhook, and no answer ever depends on what is remembered.
  const remembered = new Map<string, WebhookConnection>();
  // The app secret of each sealed value seen (a changed secret is a new sealed value), so a webhook
  // does not decrypt it again; bounded by the platform's Cloud API numbers, cleared if it ever grows.
  const opened = new Map<string, string | null>();
  const openSecret = (sealed: string | null) => {
    if (!sealed) return null;
    let secret = opened.get(sealed);
    if (secret === undefined) {
      if (opened.size >= 10_000) opened.clear();
      secret = openOrNull(app.deps.secrets, sealed);
      opened.set(sealed, secret);
    }
    return secret;
  };
  const readConnections = async (phoneIds: string[]) => {
    const connections = await connectionsQuery(db).execute({ phoneIds });
    for (const id of phoneIds) remembered.delete(id);
    for (const c of connections) if (c.cloudPhoneNumberId) remembered.set(c.cloudPhoneNumberId, c);
    return connections;
  };

  route(webhooks.receiveCloudWebhook, async (request) => {
    const raw = rawBodies.get(request);
    if (!raw) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the payload as JSON');
    // Mapped once; a payload whose messages do not map is refused only after its signature is
    // checked (below), so its phone numbers are then read without mapping.
    const byPhone = mapped(request.body);
    const phoneIds = byPhone
      ? [...byPhone.keys()]
      : validated(() => phoneNumberIdsOf(request.body));
    const signature = request.headers['x-hub-signature-256'];
    const header = Array.isArray(signature) ? signature[0] : signature;

    // Account-level notifications (quality and tier, bans, template reviews) come on their own,
    // naming the business account instead of a phone number id: applied here, for the connections
    // whose app secret vouches for them.
    if (!phoneIds.length) {
      const groups = validated(() => accountUpdatesOf(request.body));
      if (!groups.length) return { received: true };
      const connections = await accountConnections(
        db,
        groups.map((group) => group.businessAccountId),
      );
      if (!connections.length) return { received: true };
      const vouching = connections.filter((c) => vouchedBy(openSecret, [c], raw, header));
      if (!vouching.length)
        throw new AppError('ERR_INVALID_SIGNATURE', 'The webhook signature is missing or invalid');
      await applyAccountUpdates(
        { db, deliver: app.deps.channels.deliver, log: request.log },
        vouching,
        groups,
      );
      return { received: true };
    }

    // Meta's usual payload: one number, whose connection is remembered, vouches for it and maps.
    const known = phoneIds.length === 1 ? remembered.get(phoneIds[0]) : undefined;
    if (
      known &&
      byPhone &&
      vouchedBy(openSecret, [known], raw, header) &&
      (await inbox.storeIfCurrent(known, request.body, byPhone.get(phoneIds[0]) ?? []))
    )
      return { received: true };

    const connections = phoneIds.length ? await readConnections(phoneIds) : [];
    const found = new Set(connections.map((c) => c.cloudPhoneNumberId));
    const unknown = phoneIds.filter((id) => !found.has(id));
    if (unknown.length)
      request.log.warn({ phoneNumberIds: unknown }, 'webhook for unknown phone number ids ignored');
    if (!connections.length) return { received: true };

    if (!vouchedBy(openSecret, connections, raw, header))
      throw new AppError('ERR_INVALID_SIGNATURE', 'The webhook signature is missing or invalid');

    // Rejected now rather than stored and failed later: a payload that does not map never will.
    const events = byPhone ?? validated(() => eventsByPhone(request.body));

    await inbox.store(
      connections.map((c) => ({ ...c, events: events.get(c.cloudPhoneNumberId!) ?? [] })),
      request.body,
    );
    return { received: true };
  });
};
