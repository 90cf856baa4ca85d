import { z } from 'zod';
import {
  defaultSchedules,
  hhmm,
  scheduleSlotSchema,
  weekdays,
  type ScheduleSlot,
} from '@atendi/shared';

// SPEC §5 schedules: hour fields take an HH:MM mask.
export const maskTime = (input: string) => {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
};

// A blank hour means no service that day.
const isTimeOrEmpty = (value: string) => value === '' || hhmm.safeParse(value).success;

// The form's rows; each screen names its own message (an i18n key) for an impossible hour.
export const scheduleRowsSchema = (invalidTimeMessage: string) => {
  const time = z.string().refine(isTimeOrEmpty, invalidTimeMessage);
  return z.array(
    z.object({
      weekday: z.string(),
      weekdayEn: scheduleSlotSchema.shape.weekdayEn,
      startTime: time,
      endTime: time,
    }),
  );
};

// Every weekday once, in order, with what was saved for it (blank when nothing). Nothing saved at
// all (a new queue, connection or company) shows SPEC §9's default hours, the same everywhere.
export const scheduleRowsFor = (saved: ScheduleSlot[] | undefined) =>
  weekdays.map(({ weekday, weekdayEn }) => {
    const slot = (saved?.length ? saved : defaultSchedules()).find(
      (item) => item.weekdayEn === weekdayEn,
    );
    return { weekday, weekdayEn, startTime: slot?.startTime ?? '', endTime: slot?.endTime ?? '' };
  });
