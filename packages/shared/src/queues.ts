import { z } from 'zod';
import { routingModes } from './constants';
import { dateTime } from './responses';
import { scheduleSlotViewSchema } from './schemas';

// SPEC §3 Queue: GET /queue, /queue/{id}, POST and PUT, and company-{id}-queue.
export const queueViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  outOfHoursMessage: z.string(),
  completion: z.string(),
  ratingMessage: z.string(),
  token: z.string(),
  orderQueue: z.number().nullable(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  routing: z.enum(routingModes),
  reassignMinutes: z.number().nullable(),
  outOfHoursQueueId: z.number().nullable(),
  outOfHoursPromptId: z.number().nullable(),
  // SLA policy: minutes to the first answer, to each next answer and to the resolution (null: no
  // target), counted in the queue's hours when it has any; agents are warned this many minutes before.
  slaFirstResponseMinutes: z.number().nullable(),
  slaNextResponseMinutes: z.number().nullable(),
  slaResolutionMinutes: z.number().nullable(),
  slaWarningMinutes: z.number(),
  schedules: z.array(scheduleSlotViewSchema),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type QueueView = z.input<typeof queueViewSchema>;

// SPEC §3 Queue option: one entry of a queue's chatbot menu (parentId null at the top level).
export const queueOptionViewSchema = z.object({
  id: z.number(),
  queueId: z.number(),
  parentId: z.number().nullable(),
  title: z.string(),
  message: z.string(),
  option: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type QueueOptionView = z.input<typeof queueOptionViewSchema>;
