import { describe, expect, it } from 'vitest';
import {
  CONCESSION_PRICES,
  PLAN_SLUGS,
  PLANS,
  discountedPence,
  formatPence,
  formatPlanPrice,
  planBySlug,
  plansInCategory,
  pricePerClassPence,
} from './plans';

describe('prices', () => {
  it('applies the student 30% and Hackney worker 10% discounts to the penny', () => {
    expect(discountedPence(165_00, 30)).toBe(115_50);
    expect(discountedPence(165_00, 10)).toBe(148_50);
    expect(CONCESSION_PRICES).toEqual({ studentStandardPence: 70_00, studentPremiumPence: 115_50, hackneyWorkerPremiumPence: 148_50 });
  });
  it('works out the standard price per class as £8.33', () => {
    expect(pricePerClassPence(100_00, 12)).toBe(833);
    expect(formatPence(833)).toBe('£8.33');
  });
  it('formats whole pounds without pence and others with two decimals', () => {
    expect(formatPence(100_00)).toBe('£100');
    expect(formatPence(115_50)).toBe('£115.50');
    expect(formatPence(750_00)).toBe('£750');
  });
  it('holds every price of spec section 9', () => {
    expect(Object.fromEntries(PLAN_SLUGS.map((s) => [s, PLANS[s].pricePence]))).toEqual({
      standard: 100_00,
      platinum: 165_00,
      student: 70_00,
      dropin: 115_00,
      bronze: 750_00,
    });
    expect(formatPlanPrice(PLANS.standard)).toBe('£100/month');
    expect(formatPlanPrice(PLANS.student)).toBe('from £70/month');
    expect(formatPlanPrice(PLANS.bronze)).toBe('£750');
  });
});

describe('plan lookup', () => {
  it('knows exactly the spec slugs', () => {
    expect(PLAN_SLUGS).toEqual(['standard', 'platinum', 'student', 'dropin', 'bronze']);
    expect(planBySlug('platinum')?.name).toBe('Platinum Premium');
    expect(planBySlug('gold')).toBeNull();
    expect(planBySlug('toString')).toBeNull();
    expect(planBySlug(undefined)).toBeNull();
  });
  it('splits memberships from training packages', () => {
    expect(plansInCategory('membership').map((p) => p.slug)).toEqual(['standard', 'platinum', 'student']);
    expect(plansInCategory('training').map((p) => p.slug)).toEqual(['dropin', 'bronze']);
  });
  it('grants standard, premium or no tier', () => {
    expect(PLANS.standard.grantsTier).toBe('standard');
    expect(PLANS.platinum.grantsTier).toBe('premium');
    expect(PLANS.dropin.grantsTier).toBeNull();
  });
});
