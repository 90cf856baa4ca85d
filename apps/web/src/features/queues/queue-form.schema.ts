import { z } from 'zod';
import { routingModes, type QueueInput } from '@atendi/shared';
import { colorPalette, isCssColor, normalizeColor } from '../../lib/colors';
import { requiredName } from '../../lib/form-rules';
import { scheduleRowsFor, scheduleRowsSchema } from '../../lib/schedules';
import type { Queue } from './queues.api';

// Whole minutes from 1 to `max` as typed, '' for none.
const minutesText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .refine(
      (value) =>
        value === '' || (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= max),
      { message },
    );

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
  // How waiting conversations reach the queue's agents: they accept them (off), or in turn, or to
  // the one with the fewest open.
  routing: z.enum(routingModes),
  // Outside the queue's hours: the queue, or the AI agent, that takes its conversations (ids as text,
  // '' for none; one of the two).
  outOfHoursQueueId: z.string(),
  outOfHoursPromptId: z.string(),
  // Minutes a routed conversation may wait for its agent's first word, '' for never.
  reassignMinutes: minutesText(1440, 'queues.validation.reassignMinutes'),
  // SLA targets in minutes ('' for none) and the warning before a breach.
  slaFirstResponseMinutes: minutesText(43_200, 'queues.validation.slaMinutes'),
  slaNextResponseMinutes: minutesText(43_200, 'queues.validation.slaMinutes'),
  slaResolutionMinutes: minutesText(43_200, 'queues.validation.slaMinutes'),
  slaWarningMinutes: minutesText(1440, 'queues.validation.slaWarningMinutes').refine(
    (value) => value !== '',
    { message: 'queues.validation.slaWarningMinutes' },
  ),
});

export type QueueFormValues = z.infer<typeof queueFormSchema>;

const minutesOrEmpty = (minutes: number | null | undefined) => (minutes ? String(minutes) : '');
const minutesOrNull = (text: string) => (text === '' ? null : Number(text));

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
    routing: queue?.routing ?? 'off',
    outOfHoursQueueId: queue?.outOfHoursQueueId ? String(queue.outOfHoursQueueId) : '',
    outOfHoursPromptId: queue?.outOfHoursPromptId ? String(queue.outOfHoursPromptId) : '',
    reassignMinutes: queue?.reassignMinutes ? String(queue.reassignMinutes) : '',
    slaFirstResponseMinutes: minutesOrEmpty(queue?.slaFirstResponseMinutes),
    slaNextResponseMinutes: minutesOrEmpty(queue?.slaNextResponseMinutes),
    slaResolutionMinutes: minutesOrEmpty(queue?.slaResolutionMinutes),
    slaWarningMinutes: String(queue?.slaWarningMinutes ?? 5),
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
  routing: values.routing,
  outOfHoursQueueId: idOrNull(values.outOfHoursQueueId),
  ...(offered.prompt && { outOfHoursPromptId: idOrNull(values.outOfHoursPromptId) }),
  reassignMinutes: minutesOrNull(values.reassignMinutes),
  slaFirstResponseMinutes: minutesOrNull(values.slaFirstResponseMinutes),
  slaNextResponseMinutes: minutesOrNull(values.slaNextResponseMinutes),
  slaResolutionMinutes: minutesOrNull(values.slaResolutionMinutes),
  slaWarningMinutes: Number(values.slaWarningMinutes),
  ...(offered.prompt && { promptId: idOrNull(values.promptId) }),
  ...(offered.integration && { integrationId: idOrNull(values.integrationId) }),
});
