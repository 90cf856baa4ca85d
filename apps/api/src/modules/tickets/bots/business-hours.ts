import type { ScheduleSlot } from '@atendi/shared';

// Service hours (SPEC §3 company/queue schedules): one slot per weekday, "HH:MM" start and end, read
// in the configured time zone. A day whose end is not after its start is closed (the default Sunday
// is 00:00–00:00); no slots at all means always open.

const minutesOf = (hhmm: string) => {
  const match = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!match) return undefined;
  return Number(match[1]) * 60 + Number(match[2]);
};

// Building a formatter costs ~50 µs (every inbound message and campaign message asks): one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterFor = (timeZone: string) => {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
};

export const localTime = (now: Date, timeZone: string) => {
  const parts = formatterFor(timeZone).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    weekdayEn: part('weekday').toLowerCase(),
    hour: Number(part('hour')),
    minutes: Number(part('hour')) * 60 + Number(part('minute')),
  };
};

export const isOpenAt = (slots: ScheduleSlot[], now: Date, timeZone: string) => {
  if (!slots.length) return true;
  const { weekdayEn, minutes } = localTime(now, timeZone);
  const today = slots.find((slot) => slot.weekdayEn.toLowerCase() === weekdayEn);
  if (!today) return false;
  const start = minutesOf(today.startTime);
  const end = minutesOf(today.endTime);
  if (start === undefined || end === undefined || end <= start) return false;
  return minutes >= start && minutes < end;
};
