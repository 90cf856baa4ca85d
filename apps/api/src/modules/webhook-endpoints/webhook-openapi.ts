import { z } from 'zod';
import { webhookEnvelopeSchema, webhookEventDataSchemas } from '@atendi/shared';

// The outbound webhooks' payloads in the OpenAPI document (issue 38), from the schemas in shared: a
// component schema per event type (`Webhook_ticket.resolved`: the envelope with that type's data) and,
// as OpenAPI 3.0 has no `webhooks` object, the `x-webhooks` extension that documentation tools
// (Redoc) read as one: a POST per event type, with the Standard Webhooks headers.

const HEADERS = [
  [
    'webhook-id',
    'The message id (msg_…): the same on every attempt and replay; drop repeats by it',
  ],
  ['webhook-timestamp', 'Unix seconds when this attempt was signed'],
  [
    'webhook-signature',
    'v1, and the base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" with the secret (whsec_…, base64 after the prefix)',
  ],
] as const;

const componentName = (type: string) => `Webhook_${type}`;

export const webhookOpenApi = () => {
  const schemas: Record<string, Record<string, unknown>> = {};
  const webhooks: Record<string, unknown> = {};
  for (const [type, data] of Object.entries(webhookEventDataSchemas)) {
    const envelope = webhookEnvelopeSchema.extend({ type: z.literal(type), data });
    schemas[componentName(type)] = z.toJSONSchema(envelope, {
      target: 'openapi-3.0',
      io: 'input',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
    webhooks[type] = {
      post: {
        summary: `${type}: sent to endpoints that subscribe to it`,
        tags: ['webhook events'],
        parameters: HEADERS.map(([name, description]) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: `#/components/schemas/${componentName(type)}` } },
          },
        },
        responses: {
          '2XX': { description: 'Received: any 2xx within WEBHOOK_TIMEOUT_MS' },
          default: { description: 'Tried again with backoff (8 attempts); a 3xx is not followed' },
        },
      },
    };
  }
  return { schemas, webhooks };
};
