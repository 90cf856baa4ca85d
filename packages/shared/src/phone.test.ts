import { getCountries } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import { formatPhone, parseWhatsAppNumber, whatsappNumber, whatsappNumberForms } from './phone';
import { phoneCountries } from './phone-countries';
import { settingOptions } from './settings';

// [typed, company country, stored]
type Case = [string, string | undefined, string];

const stored = (cases: Case[]) =>
  cases.map(([typed, country]) => [typed, country, parseWhatsAppNumber(typed, country)]);
const expected = (cases: Case[]) =>
  cases.map(([typed, country, number]) => [typed, country, { ok: true, number }]);

describe('parseWhatsAppNumber', () => {
  it('reads Mexican numbers as 52 and the 10 digits, with or without the old mobile 1', () => {
    const cases: Case[] = [
      ['55 1234 5678', 'MX', '525512345678'],
      ['(55) 1234-5678', 'MX', '525512345678'],
      ['5512345678', 'MX', '525512345678'],
      ['33 1234 5678', 'MX', '523312345678'],
      // The mobile '1' (dropped in 2019) and the old national prefixes people still type.
      ['1 55 1234 5678', 'MX', '525512345678'],
      ['044 55 1234 5678', 'MX', '525512345678'],
      ['045 55 1234 5678', 'MX', '525512345678'],
      ['01 55 1234 5678', 'MX', '525512345678'],
      ['+52 1 55 1234 5678', undefined, '525512345678'],
      ['5215512345678', undefined, '525512345678'],
      ['5215512345678', 'MX', '525512345678'],
      ['+52 55 1234 5678', 'AR', '525512345678'],
      ['525512345678', 'MX', '525512345678'],
      ['52 55 1234 5678', undefined, '525512345678'],
    ];
    expect(stored(cases)).toEqual(expected(cases));
  });

  it('puts the 9 Argentine mobiles need on WhatsApp, from the 15 typed locally', () => {
    const cases: Case[] = [
      ['011 15 1234-5678', 'AR', '5491112345678'],
      ['11 15 1234 5678', 'AR', '5491112345678'],
      ['(011) 15-1234-5678', 'AR', '5491112345678'],
      ['0351 15 123 4567', 'AR', '5493511234567'],
      ['+54 11 15 1234 5678', undefined, '5491112345678'],
      ['+54 9 11 1234 5678', 'MX', '5491112345678'],
      ['5491112345678', 'AR', '5491112345678'],
      ['5491112345678', undefined, '5491112345678'],
      // A landline (no 15, no 9) stays one.
      ['011 4321-1234', 'AR', '541143211234'],
      ['+54 11 4321 1234', undefined, '541143211234'],
    ];
    expect(stored(cases)).toEqual(expected(cases));
  });

  it('gives Brazilian mobiles their ninth digit, as the ingest does', () => {
    const cases: Case[] = [
      ['(11) 98888-7777', 'BR', '5511988887777'],
      ['11 8888 7777', 'BR', '5511988887777'],
      ['+55 (11) 8888-7777', undefined, '5511988887777'],
      ['+55 21 6888-7777', 'CO', '5521968887777'],
      ['551188887777', undefined, '5511988887777'],
      ['5511988887777', 'BR', '5511988887777'],
      // Landlines keep their eight digits.
      ['(11) 3333-4444', 'BR', '551133334444'],
      ['+55 41 5222 3333', undefined, '554152223333'],
    ];
    expect(stored(cases)).toEqual(expected(cases));
  });

  it('reads Colombian mobiles and landlines', () => {
    const cases: Case[] = [
      ['300 123 4567', 'CO', '573001234567'],
      ['3001234567', 'CO', '573001234567'],
      ['(601) 234 5678', 'CO', '576012345678'],
      ['+57 300 123 4567', undefined, '573001234567'],
      ['573001234567', 'CO', '573001234567'],
    ];
    expect(stored(cases)).toEqual(expected(cases));
  });

  it("ignores the company's country for a number written with + or 00 and its country code", () => {
    const cases: Case[] = [
      ['+1 415 555 2671', 'MX', '14155552671'],
      ['00 57 300 123 4567', 'MX', '573001234567'],
      ['0057 300 1234567', 'BR', '573001234567'],
      ['0052 55 1234 5678', 'CO', '525512345678'],
      ['+34 600 11 12 22', 'AR', '34600111222'],
      ['00 351 912 345 678', undefined, '351912345678'],
      ['+44 7911 123456', 'US', '447911123456'],
    ];
    expect(stored(cases)).toEqual(expected(cases));
  });

  it('takes digits that start with a country code when they are no local number', () => {
    const cases: Case[] = [
      ['14155552671', undefined, '14155552671'],
      ['5511988887777', 'MX', '5511988887777'],
      ['573001234567', 'AR', '573001234567'],
      ['351912345678', 'BR', '351912345678'],
    ];
    expect(stored(cases)).toEqual(expected(cases));
  });

  it('asks for the country code when the company has no country', () => {
    for (const typed of ['55 1234 5678', '(11) 98888-7777', '011 15 1234-5678', '300 123 4567'])
      expect(parseWhatsAppNumber(typed)).toEqual({ ok: false, reason: 'country-needed' });
    expect(parseWhatsAppNumber('300 123 4567', '')).toEqual({
      ok: false,
      reason: 'country-needed',
    });
    // An unknown country is no country.
    expect(parseWhatsAppNumber('300 123 4567', 'ZZ')).toEqual({
      ok: false,
      reason: 'country-needed',
    });
  });

  it('refuses what is no phone number', () => {
    const refused: [string, string | undefined][] = [
      ['', 'MX'],
      ['abc', 'MX'],
      ['123', 'MX'],
      ['55 1234', 'MX'],
      ['55 1234 5678 9', 'MX'],
      ['55 1234 5678 abc', 'MX'],
      ['tel: 55 1234 5678', 'MX'],
      ['55 1234 5678 ext. 12', 'MX'],
      ['+', undefined],
      ['+1', undefined],
      ['+52 1234', 'MX'],
      ['+999 1234 5678', 'MX'],
      ['00 999 1234 5678', undefined],
      ['+55 11 1234', 'BR'],
      ['12345678901234567', 'MX'],
      ['5511999998888@s.whatsapp.net', 'BR'],
      ['120363025246125486@g.us', undefined],
      ['123456789012345@lid', 'MX'],
    ];
    for (const [typed, country] of refused)
      expect([typed, parseWhatsAppNumber(typed, country).ok]).toEqual([typed, false]);
    expect(parseWhatsAppNumber('55 1234', 'MX')).toEqual({ ok: false, reason: 'invalid' });
    expect(parseWhatsAppNumber('+999 1234 5678')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('formatPhone', () => {
  it('writes stored numbers in the international format', () => {
    expect(formatPhone('525512345678')).toBe('+52 55 1234 5678');
    expect(formatPhone('5491112345678')).toBe('+54 9 11 1234 5678');
    expect(formatPhone('5511988887777')).toBe('+55 11 98888 7777');
    expect(formatPhone('551133334444')).toBe('+55 11 3333 4444');
    expect(formatPhone('573001234567')).toBe('+57 300 1234567');
    expect(formatPhone('14155552671')).toBe('+1 415 555 2671');
    expect(formatPhone('80011888800')).toBe('+800 1188 8800');
  });

  it("writes a number stored in WhatsApp's old forms as the person's number", () => {
    expect(formatPhone('5215512345678')).toBe('+52 55 1234 5678');
    expect(formatPhone('551188887777')).toBe('+55 11 98888 7777');
  });

  it('keeps group ids and LIDs, and only adds + to digits no country reads', () => {
    expect(formatPhone('120363025246125486@g.us')).toBe('120363025246125486@g.us');
    expect(formatPhone('123456789012345@lid')).toBe('123456789012345@lid');
    expect(formatPhone('5511999998888-1600000000')).toBe('5511999998888-1600000000');
    expect(formatPhone('9991100000001')).toBe('+9991100000001');
    expect(formatPhone('')).toBe('');
  });

  it('reads back as the number it shows', () => {
    for (const number of ['525512345678', '5491112345678', '5511988887777', '573001234567'])
      expect(parseWhatsAppNumber(formatPhone(number), 'US')).toEqual({ ok: true, number });
  });
});

describe('whatsappNumber and whatsappNumberForms', () => {
  it('keeps one form per person: ninth digit in Brazil, no mobile 1 in Mexico', () => {
    expect(whatsappNumber('551188887777')).toBe('5511988887777');
    expect(whatsappNumber('5215512345678')).toBe('525512345678');
    expect(whatsappNumber('525512345678')).toBe('525512345678');
    expect(whatsappNumber('5491112345678')).toBe('5491112345678');
    expect(whatsappNumber('551133334444')).toBe('551133334444');
  });

  it('lists the forms WhatsApp may hold a number under, the stored one first', () => {
    expect(whatsappNumberForms('5511988887777')).toEqual(['5511988887777', '551188887777']);
    expect(whatsappNumberForms('5215512345678')).toEqual(['525512345678', '5215512345678']);
    expect(whatsappNumberForms('525512345678')).toEqual(['525512345678', '5215512345678']);
    expect(whatsappNumberForms('5491112345678')).toEqual(['5491112345678']);
    expect(whatsappNumberForms('14155552671')).toEqual(['14155552671']);
  });
});

describe('phoneCountries', () => {
  it('are the countries libphonenumber-js reads numbers of, and what Settings offers', () => {
    expect([...phoneCountries].sort()).toEqual([...getCountries()].sort());
    expect(settingOptions.country).toEqual(['', ...phoneCountries]);
  });
});
