import { describe, expect, it } from 'vitest';
import type { Enums } from '@/lib/database.types';
import { currentPlan } from './current-plan';

const member = (membership_tier: Enums<'membership_tier'>, plan_renews_at: string | null = null) => ({
  membership_tier,
  plan_renews_at,
  created_at: '2025-01-05T10:00:00Z',
});

describe('currentPlan', () => {
  it('gives a standard member with no renewal on record no date (never a guess) and Platinum as the upgrade', () => {
    expect(currentPlan(member('standard'))).toEqual({
      planName: 'Standard',
      planSlug: 'standard',
      renewal: null,
      memberSince: '2025-01-05T10:00:00Z',
      upgrades: ['platinum'],
    });
  });
  it('uses the real renewal date of a paid premium plan, with no upgrades', () => {
    const plan = currentPlan(member('premium', '2025-11-30T00:00:00Z'));
    expect(plan.renewal).toEqual(new Date('2025-11-30T00:00:00Z'));
    expect(plan.upgrades).toEqual([]);
  });
  it('has no renewal for pay-as-you-go and offers Standard and Platinum', () => {
    const plan = currentPlan(member('payg'));
    expect(plan.renewal).toBeNull();
    expect(plan.upgrades).toEqual(['standard', 'platinum']);
  });
});
