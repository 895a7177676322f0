/**
 * Plans, prices, benefits and quotas of spec section 9: the one place they live.
 *
 * Shared by the browser (membership catalogue, usage bars) and the Netlify checkout function,
 * which takes the amount it charges from here, never from a request. So this module stays plain
 * data and pure functions: no React, no browser APIs. Money is held in pence (integers) so no
 * price is ever a rounded float.
 */
import type { Enums } from '../lib/database.types';

export const CURRENCY = 'GBP';

export { TRIAL_DAYS } from './trial';

/** Discounts on Premium (spec section 9), as whole percentages. */
export const STUDENT_DISCOUNT_PERCENT = 30;
export const HACKNEY_WORKER_DISCOUNT_PERCENT = 10;

/**
 * Monthly classes per plan, as the catalogue words them. The database enforces them
 * (private.plan_allowance; my_plan_usage reports the allowance the screens show).
 */
export const UNLIMITED_CLASSES = 999;
export const MONTHLY_CLASS_QUOTA = {
  standard: 12,
  premium: 20,
  payg: UNLIMITED_CLASSES,
} as const;

export type MembershipTier = Enums<'membership_tier'>;

/** A price after a percentage discount, rounded to the nearest penny. */
export function discountedPence(pricePence: number, percentOff: number): number {
  return Math.round((pricePence * (100 - percentOff)) / 100);
}

/** The price of one class when a monthly price buys `classes` classes, rounded to the nearest penny. */
export function pricePerClassPence(pricePence: number, classes: number): number {
  return Math.round(pricePence / classes);
}

/** "£100", "£115.50", "£8.33": whole pounds without pence, otherwise two decimals. */
export function formatPence(pence: number): string {
  const whole = pence % 100 === 0;
  return new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency: CURRENCY,
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(pence / 100);
}

/** "£10.00", "£66.67": an amount of money in pounds as a statement shows it, always with pence. */
export function formatPounds(pounds: number): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency: CURRENCY }).format(pounds);
}

const STANDARD_PENCE = 100_00;
const PLATINUM_PENCE = 165_00;
const DROPIN = { pricePence: 115_00, package: { sessions: 1, validDays: 90, weeklyCap: null } };
const BRONZE = { pricePence: 750_00, package: { sessions: 10, validDays: 42, weeklyCap: 2 } };

/**
 * What one personal-training session costs without a package: the dearest package's price per
 * session (the Drop-In's), so no package is ever dearer per session than paying each time. The
 * database prices a One-to-One the same way from public.plans (private.personal_training_price).
 */
export const SINGLE_SESSION_PENCE = Math.max(...[DROPIN, BRONZE].map((p) => Math.round(p.pricePence / p.package.sessions)));

/** "Valid 6 weeks from purchase", "Valid 90 days from purchase". */
function validityText(days: number): string {
  return days % 7 === 0 ? `Valid ${days / 7} weeks from purchase` : `Valid ${days} days from purchase`;
}

/** The plan slugs of spec section 9; the checkout function accepts exactly these. */
export const PLAN_SLUGS = ['standard', 'platinum', 'student', 'dropin', 'bronze'] as const;
export type PlanSlug = (typeof PLAN_SLUGS)[number];

export type PlanCategory = 'membership' | 'training';

export type Plan = {
  slug: PlanSlug;
  name: string;
  category: PlanCategory;
  /** What a checkout for this slug charges, in pence. For student / Hackney worker, the "from" price. */
  pricePence: number;
  /** 'month' for monthly memberships, null for one-off purchases. */
  interval: 'month' | null;
  /** Shown before the price ("from £70"). */
  priceIsFrom: boolean;
  /** The membership tier a completed payment grants; null for training packages. */
  grantsTier: Extract<MembershipTier, 'standard' | 'premium'> | null;
  /** Classes per month included, when the plan is a class membership. */
  classesPerMonth: number | null;
  /** A training package: its sessions, how many days they stay valid and at most how many a week (null: no cap). */
  package: { sessions: number; validDays: number; weeklyCap: number | null } | null;
  summary: string;
  benefits: readonly string[];
  /** Eligibility has to be checked by the studio first: the card offers Contact Us. */
  requiresProof: boolean;
  highlighted: boolean;
};

/** Student and Hackney worker prices (spec section 9: from £70; £115.50 and £148.50 on Premium). */
export const CONCESSION_PRICES = {
  studentStandardPence: discountedPence(STANDARD_PENCE, STUDENT_DISCOUNT_PERCENT),
  studentPremiumPence: discountedPence(PLATINUM_PENCE, STUDENT_DISCOUNT_PERCENT),
  hackneyWorkerPremiumPence: discountedPence(PLATINUM_PENCE, HACKNEY_WORKER_DISCOUNT_PERCENT),
} as const;

