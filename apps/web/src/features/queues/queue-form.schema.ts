import { z } from 'zod';
import { defaultSchedules, scheduleSlotSchema, weekdays, type ScheduleSlot } from '@atendi/shared';
import type { Queue } from './queues.api';

// SPEC §9: forms wait 400 ms before sending.
export const SUBMIT_DELAY_MS = 400;

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

const CSS_HEX = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

// The API compares colours as lower-case text with a leading '#', so the form does too.
export const normalizeColor = (color: string) => {
  const trimmed = color.trim().toLowerCase();
  return trimmed.startsWith('#') ? trimmed : `#${trimmed}`;
};

export const isCssColor = (color: string) => CSS_HEX.test(normalizeColor(color));

// Stored colours the browser cannot paint fall back to a neutral grey.
export const cssColor = (color: string) => (isCssColor(color) ? normalizeColor(color) : '#9e9e9e');

// SPEC §5 Queue schedules: hour fields take an HH:MM mask.
export const maskTime = (raw: string) => {
  const digits = raw.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
};

const time = z
  .string()
  .refine((value) => value === '' || HH_MM.test(value), 'queues.validation.time');

// SPEC §5 Queue rules. Messages are i18n keys.
export const queueFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .min(2, 'validation.nameLength')
    .max(50, 'validation.nameLength'),
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
  schedules: z.array(
    z.object({
      weekday: z.string(),
      weekdayEn: scheduleSlotSchema.shape.weekdayEn,
      startTime: time,
      endTime: time,
    }),
  ),
});

export type QueueFormValues = z.infer<typeof queueFormSchema>;

// One row per weekday in a fixed order; a queue saved without some day shows it blank.
const schedulesOf = (saved: ScheduleSlot[] | undefined): ScheduleSlot[] => {
  if (!saved?.length) return defaultSchedules();
  return weekdays.map(({ weekday, weekdayEn }) => {
    const slot = saved.find((entry) => entry.weekdayEn === weekdayEn);
    return { weekday, weekdayEn, startTime: slot?.startTime ?? '', endTime: slot?.endTime ?? '' };
  });
};

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
  };
};

export const toQueuePayload = (values: QueueFormValues) => ({
  name: values.name,
  color: normalizeColor(values.color),
  greetingMessage: values.greetingMessage,
  outOfHoursMessage: values.outOfHoursMessage,
  orderQueue: values.orderQueue === '' ? null : Number(values.orderQueue),
  schedules: values.schedules,
});
