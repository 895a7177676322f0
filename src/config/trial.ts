/**
 * Trial length in days (spec section 9). Its own module so the home page, which says it, does not
 * download the whole plan catalogue (plans.ts re-exports it;).
 */
export const TRIAL_DAYS = 7;
