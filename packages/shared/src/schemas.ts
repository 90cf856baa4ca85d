import { z } from 'zod';
import {
  allTicketValues,
  DEFAULT_PLAN_STORAGE_MB,
  mediaTypes,
  providers,
  ticketStatuses,
  companyStatuses,
  profiles,
  recurrences,
  routingModes,
  type ScheduleSlot,
} from './constants';
import { messageReactionSchema } from './messages';

// Query strings arrive as text; these helpers turn them into typed values.
export const idParam = z.object({ id: z.coerce.number().int().positive() });
export const pageQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
const optionalNullableDate = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => {
    if (value === undefined) return undefined;
    if (value === null || value.trim() === '') return null;
    const date = new Date(value);
    // SPEC §5 Company: an empty or invalid due date is stored as null.
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  });

export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Invalid email' }));

type WithoutDefaults<T extends z.ZodRawShape> = {
  [K in keyof T]: T[K] extends z.ZodDefault<infer Inner> ? Inner : T[K];
};
// Update payloads change only the fields they name, so the create schema's defaults must not fill the rest.
const withoutDefaults = <T extends z.ZodRawShape>(shape: T) =>
  Object.fromEntries(
    Object.entries(shape).map(([key, field]) => [
      key,
      field instanceof z.ZodDefault ? field.unwrap() : field,
    ]),
  ) as WithoutDefaults<T>;

