import { describe, expect, it } from 'vitest';
import { NO_FILTERS } from '../api/get-class-schedule';
import { activeFilters } from './class-filters';

// The filters themselves run on the server (class_schedule; London days and weeks are tested in
// supabase/tests/class-schedule.test.ts). Here: the chips of the active-filter bar.
describe('activeFilters', () => {
  it('lists the active filters in words', () => {
    expect(activeFilters(NO_FILTERS)).toEqual([]);
    expect(activeFilters({ search: ' yoga ', date: 'week', instructor: 'Coach Bea', type: 'premium' }).map((f) => f.label)).toEqual([
      'Search: "yoga"',
      'This Week',
      'Coach Bea',
      'Premium',
    ]);
  });
});
