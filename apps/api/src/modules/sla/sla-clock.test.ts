import { describe, expect, it } from 'vitest';
import type { ScheduleSlot } from '@atendi/shared';
import { addBusinessMinutes } from './sla-clock';

const weekdays = (startTime: string, endTime: string): ScheduleSlot[] =>
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekdayEn) => ({
    weekday: weekdayEn,
    weekdayEn,
    startTime,
    endTime,
  }));

describe('addBusinessMinutes', () => {
  it('counts around the clock for a queue without hours', () => {
    const start = new Date('2026-03-06T22:00:00Z');
    expect(addBusinessMinutes(start, 90, [], 'America/Bogota').toISOString()).toBe(
      '2026-03-06T23:30:00.000Z',
    );
  });

  it('stops the clock outside the hours, across the night and the weekend, in the company’s zone', () => {
    // Friday 2026-03-06 16:30 in Bogotá (UTC−5); open 09:00–17:00 on weekdays: 30 minutes on
    // Friday, the other 30 on Monday from 09:00.
    const friday = new Date('2026-03-06T21:30:00Z');
    expect(addBusinessMinutes(friday, 60, weekdays('09:00', '17:00'), 'America/Bogota')).toEqual(
      new Date('2026-03-09T14:30:00Z'),
    );
    // The same instant is Saturday 06:30 in Tokyo: nothing counts until Monday 09:00 there.
    expect(addBusinessMinutes(friday, 60, weekdays('09:00', '17:00'), 'Asia/Tokyo')).toEqual(
      new Date('2026-03-09T01:00:00Z'),
    );
    // Before the day opens, the clock starts at opening time.
    const early = new Date('2026-03-09T12:00:00Z'); // Monday 07:00 in Bogotá
    expect(addBusinessMinutes(early, 15, weekdays('09:00', '17:00'), 'America/Bogota')).toEqual(
      new Date('2026-03-09T14:15:00Z'),
    );
  });

  it('keeps wall-clock hours across a daylight-saving change', () => {
    // Santiago moves from UTC−3 to UTC−4 on 2026-04-05: Friday 16:00 local (19:00Z) plus 3 business
    // hours of 09:00–18:00 ends Monday 10:00 local, now 14:00Z.
    const friday = new Date('2026-04-03T19:00:00Z');
    expect(addBusinessMinutes(friday, 180, weekdays('09:00', '18:00'), 'America/Santiago')).toEqual(
      new Date('2026-04-06T14:00:00Z'),
    );
  });

  it('counts around the clock when every day is closed', () => {
    const start = new Date('2026-03-06T10:00:00Z');
    expect(addBusinessMinutes(start, 10, weekdays('00:00', '00:00'), 'UTC')).toEqual(
      new Date('2026-03-06T10:10:00Z'),
    );
  });
});