// --- Authentication ---
export const loginSchema = z.object({
  email,
  password: z.string().min(1).max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

// A password a person chooses for a new account or a reset: 8 or more characters with an uppercase
// letter, a lowercase letter and a digit (the reset's rule, also sign-up's: one rule, the stronger).
export const strongPassword = z
  .string()
  .min(8)
  .max(100)
  .regex(/[A-Z]/, 'Needs an uppercase letter')
  .regex(/[a-z]/, 'Needs a lowercase letter')
  .regex(/[0-9]/, 'Needs a digit');

// An IANA time zone (America/Mexico_City) that both the runtime and PostgreSQL know, stored as the
// runtime names it (aliases such as America/Buenos_Aires become its canonical name). UTC offsets
// ("+05:00") are refused: PostgreSQL reads their sign the other way round (POSIX).
const timeZoneName = /^(UTC|[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)+)$/;
export const canonicalTimeZone = (zone: string) => {
  if (!timeZoneName.test(zone)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
};
export const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .transform((zone, ctx) => {
    const known = canonicalTimeZone(zone);
    if (!known) {
      ctx.addIssue({ code: 'custom', message: 'Unknown time zone (an IANA name is expected)' });
      return z.NEVER;
    }
    return known;
  });

export const signupSchema = z.object({
  name: z.string().trim().min(2).max(50),
  // The first admin's own name (a person, who signs messages and is listed among the agents). SPEC §7's
  // payload has none: without it the admin is named as the company, as before.
  userName: z.string().trim().min(2).max(50).optional(),
  email,
  phone: z
    .string()
    .trim()
    .max(12)
    .regex(/^[0-9+()\s-]*$/, 'Only digits')
    .optional()
    .default(''),
  password: strongPassword,
  planId: z.coerce.number().int().positive().optional(),
  recurrence: z.enum(recurrences).optional(),
  // Accepted for compatibility with older clients; the server applies SPEC §9 defaults.
  dueDate: z.string().optional().nullable(),
  status: z.string().optional(),
  campaignsEnabled: z.union([z.boolean(), z.string()]).optional(),
  // The company's time zone: the sign-up page sends the browser's; without it, the platform's.
  timeZone: timeZoneSchema.optional(),
});
export type SignupInput = z.infer<typeof signupSchema>;

export const resetPasswordParams = z.object({
  email,
  token: z.string().trim().min(4).max(20),
  newPassword: strongPassword,
});

// --- Users ---
const userBase = {
  name: z.string().trim().min(2).max(50),
  email,
  profile: z.enum(profiles).optional(),
  allTicket: z.enum(allTicketValues).optional(),
  whatsappId: z.coerce.number().int().positive().nullable().optional(),
  queueIds: z.array(z.coerce.number().int().positive()).max(500).optional(),
  super: z.boolean().optional(),
  companyId: z.coerce.number().int().positive().optional(),
  // Automatic assignment's limit of open conversations (null: none); set by those who edit queues.
  maxTickets: z.coerce.number().int().min(1).max(500).nullable().optional(),
  // And per queue (of the user's queues): at most this many open conversations of that queue. The
  // whole list: a queue left out has no limit of its own.
  queueLimits: z
    .array(
      z.object({
        queueId: z.coerce.number().int().positive(),
        maxTickets: z.coerce.number().int().min(1).max(500),
      }),
    )
    .max(500)
    .optional(),
};
export const userCreateSchema = z.object({
  ...userBase,
  password: z.string().min(5).max(50),
});
export const userUpdateSchema = z.object({
  ...userBase,
  name: userBase.name.optional(),
  email: email.optional(),
  // The edit form sends an empty password when it is unchanged.
  password: z.union([z.string().min(5).max(50), z.literal('')]).optional(),
});
export type UserCreateInput = z.infer<typeof userCreateSchema>;
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

// --- Companies ---
export const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use HH:MM');
export const scheduleSlotSchema = z.object({
  weekday: z.string().max(30),
  weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  startTime: z.union([hhmm, z.literal('')]),
  endTime: z.union([hhmm, z.literal('')]),
}) satisfies z.ZodType<ScheduleSlot>;
// Service hours as stored and answered (the rules above apply when they are written).
export const scheduleSlotViewSchema = z.object({
  weekday: z.string(),
  weekdayEn: z.string(),
  startTime: z.string(),
  endTime: z.string(),
}) satisfies z.ZodType<ScheduleSlot>;
export const schedulesSchema = z.object({
  schedules: z.array(scheduleSlotSchema).max(7),
});
export const companyTimeZoneSchema = z.object({ timeZone: timeZoneSchema });

export const companyCreateSchema = z.object({
  name: z.string().trim().min(2).max(100),
  email,
  phone: z.string().trim().max(20).optional().default(''),
  planId: z.coerce.number().int().positive(),
  status: z.enum(companyStatuses).optional().default('active'),
  dueDate: optionalNullableDate,
  recurrence: z.enum(recurrences).optional().default('MENSAL'),
  campaignsEnabled: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  password: z.string().min(5).max(50).optional(),
  timeZone: timeZoneSchema.optional(),
});
export const companyUpdateSchema = z
  .object(withoutDefaults(companyCreateSchema.omit({ password: true }).shape))
  .partial()
  .extend({ expire: z.boolean().optional() });
export type CompanyCreateInput = z.infer<typeof companyCreateSchema>;
export type CompanyUpdateInput = z.infer<typeof companyUpdateSchema>;

// --- Plans ---
const limit = z.coerce.number().int().min(0).max(100000);
export const planSchema = z.object({
  name: z.string().trim().min(1).max(100),
  users: limit.default(0),
  connections: limit.default(0),
  queues: limit.default(0),
  // SPEC §9: the AI agents a company may have, and the answers each may send its contacts in a
  // calendar month; 0 is unlimited, as for the other limits (useOpenAi off is "no AI agents").
  aiAgents: limit.default(0),
  aiMessages: z.coerce.number().int().min(0).max(10_000_000).default(0),
  // Tokens a month for every use of AI of the company (agents, co-pilot, voice notes, knowledge).
  aiTokens: z.coerce.number().int().min(0).max(2_000_000_000).default(0),
  value: z.coerce.number().min(0).max(1_000_000).default(0),
  useCampaigns: z.boolean().default(true),
  useKanban: z.boolean().default(true),
  useOpenAi: z.boolean().default(true),
  useIntegrations: z.boolean().default(true),
  useSchedules: z.boolean().default(true),
  useExternalApi: z.boolean().default(true),
  // MB; 0 is unlimited. Up to 100 TB.
  storageMb: z.coerce.number().int().min(0).max(100_000_000).default(DEFAULT_PLAN_STORAGE_MB),
  // The card provider's price id checkout charges (price_…); empty clears it.
  stripePriceId: z
    .preprocess(
      (value) => (value === '' ? null : value),
      z
        .string()
        .trim()
        .regex(/^price_[A-Za-z0-9_]{1,200}$/, 'A price id starts with price_')
        .nullable(),
    )
    .default(null),
});
export const planUpdateSchema = z.object(withoutDefaults(planSchema.shape)).partial();
export type PlanInput = z.infer<typeof planSchema>;

// --- Helps ---
export const helpSchema = z.object({
  title: z.string().trim().min(1).max(200),
  video: z.string().trim().max(200).optional().default(''),
  description: z.string().max(5000).optional().default(''),
});
export const helpUpdateSchema = z.object(withoutDefaults(helpSchema.shape)).partial();

// --- Settings ---
export const settingUpdateSchema = z.object({
  value: z.string().max(2000),
  key: z.string().optional(),
});

// --- Queues ---
const slaMinutes = z.coerce.number().int().min(1).max(43_200).nullable().optional();
export const queueSchema = z.object({
  name: z.string().trim().min(2).max(50),
  color: z
    .string()
    .trim()
    .min(3)
    .max(9)
    // CSS hex forms only: #rgb, #rgba, #rrggbb, #rrggbbaa.
    .regex(/^#?([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'Use a hex colour'),
  greetingMessage: z.string().max(5000).optional().default(''),
  outOfHoursMessage: z.string().max(5000).optional().default(''),
  // SPEC §3 Queue: sent when a conversation of the queue is resolved, and the rating question.
  completion: z.string().max(5000).optional().default(''),
  ratingMessage: z.string().max(5000).optional().default(''),
  token: z.string().trim().max(200).optional().default(''),
  orderQueue: z.coerce.number().int().min(0).max(10000).nullable().optional(),
  schedules: z.array(scheduleSlotSchema).max(7).optional(),
  promptId: z.coerce.number().int().positive().nullable().optional(),
  integrationId: z.coerce.number().int().positive().nullable().optional(),
  routing: z.enum(routingModes).optional().default('off'),
  // Minutes a routed conversation may go without a word from its agent before it goes to the next.
  reassignMinutes: z.coerce.number().int().min(1).max(1440).nullable().optional(),
  // Outside the queue's hours: another queue, or an AI agent, takes what enters it (one of the two).
  outOfHoursQueueId: z.coerce.number().int().positive().nullable().optional(),
  outOfHoursPromptId: z.coerce.number().int().positive().nullable().optional(),
  // SLA targets in minutes (up to 30 days; null: none) and the warning before a breach.
  slaFirstResponseMinutes: slaMinutes,
  slaNextResponseMinutes: slaMinutes,
  slaResolutionMinutes: slaMinutes,
  slaWarningMinutes: z.coerce.number().int().min(1).max(1440).optional(),
});
export const queueUpdateSchema = z.object(withoutDefaults(queueSchema.shape)).partial();
export type QueueInput = z.infer<typeof queueSchema>;
export type QueueUpdateInput = z.infer<typeof queueUpdateSchema>;

export const queueOptionsQuery = z.object({
  queueId: z.coerce.number().int().positive(),
  // SPEC §7: -1 (or absent) lists the top level.
  parentId: z.coerce.number().int().min(-1).optional().default(-1),
});
export const queueOptionSchema = z.object({
  queueId: z.coerce.number().int().positive(),
  parentId: z.coerce.number().int().positive().nullable().optional().default(null),
  title: z.string().trim().min(1).max(200),
  message: z.string().max(5000).optional().default(''),
  option: z.string().trim().min(1).max(20),
});
export const queueOptionUpdateSchema = z
  .object(withoutDefaults(queueOptionSchema.omit({ queueId: true, parentId: true }).shape))
  .partial();
export type QueueOptionInput = z.infer<typeof queueOptionSchema>;

// --- Announcements ---
export const announcementSchema = z.object({
  title: z.string().trim().min(1).max(200),
  text: z.string().trim().min(1).max(10000),
  // SPEC §9: 1 high, 2 medium, 3 low (default).
  priority: z.coerce.number().int().min(1).max(3).optional().default(3),
  status: z.boolean().optional().default(true),
});
export const announcementUpdateSchema = z
  .object(withoutDefaults(announcementSchema.shape))
  .partial();
export type AnnouncementInput = z.infer<typeof announcementSchema>;

// --- WhatsApp connections ---
const optionalText = z.string().max(5000).optional().default('');
const minutes = z.coerce.number().int().min(0).max(525600);
const cloudField = z.string().trim().max(500).nullable().optional();
export const whatsappSchema = z.object({
  name: z.string().trim().min(2).max(50),
  isDefault: z.boolean().optional().default(false),
  provider: z.enum(providers).optional().default('beta'),
  greetingMessage: optionalText,
  complationMessage: optionalText,
  outOfHoursMessage: optionalText,
  ratingMessage: optionalText,
  queueIds: z.array(z.coerce.number().int().positive()).max(200).optional().default([]),
  promptId: z.coerce.number().int().positive().nullable().optional(),
  integrationId: z.coerce.number().int().positive().nullable().optional(),
  transferQueueId: z.coerce.number().int().positive().nullable().optional(),
  timeToTransfer: minutes.nullable().optional(),
  expiresTicket: minutes.optional().default(0),
  expiresInactiveMessage: optionalText,
  timeUseBotQueues: minutes.optional().default(0),
  maxUseBotQueues: z.coerce.number().int().min(0).max(1000).optional().default(3),
  schedules: z.array(scheduleSlotSchema).max(7).optional(),
  // Cloud API credentials (provider 'cloud'). The access token and app secret are write-only.
  cloudPhoneNumberId: z
    .string()
    .trim()
    .regex(/^\d{1,40}$/, 'Digits only')
    .nullable()
    .optional(),
  cloudAccessToken: cloudField,
  cloudAppSecret: cloudField,
  cloudVerifyToken: cloudField,
  cloudApiBaseUrl: z.url().max(500).nullable().optional(),
  // The WhatsApp Business Account id, where the number's message templates live.
  cloudBusinessAccountId: z
    .string()
    .trim()
    .regex(/^\d{1,40}$/, 'Digits only')
    .nullable()
    .optional(),
});
export const whatsappUpdateSchema = z.object(withoutDefaults(whatsappSchema.shape)).partial();
export type WhatsappInput = z.infer<typeof whatsappSchema>;
export type WhatsappUpdateInput = z.infer<typeof whatsappUpdateSchema>;

// PUT /whatsappsession/{id}: a new QR, or a pairing code for this phone number when given.
export const whatsappSessionSchema = z
  .object({
    phoneNumber: z
      .string()
      .trim()
      .regex(/^\+?\d{8,15}$/, 'Use the full number with country code')
      .optional(),
  })
  .nullish();

// The simulator's virtual phone (SIMULATOR_ENABLED).
export const simulatorInboundSchema = z.object({
  from: z
    .string()
    .trim()
    .regex(/^\+?\d{5,20}$/, 'Digits only'),
  name: z.string().trim().max(100).optional(),
  body: z.string().max(65536).optional().default(''),
  id: z.string().trim().min(1).max(128).optional(),
  mediaType: z.enum(mediaTypes).optional(),
  fileName: z.string().trim().min(1).max(200).optional(),
  mediaBase64: z.string().max(14_000_000).optional(),
  quotedId: z.string().trim().min(1).max(128).optional(),
  isGroup: z.boolean().optional().default(false),
});
export type SimulatorInbound = z.infer<typeof simulatorInboundSchema>;
export const simulatorAckSchema = z.object({
  id: z.string().trim().min(1).max(128),
  ack: z.coerce.number().int().min(0).max(5),
});
export const simulatorTypingSchema = z.object({
  from: z
    .string()
    .trim()
    .regex(/^\+?\d{5,20}$/, 'Digits only'),
  typing: z.boolean(),
});
// A contact reacts to a message of the chat (its provider id); '' takes the reaction back.
export const simulatorReactionSchema = messageReactionSchema.extend({
  from: z
    .string()
    .trim()
    .regex(/^\+?\d{5,20}$/, 'Digits only'),
  id: z.string().trim().min(1).max(128),
});
// The phone shares its address book with the linked device (as WhatsApp's history sync does).
export const simulatorContactsSchema = z.object({
  contacts: z
    .array(
      z.object({
        number: z
          .string()
          .trim()
          .regex(/^\+?[\d\s().-]{8,30}$/, 'A phone number'),
        name: z.string().trim().min(1).max(100),
      }),
    )
    .max(1000),
});

// --- Tickets ---
// Filters arrive as JSON text in the query string (SPEC §7): '[1,2]'.
const idListText = z
  .string()
  .max(2000)
  .optional()
  .transform((text, ctx) => {
    if (!text) return [];
    try {
      const value: unknown = JSON.parse(text);
      const ids = z.array(z.coerce.number().int().positive()).max(500).parse(value);
      return ids;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Use a JSON list of ids, e.g. [1,2]' });
      return z.NEVER;
    }
  });
const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'Use YYYY-MM-DD')
  .optional();
export const ticketListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  status: z.enum(ticketStatuses).optional(),
  date: day,
  updatedAt: day,
  showAll: flag,
  withUnreadMessages: flag,
  // 'urgency': the nearest SLA deadline first (breached ones first of all), those without one last.
  sortBy: z.enum(['recent', 'urgency']).optional().default('recent'),
  tags: idListText,
  users: idListText,
  queueIds: idListText,
});
export type TicketListQuery = z.infer<typeof ticketListQuery>;

export const ticketCreateSchema = z.object({
  contactId: z.coerce.number().int().positive(),
  queueId: z.coerce.number().int().positive().nullable().optional(),
  whatsappId: z.coerce.number().int().positive().nullable().optional(),
  userId: z.coerce.number().int().positive().nullable().optional(),
  status: z.enum(ticketStatuses).optional().default('open'),
});
export type TicketCreateInput = z.infer<typeof ticketCreateSchema>;

export const ticketUpdateSchema = z.object({
  status: z.enum(ticketStatuses).optional(),
  userId: z.coerce.number().int().positive().nullable().optional(),
  queueId: z.coerce.number().int().positive().nullable().optional(),
  whatsappId: z.coerce.number().int().positive().optional(),
  useIntegration: z.boolean().optional(),
  promptId: z.coerce.number().int().positive().nullable().optional(),
  integrationId: z.coerce.number().int().positive().nullable().optional(),
});
export type TicketUpdateInput = z.infer<typeof ticketUpdateSchema>;

// POST /tickets/bulk (issue 36): one action on many tickets, each through the same transition as
// PUT /tickets/{id} (or the tag route): the ids chosen, or every ticket the list shows for a filter.
export const TICKET_BULK_MAX = 500;
export const ticketBulkActions = ['resolve', 'return', 'transfer', 'tag'] as const;
export type TicketBulkAction = (typeof ticketBulkActions)[number];
export const ticketBulkSchema = z
  .object({
    action: z.enum(ticketBulkActions),
    ids: z.array(z.coerce.number().int().positive()).min(1).max(TICKET_BULK_MAX).optional(),
    filter: ticketListQuery.omit({ pageNumber: true }).optional(),
    // transfer: to a person (open as theirs) or, without one, to wait in the queue.
    userId: z.coerce.number().int().positive().nullable().optional(),
    queueId: z.coerce.number().int().positive().nullable().optional(),
    // tag: the tag to add.
    tagId: z.coerce.number().int().positive().optional(),
  })
  .superRefine((input, ctx) => {
    if ((input.ids === undefined) === (input.filter === undefined))
      ctx.addIssue({ code: 'custom', path: ['ids'], message: 'Give either ids or a filter' });
    if (input.action === 'transfer' && !input.userId && input.queueId === undefined)
      ctx.addIssue({ code: 'custom', path: ['queueId'], message: 'Transfer to a user or a queue' });
    if (input.action === 'tag' && input.tagId === undefined)
      ctx.addIssue({ code: 'custom', path: ['tagId'], message: 'Name the tag to add' });
  });
export type TicketBulkInput = z.infer<typeof ticketBulkSchema>;
export const uuidParam = z.object({ uuid: z.uuid() });

// --- Ticket notes (SPEC §7; §5: at least 2 characters) ---
export const TICKET_NOTE_MIN = 2;
export const ticketNoteSchema = z.object({
  note: z.string().trim().min(TICKET_NOTE_MIN).max(5000),
  ticketId: z.coerce.number().int().positive(),
  contactId: z.coerce.number().int().positive().optional(),
});
export type TicketNoteInput = z.infer<typeof ticketNoteSchema>;
export const ticketNotesQuery = z.object({
  ticketId: z.coerce.number().int().positive(),
  contactId: z.coerce.number().int().positive().optional(),
});
