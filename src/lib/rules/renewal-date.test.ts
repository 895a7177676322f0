import { describe, expect, it } from 'vitest';
import { planRenewalDate } from './renewal-date';

describe('planRenewalDate', () => {
  it("is the membership record's date, and none rather than a guess", () => {
    expect(planRenewalDate('2025-12-01T00:00:00Z')).toEqual(new Date('2025-12-01T00:00:00Z'));
    expect(planRenewalDate(null)).toBeNull();
    expect(planRenewalDate('not a date')).toBeNull();
  });
});
