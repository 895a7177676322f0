import { describe, expect, it } from 'vitest';
import { PLANS } from '@/config/plans';
import { planOffer } from './plan-offer';

const offers = (tier: string) => ({
  standard: planOffer(PLANS.standard, tier),
  platinum: planOffer(PLANS.platinum, tier),
  dropin: planOffer(PLANS.dropin, tier),
});

describe('planOffer', () => {
  it('offers pay-as-you-go and trial members both memberships', () => {
    expect(offers('payg')).toEqual({ standard: 'buy', platinum: 'buy', dropin: 'buy' });
    expect(offers('trial')).toEqual({ standard: 'buy', platinum: 'buy', dropin: 'buy' });
  });
  it('shows a Standard member their plan as current and offers Platinum', () => {
    expect(offers('standard')).toEqual({ standard: 'current', platinum: 'buy', dropin: 'buy' });
  });
  it('sells a premium member no membership', () => {
    expect(offers('premium')).toEqual({ standard: 'included', platinum: 'current', dropin: 'buy' });
  });
});
