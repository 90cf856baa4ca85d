import { z } from 'zod';
import { integrationTypes } from './constants';
import { dateTime } from './responses';

// SPEC §3 Queue integration, §5 Queue integration, §7 Integrations, §9 integration defaults: chatbot
// flows (Typebot, n8n, webhooks, Dialogflow) attached to queues and connections.

export type IntegrationType = (typeof integrationTypes)[number];

export const INTEGRATION_DEFAULTS = {
  // SPEC §9: milliseconds between Typebot bubbles, and minutes a Typebot session lives unanswered.
  typebotDelayMessage: 1000,
  typebotExpires: 1,
} as const;

export const INTEGRATION_NAME_MIN = 2;
export const INTEGRATION_NAME_MAX = 50;
export const INTEGRATIONS_PAGE_SIZE = 40;
// A Typebot session may wait at most a week; bubbles at most a minute apart.
export const TYPEBOT_EXPIRES_MAX = 10_080;
export const TYPEBOT_DELAY_MAX = 60_000;

const text = (max: number) => z.string().trim().max(max);
const url = z
  .string()
  .trim()
  .max(500)
  .regex(/^https?:\/\/[^\s]+$/i, 'An http(s) address');

// Every field of the form; which are required depends on the type (integrationProblems).
export const integrationFields = {
  name: z.string().trim().min(INTEGRATION_NAME_MIN).max(INTEGRATION_NAME_MAX),
  type: z.enum(integrationTypes),
  // Dialogflow: the Google Cloud project, the service account's JSON key and the agent's language.
  projectName: text(200),
  jsonContent: text(20_000),
  language: text(35),
  // n8n and webhook: where events are posted; Typebot: the server of its chat API.
  urlN8N: z.union([z.literal(''), url]),
  typebotSlug: text(200),
  typebotExpires: z.coerce.number().int().min(0).max(TYPEBOT_EXPIRES_MAX),
  typebotDelayMessage: z.coerce.number().int().min(0).max(TYPEBOT_DELAY_MAX),
  typebotKeywordFinish: text(100),
  typebotKeywordRestart: text(100),
  typebotUnknownMessage: text(2000),
  typebotRestartMessage: text(2000),
};

export const integrationSchema = z.object({
  name: integrationFields.name,
  type: integrationFields.type,
  projectName: integrationFields.projectName.optional().default(''),
  jsonContent: integrationFields.jsonContent.optional().default(''),
  language: integrationFields.language.optional().default(''),
  urlN8N: integrationFields.urlN8N.optional().default(''),
  typebotSlug: integrationFields.typebotSlug.optional().default(''),
  typebotExpires: integrationFields.typebotExpires
    .optional()
    .default(INTEGRATION_DEFAULTS.typebotExpires),
  typebotDelayMessage: integrationFields.typebotDelayMessage
    .optional()
    .default(INTEGRATION_DEFAULTS.typebotDelayMessage),
  typebotKeywordFinish: integrationFields.typebotKeywordFinish.optional().default(''),
  typebotKeywordRestart: integrationFields.typebotKeywordRestart.optional().default(''),
  typebotUnknownMessage: integrationFields.typebotUnknownMessage.optional().default(''),
  typebotRestartMessage: integrationFields.typebotRestartMessage.optional().default(''),
});
// A change names only what changes; the whole integration it makes must still pass its type's rules.
export const integrationUpdateSchema = z.object(integrationFields).partial();
export type IntegrationInput = z.infer<typeof integrationSchema>;
export type IntegrationUpdateInput = z.infer<typeof integrationUpdateSchema>;
export type IntegrationValues = Omit<IntegrationInput, 'jsonContent'> & {
  // Whether a service-account key is stored (the API never answers it) or given now.
  hasJsonContent: boolean;
};

// A Dialogflow service-account key as Google issues it; only what the client needs is checked.
export const serviceAccountSchema = z.object({
  type: z.literal('service_account').optional(),
  project_id: z.string().optional(),
  client_email: z.string().min(3),
  private_key: z.string().min(20),
});

