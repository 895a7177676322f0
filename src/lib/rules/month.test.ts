import { describe, expect, it } from 'vitest';
import { formatMemberSince, planRenewalDate, startOfMonthInStudio } from './month';

describe('startOfMonthInStudio', () => {
  it('is midnight UTC on the 1st in winter (GMT)', () => {
    expect(startOfMonthInStudio(new Date('2025-12-15T12:00:00Z')).toISOString()).toBe('2025-12-01T00:00:00.000Z');
  });

  it('is 23:00 UTC the day before in summer (BST)', () => {
    expect(startOfMonthInStudio(new Date('2025-07-15T12:00:00Z')).toISOString()).toBe('2025-06-30T23:00:00.000Z');
  });

  it('puts the first London minute of a summer month in that month', () => {
    // 1 Aug 00:00 BST = 31 Jul 23:00 UTC: already August in London.
    expect(startOfMonthInStudio(new Date('2025-07-31T23:00:00Z')).toISOString()).toBe('2025-07-31T23:00:00.000Z');
    // One millisecond earlier is still July.
    expect(startOfMonthInStudio(new Date('2025-07-31T22:59:59.999Z')).toISOString()).toBe('2025-06-30T23:00:00.000Z');
  });

  it('handles the months where the clocks change', () => {
    // Clocks go forward on 30 Mar 2025: 1 Mar is still GMT, 1 Apr is BST.
    expect(startOfMonthInStudio(new Date('2025-03-31T12:00:00Z')).toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect(startOfMonthInStudio(new Date('2025-04-01T00:30:00Z')).toISOString()).toBe('2025-03-31T23:00:00.000Z');
    // Clocks go back on 26 Oct 2025: 1 Oct is BST, 1 Nov is GMT.
    expect(startOfMonthInStudio(new Date('2025-10-31T23:30:00Z')).toISOString()).toBe('2025-09-30T23:00:00.000Z');
    expect(startOfMonthInStudio(new Date('2025-11-01T00:00:00Z')).toISOString()).toBe('2025-11-01T00:00:00.000Z');
  });
});

describe('planRenewalDate', () => {
  it("is the membership record's date, and none rather than a guess", () => {
    expect(planRenewalDate('2025-12-01T00:00:00Z')).toEqual(new Date('2025-12-01T00:00:00Z'));
    expect(planRenewalDate(null)).toBeNull();
    expect(planRenewalDate('not a date')).toBeNull();
  });
});

describe('formatMemberSince', () => {
  it('reads the month in London (midnight on the 1st in summer is still the previous day in UTC)', () => {
    expect(formatMemberSince('2025-06-30T23:30:00Z')).toBe('July 2025');
    expect(formatMemberSince('2025-01-15T12:00:00Z')).toBe('January 2025');
  });
});
