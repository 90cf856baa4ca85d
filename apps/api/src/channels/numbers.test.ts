import { describe, expect, it } from 'vitest';
import { numberVariants, isGroupId, normalizeNumber, toJid } from './numbers';

describe('normalizeNumber', () => {
  it('keeps only the digits of a number written any way', () => {
    expect(normalizeNumber('+55 (11) 99999-8888')).toBe('5511999998888');
    expect(normalizeNumber('54 9 11 2233-4455')).toBe('5491122334455');
  });

  it('takes the number out of a JID, dropping the device and agent suffixes', () => {
    expect(normalizeNumber('5511999998888@s.whatsapp.net')).toBe('5511999998888');
    expect(normalizeNumber('5511999998888:12@s.whatsapp.net')).toBe('5511999998888');
    expect(normalizeNumber('5511999998888_1:3@s.whatsapp.net')).toBe('5511999998888');
    expect(normalizeNumber('5511999998888@c.us')).toBe('5511999998888');
  });

  it('adds the ninth digit to a Brazilian mobile written without it', () => {
    expect(normalizeNumber('551188887777')).toBe('5511988887777');
    expect(normalizeNumber('+55 (21) 6888-7777')).toBe('5521968887777');
    expect(normalizeNumber('557188887777@s.whatsapp.net')).toBe('5571988887777');
  });

  it("drops the old mobile '1' of a Mexican number, so 521… and 52… are one contact", () => {
    expect(normalizeNumber('5215512345678@s.whatsapp.net')).toBe('525512345678');
    expect(normalizeNumber('5215512345678:3@s.whatsapp.net')).toBe('525512345678');
    expect(normalizeNumber('+52 1 55 1234 5678')).toBe('525512345678');
    expect(normalizeNumber('525512345678@s.whatsapp.net')).toBe('525512345678');
  });

  it('leaves Brazilian landlines, complete mobiles and other countries alone', () => {
    expect(normalizeNumber('551133334444')).toBe('551133334444');
    expect(normalizeNumber('554152223333')).toBe('554152223333');
    expect(normalizeNumber('5511988887777')).toBe('5511988887777');
    // Not a valid area code (no zeros in Brazilian area codes).
    expect(normalizeNumber('551088887777')).toBe('551088887777');
    expect(normalizeNumber('14155552671')).toBe('14155552671');
    expect(normalizeNumber('351912345678')).toBe('351912345678');
  });
});

describe('numberVariants', () => {
  it('gives the canonical mobile number and the old form without the ninth digit', () => {
    expect(numberVariants('5511988887777')).toEqual(['5511988887777', '551188887777']);
    expect(numberVariants('551188887777')).toEqual(['5511988887777', '551188887777']);
  });

  it("gives a Mexican number and its old form with the mobile '1'", () => {
    expect(numberVariants('525512345678')).toEqual(['525512345678', '5215512345678']);
    expect(numberVariants('5215512345678@s.whatsapp.net')).toEqual([
      '525512345678',
      '5215512345678',
    ]);
  });

  it('gives a single form for landlines and other countries', () => {
    expect(numberVariants('551133334444')).toEqual(['551133334444']);
    expect(numberVariants('+1 415 555 2671')).toEqual(['14155552671']);
  });
});

describe('toJid and isGroupId', () => {
  it('turns numbers and phone JIDs into canonical user JIDs', () => {
    expect(toJid('+55 11 8888-7777')).toBe('5511988887777@s.whatsapp.net');
    expect(toJid('5215512345678@c.us')).toBe('525512345678@s.whatsapp.net');
    expect(toJid('5511999998888:3@s.whatsapp.net')).toBe('5511999998888@s.whatsapp.net');
    expect(toJid('14155552671@c.us')).toBe('14155552671@s.whatsapp.net');
  });

  it('keeps group ids and LIDs', () => {
    expect(toJid('120363025246125486@g.us')).toBe('120363025246125486@g.us');
    expect(toJid('5511999998888-1600000000@g.us')).toBe('5511999998888-1600000000@g.us');
    expect(toJid('5511999998888-1600000000')).toBe('5511999998888-1600000000@g.us');
    expect(toJid('123456789012345@lid')).toBe('123456789012345@lid');
  });

  it('recognises group ids', () => {
    expect(isGroupId('120363025246125486@g.us')).toBe(true);
    expect(isGroupId('5511999998888@s.whatsapp.net')).toBe(false);
    expect(isGroupId('5511999998888')).toBe(false);
  });
});
