import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema, okResponse } from '@atendi/shared';
import { whatsapps } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { createWebhookInbox } from './inbox';
import { mapWebhook, phoneNumberIdsOf, WebhookPayloadError } from './payloads';
import { verifySignature } from './signature';

// Meta's webhook for every Cloud API connection of the platform (one callback URL per Meta app).
// A POST is stored first and answered 200 only once stored; processing happens afterwards (inbox.ts),
// so a slow database of tickets never makes Meta time out and redeliver.

const verifyQuery = z.object({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
});

const rawBodies = new WeakMap<FastifyRequest, Buffer>();

// A payload that is not a Cloud API webhook is bad input (400), not a server error.
const validated = <T>(read: () => T): T => {
  try {
    return read();
  } catch (error) {
    if (error instanceof WebhookPayloadError) throw new AppError('ERR_VALIDATION', error.message);
    throw error;
  }
};

// Registers the routes and the inbox's queue, which runs with the app's jobs: pending webhooks (also
// those a crashed process left behind) are processed once the app is ready and then periodically.
export const cloudWebhookRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  const inbox = createWebhookInbox({ db, jobs: app.deps.jobs, channels: app.deps.channels });

  const tags = ['webhooks'];
  const config = { access: { public: true } };

  // The signature covers the exact bytes Meta sent, so this plugin (and only it) keeps them.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    rawBodies.set(request, raw);
    parseJson(request, raw.toString('utf8'), done);
  });

  app.get(
    '/webhooks/whatsapp',
    {
      schema: {
        tags,
        security: [],
        querystring: verifyQuery,
        // Meta's verification: hub.challenge echoed back as plain text.
        response: {
          200: {
            description: 'The hub.challenge sent',
            content: { 'text/plain': { schema: z.string() } },
          },
          '4xx': errorResponseSchema,
        },
      },
      config,
    },
    async (request, reply) => {
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
    },
  );

  const postSchema = {
    tags,
    security: [],
    response: okResponse(z.object({ received: z.boolean() })),
  };
  app.post('/webhooks/whatsapp', { schema: postSchema, config }, async (request) => {
    const raw = rawBodies.get(request);
    if (!raw) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the payload as JSON');
    const phoneIds = validated(() => phoneNumberIdsOf(request.body));
    const connections = phoneIds.length
      ? await db
          .select()
          .from(whatsapps)
          .where(
            and(eq(whatsapps.provider, 'cloud'), inArray(whatsapps.cloudPhoneNumberId, phoneIds)),
          )
      : [];
    const known = new Set(connections.map((c) => c.cloudPhoneNumberId));
    const unknown = phoneIds.filter((id) => !known.has(id));
    if (unknown.length)
      request.log.warn({ phoneNumberIds: unknown }, 'webhook for unknown phone number ids ignored');
    if (!connections.length) return { received: true };

    // Every connection the payload touches must vouch for it, or one tenant's app could post
    // messages into another's.
    const signature = request.headers['x-hub-signature-256'];
    const header = Array.isArray(signature) ? signature[0] : signature;
    if (
      !connections.every((c) => c.cloudAppSecret && verifySignature(raw, header, c.cloudAppSecret))
    )
      throw new AppError('ERR_INVALID_SIGNATURE', 'The webhook signature is missing or invalid');

    // Rejected now rather than stored and failed later: a payload that does not map never will.
    validated(() => mapWebhook(request.body));

    await inbox.store(connections, request.body);
    return { received: true };
  });
};
