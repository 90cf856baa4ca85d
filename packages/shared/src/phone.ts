import {
  isSupportedCountry,
  parsePhoneNumberFromString,
  parsePhoneNumberWithError,
  type CountryCode,
} from 'libphonenumber-js/min';

// Phone numbers as people type them and as WhatsApp knows them. WhatsApp addresses a person by the
// digits of their number with the country code first and no '+' ('5215512345678' is Mexico's old
// form of '525512345678'); that is how contacts are stored. libphonenumber-js reads what people type,
// with the 'min' metadata: it checks each country's lengths and leading digits (WhatsApp itself says
// whether a number has an account), at half the size of the full metadata. The web loads this module
// only when it first shows a number (apps/web/src/lib/phone.ts), so the inbox's first load stays small.

// 55 + area code (two digits, no zeros) + an 8-digit mobile number written before the ninth digit.
const BRAZIL_OLD_MOBILE = /^55([1-9][1-9])([6-9]\d{7})$/;
// 55 + area code + 9 + the 8-digit mobile number.
const BRAZIL_MOBILE = /^55([1-9][1-9])9([6-9]\d{7})$/;
// 52 + 1 + 10 digits: Mexico's mobiles before the '1' was dropped (2019); WhatsApp still reports some
// accounts under it.
const MEXICO_OLD_MOBILE = /^521(\d{10})$/;
// 52 + the 10 digits of a Mexican number.
const MEXICO_NUMBER = /^52(\d{10})$/;
// 52 + Mexico's old national prefixes typed before a number (044/045 mobile, 01 long distance).
const MEXICO_OLD_PREFIX = /^52(?:044|045|01)(\d{10})$/;

// The one form a person's number is stored under: a Brazilian mobile gains its ninth digit, a Mexican
// mobile loses the old '1'. Digits with the country code in, digits out; any other number is kept.
// The ingest pipeline runs this on every inbound number, so it is a few regular expressions, no more.
export const whatsappNumber = (digits: string): string => {
  const brazil = BRAZIL_OLD_MOBILE.exec(digits);
  if (brazil) return `55${brazil[1]}9${brazil[2]}`;
  const mexico = MEXICO_OLD_MOBILE.exec(digits);
  return mexico ? `52${mexico[1]}` : digits;
};

// Every form WhatsApp may hold one person's number under, the stored one first: Brazilian mobiles
// still registered without the ninth digit, Mexican numbers still registered with the old '1'.
export const whatsappNumberForms = (digits: string): string[] => {
  const stored = whatsappNumber(digits);
  const brazil = BRAZIL_MOBILE.exec(stored);
  if (brazil) return [stored, `55${brazil[1]}${brazil[2]}`];
  const mexico = MEXICO_NUMBER.exec(stored);
  return mexico ? [stored, `521${mexico[1]}`] : [stored];
};

export type WhatsAppNumberParse =
  | { ok: true; number: string }
  // invalid: not a phone number (of the company's country, nor with a country code);
  // country-needed: no country code, and the company has no country to read it as local.
  | { ok: false; reason: 'invalid' | 'country-needed' };

const isValidInternational = (digits: string) =>
  parsePhoneNumberFromString(`+${digits}`)?.isValid() ?? false;

// The stored digits of `text` read as a number of `country` (or, without one, starting with its
// country code after '+'), or undefined when it is none.
const readNumber = (text: string, country?: CountryCode) => {
  let parsed;
  try {
    parsed = parsePhoneNumberWithError(text, { defaultCountry: country, extract: false });
  } catch {
    return undefined;
  }
  // WhatsApp cannot dial an extension.
  if (parsed.ext) return undefined;
  const digits = whatsappNumber(
    `${parsed.countryCallingCode}${parsed.nationalNumber}`.replace(MEXICO_OLD_PREFIX, '52$1'),
  );
  return isValidInternational(digits) ? digits : undefined;
};

// A number someone typed, as WhatsApp needs it ('55 1234 5678' in Mexico → '525512345678'). With '+'
// or '00' it starts with its country code, whatever the company's country. Otherwise it is read as a
// local number of `defaultCountry` (the company's), and else as digits starting with the country code
// (as WhatsApp, spreadsheets and most systems write them: '5491112345678').
export const parseWhatsAppNumber = (
  input: string,
  defaultCountry?: string | null,
): WhatsAppNumberParse => {
  const text = input.trim();
  const country = defaultCountry && isSupportedCountry(defaultCountry) ? defaultCountry : undefined;
  const ok = (number: string) => ({ ok: true, number }) as const;
  // '00' is the international prefix nearly everywhere: the country code follows, as after '+'.
  const international = /^(\+|00)/.exec(text);
  if (international) {
    const number = readNumber(`+${text.slice(international[0].length)}`);
    return number ? ok(number) : { ok: false, reason: 'invalid' };
  }
  const local = country ? readNumber(text, country) : undefined;
  if (local) return ok(local);
  const withCode = /^\d/.test(text) ? readNumber(`+${text}`) : undefined;
  if (withCode) return ok(withCode);
  return { ok: false, reason: country ? 'invalid' : 'country-needed' };
};

// A stored number as people read it: '525512345678' → '+52 55 1234 5678'. Group ids and LIDs (not
// digits) are kept as they are; digits no country reads as a number get a '+' and nothing else.
export const formatPhone = (number: string): string => {
  if (!/^\d+$/.test(number)) return number;
  const parsed = parsePhoneNumberFromString(`+${whatsappNumber(number)}`);
  return parsed?.isValid() ? parsed.formatInternational() : `+${number}`;
};
