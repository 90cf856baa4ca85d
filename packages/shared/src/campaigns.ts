import { z } from 'zod';
import { campaignStatuses } from './constants';
import { MESSAGE_BODY_MAX } from './messages';
import { dateTime } from './responses';
import { templateParamsSchema } from './templates';

// SPEC §3 Campaign and Campaign settings, §4 Campaign status, §5 Campaign, §7 Campaigns, §9 campaign
// constants: one message (one of up to five variants per recipient) to every contact of a list or a
// tag, paced so the number is not banned, with a live report.

export type CampaignStatus = (typeof campaignStatuses)[number];

export const CAMPAIGNS_PAGE_SIZE = 20;
export const CAMPAIGN_SHIPPING_PAGE_SIZE = 50;
// SPEC §9: five message slots; editable while scheduled more than an hour ahead; the report reloads 5 s
// after the campaign finished.
export const CAMPAIGN_MESSAGE_SLOTS = 5;
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60 * 1000;
export const CAMPAIGN_REPORT_REFRESH_MS = 5000;
// The form's value for "no tag": the SPEC's default tagListId.
export const NO_TAG_LIST = 'Ninguna';

export const messageSlots = [1, 2, 3, 4, 5] as const;
export type MessageSlot = (typeof messageSlots)[number];
export const messageFields = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
export const confirmationFields = [
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;

// SPEC §2 Campaigns: a campaign can be changed while inactive, or scheduled more than an hour ahead;
// a cancelled one keeps only its messages editable.
export const campaignEditable = (
  campaign: { status: CampaignStatus; scheduledAt: string | Date | null },
  now: Date = new Date(),
) =>
  campaign.status === 'INATIVA' ||
  (campaign.status === 'PROGRAMADA' &&
    campaign.scheduledAt !== null &&
    new Date(campaign.scheduledAt).getTime() - now.getTime() > CAMPAIGN_EDIT_LEAD_MS);
export const campaignMessagesEditable = (
  campaign: { status: CampaignStatus; scheduledAt: string | Date | null },
  now: Date = new Date(),
) => campaign.status === 'CANCELADA' || campaignEditable(campaign, now);

const text = z.string().max(MESSAGE_BODY_MAX);
const optionalId = z.coerce.number().int().positive().nullable();

// The form's fields, each as sent; campaignSchema adds the defaults, campaignUpdateSchema makes each
// optional.
const campaignFields = {
  name: z.string().trim().min(2).max(50),
  message1: text,
  message2: text,
  message3: text,
  message4: text,
  message5: text,
  // With confirmation, a recipient first gets a confirmation message; the campaign's message follows
  // the recipient's answer (an opt-out word instead opts them out).
  confirmation: z.boolean(),
  confirmationMessage1: text,
  confirmationMessage2: text,
  confirmationMessage3: text,
  confirmationMessage4: text,
  confirmationMessage5: text,
  // When to start; null keeps the campaign inactive (INATIVA). An instant with its offset.
  scheduledAt: z.iso.datetime({ offset: true }).nullable(),
  whatsappId: optionalId,
  contactListId: optionalId,
  // The contacts carrying a tag (on any of their tickets) instead of, or besides, a list;
  // 'Ninguna' (or null) means none.
  tagListId: z
    .union([z.literal(NO_TAG_LIST), z.coerce.number().int().positive(), z.null()])
    .transform((value) => (value === NO_TAG_LIST ? null : value)),
  // A file list whose files are sent after the text.
  fileListId: optionalId,
  // Cloud API connections: the approved template that opens each recipient's conversation (the
  // campaign's message without confirmation, the confirmation request with it), and its values.
  templateId: optionalId,
  templateParams: templateParamsSchema,
};

type CampaignFields = {
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmation: boolean;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  scheduledAt: string | Date | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagListId: number | null;
  templateId: number | null;
};

// The non-empty message variants of a campaign, by slot (1 to 5).
export const filledSlots = (campaign: Record<string, unknown>, fields: readonly string[]) =>
  fields.flatMap((field, index) => {
    const value = campaign[field];
    return typeof value === 'string' && value.trim() !== '' ? [index + 1] : [];
  });

// What a whole campaign must hold (the form, or a stored campaign with a change applied): a message;
// a confirmation message when asking for confirmation; to be scheduled, a connection and an audience.
// Answers the failing fields and their message.
export const campaignIssues = (campaign: CampaignFields) => {
  const issues: { path: string; message: string }[] = [];
  const required = (path: string) => issues.push({ path, message: 'Campo Obligatorio' });
  // A template stands for the first message a recipient gets: the message itself, or, with
  // confirmation, the confirmation request (the message then follows the answer, in the window).
  const template = campaign.templateId !== null;
  if ((!template || campaign.confirmation) && !filledSlots(campaign, messageFields).length)
    required('message1');
  if (campaign.confirmation && !template && !filledSlots(campaign, confirmationFields).length)
    required('confirmationMessage1');
  if (campaign.scheduledAt !== null) {
    if (campaign.whatsappId === null) required('whatsappId');
    if (campaign.contactListId === null && campaign.tagListId === null) required('contactListId');
  }
  return issues;
};

// POST /campaigns (the whole form). A draft without scheduledAt may lack connection and audience.
export const campaignSchema = z
  .object({
    name: campaignFields.name,
    message1: text.optional().default(''),
    message2: text.optional().default(''),
    message3: text.optional().default(''),
    message4: text.optional().default(''),
    message5: text.optional().default(''),
    confirmation: campaignFields.confirmation.optional().default(false),
    confirmationMessage1: text.optional().default(''),
    confirmationMessage2: text.optional().default(''),
    confirmationMessage3: text.optional().default(''),
    confirmationMessage4: text.optional().default(''),
    confirmationMessage5: text.optional().default(''),
    scheduledAt: campaignFields.scheduledAt.optional().default(null),
    whatsappId: optionalId.optional().default(null),
    contactListId: optionalId.optional().default(null),
    tagListId: campaignFields.tagListId.optional().transform((value) => value ?? null),
    fileListId: optionalId.optional().default(null),
    templateId: optionalId.optional().default(null),
    templateParams: templateParamsSchema.optional().default({ header: [], body: [] }),
  })
  .superRefine((input, ctx) => {
    for (const issue of campaignIssues(input))
      ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  });
export type CampaignInput = z.infer<typeof campaignSchema>;

// PUT /campaigns/{id}: the fields to change; the campaign they make must still pass campaignIssues.
// A cancelled campaign takes only its messages (SPEC §4).
export const campaignUpdateSchema = z.object(campaignFields).partial();
export type CampaignUpdateInput = z.infer<typeof campaignUpdateSchema>;
export const campaignMessageKeys = [...messageFields, ...confirmationFields] as const;

const pageNumber = z.coerce.number().int().min(1).max(100000).optional().default(1);
const searchParam = z.string().max(200).optional().default('');

export const campaignsQuery = z.object({ searchParam, pageNumber });

// Where a campaign's recipients stand.
export const campaignReportSchema = z.object({
  // Recipients planned (valid numbers of the audience, opted-out ones included).
  recipients: z.number(),
  // The recipients the campaign messages: all but those it skipped because they had opted out. The
  // report's headline and progress are sent of valid.
  valid: z.number(),
  pending: z.number(),
  // In WhatsApp's words: sent (WhatsApp took the campaign's message), delivered (it reached the
  // phone), read (the recipient opened it). Each counts the ones after it too.
  sent: z.number(),
  delivered: z.number(),
  read: z.number(),
  failed: z.number(),
  // The recipients who opted out: skipped because they had, or who answered this campaign with an
  // opt-out word after getting it.
  optedOut: z.number(),
  // Confirmation campaigns: asked and waiting for an answer; answered (their message then goes out).
  awaitingConfirmation: z.number(),
  confirmed: z.number(),
});
export type CampaignReport = z.input<typeof campaignReportSchema>;

// Why a running campaign waits (issue 39): the Cloud API number's messaging limit tier (new
// conversations in 24 hours), or on Baileys the daily cap per number or a new number's warm-up.
export const campaignHoldReasons = ['tier', 'daily_cap', 'warm_up'] as const;
export type CampaignHoldReason = (typeof campaignHoldReasons)[number];

const named = z.object({ id: z.number(), name: z.string() }).nullable();

export const campaignViewSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  status: z.enum(campaignStatuses),
  message1: z.string(),
  message2: z.string(),
  message3: z.string(),
  message4: z.string(),
  message5: z.string(),
  confirmation: z.boolean(),
  confirmationMessage1: z.string(),
  confirmationMessage2: z.string(),
  confirmationMessage3: z.string(),
  confirmationMessage4: z.string(),
  confirmationMessage5: z.string(),
  scheduledAt: dateTime.nullable(),
  completedAt: dateTime.nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: named,
  contactListId: z.number().nullable(),
  contactList: named,
  tagListId: z.number().nullable(),
  tag: named,
  fileListId: z.number().nullable(),
  fileList: named,
  mediaName: z.string().nullable(),
  // A signed link to the attachment, null without one.
  mediaUrl: z.string().nullable(),
  templateId: z.number().nullable(),
  template: z.object({ id: z.number(), name: z.string(), language: z.string() }).nullable(),
  templateParams: z.object({ header: z.array(z.string()), body: z.array(z.string()) }),
  report: campaignReportSchema,
  // A running campaign waiting for its number's limit: why, and when it sends again.
  held: z.object({ reason: z.enum(campaignHoldReasons), until: dateTime }).nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type CampaignView = z.input<typeof campaignViewSchema>;

export const campaignsPageSchema = z.object({
  records: z.array(campaignViewSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type CampaignsPage = z.input<typeof campaignsPageSchema>;

// company-{id}-campaign
export type CampaignEvent =
  { action: 'create' | 'update'; record: CampaignView } | { action: 'delete'; id: number };

// One recipient of a campaign. pending: waiting its turn; sending: handed to WhatsApp, answer not
// recorded yet; confirmation: asked to confirm, waiting for the answer; delivered: WhatsApp took the
// message (deliveredAt; its ack tells whether it reached the phone and was read); failed: could not be sent (error); opted_out: skipped, the number asked not
// to get campaigns. A recipient who opts out after getting the message keeps its status and gets
// optedOutAt (the report's opted-out filter shows both).
export const shippingStatuses = [
  'pending',
  'sending',
  'confirmation',
  'delivered',
  'failed',
  'opted_out',
] as const;
export type ShippingStatus = (typeof shippingStatuses)[number];

// What WhatsApp reported of a recipient's message, as the report says it (SPEC §4 ack scale).
export const shippingReceipt = (shipping: { status: ShippingStatus; ack: number }) =>
  shipping.status !== 'delivered'
    ? null
    : shipping.ack >= 4
      ? ('read' as const)
      : shipping.ack >= 3
        ? ('delivered' as const)
        : ('sent' as const);

export const campaignShippingQuery = z.object({
  searchParam,
  pageNumber,
  status: z.enum(shippingStatuses).optional(),
});

export const campaignShippingViewSchema = z.object({
  id: z.number(),
  number: z.string(),
  name: z.string(),
  // The message slot chosen for this recipient (1 to 5).
  variant: z.number().nullable(),
  status: z.enum(shippingStatuses),
  // How far WhatsApp got with the campaign's message (SPEC §4 ack: 1-2 sent, 3 delivered, 4-5 read;
  // 0 not sent yet).
  ack: z.number(),
  // When WhatsApp took the message (status delivered).
  deliveredAt: dateTime.nullable(),
  confirmationRequestedAt: dateTime.nullable(),
  confirmedAt: dateTime.nullable(),
  // When the recipient answered this campaign with an opt-out word (null if they did not).
  optedOutAt: dateTime.nullable(),
  error: z.string().nullable(),
  updatedAt: dateTime,
});
export type CampaignShippingView = z.input<typeof campaignShippingViewSchema>;

export const campaignShippingPageSchema = z.object({
  records: z.array(campaignShippingViewSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type CampaignShippingPage = z.input<typeof campaignShippingPageSchema>;

// Campaign settings (SPEC §9): seconds between messages, a longer pause after every N messages, and
// its length; variables {key, value} usable in messages as {{key}}; the answers that opt a recipient
// out, and what they are told then.
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
export const DEFAULT_OPT_OUT_KEYWORDS = ['STOP', 'SALIR', 'BAJA', 'PARAR'];
// What a recipient who opted out is told (the platform's own texts to contacts are Spanish, as
// tickets' bot texts); empty sends nothing.
export const DEFAULT_OPT_OUT_MESSAGE = 'Listo, ya no te enviaremos mensajes de nuestras campañas.';
export const OPT_OUT_MESSAGE_MAX = 1000;

const oneOf = (options: readonly number[]) =>
  z.coerce
    .number()
    .int()
    .refine((n) => options.includes(n), { message: `One of ${options.join(', ')}` });

export const campaignVariableSchema = z.object({
  key: z
    .string()
    .trim()
    .min(1, 'Campo Obligatorio')
    .max(40)
    .regex(/^[\p{L}\p{N}_]+$/u, 'Letters, digits and _ only'),
  value: z.string().max(1000),
});
export type CampaignVariable = z.infer<typeof campaignVariableSchema>;

export const CAMPAIGN_DAILY_CAP_MAX = 10_000;
// A new number's first day allows this many, doubling each day until the daily cap; warmed up after
// WARM_UP_DAYS.
export const WARM_UP_FIRST_DAY = 20;
const WARM_UP_DAYS = 10;
export const warmUpCap = (ageDays: number) =>
  ageDays >= WARM_UP_DAYS
    ? Number.POSITIVE_INFINITY
    : WARM_UP_FIRST_DAY * 2 ** Math.max(0, Math.floor(ageDays));

export const campaignSettingsSchema = z.object({
  messageInterval: oneOf(MESSAGE_INTERVAL_OPTIONS),
  longerIntervalAfter: oneOf(LONGER_INTERVAL_OPTIONS),
  greaterInterval: oneOf(LONGER_INTERVAL_OPTIONS),
  // Duplicate keys are ignored (the first one stays).
  variables: z
    .array(campaignVariableSchema)
    .max(100)
    .transform((variables) =>
      variables.filter(
        (variable, index) => variables.findIndex((v) => v.key === variable.key) === index,
      ),
    ),
  optOutKeywords: z.array(z.string().trim().min(1).max(30)).max(20),
  // Sent to a recipient who answers with one of those words (no bot or menu answers that message).
  optOutMessage: z.string().trim().max(OPT_OUT_MESSAGE_MAX),
  // Baileys numbers (issue 39): at most this many campaign messages a number in 24 hours (0: no cap),
  // each wait varied at random (half to one and a half times), and new numbers warmed up.
  dailyCap: z.number().int().min(0).max(CAMPAIGN_DAILY_CAP_MAX),
  randomPacing: z.boolean(),
  warmUp: z.boolean(),
});
export type CampaignSettings = z.infer<typeof campaignSettingsSchema>;

export const CAMPAIGN_SETTINGS_DEFAULTS: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  optOutKeywords: DEFAULT_OPT_OUT_KEYWORDS,
  optOutMessage: DEFAULT_OPT_OUT_MESSAGE,
  dailyCap: 200,
  randomPacing: true,
  warmUp: true,
};

// POST /campaign-settings: { settings } with any of the keys.
export const campaignSettingsBody = z.object({ settings: campaignSettingsSchema.partial() });

// GET /campaign-settings answers the SPEC's key/value list; value is the setting's JSON text.
export const campaignSettingKeys = [
  'messageInterval',
  'longerIntervalAfter',
  'greaterInterval',
  'variables',
  'optOutKeywords',
  'optOutMessage',
  'dailyCap',
  'randomPacing',
  'warmUp',
] as const;
export const campaignSettingsListSchema = z.array(
  z.object({ key: z.enum(campaignSettingKeys), value: z.string() }),
);
export type CampaignSettingsList = z.input<typeof campaignSettingsListSchema>;

// Reads the key/value list back into settings (defaults where a key is missing or unreadable).
export const campaignSettingsOf = (list: { key: string; value: string }[]): CampaignSettings => {
  const found: Record<string, unknown> = {};
  for (const { key, value } of list) {
    try {
      found[key] = JSON.parse(value);
    } catch {
      // An unreadable value keeps its default.
    }
  }
  const settings = { ...CAMPAIGN_SETTINGS_DEFAULTS };
  for (const key of campaignSettingKeys) {
    const parsed = campaignSettingsSchema.shape[key].safeParse(found[key]);
    if (parsed.success) Object.assign(settings, { [key]: parsed.data });
  }
  return settings;
};

// Seconds to wait after the n-th message sent (1-based): the interval, or the longer pause after every
// longerIntervalAfter messages (when both are set).
export const pauseAfterMessage = (n: number, settings: CampaignSettings) =>
  settings.longerIntervalAfter > 0 &&
  settings.greaterInterval > 0 &&
  n % settings.longerIntervalAfter === 0
    ? settings.greaterInterval
    : settings.messageInterval;

// Variables a campaign message (and a template's values) may use besides the company's own.
export const CAMPAIGN_BUILTIN_VARIABLES = [
  'firstName',
  'name',
  'number',
  'greeting',
  'hora',
] as const;
