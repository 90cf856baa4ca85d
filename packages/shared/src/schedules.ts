import { z } from 'zod';
import { MESSAGE_BODY_MAX } from './messages';
import { dateTime } from './responses';

// SPEC §3 Schedule, §5 Schedule, §7 "Quick messages and schedules": a message sent to a contact at
// sendAt by the API's sending job.

export const SCHEDULES_PAGE_SIZE = 20;
// SPEC §5: body at least 5 characters ('Mensaje Muy Corto').
export const SCHEDULE_BODY_MIN = 5;
// SPEC §9: the form proposes one hour from now.
export const SCHEDULE_DEFAULT_DELAY_MS = 60 * 60 * 1000;

// PENDENTE waits for sendAt; ENVIADA was queued in the contact's ticket; ERRO could not be sent (no
// connection to send it through) and waits for an edit.
export const scheduleStatuses = ['PENDENTE', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof scheduleStatuses)[number];

const sendAt = z.iso.datetime({ offset: true });
const optionalUserId = z.coerce.number().int().positive().nullable().optional();

export const scheduleSchema = z.object({
  body: z.string().trim().min(SCHEDULE_BODY_MIN).max(MESSAGE_BODY_MAX),
  contactId: z.coerce.number().int().positive(),
  // An instant with its offset (what Date#toISOString() gives); must lie in the future.
  sendAt,
  // Whose name the schedule carries and who is given the conversation it opens; the caller when left out.
  userId: optionalUserId,
});
export const scheduleUpdateSchema = scheduleSchema.partial();
export type ScheduleInput = z.infer<typeof scheduleSchema>;
export type ScheduleUpdateInput = z.infer<typeof scheduleUpdateSchema>;

const pageNumber = z.coerce.number().int().min(1).max(100000).optional().default(1);

// SPEC §7: one contact's schedules (paged by schedulePageNumber), or a search (paged by pageNumber).
export const schedulesQuery = z.object({
  contactId: z.coerce.number().int().positive().optional(),
  schedulePageNumber: pageNumber,
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber,
});
export type SchedulesQuery = z.infer<typeof schedulesQuery>;

export const scheduleViewSchema = z.object({
  id: z.number(),
  body: z.string(),
  contactId: z.number(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string() }).nullable(),
  sendAt: dateTime,
  sentAt: dateTime.nullable(),
  status: z.enum(scheduleStatuses),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  // A signed link to the attachment, null without one.
  mediaUrl: z.string().nullable(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  // The conversation it was sent in, once sent.
  ticketId: z.number().nullable(),
  whatsappId: z.number().nullable(),
  companyId: z.number(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type ScheduleView = z.input<typeof scheduleViewSchema>;

export const schedulesPageSchema = z.object({
  schedules: z.array(scheduleViewSchema),
  hasMore: z.boolean(),
  count: z.number(),
});
export type SchedulesPage = z.input<typeof schedulesPageSchema>;

// SPEC §7 company-{id}-schedule.
export type ScheduleEvent =
  | { action: 'create' | 'update'; schedule: ScheduleView }
  | { action: 'delete'; scheduleId: number };

// Still to be sent: what a conversation shows below its messages (SPEC §4 Scheduled messages).
export const isUpcomingSchedule = (
  schedule: Pick<ScheduleView, 'sendAt' | 'status'>,
  now = Date.now(),
) => schedule.status === 'PENDENTE' && new Date(schedule.sendAt).getTime() > now;
