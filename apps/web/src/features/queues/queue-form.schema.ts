import { z } from 'zod';
import { defaultSchedules, type ScheduleSlot } from '@atendi/shared';
import { isCssColor, normalizeColor } from '../../lib/colors';
import { requiredName } from '../../lib/form-rules';
import { scheduleRowsFor, scheduleRowsSchema } from '../../lib/schedules';
import type { Queue } from './queues.api';

// Preset colours offered by the picker; any other hex colour can be typed.
export const colorPalette = [
  '#e53935',
  '#d81b60',
  '#8e24aa',
  '#5e35b1',
  '#3949ab',
  '#1e88e5',
  '#039be5',
  '#00acc1',
  '#00897b',
  '#43a047',
  '#7cb342',
  '#c0ca33',
  '#fdd835',
  '#ffb300',
  '#fb8c00',
  '#f4511e',
  '#6d4c41',
  '#757575',
  '#546e7a',
  '#263238',
];

// SPEC §5 Queue rules. Messages are i18n keys.
export const queueFormSchema = z.object({
  name: requiredName,
  color: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .min(3, 'queues.validation.colorLength')
    .max(9, 'queues.validation.colorLength')
    .refine(isCssColor, 'queues.validation.color'),
  greetingMessage: z.string().max(5000, 'queues.validation.tooLong'),
  outOfHoursMessage: z.string().max(5000, 'queues.validation.tooLong'),
  orderQueue: z
    .string()
    .trim()
    .refine((value) => value === '' || (/^\d+$/.test(value) && Number(value) <= 10000), {
      message: 'queues.validation.order',
    }),
  schedules: scheduleRowsSchema('queues.validation.time'),
  // The AI agent's id as text, '' for none.
  promptId: z.string(),
});

export type QueueFormValues = z.infer<typeof queueFormSchema>;

// One row per weekday in a fixed order; a queue saved without some day shows it blank.
const schedulesOf = (saved: ScheduleSlot[] | undefined): ScheduleSlot[] =>
  saved?.length ? scheduleRowsFor(saved) : defaultSchedules();

// A new queue starts with the first preset colour no other queue uses, and SPEC §9's hours.
export const queueFormDefaults = (queue: Queue | null, others: Queue[]): QueueFormValues => {
  const used = new Set(others.map((other) => normalizeColor(other.color)));
  return {
    name: queue?.name ?? '',
    color: queue?.color ?? colorPalette.find((color) => !used.has(color)) ?? '',
    greetingMessage: queue?.greetingMessage ?? '',
    outOfHoursMessage: queue?.outOfHoursMessage ?? '',
    orderQueue:
      queue?.orderQueue === null || queue?.orderQueue === undefined ? '' : String(queue.orderQueue),
    schedules: schedulesOf(queue?.schedules) as QueueFormValues['schedules'],
    promptId: queue?.promptId ? String(queue.promptId) : '',
  };
};

// The agent travels only when the form offered it (admins of a plan with AI agents): otherwise the
// queue keeps the one it has.
export const toQueuePayload = (values: QueueFormValues, withPrompt: boolean) => ({
  name: values.name,
  color: normalizeColor(values.color),
  greetingMessage: values.greetingMessage,
  outOfHoursMessage: values.outOfHoursMessage,
  orderQueue: values.orderQueue === '' ? null : Number(values.orderQueue),
  schedules: values.schedules,
  ...(withPrompt && { promptId: values.promptId === '' ? null : Number(values.promptId) }),
});
