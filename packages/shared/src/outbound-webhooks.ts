import { z } from 'zod';
import { dateTime } from './responses';

// Outbound webhooks (issue 38): a company's endpoints hear of what happens in it, signed per the
// Standard Webhooks specification (https://www.standardwebhooks.com): `webhook-id` (the same on
// every retry and replay, so receivers drop repeats), `webhook-timestamp` and `webhook-signature`
// (`v1,` + base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" with the endpoint's `whsec_` secret).

// The events an endpoint may subscribe to.
export const webhookEventTypes = [
  'ticket.created',
  'ticket.updated',
  'ticket.assigned',
  'ticket.transferred',
  'ticket.resolved',
  'ticket.reopened',
  'message.created',
  'message.status_changed',
  'message.failed',
  'contact.created',
  'contact.updated',
  'connection.status_changed',
  'campaign.started',
  'campaign.finished',
  'sla.breached',
  'rating.received',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
// What "send test event" sends, whatever the endpoint subscribes to.
export const WEBHOOK_TEST_EVENT = 'webhook.test';

// --- What each event carries (`data` of the envelope) ---

const ticketStatus = z.enum(['open', 'pending', 'closed']);

export const webhookTicketSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  status: ticketStatus,
  // The agent holding it, the queue it waits in, the connection it is on (null: none).
  userId: z.number().nullable(),
  queueId: z.number().nullable(),
  whatsappId: z.number(),
  contactId: z.number(),
  isGroup: z.boolean(),
  // The AI agent or integration answering it, if any.
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  lastMessage: z.string(),
  tags: z.array(z.object({ id: z.number(), name: z.string() })),
  createdAt: dateTime,
  updatedAt: dateTime,
});

export const webhookContactSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  isGroup: z.boolean(),
  createdAt: dateTime,
  updatedAt: dateTime,
});

export const webhookMessageSchema = z.object({
  id: z.number(),
  ticketId: z.number(),
  contactId: z.number().nullable(),
  whatsappId: z.number(),
  fromMe: z.boolean(),
  body: z.string(),
  mediaType: z.string(),
  // A signed link to the file, valid for a day (null: no file).
  mediaUrl: z.string().nullable(),
  // 0 not sent yet, 1 sent, 2 delivered to the server, 3 delivered, 4 read, 5 played.
  ack: z.number(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  createdAt: dateTime,
  updatedAt: dateTime,
});

// The ticket's lifecycle before the change (null: it was just created).
const ticketBefore = z
  .object({
    status: ticketStatus,
    userId: z.number().nullable(),
    queueId: z.number().nullable(),
    whatsappId: z.number(),
  })
  .nullable();

const ticketEventData = z.object({
  ticket: webhookTicketSchema,
  previous: ticketBefore,
  // The agent who did it (null: the platform: bot, timer, automatic assignment, the contact).
  byUserId: z.number().nullable(),
});

const messageEventData = z.object({
  message: webhookMessageSchema,
  ticket: webhookTicketSchema,
  // contact, agent, phone (typed on the connected phone), platform (bots, timers) or api.
  author: z.string().optional(),
  // Why it was sent again or failed (message.failed), when known.
  error: z.string().nullable().optional(),
});

export const webhookConnectionSchema = z.object({
  id: z.number(),
  name: z.string(),
  provider: z.string(),
  status: z.string(),
  number: z.string(),
});

export const webhookCampaignSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.string(),
  whatsappId: z.number().nullable(),
  scheduledAt: dateTime.nullable(),
  completedAt: dateTime.nullable(),
});

