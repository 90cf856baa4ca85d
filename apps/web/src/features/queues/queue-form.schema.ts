import { z } from 'zod';
import { type QueueInput } from '@atendi/shared';
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
  completion: z.string().max(5000, 'queues.validation.tooLong'),
  ratingMessage: z.string().max(5000, 'queues.validation.tooLong'),
  token: z.string().trim().max(200, 'queues.validation.tokenTooLong'),
  orderQueue: z
    .string()
    .trim()
    .refine((value) => value === '' || (/^\d+$/.test(value) && Number(value) <= 10000), {
      message: 'queues.validation.order',
    }),
  schedules: scheduleRowsSchema('queues.validation.time'),
  // The AI agent's and the integration's ids as text, '' for none.
  promptId: z.string(),
  integrationId: z.string(),
});

export type QueueFormValues = z.infer<typeof queueFormSchema>;

// A new queue starts with the first preset colour no other queue uses, and SPEC §9's hours.
export const queueFormDefaults = (queue: Queue | null, others: Queue[]): QueueFormValues => {
  const used = new Set(others.map((other) => normalizeColor(other.color)));
  return {
    name: queue?.name ?? '',
    color: queue?.color ?? colorPalette.find((color) => !used.has(color)) ?? '',
    greetingMessage: queue?.greetingMessage ?? '',
    outOfHoursMessage: queue?.outOfHoursMessage ?? '',
    completion: queue?.completion ?? '',
    ratingMessage: queue?.ratingMessage ?? '',
    token: queue?.token ?? '',
    orderQueue:
      queue?.orderQueue === null || queue?.orderQueue === undefined ? '' : String(queue.orderQueue),
    schedules: scheduleRowsFor(queue?.schedules) as QueueFormValues['schedules'],
    promptId: queue?.promptId ? String(queue.promptId) : '',
    integrationId: queue?.integrationId ? String(queue.integrationId) : '',
  };
};

const idOrNull = (value: string) => (value === '' ? null : Number(value));

// The agent and the integration travel only when the form offered them (admins of a plan with AI
// agents, or with integrations): otherwise the queue keeps the ones it has.
export const toQueuePayload = (
  values: QueueFormValues,
  offered: { prompt: boolean; integration: boolean },
): QueueInput => ({
  name: values.name,
  color: normalizeColor(values.color),
  greetingMessage: values.greetingMessage,
  outOfHoursMessage: values.outOfHoursMessage,
  completion: values.completion,
  ratingMessage: values.ratingMessage,
  token: values.token,
  orderQueue: values.orderQueue === '' ? null : Number(values.orderQueue),
  schedules: values.schedules,
  ...(offered.prompt && { promptId: idOrNull(values.promptId) }),
  ...(offered.integration && { integrationId: idOrNull(values.integrationId) }),
});
