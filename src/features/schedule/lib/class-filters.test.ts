import { describe, expect, it } from 'vitest';
import { makeClass } from '@/testing/supabase-mocks';
import { activeFilters, filterClasses, NO_FILTERS, summarize } from './class-filters';

describe('filterClasses', () => {
  // Sunday 26 Oct 2025, the day BST ends; 12:00 UTC = 12:00 GMT.
  const now = new Date('2025-10-26T12:00:00Z');
  const lateSaturday = makeClass({ name: 'Late Sat', start_time: '2025-10-25T22:30:00Z' }); // 23:30 BST Sat
  const earlySunday = makeClass({ name: 'Early Sun', start_time: '2025-10-25T23:30:00Z' }); // 00:30 BST Sun
  const lateSunday = makeClass({ name: 'Late Sun', start_time: '2025-10-26T23:30:00Z' }); // 23:30 GMT Sun
  const monday = makeClass({ name: 'Mon', start_time: '2025-10-27T00:00:00Z', trainer: 'Coach Bea', is_premium: true });
  const saturday = makeClass({ name: 'Sat', start_time: '2025-11-01T23:59:00Z' }); // 23:59 GMT Sat
  const nextSunday = makeClass({ name: 'Next Sun', start_time: '2025-11-02T00:00:00Z' });
  const all = [lateSaturday, earlySunday, lateSunday, monday, saturday, nextSunday];
  const names = (rows: typeof all) => rows.map((r) => r.name);

  it('today is the London day, 25 hours long when the clocks go back', () => {
    expect(names(filterClasses(all, { ...NO_FILTERS, date: 'today' }, now))).toEqual(['Early Sun', 'Late Sun']);
  });
  it('tomorrow starts at London midnight', () => {
    expect(names(filterClasses(all, { ...NO_FILTERS, date: 'tomorrow' }, now))).toEqual(['Mon']);
  });
  it('this week runs Sunday to Saturday', () => {
    expect(names(filterClasses(all, { ...NO_FILTERS, date: 'week' }, now))).toEqual(['Early Sun', 'Late Sun', 'Mon', 'Sat']);
  });
  it('searches name, trainer and description, and filters by instructor and type', () => {
    expect(names(filterClasses(all, { ...NO_FILTERS, search: 'bea' }, now))).toEqual(['Mon']);
    expect(names(filterClasses(all, { ...NO_FILTERS, search: 'LATE' }, now))).toEqual(['Late Sat', 'Late Sun']);
    expect(names(filterClasses(all, { ...NO_FILTERS, instructor: 'Coach Bea' }, now))).toEqual(['Mon']);
    expect(filterClasses(all, { ...NO_FILTERS, type: 'premium' }, now)).toHaveLength(1);
    expect(filterClasses(all, { ...NO_FILTERS, type: 'standard' }, now)).toHaveLength(5);
  });
  it('lists active filters and sums the tiles', () => {
    expect(activeFilters(NO_FILTERS)).toEqual([]);
    expect(activeFilters({ search: ' yoga ', date: 'week', instructor: 'Coach Bea', type: 'premium' }).map((f) => f.label)).toEqual([
      'Search: "yoga"',
      'This Week',
      'Coach Bea',
      'Premium',
    ]);
    const rows = [makeClass({ spots_left: 3, trainer: 'A' }), makeClass({ spots_left: 0, trainer: 'B' }), makeClass({ spots_left: 5, trainer: 'A' })];
    expect(summarize(rows, rows.slice(0, 1))).toEqual({ totalClasses: 3, availableSpots: 8, instructors: 2, showing: 1 });
  });
});