export const parseServiceAccount = (json: string) => {
  try {
    const parsed = serviceAccountSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

// SPEC §5 "name, url or slug required depending on type": the fields a type needs and lacks, with
// the code the form shows ('ERR_REQUIRED' or 'ERR_INVALID_SERVICE_ACCOUNT').
export const integrationProblems = (
  values: Pick<
    IntegrationValues,
    'type' | 'urlN8N' | 'typebotSlug' | 'projectName' | 'language'
  > & {
    hasJsonContent: boolean;
    jsonContent?: string;
  },
): Record<string, string[]> => {
  const problems: Record<string, string[]> = {};
  const require = (field: string, value: string) => {
    if (!value.trim()) problems[field] = ['ERR_REQUIRED'];
  };
  if (values.type === 'typebot') {
    require('urlN8N', values.urlN8N);
    require('typebotSlug', values.typebotSlug);
  }
  if (values.type === 'n8n' || values.type === 'webhook') require('urlN8N', values.urlN8N);
  if (values.type === 'dialogflow') {
    require('projectName', values.projectName);
    require('language', values.language);
    if (values.jsonContent?.trim()) {
      if (!parseServiceAccount(values.jsonContent))
        problems.jsonContent = ['ERR_INVALID_SERVICE_ACCOUNT'];
    } else if (!values.hasJsonContent) problems.jsonContent = ['ERR_REQUIRED'];
  }
  return problems;
};

export const integrationsQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});

export const integrationViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(integrationTypes),
  projectName: z.string(),
  // Never the key itself: '' always; hasJsonContent and clientEmail tell what is stored.
  jsonContent: z.string(),
  hasJsonContent: z.boolean(),
  clientEmail: z.string().nullable(),
  language: z.string(),
  urlN8N: z.string(),
  typebotSlug: z.string(),
  typebotExpires: z.number(),
  typebotDelayMessage: z.number(),
  typebotKeywordFinish: z.string(),
  typebotKeywordRestart: z.string(),
  typebotUnknownMessage: z.string(),
  typebotRestartMessage: z.string(),
  // n8n and webhook: the secret their receivers check the signature with (admins only see it).
  signingSecret: z.string().nullable(),
  // What last went wrong reaching the flow while serving a contact (cleared when it answers again).
  lastError: z.object({ message: z.string(), at: dateTime }).nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type IntegrationView = z.input<typeof integrationViewSchema>;

export const integrationsPageSchema = z.object({
  queueIntegrations: z.array(integrationViewSchema),
  hasMore: z.boolean(),
});
export type IntegrationsPage = z.input<typeof integrationsPageSchema>;

// SPEC §7 company-{id}-queueIntegration.
export type IntegrationEvent =
  | { action: 'create' | 'update'; queueIntegration: IntegrationView }
  | { action: 'delete'; integrationId: number };

// GET /queueIntegration/list: every integration of the company, by name, for pickers.
export const integrationOptionSchema = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(integrationTypes),
});
export type IntegrationOption = z.input<typeof integrationOptionSchema>;
export const INTEGRATION_OPTIONS_MAX = 500;

// GET /queueIntegration/{id}/deliveries: each exchange with the flow, newest first (why it did not
// answer). event: message.received (n8n, webhook), typebot.startChat, typebot.continueChat,
// dialogflow.detectIntent.
export const INTEGRATION_DELIVERIES_PAGE_SIZE = 40;
export const integrationDeliveriesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  // Only the failed ones.
  failed: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});
export const integrationDeliverySchema = z.object({
  id: z.number(),
  ticketId: z.number().nullable(),
  messageId: z.number().nullable(),
  event: z.string(),
  attempt: z.number(),
  // The flow's HTTP status; null when it could not be reached.
  status: z.number().nullable(),
  ok: z.boolean(),
  durationMs: z.number(),
  error: z.string().nullable(),
  // The contact's message handed to the flow (received from the contact; null: none, or deleted),
  // and what the flow answered, sent to the contact (the first 500 characters of each).
  received: z.object({ body: z.string(), mediaType: z.string() }).nullable(),
  sent: z.array(z.string()),
  createdAt: dateTime,
});
export type IntegrationDelivery = z.input<typeof integrationDeliverySchema>;
export const integrationDeliveriesPageSchema = z.object({
  deliveries: z.array(integrationDeliverySchema),
  hasMore: z.boolean(),
});
export type IntegrationDeliveriesPage = z.input<typeof integrationDeliveriesPageSchema>;

// POST /queueIntegration/testSession (SPEC §7): one detectIntent with the Dialogflow settings given, or
// with the key stored on integrationId when jsonContent is left empty (an edit keeps the key unseen).
export const integrationTestSessionSchema = z.object({
  projectName: integrationFields.projectName.refine((value) => value.length > 0, 'Required'),
  jsonContent: integrationFields.jsonContent.optional().default(''),
  language: integrationFields.language.refine((value) => value.length > 0, 'Required'),
  integrationId: z.number().int().positive().optional(),
});
export type IntegrationTestSessionInput = z.infer<typeof integrationTestSessionSchema>;
export const integrationTestSessionResultSchema = z.object({
  ok: z.literal(true),
  intent: z.string().nullable(),
  texts: z.array(z.string()),
  durationMs: z.number(),
});
export type IntegrationTestSessionResult = z.input<typeof integrationTestSessionResultSchema>;
