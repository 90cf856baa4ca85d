import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { formatCount, formatDayIn, formatMinutes, formatRating } from './dashboard-format';

const minutes = (value: number | null) => formatMinutes(value, i18n.t, 'es');

describe('dashboard formats', () => {
  it('writes average minutes as a person reads them', () => {
    expect(minutes(null)).toBe('—');
    expect(minutes(0)).toBe('0 min');
    expect(minutes(0.1)).toBe('< 1 min');
    expect(minutes(0.99)).toBe('< 1 min');
    expect(minutes(1)).toBe('1 min');
    expect(minutes(12.4)).toBe('12 min');
    expect(minutes(59.4)).toBe('59 min');
    expect(minutes(59.6)).toBe('1 h 00 min');
    expect(minutes(65)).toBe('1 h 05 min');
    expect(minutes(23 * 60 + 59)).toBe('23 h 59 min');
    expect(minutes(24 * 60)).toBe('1 d 0 h');
    expect(minutes(2 * 24 * 60 + 3 * 60 + 10)).toBe('2 d 3 h');
  });

  it('writes numbers and ratings in the page’s language', () => {
    expect(formatCount(12345, 'es')).toBe('12.345');
    expect(formatCount(12345, 'en')).toBe('12,345');
    expect(formatRating(2.5, 'es')).toBe('2,5');
    expect(formatRating(2.33, 'en')).toBe('2.3');
    expect(formatRating(3, 'es')).toBe('3');
  });

  it('names the calendar day an instant falls on in a time zone', () => {
    expect(formatDayIn(new Date('2025-03-01T05:59:59.999Z'), 'America/Mexico_City')).toBe(
      '28/02/2025',
    );
    expect(formatDayIn(new Date('2025-03-01T06:00:00.000Z'), 'America/Mexico_City')).toBe(
      '01/03/2025',
    );
    expect(formatDayIn(new Date(Number.NaN), 'UTC')).toBe('');
  });
});
