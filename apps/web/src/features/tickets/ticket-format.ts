import { formatDate, parseDate } from '../../lib/dates';

const pad = (value: number) => String(value).padStart(2, '0');

const isSameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() &&
  a.getMonth() === b.getMonth() &&
  a.getDate() === b.getDate();

// SPEC §9: messages show HH:mm.
export const formatTime = (value: string | null | undefined) => {
  const date = parseDate(value);
  return date ? `${pad(date.getHours())}:${pad(date.getMinutes())}` : '';
};

// SPEC §9: a list shows the time for today, the date otherwise.
export const formatListTime = (value: string | null | undefined, now = new Date()) => {
  const date = parseDate(value);
  if (!date) return '';
  return isSameDay(date, now) ? formatTime(value) : formatDate(date);
};

// SPEC §9 "prefix the sender's name": WhatsApp shows *text* in bold.
export const signedBody = (userName: string, text: string) => `*${userName}:*\n${text}`;

export const initialOf = (name: string) => name.trim().charAt(0).toUpperCase() || '#';

// Location bodies read "lat,lng" on the first line, then the place's name and address.
export const parseLocation = (body: string) => {
  const [first = '', ...details] = body.split('\n');
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(first);
  if (!match) return { mapUrl: null, details: body.split('\n').filter(Boolean) };
  return {
    mapUrl: `https://maps.google.com/maps?q=${match[1]},${match[2]}`,
    details: details.filter(Boolean),
  };
};

// The names and numbers of one or more vCards; a body that is not a vCard reads as a name.
export const parseVcards = (body: string) => {
  const cards: { name: string; numbers: string[] }[] = [];
  let current: { name: string; numbers: string[] } | null = null;
  for (const line of body.split(/\r?\n/)) {
    if (/^BEGIN:VCARD/i.test(line)) current = { name: '', numbers: [] };
    else if (/^END:VCARD/i.test(line)) {
      if (current) cards.push(current);
      current = null;
    } else if (current && /^FN[:;]/i.test(line)) current.name = line.slice(line.indexOf(':') + 1);
    else if (current && /^(item\d+\.)?TEL[:;]/i.test(line)) {
      current.numbers.push(line.slice(line.indexOf(':') + 1));
    }
  }
  return cards.length ? cards : [{ name: body.trim(), numbers: [] }];
};

// SPEC §9: the sign option is on by default and remembered in the browser as signOption.
const SIGN_OPTION_KEY = 'signOption';

export const readSignOption = () => {
  try {
    return window.localStorage.getItem(SIGN_OPTION_KEY) !== 'false';
  } catch {
    return true;
  }
};

export const writeSignOption = (isOn: boolean) => {
  try {
    window.localStorage.setItem(SIGN_OPTION_KEY, String(isOn));
  } catch {
    // Ignored: the choice simply is not remembered.
  }
};
