import { describe, expect, it } from 'vitest';
import { defaultBookingType } from './booking-type';

describe('defaultBookingType', () => {
  it('follows the member tier and trial use', () => {
    expect(defaultBookingType({ membership_tier: 'premium', has_used_trial: true })).toBe('paid');
    expect(defaultBookingType({ membership_tier: 'standard', has_used_trial: false })).toBe('paid');
    expect(defaultBookingType({ membership_tier: 'trial', has_used_trial: false })).toBe('trial');
    expect(defaultBookingType({ membership_tier: 'payg', has_used_trial: false })).toBe('trial');
    expect(defaultBookingType({ membership_tier: 'payg', has_used_trial: true })).toBe('payg');
    expect(defaultBookingType(null)).toBe('payg');
  });
});
