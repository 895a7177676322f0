/**
 * The words of the marketing choice, as the sign-up forms and Edit Profile show them. The database
 * records them with each choice (private.marketing_consent_wording); a test holds the two equal.
 * Service emails (bookings, payments) need no consent: only news and offers ask.
 */
export const MARKETING_CONSENT_WORDING = 'Send me news and offers';

/** Said under the choice where an address is collected. */
export const MARKETING_CONSENT_HINT =
  'Optional. Emails about your bookings and payments always come. You can change this on Edit Profile, and every offer has a link to stop them.';
