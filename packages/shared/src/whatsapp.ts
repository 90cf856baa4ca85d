import { z } from 'zod';
import { connectionStatuses, mediaTypes, providers, type ConnectionStatus } from './constants';
import { dateTime } from './responses';
import { scheduleSlotViewSchema } from './schemas';
import { colouredRefSchema } from './tickets';

// A connection as the API answers it. Cloud API secrets are never sent back: only whether they are set.
export const whatsappViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(connectionStatuses),
  isDefault: z.boolean(),
  qrcode: z.string(),
  // Set while a pairing code (instead of a QR) is waiting to be typed on the phone.
  pairingCode: z.string(),
  retries: z.number(),
  number: z.string(),
  provider: z.enum(providers),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  // The external API token; only users who may edit connections see it (null for others).
  token: z.string().nullable(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  transferQueueId: z.number().nullable(),
  timeToTransfer: z.number().nullable(),
  expiresTicket: z.number(),
  expiresInactiveMessage: z.string(),
  timeUseBotQueues: z.number(),
  maxUseBotQueues: z.number(),
  schedules: z.array(scheduleSlotViewSchema),
  queues: z.array(colouredRefSchema),
  queueIds: z.array(z.number()),
  cloudPhoneNumberId: z.string().nullable(),
  // Meta's webhook verify token; like `token`, only for those who may edit connections.
  cloudVerifyToken: z.string().nullable(),
  cloudApiBaseUrl: z.string().nullable(),
  cloudBusinessAccountId: z.string().nullable(),
  hasCloudAccessToken: z.boolean(),
  hasCloudAppSecret: z.boolean(),
  // Meta's view of a Cloud API number (issue 39): quality rating (GREEN, YELLOW, RED, UNKNOWN) and
  // messaging limit tier (TIER_250 … TIER_UNLIMITED); null until Meta said, and on other providers.
  cloudQualityRating: z.string().nullable(),
  cloudMessagingLimit: z.string().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type WhatsappView = z.input<typeof whatsappViewSchema>;

// SPEC §3: a session update carries id, status, updatedAt, qrcode, retries.
export type WhatsappSessionView = Pick<
  WhatsappView,
  | 'id'
  | 'status'
  | 'updatedAt'
  | 'qrcode'
  | 'pairingCode'
  | 'retries'
  | 'number'
  | 'cloudQualityRating'
  | 'cloudMessagingLimit'
>;

// Meta's messaging limit tiers: how many conversations a business may start in a rolling 24 hours
// (issue 39). A tier Meta names that is not here counts as the lowest (the safe side).
export const messagingLimitTiers: Record<string, number> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1000,
  TIER_2K: 2000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: Number.POSITIVE_INFINITY,
};
export const conversationsAllowed = (tier: string | null | undefined): number =>
  tier ? (messagingLimitTiers[tier] ?? 250) : 250;

// Live events: company-{id}-whatsapp and company-{id}-whatsappSession.
export type WhatsappEvent =
  | { action: 'update' | 'create'; whatsapp: WhatsappView }
  | { action: 'delete'; whatsappId: number };
export type WhatsappSessionEvent = { action: 'update'; session: WhatsappSessionView };

// POST /whatsapp/{id}/token: the new external-API token.
export const whatsappTokenSchema = z.object({ token: z.string() });

// What the platform sent through a simulator connection (GET /simulator/{id}/outbound).
export const simulatorOutboundViewSchema = z.object({
  id: z.string(),
  to: z.string(),
  body: z.string(),
  mediaType: z.enum(mediaTypes),
  fileName: z.string().nullable(),
  quotedId: z.string().nullable(),
  ack: z.number(),
  // Marked forwarded by the platform; each side's reaction on it ('' none).
  forwarded: z.boolean(),
  contactReaction: z.string(),
  platformReaction: z.string(),
  createdAt: dateTime,
});
export type SimulatorOutboundView = z.input<typeof simulatorOutboundViewSchema>;
// GET /simulator/{id}/outbound?pageNumber=N: pages of the phone's received messages, newest page first,
// each page oldest to newest (as a chat reads); a full page means older ones may follow.
export const SIMULATOR_OUTBOUND_PAGE_SIZE = 500;
export const simulatorOutboundQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
// GET /simulator/{id}/conversation?number=&pageNumber=N: both sides of the phone's chats, in the order
// they happened: what its contacts wrote to the platform ('in') and what the platform sent ('out', with
// its ack). With a number, only the chat with that contact. Paged like the outbound list.
export const simulatorConversationItemSchema = simulatorOutboundViewSchema
  .omit({ to: true })
  .extend({
    direction: z.enum(['in', 'out']),
    // The contact's number (or group id): who wrote, or whom the platform wrote to.
    contact: z.string(),
  });
export type SimulatorConversationItem = z.input<typeof simulatorConversationItemSchema>;
export const simulatorConversationQuery = simulatorOutboundQuery.extend({
  number: z
    .string()
    .trim()
    .regex(/^\+?\d{5,20}$/, 'Digits only')
    .optional(),
});
// POST /simulator/{id}/scan: the phone paired; POST /simulator/{id}/inbound: the message's provider id.
export const simulatorScanSchema = z.object({ status: z.enum(connectionStatuses) });
export const simulatorInboundResultSchema = z.object({ id: z.string() });

// Why a connection's status changed, when WhatsApp or the provider decided it (issue 39: number
// health): the phone unlinked it (logged_out: a new QR is needed), another client took the session
// (replaced), WhatsApp refused the number (banned), the network or WhatsApp's servers failed
// (network), nobody scanned the QR in time (qr_timeout), the Cloud API refused the credentials
// (unauthorized) or lacks them (not_configured). None: the ordinary course (opening, a QR shown,
// connected, stopped by a person).
export const connectionCauses = [
  'logged_out',
  'replaced',
  'banned',
  'network',
  'qr_timeout',
  'unauthorized',
  'not_configured',
] as const;
export type ConnectionCause = (typeof connectionCauses)[number];

// GET /whatsapp/{id}/history: the connection's status changes, newest first.
export const connectionHistorySchema = z.object({
  entries: z.array(
    z.object({
      id: z.number(),
      status: z.enum(connectionStatuses),
      previous: z.enum(connectionStatuses).nullable(),
      cause: z.enum(connectionCauses).nullable(),
      // What the provider said, as it said it (a disconnect code, an error's text).
      detail: z.string(),
      at: dateTime,
    }),
  ),
});
export type ConnectionHistory = z.input<typeof connectionHistorySchema>;

// SPEC §2 App shell: the connections menu item shows '!' while any session is in one of these.
const attentionStatuses: readonly ConnectionStatus[] = [
  'qrcode',
  'PAIRING',
  'DISCONNECTED',
  'TIMEOUT',
  'OPENING',
];
export const needsAttention = (status: ConnectionStatus) => attentionStatuses.includes(status);

// SPEC §4 Connection status: which session buttons a status shows.
export type SessionAction = 'showQr' | 'tryAgain' | 'newQr' | 'connecting' | 'disconnect';
export const sessionActions = (status: ConnectionStatus): SessionAction[] => {
  switch (status) {
    case 'qrcode':
      return ['showQr'];
    case 'DISCONNECTED':
      return ['tryAgain', 'newQr'];
    case 'OPENING':
      return ['connecting'];
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return ['disconnect'];
  }
};
