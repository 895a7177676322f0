import { describe, expect, it } from 'vitest';
import { makeClass } from '@/testing/supabase-mocks';
import { groupByDay } from './class-days';

describe('groupByDay', () => {
  it('groups by the London day, not the UTC one', () => {
    const days = groupByDay([
      makeClass({ id: 'a', start_time: '2030-07-01T06:00:00Z' }),
      // 23:30 UTC on 1 July is 00:30 on 2 July in London (BST).
      makeClass({ id: 'b', start_time: '2030-07-01T23:30:00Z' }),
      makeClass({ id: 'c', start_time: '2030-07-02T08:00:00Z' }),
      makeClass({ id: 'd', start_time: '2030-12-02T23:30:00Z' }),
    ]);
    expect(days.map((d) => [d.heading, d.classes.map((c) => c.id)])).toEqual([
      ['Monday 1 Jul', ['a']],
      ['Tuesday 2 Jul', ['b', 'c']],
      ['Monday 2 Dec', ['d']],
    ]);
  });

  it('gives no days for no classes', () => {
    expect(groupByDay([])).toEqual([]);
  });
});
