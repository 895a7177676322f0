import { describe, expect, it } from 'vitest';
import { balanceCoversText } from './balance-words';

describe('balanceCoversText', () => {
  it('says nothing when the balance pays nothing', () => {
    expect(balanceCoversText({ balanceUsed: 0, toCharge: 12 })).toBeNull();
  });

  it('says the balance part and the card part, or that the balance pays all', () => {
    expect(balanceCoversText({ balanceUsed: 5, toCharge: 7 })).toBe('Your balance pays £5.00 of it: £7.00 by card.');
    expect(balanceCoversText({ balanceUsed: 12, toCharge: 0 })).toBe('Your balance pays all of it (£12.00): nothing to pay by card.');
  });

  it("a membership's first month: a card is still added for the renewals", () => {
    expect(balanceCoversText({ balanceUsed: 40, toCharge: 60 }, true)).toBe('Your balance pays £40.00 of the first month: £60.00 by card.');
    expect(balanceCoversText({ balanceUsed: 100, toCharge: 0 }, true)).toBe(
      'Your balance pays all of the first month (£100.00): you add a card for the renewals, nothing charged now.',
    );
  });
});
