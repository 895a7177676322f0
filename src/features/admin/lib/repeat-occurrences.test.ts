import { describe, expect, it } from 'vitest';
import { MAX_OCCURRENCES, occurrenceDates, occurrenceStartTimes } from './repeat-occurrences';

describe('occurrenceDates', () => {
  it('is the start date alone without a repeat', () => {
    expect(occurrenceDates('2026-05-04', 'none', '2026-06-01')).toEqual(['2026-05-04']);
    expect(occurrenceDates('2026-05-04', 'weekly', '')).toEqual(['2026-05-04']);
  });

  it('repeats daily up to and including the end date', () => {
    expect(occurrenceDates('2026-02-27', 'daily', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  });

  it('repeats weekly on the same weekday, including an end date that is an occurrence', () => {
    expect(occurrenceDates('2026-05-04', 'weekly', '2026-05-25')).toEqual(['2026-05-04', '2026-05-11', '2026-05-18', '2026-05-25']);
    expect(occurrenceDates('2026-05-04', 'weekly', '2026-05-24')).toEqual(['2026-05-04', '2026-05-11', '2026-05-18']);
  });

  it('repeats monthly on the same day of month, clamped to short months without drifting', () => {
    expect(occurrenceDates('2026-01-31', 'monthly', '2026-05-31')).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
    expect(occurrenceDates('2027-12-29', 'monthly', '2028-03-01')).toEqual(['2027-12-29', '2028-01-29', '2028-02-29']);
  });

  it('gives only the start date when the end date equals it', () => {
    expect(occurrenceDates('2026-05-04', 'daily', '2026-05-04')).toEqual(['2026-05-04']);
  });

  it('stops one past the cap so a runaway repeat is detectable', () => {
    expect(occurrenceDates('2026-01-01', 'daily', '2030-01-01')).toHaveLength(MAX_OCCURRENCES + 1);
  });
});

describe('occurrenceStartTimes', () => {
  it('keeps the London wall-clock time across the spring and autumn clock changes', () => {
    // Clocks go forward on 29 Mar 2026 and back on 25 Oct 2026.
    expect(occurrenceStartTimes('2026-03-22', '06:00', 'weekly', '2026-04-05')).toEqual([
      '2026-03-22T06:00:00.000Z',
      '2026-03-29T05:00:00.000Z',
      '2026-04-05T05:00:00.000Z',
    ]);
    expect(occurrenceStartTimes('2026-10-24', '18:30', 'daily', '2026-10-26')).toEqual([
      '2026-10-24T17:30:00.000Z',
      '2026-10-25T18:30:00.000Z',
      '2026-10-26T18:30:00.000Z',
    ]);
  });
});
