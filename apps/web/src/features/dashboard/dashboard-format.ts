import type { TFunction } from 'i18next';
import { formatDate } from '../../lib/dates';
import { toCalendarDate } from './dashboard-filter';

const MINUTES_PER_HOUR = 60;
const HOURS_PER_DAY = 24;

export const formatCount = (value: number, language: string) =>
  new Intl.NumberFormat(language).format(value);

// A rating (0 to 3) with one decimal in the page's language: 2.5 → "2,5" in Spanish.
export const formatRating = (value: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value);

// Minutes as the report gives them, one decimal, in the page's language; "—" when not measured.
export const formatTenths = (value: number | null, language: string) =>
  value === null
    ? '—'
    : new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value);

// An average in minutes, as a person reads it: "12 min", "1 h 05 min", "2 d 3 h"; "—" when nothing
// was measured, "< 1 min" for a few seconds (0 only when it really is 0).
export const formatMinutes = (minutes: number | null, t: TFunction, language: string) => {
  if (minutes === null || !Number.isFinite(minutes)) return '—';
  if (minutes > 0 && minutes < 1) return t('dashboard.duration.underMinute');
  const total = Math.max(0, Math.round(minutes));
  if (total < MINUTES_PER_HOUR) return t('dashboard.duration.minutes', { minutes: total });
  if (total < MINUTES_PER_HOUR * HOURS_PER_DAY)
    return t('dashboard.duration.hours', {
      hours: Math.floor(total / MINUTES_PER_HOUR),
      minutes: String(total % MINUTES_PER_HOUR).padStart(2, '0'),
    });
  const hours = Math.round(total / MINUTES_PER_HOUR);
  return t('dashboard.duration.days', {
    days: formatCount(Math.floor(hours / HOURS_PER_DAY), language),
    hours: hours % HOURS_PER_DAY,
  });
};

// The calendar day an instant falls on in a time zone: its year, month and day, two digits each.
const dayPartsIn = (instant: Date, timeZone: string) => {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((item) => item.type === type)?.value ?? '';
  return { year: part('year'), month: part('month'), day: part('day') };
};

// The calendar day an instant falls on in the company's time zone, as dd/MM/yyyy (SPEC §9).
export const formatDayIn = (instant: Date, timeZone: string) => {
  try {
    const { year, month, day } = dayPartsIn(instant, timeZone);
    return `${day}/${month}/${year}`;
  } catch {
    // An unknown time zone or instant: the browser's own calendar.
    return formatDate(instant);
  }
};

// The same day as YYYY-MM-DD (file names).
export const isoDayIn = (instant: Date, timeZone: string) => {
  try {
    const { year, month, day } = dayPartsIn(instant, timeZone);
    return `${year}-${month}-${day}`;
  } catch {
    return toCalendarDate(instant);
  }
};
