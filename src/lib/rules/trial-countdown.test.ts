import { describe, expect, it } from 'vitest';
import { trialEndsText } from './trial-countdown';

describe('trial countdown', () => {
  it('counts trial days in London calendar days', () => {
    const now = new Date('2027-03-01T23:30:00Z');
    expect(trialEndsText('2027-03-08T09:00:00Z', now)).toBe('Your free trial ends in 7 days');
    expect(trialEndsText('2027-03-02T09:00:00Z', now)).toBe('Your free trial ends tomorrow');
    expect(trialEndsText('2027-03-01T23:59:00Z', now)).toBe('Your free trial ends today');
  });

  it('counts across the clocks going forward (London calendar days, not 24-hour blocks)', () => {
    expect(trialEndsText('2027-03-29T00:30:00+01:00', new Date('2027-03-27T12:00:00Z'))).toBe('Your free trial ends in 2 days');
  });
});
