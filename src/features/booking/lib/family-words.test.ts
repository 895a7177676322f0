import { describe, expect, it } from 'vitest';
import { ageRangeText, takesChildren } from './class-facts';
import { listOfNames } from './list-of-names';

describe("a class's age range", () => {
  it('takes children only with a range; without one it is for adults', () => {
    expect(takesChildren({ min_age: null, max_age: null })).toBe(false);
    expect(takesChildren({ min_age: undefined, max_age: undefined })).toBe(false);
    expect(takesChildren({ min_age: 4, max_age: 12 })).toBe(true);
    expect(takesChildren({ min_age: null, max_age: 8 })).toBe(true);
  });

  it('says the range in words', () => {
    expect(ageRangeText({ min_age: 4, max_age: 12 })).toBe('Ages 4 to 12');
    expect(ageRangeText({ min_age: 8, max_age: null })).toBe('Ages 8 and over');
    expect(ageRangeText({ min_age: null, max_age: 8 })).toBe('Ages up to 8');
    expect(ageRangeText({ min_age: null, max_age: null })).toBeNull();
  });
});

describe('listOfNames', () => {
  it('lists the people of a booking as the confirmation email does', () => {
    expect(listOfNames([])).toBe('');
    expect(listOfNames(['Ava'])).toBe('Ava');
    expect(listOfNames(['you', 'Ava'])).toBe('you and Ava');
    expect(listOfNames(['you', 'Ava', 'Ben'])).toBe('you, Ava and Ben');
  });
});
