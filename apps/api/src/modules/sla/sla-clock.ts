import type { ScheduleSlot } from '@atendi/shared';

// When an SLA target falls due: `minutes` after `start`, counted only within the queue's hours when it
// has any (its weekly slots, read in the company's time zone), else around the clock. A week of slots
// with no open day counts around the clock too (there is no moment it could fall due otherwise).

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const minutesOf = (hhmm: string) => {
  const match = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
};

const formatters = new Map<string, Intl.DateTimeFormat>();
const wallClock = (instant: number, timeZone: string) => {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(
    formatter.formatToParts(instant).map((part) => [part.type, Number(part.value)]),
  );
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
};

// The instant a zone's clock shows `wall` (a wall-clock time written as if it were UTC); in a
// daylight-saving gap, the instant just after it.
const instantOf = (wall: number, timeZone: string) => {
  const guess = wall - (wallClock(wall, timeZone) - wall);
  return wall - (wallClock(guess, timeZone) - guess);
};

export const addBusinessMinutes = (
  start: Date,
  minutes: number,
  slots: readonly ScheduleSlot[],
  timeZone: string,
): Date => {
  const open = new Map<number, [number, number]>();
  for (const slot of slots) {
    const day = WEEKDAYS.indexOf(slot.weekdayEn.toLowerCase());
    const from = minutesOf(slot.startTime);
    const to = minutesOf(slot.endTime);
    if (day >= 0 && from !== undefined && to !== undefined && to > from) open.set(day, [from, to]);
  }
  if (!open.size) return new Date(start.getTime() + minutes * MINUTE_MS);
  let remaining = minutes * MINUTE_MS;
  const startWall = wallClock(start.getTime(), timeZone);
  const firstDay = Math.floor(startWall / DAY_MS) * DAY_MS;
  // At most a year of days: every week has an open day, so the target falls within it.
  for (let day = firstDay; day < firstDay + 380 * DAY_MS; day += DAY_MS) {
    const window = open.get(new Date(day).getUTCDay());
    if (!window) continue;
    const opens = instantOf(day + window[0] * MINUTE_MS, timeZone);
    const closes = instantOf(day + window[1] * MINUTE_MS, timeZone);
    const from = Math.max(opens, start.getTime());
    if (from >= closes) continue;
    if (remaining <= closes - from) return new Date(from + remaining);
    remaining -= closes - from;
  }
  return new Date(start.getTime() + minutes * MINUTE_MS);
};
