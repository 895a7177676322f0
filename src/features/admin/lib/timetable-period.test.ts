import { describe, expect, it } from 'vitest';
import { defaultTimetablePeriod, timetablePeriodError } from './timetable-period';

describe('defaultTimetablePeriod', () => {
  it('starts on the next Monday in London and runs for eight weeks', () => {
    // Wednesday 6 May 2026, 10:00 London.
    expect(defaultTimetablePeriod(new Date('2026-05-06T09:00:00Z'))).toEqual({ start: '2026-05-11', end: '2026-07-05' });
    // Sunday 23:30 UTC is already Monday 00:30 in London (BST): the next Monday is a week later.
    expect(defaultTimetablePeriod(new Date('2026-05-10T23:30:00Z'))).toEqual({ start: '2026-05-18', end: '2026-07-12' });
  });
});

describe('timetablePeriodError', () => {
  it('refuses an end before the start and periods over a year', () => {
    expect(timetablePeriodError('2026-05-11', '2026-05-10')).toBe('The end date must not be before the start date');
    expect(timetablePeriodError('2026-01-01', '2027-01-03')).toMatch(/at most 366 days/);
    expect(timetablePeriodError('2026-05-11', '2026-05-11')).toBeNull();
  });
});
