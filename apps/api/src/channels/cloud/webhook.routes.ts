import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { webhooksContract as webhooks } from '@atendi/shared';
import { preparedPer } from '../../db/prepared';
import { whatsapps } from '../../db/schema';
import { contractRoutes } from '../../platform/contract-routes';
import { AppError } from '../../platform/errors';
import { openOrNull, type SecretBox } from '../../platform/secrets';
import { useDepthCheckedJson } from '../../platform/json-body';
import { createWebhookInbox, type WebhookConnection } from './inbox';
import { mapWebhook, phoneNumberIdsOf, WebhookPayloadError } from './payloads';
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
// into another's.
const vouchedBy = (
  secrets: Pick<SecretBox, 'open'>,
  connections: WebhookConnection[],
  raw: Buffer,
  header: string | undefined,
) =>
  connections.every((c) => {
    const appSecret = openOrNull(secrets, c.cloudAppSecret);
    return appSecret && verifySignature(raw, header, appSecret);
  });

// Whether the payload maps to events; the route answers 400 for one that does not (validated).
const maps = (body: unknown) => {
  try {
    mapWebhook(body);
    return true;
  } catch (error) {
    if (error instanceof WebhookPayloadError) return false;
    throw error;
  }
};

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
  const readConnections = async (phoneIds: string[]) => {
    const connections = await connectionsQuery(db).execute({ phoneIds });
    for (const id of phoneIds) remembered.delete(id);
    for (const c of connections) if (c.cloudPhoneNumberId) remembered.set(c.cloudPhoneNumberId, c);
    return connections;
  };

  route(webhooks.receiveCloudWebhook, async (request) => {
    const raw = rawBodies.get(request);
    if (!raw) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the payload as JSON');
    const phoneIds = validated(() => phoneNumberIdsOf(request.body));
    const signature = request.headers['x-hub-signature-256'];
    const header = Array.isArray(signature) ? signature[0] : signature;

    // Meta's usual payload: one number, whose connection is remembered, vouches for it and maps.
    const known = phoneIds.length === 1 ? remembered.get(phoneIds[0]) : undefined;
    if (
      known &&
      vouchedBy(app.deps.secrets, [known], raw, header) &&
      maps(request.body) &&
      (await inbox.storeIfCurrent(known, request.body))
    )
      return { received: true };

    const connections = phoneIds.length ? await readConnections(phoneIds) : [];
    const found = new Set(connections.map((c) => c.cloudPhoneNumberId));
    const unknown = phoneIds.filter((id) => !found.has(id));
    if (unknown.length)
      request.log.warn({ phoneNumberIds: unknown }, 'webhook for unknown phone number ids ignored');
    if (!connections.length) return { received: true };

    if (!vouchedBy(app.deps.secrets, connections, raw, header))
      throw new AppError('ERR_INVALID_SIGNATURE', 'The webhook signature is missing or invalid');

    // Rejected now rather than stored and failed later: a payload that does not map never will.
    validated(() => mapWebhook(request.body));

    await inbox.store(connections, request.body);
    return { received: true };
  });
};
