import { describe, expect, it } from 'vitest';
import { recommendedUpgrades, tierView } from './membership-tier';

describe('recommendedUpgrades', () => {
  it('offers payg Standard and Platinum, standard Platinum, premium nothing', () => {
    expect(recommendedUpgrades('payg')).toEqual(['standard', 'platinum']);
    expect(recommendedUpgrades('standard')).toEqual(['platinum']);
    expect(recommendedUpgrades('premium')).toEqual([]);
  });
  it('treats trial and unknown tiers as pay-as-you-go', () => {
    expect(recommendedUpgrades('trial')).toEqual(['standard', 'platinum']);
    expect(recommendedUpgrades('gold')).toEqual(['standard', 'platinum']);
    expect(recommendedUpgrades(null)).toEqual(['standard', 'platinum']);
  });
});

describe('tierView', () => {
  it('names the plan behind each tier', () => {
    expect(tierView('standard')).toEqual({ label: 'Standard', planSlug: 'standard' });
    expect(tierView('premium')).toEqual({ label: 'Platinum Premium', planSlug: 'platinum' });
    expect(tierView('payg').label).toBe('Pay as You Go');
    expect(tierView('trial').label).toBe('Free Trial');
    expect(tierView('whatever').label).toBe('Pay as You Go');
  });
});
