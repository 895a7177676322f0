/** The numbers and fixed texts of the payment flow, named once. */

/** Spec section 7: the member's alert when a checkout cannot be started. */
export const CHECKOUT_FAILED_MESSAGE = 'Could not start checkout, please try again.';

/**
 * How long a pay-as-you-go spot is held for a member who is paying. SumUp's hosted checkout page
 * stays usable for 30 minutes; a payment that lands after the hold lapsed is still honoured
 * (apply_checkout_result books the spot again if it is free, else flags a refund).
 */
export const CLASS_HOLD_MINUTES = 30;

/** How long the functions wait for the provider before giving up. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** The SPA route the member lands on after checkout; it reads the result from the database. */
export const RETURN_PATH = '/payment/return';

/** Where a gift voucher's buyer lands after paying (a visitor has no session to read a payment with). */
export const GIFT_VOUCHER_RETURN_PATH = '/gift-vouchers/return';

export function returnPageUrl(siteUrl: string, reference: string, path = RETURN_PATH): string {
  return `${siteUrl}${path}?ref=${encodeURIComponent(reference)}`;
}

/**
 * Where a card-saving checkout with nothing due comes back to (decision 0104): My Membership, which
 * asks after the card (card-status) and says when it is saved.
 */
export function cardSavedPageUrl(siteUrl: string, setupReference: string): string {
  return `${siteUrl}/membership?card=${encodeURIComponent(setupReference)}`;
}

/** Pence to pounds for the provider's `amount` (major units). */
export function penceToPounds(pence: number): number {
  return Math.round(pence) / 100;
}
