import { describe, expect, it } from 'vitest';
import { introOfferArgs, introOfferSchema, promoCodeArgs, promoCodeSchema } from './offer-forms';

const code = { code: 'spring10', kind: 'percent', value: '10', planSlugs: ['dropin'], expiresOn: '2027-03-31', maxUses: '50' } as const;

describe('offer forms', () => {
  it('sends a code upper case, its expiry at the end of that London day, and one kind of discount', () => {
    expect(promoCodeArgs(promoCodeSchema.parse({ ...code, planSlugs: ['dropin'] }))).toEqual({
      code: 'SPRING10',
      planSlugs: ['dropin'],
      expiresAt: '2027-03-31T22:59:00.000Z',
      maxUses: 50,
      percentOff: 10,
      amountOff: null,
    });
    expect(
      promoCodeArgs(promoCodeSchema.parse({ ...code, planSlugs: ['standard'], kind: 'amount', value: '12.5', expiresOn: '2027-01-31' })),
    ).toMatchObject({
      percentOff: null,
      amountOff: 12.5,
      expiresAt: '2027-01-31T23:59:00.000Z',
    });
  });

  it('names what is wrong: the percentage, the plans, the code', () => {
    const errors = (f: object) => promoCodeSchema.safeParse({ ...code, planSlugs: ['dropin'], ...f }).error?.issues.map((i) => i.message);
    expect(errors({ value: '95' })).toEqual(['A percentage off is 1 to 90']);
    expect(errors({ planSlugs: [] })).toEqual(['Choose at least one plan']);
    expect(errors({ code: 'x' })).toEqual(['3 to 30 letters, digits, dashes or underscores']);
  });

  it('an intro offer: a package, a price in pounds, optional days and end', () => {
    expect(
      introOfferArgs(introOfferSchema.parse({ name: ' First session ', planSlug: 'dropin', price: '45', newWithinDays: '14', endsOn: '' })),
    ).toEqual({
      name: 'First session',
      planSlug: 'dropin',
      price: 45,
      newWithinDays: 14,
      endsAt: null,
    });
    expect(introOfferSchema.safeParse({ name: 'A', planSlug: 'standard', price: '4x', newWithinDays: '', endsOn: '' }).success).toBe(false);
  });
});
