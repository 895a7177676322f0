import { z } from 'zod';
import { PLAN_SLUGS } from '@/config/plans';
import { londonWallClockToUtc } from '@/lib/studio-calendar';

/**
 * The admin's forms for promo codes, intro offers and the referral reward (decisions 0083, 0084).
 * They check what a person can get wrong before sending; the database checks everything again.
 */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date');
const optionalDay = z.union([z.literal(''), day]);
const money = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,4}(\.\d{1,2})?$/, message)
    .transform(Number);

export const promoCodeSchema = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,29}$/, '3 to 30 letters, digits, dashes or underscores'),
    kind: z.enum(['percent', 'amount']),
    value: z
      .string()
      .trim()
      .regex(/^\d{1,4}(\.\d{1,2})?$/, 'Enter a number'),
    planSlugs: z.array(z.enum(PLAN_SLUGS)).min(1, 'Choose at least one plan'),
    expiresOn: day,
    maxUses: z.coerce.number().int('Whole uses').min(1, 'At least 1').max(100000, 'At most 100000'),
  })
  .superRefine((f, ctx) => {
    const n = Number(f.value);
    if (f.kind === 'percent' && !(Number.isInteger(n) && n >= 1 && n <= 90))
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'A percentage off is 1 to 90' });
    if (f.kind === 'amount' && !(n > 0 && n <= 1000))
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'An amount off is £0.01 to £1000' });
  });
export type PromoCodeForm = z.input<typeof promoCodeSchema>;
export type PromoCodeValues = z.output<typeof promoCodeSchema>;

/** The checked form as admin_create_promo_code takes it: the expiry is the end of that London day. */
export function promoCodeArgs(f: PromoCodeValues) {
  return {
    code: f.code.toUpperCase(),
    planSlugs: f.planSlugs,
    expiresAt: londonWallClockToUtc(f.expiresOn, '23:59'),
    maxUses: f.maxUses,
    percentOff: f.kind === 'percent' ? Number(f.value) : null,
    amountOff: f.kind === 'amount' ? Number(f.value) : null,
  };
}

export const introOfferSchema = z.object({
  name: z.string().trim().min(1, 'Name the offer').max(100, 'Up to 100 characters'),
  planSlug: z.enum(['dropin', 'bronze'], { message: 'Choose a package' }),
  price: money('Enter a price in pounds, such as 45 or 45.50'),
  newWithinDays: z.union([z.literal(''), z.coerce.number().int('Whole days').min(1, '1 to 365 days').max(365, '1 to 365 days')]),
  endsOn: optionalDay,
});
export type IntroOfferForm = z.input<typeof introOfferSchema>;
export type IntroOfferValues = z.output<typeof introOfferSchema>;

export function introOfferArgs(f: IntroOfferValues) {
  return {
    name: f.name,
    planSlug: f.planSlug,
    price: f.price,
    newWithinDays: f.newWithinDays === '' ? null : f.newWithinDays,
    endsAt: f.endsOn === '' ? null : londonWallClockToUtc(f.endsOn, '23:59'),
  };
}

export const referralSettingsSchema = z.object({
  enabled: z.boolean(),
  rewardKind: z.enum(['class_credit', 'session_credit', 'renewal_discount']),
  renewalAmount: money('Enter an amount in pounds, such as 10'),
  creditValidDays: z.coerce.number().int('Whole days').min(7, '7 to 365 days').max(365, '7 to 365 days'),
});
export type ReferralSettingsForm = z.input<typeof referralSettingsSchema>;
export type ReferralSettingsValues = z.output<typeof referralSettingsSchema>;