// The data of each event type: documented in OpenAPI (components), checked before it is stored.
export const webhookEventDataSchemas = {
  'ticket.created': ticketEventData,
  'ticket.updated': ticketEventData.extend({
    // What changed: tags, details (contact, notes…), status (open ↔ waiting), bot (AI agent,
    // integration).
    change: z.string(),
  }),
  'ticket.assigned': ticketEventData,
  'ticket.transferred': ticketEventData,
  'ticket.resolved': ticketEventData,
  'ticket.reopened': ticketEventData,
  'message.created': messageEventData,
  'message.status_changed': messageEventData,
  'message.failed': messageEventData,
  'contact.created': z.object({ contact: webhookContactSchema }),
  'contact.updated': z.object({ contact: webhookContactSchema }),
  'connection.status_changed': z.object({
    connection: webhookConnectionSchema,
    previousStatus: z.string().nullable(),
    // Why, when WhatsApp or the provider decided it (connectionCauses: logged_out, replaced, banned,
    // network, qr_timeout, unauthorized, not_configured), and what it said.
    cause: z.string().nullable(),
    detail: z.string(),
  }),
  'campaign.started': z.object({ campaign: webhookCampaignSchema }),
  'campaign.finished': z.object({ campaign: webhookCampaignSchema }),
  'sla.breached': z.object({
    ticket: webhookTicketSchema,
    sla: z.object({
      // first: the first answer; resolution: resolving it.
      kind: z.string(),
      dueAt: dateTime,
      queueId: z.number().nullable(),
      userId: z.number().nullable(),
    }),
  }),
  'rating.received': z.object({
    ticket: webhookTicketSchema,
    rating: z.object({ rate: z.number(), userId: z.number().nullable(), createdAt: dateTime }),
  }),
  [WEBHOOK_TEST_EVENT]: z.object({ endpointId: z.number(), message: z.string() }),
} satisfies Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, z.ZodType>;

export type WebhookEventData<T extends keyof typeof webhookEventDataSchemas> = z.input<
  (typeof webhookEventDataSchemas)[T]
>;

// The body of every delivery: the event's type, when it happened, the company and its data.
export const webhookEnvelopeSchema = z.object({
  type: z.string(),
  timestamp: dateTime,
  companyId: z.number(),
  data: z.record(z.string(), z.unknown()),
});

// --- Endpoints ---

const eventsField = z
  .array(z.enum(webhookEventTypes))
  .min(1, 'At least one event')
  .max(webhookEventTypes.length)
  .refine((list) => new Set(list).size === list.length, 'An event is listed twice');

const urlField = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'An http(s) URL');

export const webhookEndpointCreateSchema = z.object({
  url: urlField,
  description: z.string().trim().max(200).optional().default(''),
  events: eventsField,
  enabled: z.boolean().optional().default(true),
});
export type WebhookEndpointCreateInput = z.input<typeof webhookEndpointCreateSchema>;

export const webhookEndpointUpdateSchema = z.object({
  url: urlField.optional(),
  description: z.string().trim().max(200).optional(),
  events: eventsField.optional(),
  // Turning a disabled endpoint on again starts its failure count afresh.
  enabled: z.boolean().optional(),
});
export type WebhookEndpointUpdateInput = z.input<typeof webhookEndpointUpdateSchema>;

export const webhookEndpointSchema = z.object({
  id: z.number(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  // Turned off by the platform after failing for long (null: by an admin, or on).
  disabledReason: z.enum(['failures']).nullable(),
  disabledAt: dateTime.nullable(),
  // Attempts failed in a row since the last success, and since when.
  consecutiveFailures: z.number(),
  failingSince: dateTime.nullable(),
  lastDeliveryAt: dateTime.nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type WebhookEndpoint = z.input<typeof webhookEndpointSchema>;
export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });
// The signing secret (`whsec_…`), for the admin setting up the receiver.
export const webhookSecretSchema = z.object({ secret: z.string() });

// --- Deliveries ---

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

export const webhookAttemptSchema = z.object({
  at: dateTime,
  // The receiver's HTTP status (null: no answer).
  status: z.number().nullable(),
  durationMs: z.number(),
  // Why it failed (null: delivered).
  error: z.string().nullable(),
  // The first 2,000 characters of what the receiver answered.
  response: z.string(),
});

export const webhookDeliverySchema = z.object({
  id: z.number(),
  // The webhook-id header: the same on every attempt and replay.
  messageId: z.string(),
  type: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number(),
  // Only the latest attempt's outcome, in the list.
  responseStatus: z.number().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: dateTime,
  lastAttemptAt: dateTime.nullable(),
  deliveredAt: dateTime.nullable(),
});
export type WebhookDelivery = z.input<typeof webhookDeliverySchema>;
export const webhookDeliveryPageSchema = z.object({
  deliveries: z.array(webhookDeliverySchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export const webhookDeliveryDetailSchema = webhookDeliverySchema.extend({
  // The body as sent (the same on every attempt).
  payload: webhookEnvelopeSchema,
  log: z.array(webhookAttemptSchema),
});
export type WebhookDeliveryDetail = z.input<typeof webhookDeliveryDetailSchema>;

export const webhookDeliveryQuery = z.object({
  status: z.enum(webhookDeliveryStatuses).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
