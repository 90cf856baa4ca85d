const DAY_MS = 24 * 60 * 60 * 1000;

const pad = (value: number) => String(value).padStart(2, '0');

export const parseDate = (value: string | Date | null | undefined): Date | null => {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

// SPEC §9: dates are shown as dd/MM/yyyy.
export const formatDate = (value: string | Date | null | undefined): string => {
  const date = parseDate(value);
  if (!date) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
};

// Whole days from now until the date, rounded; negative once it has passed.
export const daysUntil = (value: string | Date | null | undefined, now = new Date()) => {
  const date = parseDate(value);
  if (!date) return null;
  return Math.round((date.getTime() - now.getTime()) / DAY_MS);
};

// dd/MM/yyyy (SPEC §9) followed by the local time.
export const formatDateTime = (value: string | Date | null | undefined): string => {
  const date = parseDate(value);
  if (!date) return '';
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
};
