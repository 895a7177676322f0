import { describe, expect, it } from 'vitest';
import { containsPattern, pageRange, searchFilter } from './paging';

describe('admin paging', () => {
  it('gives PostgREST inclusive ranges of 50 rows', () => {
    expect(pageRange(0)).toEqual([0, 49]);
    expect(pageRange(2)).toEqual([100, 149]);
  });

  it('quotes the search and escapes LIKE wildcards and quotes', () => {
    expect(containsPattern('sam')).toBe('"*sam*"');
    expect(containsPattern('first_last')).toBe('"*first\\\\_last*"');
    expect(containsPattern('50%')).toBe('"*50\\\\%*"');
    expect(containsPattern('a "b", (c)')).toBe('"*a \\"b\\", (c)*"');
  });

  it('ORs an ilike per column over the trimmed term', () => {
    expect(searchFilter(['name', 'email'], '  kids ')).toBe('name.ilike."*kids*",email.ilike."*kids*"');
  });
});
