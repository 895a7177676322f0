import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter } from './change-filter';

describe('realtime filters', () => {
  it('parses eq/in filters and refuses malformed ones', () => {
    expect(parseFilter(undefined)).toBeNull();
    expect(parseFilter('id=eq.abc')).toEqual({ column: 'id', op: 'eq', value: 'abc' });
    expect(parseFilter('n=in.(1,2, 3)')).toEqual({ column: 'n', op: 'in', value: ['1', '2', '3'] });
    expect(parseFilter('id=like.x')).toBe('invalid');
  });

  it('matches rows as Realtime does', () => {
    const row = { id: 'a1', spots_left: 7 };
    expect(matchesFilter(parseFilter('id=eq.a1') as never, row)).toBe(true);
    expect(matchesFilter(parseFilter('id=eq.a2') as never, row)).toBe(false);
    expect(matchesFilter(parseFilter('spots_left=gt.5') as never, row)).toBe(true);
    expect(matchesFilter(parseFilter('spots_left=lt.10') as never, row)).toBe(true);
    expect(matchesFilter(parseFilter('spots_left=in.(1,7)') as never, row)).toBe(true);
    expect(matchesFilter(parseFilter('spots_left=neq.7') as never, row)).toBe(false);
    expect(matchesFilter(parseFilter('id=eq.a1') as never, null)).toBe(false);
  });
});
