import { describe, expect, it } from 'vitest';
import { applyFilter, defaultFilter, toCalendarDate } from './dashboard-filter';

// Local clock times: the filter works in the browser's calendar days.
const march15 = new Date(2025, 2, 15, 10, 0);

describe('dashboard filter', () => {
  it('opens on the first of the month until today, with no period', () => {
    expect(defaultFilter(march15)).toEqual({
      days: 0,
      dateFrom: '2025-03-01',
      dateTo: '2025-03-15',
    });
  });

  it('reads the local calendar day, even just after midnight', () => {
    expect(toCalendarDate(new Date(2025, 2, 1, 0, 5))).toBe('2025-03-01');
    expect(toCalendarDate(new Date(2025, 11, 31, 23, 55))).toBe('2025-12-31');
  });

  it('lets a period in days win over the dates, the charts covering today and the days before', () => {
    expect(applyFilter({ days: 7, dateFrom: '', dateTo: '' }, march15)).toEqual({
      applied: {
        view: { days: 7 },
        charts: { initialDate: '2025-03-09', finalDate: '2025-03-15' },
      },
    });
    // Across a month and a year boundary.
    expect(
      applyFilter(
        { days: 3, dateFrom: '2025-01-01', dateTo: '2025-01-31' },
        new Date(2025, 0, 1, 0, 10),
      ),
    ).toEqual({
      applied: {
        view: { days: 3 },
        charts: { initialDate: '2024-12-30', finalDate: '2025-01-01' },
      },
    });
  });

  it('uses both dates when no period is chosen', () => {
    expect(applyFilter({ days: 0, dateFrom: '2025-02-01', dateTo: '2025-02-28' }, march15)).toEqual(
      {
        applied: {
          view: { date_from: '2025-02-01', date_to: '2025-02-28' },
          charts: { initialDate: '2025-02-01', finalDate: '2025-02-28' },
        },
      },
    );
    expect(
      applyFilter({ days: 0, dateFrom: '2025-02-01', dateTo: '2025-02-01' }, march15),
    ).toHaveProperty('applied');
  });

  it('asks for a filter when a date is missing, and refuses reversed or over-long ranges', () => {
    expect(applyFilter({ days: 0, dateFrom: '', dateTo: '2025-03-15' })).toEqual({
      problem: 'selectFilter',
    });
    expect(applyFilter({ days: 0, dateFrom: '2025-03-01', dateTo: '' })).toEqual({
      problem: 'selectFilter',
    });
    expect(applyFilter({ days: 0, dateFrom: '2025-03-10', dateTo: '2025-03-09' })).toEqual({
      problem: 'datesReversed',
    });
    expect(applyFilter({ days: 0, dateFrom: '2024-01-01', dateTo: '2024-12-31' })).toHaveProperty(
      'applied',
    );
    expect(applyFilter({ days: 0, dateFrom: '2024-01-01', dateTo: '2025-01-01' })).toEqual({
      problem: 'rangeTooLong',
    });
  });
});