export const PLANS: Readonly<Record<PlanSlug, Plan>> = {
  standard: {
    slug: 'standard',
    name: 'Standard',
    category: 'membership',
    pricePence: STANDARD_PENCE,
    interval: 'month',
    priceIsFrom: false,
    grantsTier: 'standard',
    classesPerMonth: MONTHLY_CLASS_QUOTA.standard,
    package: null,
    summary: 'Regular group training at a fixed monthly price.',
    benefits: [
      `${MONTHLY_CLASS_QUOTA.standard} classes per month`,
      `${formatPence(pricePerClassPence(STANDARD_PENCE, MONTHLY_CLASS_QUOTA.standard))} per class`,
      'Book online, any time',
    ],
    requiresProof: false,
    highlighted: false,
  },
  platinum: {
    slug: 'platinum',
    name: 'Platinum Premium',
    category: 'membership',
    pricePence: PLATINUM_PENCE,
    interval: 'month',
    priceIsFrom: false,
    grantsTier: 'premium',
    classesPerMonth: MONTHLY_CLASS_QUOTA.premium,
    package: null,
    summary: 'More classes, one-to-one coaching and first pick of the timetable.',
    benefits: [
      `${MONTHLY_CLASS_QUOTA.premium} classes per month`,
      `One 1-to-1 session (worth ${formatPence(SINGLE_SESSION_PENCE)})`,
      `2 guest passes (worth ${formatPence(15_00)})`,
      'Priority and early booking',
    ],
    requiresProof: false,
    highlighted: true,
  },
  student: {
    slug: 'student',
    name: 'Student / Hackney Worker',
    category: 'membership',
    pricePence: CONCESSION_PRICES.studentStandardPence,
    interval: 'month',
    priceIsFrom: true,
    grantsTier: 'standard',
    classesPerMonth: MONTHLY_CLASS_QUOTA.standard,
    package: null,
    summary: 'Discounted membership for students and people who work in Hackney.',
    benefits: [
      `Students: ${STUDENT_DISCOUNT_PERCENT}% off, ${formatPence(CONCESSION_PRICES.studentPremiumPence)}/month on Premium`,
      `Hackney workers: ${HACKNEY_WORKER_DISCOUNT_PERCENT}% off, ${formatPence(CONCESSION_PRICES.hackneyWorkerPremiumPence)}/month on Premium`,
      'Proof of eligibility required',
    ],
    requiresProof: true,
    highlighted: false,
  },
  dropin: {
    slug: 'dropin',
    name: 'Drop-In Session',
    category: 'training',
    pricePence: DROPIN.pricePence,
    interval: null,
    priceIsFrom: false,
    grantsTier: null,
    classesPerMonth: null,
    package: DROPIN.package,
    summary: 'A single training session, no commitment.',
    benefits: [
      'One session: a One-to-One with the coach and time you choose',
      validityText(DROPIN.package.validDays),
      'Pay once, no subscription',
    ],
    requiresProof: false,
    highlighted: false,
  },
  bronze: {
    slug: 'bronze',
    name: 'Bronze Package',
    category: 'training',
    pricePence: BRONZE.pricePence,
    interval: null,
    priceIsFrom: false,
    grantsTier: null,
    classesPerMonth: null,
    package: BRONZE.package,
    summary: 'A five-week block of coached training.',
    benefits: [
      '2 sessions a week for 5 weeks',
      `${BRONZE.package.sessions} sessions, ${formatPence(BRONZE.pricePence / BRONZE.package.sessions)} each (${formatPence(SINGLE_SESSION_PENCE)} each without a package)`,
      `${validityText(BRONZE.package.validDays)}, at most ${BRONZE.package.weeklyCap} a week`,
    ],
    requiresProof: false,
    highlighted: false,
  },
};

export function isPlanSlug(value: unknown): value is PlanSlug {
  return typeof value === 'string' && (PLAN_SLUGS as readonly string[]).includes(value);
}

/** The plan for a slug, or null for anything that is not one of the spec's slugs. */
export function planBySlug(slug: unknown): Plan | null {
  return isPlanSlug(slug) ? PLANS[slug] : null;
}

export function plansInCategory(category: PlanCategory): Plan[] {
  return PLAN_SLUGS.map((slug) => PLANS[slug]).filter((plan) => plan.category === category);
}

/** "£100/month", "from £70/month", "£750". */
export function formatPlanPrice(plan: Plan): string {
  const price = `${formatPence(plan.pricePence)}${plan.interval ? `/${plan.interval}` : ''}`;
  return plan.priceIsFrom ? `from ${price}` : price;
}
