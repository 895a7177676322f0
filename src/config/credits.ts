import type { Enums } from '@/lib/database.types';

/** How the product names a number of credits of each kind. */
export const CREDIT_COUNT_WORDS: Record<Enums<'credit_kind'>, (n: number) => string> = {
  personal_training: (n) => (n === 1 ? '1 personal-training session' : `${n} personal-training sessions`),
  guest_pass: (n) => (n === 1 ? '1 guest pass' : `${n} guest passes`),
  class: (n) => (n === 1 ? '1 class credit' : `${n} class credits`),
};

/** Where credits come from (public.credits.source). */
export const CREDIT_SOURCE_LABELS: Record<string, string> = {
  package: 'Packages bought',
  membership_period: 'Platinum Premium periods',
  admin_grant: 'Granted by the studio',
  referral: 'Referral rewards',
};
