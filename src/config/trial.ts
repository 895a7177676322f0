/**
 * Trial length in days (spec section 9). Its own module so the home page, which says it, does not
 * download the whole plan catalogue (plans.ts re-exports it;).
 */
export const TRIAL_DAYS = 7;

/**
 * What the free trial is, said the same way everywhere (this improves on the spec's "free
 * 7-day trial"): one free class, booked within TRIAL_DAYS days of signing up. Seven days of free
 * classes is not what the database gives (spec section 4: the first booking uses the trial).
 */
export const TRIAL_OFFER = {
  /** The home page's call to action. */
  cta: 'Book your first class free',
  /** One sentence for paragraphs. */
  sentence: `Your first class is free: book it within ${TRIAL_DAYS} days of signing up.`,
  /** The toast and panel after a free-trial sign-up. */
  checkEmail: `Check your email to confirm your account, then book your free class within ${TRIAL_DAYS} days!`,
} as const;
