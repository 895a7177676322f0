import type { BookingType } from '../config/booking-types';
import type { PlanSlug } from '../config/plans';
import type { Enums } from './database.types';

/*
 * What the browser and the Netlify functions (netlify/functions) send each other: each function
 * the SPA calls, by name, with its request body and its 2xx answer. The browser calls them
 * through lib/functions-client.ts and the handlers import the same types, so a renamed or retyped
 * field fails `npm run typecheck` on whichever side did not follow. Types only (relative imports,
 * as the functions bundle them): nothing of the server reaches the browser, nor the reverse.
 */

/** Every non-2xx answer (netlify/lib/http.ts): a stable code, and a message screens show as is. */
export type FunctionFailure = { error: string; message: string };

/** A hosted checkout to send the browser to, and the payment the return page then follows. */
export type CheckoutStarted = { url: string; reference: string };

/**
 * How charging a membership payment with the saved card ended (netlify/lib/payments/membership-charge.ts).
 * paid: verified and applied (or already was); declined / no_card: recorded as a failed attempt;
 * pending: the provider has not decided, the claim runs out and a later run asks again;
 * error: the provider could not be asked; nothing was recorded against the card.
 */
export type ChargeOutcome = 'paid' | 'declined' | 'no_card' | 'pending' | 'error';

/** A payment as the database records it, for the return page (never read from the URL). */
export type PaymentStatus = {
  reference: string;
  /** payments.kind (its check constraint allows these). */
  kind: 'plan' | 'class' | 'gift_voucher';
  status: Enums<'checkout_status'>;
  amount: number;
  currency: string;
  planSlug: string | null;
  planName: string | null;
  className: string | null;
  classStartTime: string | null;
  paidAt: string | null;
  needsRefund: boolean;
};

/**
 * GoCardless's hosted page where the member sets up a Direct Debit (decision 0076), the first
 * month's payment it leads to (null when a running plan only switches to Direct Debit) and the
 * earliest date the first collection can be taken (the Bacs lead times).
 */
export type DirectDebitStarted = { url: string; reference: string | null; firstChargeDate: string };

/** A gift voucher's checkout as its return page shows it (decision 0100). */
export type GiftVoucherCheckout = {
  status: Enums<'checkout_status'>;
  amount: number;
  recipientName: string;
  deliverOn: string;
  expiresAt: string | null;
};

export type NetlifyFunctions = {
  /**
   * A gift voucher bought by anyone: a member (signed in: their name and email) or a visitor
   * (`buyerName`, `buyerEmail`). `amount` in whole pounds, or `planSlug` a package at its price.
   */
  'buy-gift-voucher': {
    request: {
      amount?: number | null;
      planSlug?: string | null;
      recipientName: string;
      recipientEmail: string;
      message: string;
      deliverOn: string;
      buyerName?: string | null;
      buyerEmail?: string | null;
    };
    answer: CheckoutStarted;
  };
  /** A gift voucher checkout's state, by its reference (the return page; no session needed). */
  'gift-voucher-status': { request: { reference: string }; answer: GiftVoucherCheckout };
  /** A monthly plan bought by Direct Debit (`planSlug`), or the caller's running plan switched to it (no `planSlug`). */
  'direct-debit-setup': { request: { planSlug?: PlanSlug | null }; answer: DirectDebitStarted };
  /** A plan bought at the server's price; `userId` must be the caller's own. */
  /** A plan at the catalogue's price, less a promo code's discount or at an intro offer's price (the database prices both). */
  'create-checkout': {
    request: { planSlug: PlanSlug; userId: string; promoCode?: string | null; introOfferId?: string | null };
    answer: CheckoutStarted;
  };
  /** A pay-as-you-go spot held while the member pays; `bookingType` paid, trial or payg (null: the server decides). */
  'create-class-checkout': { request: { classId: string; bookingType?: BookingType | null }; answer: CheckoutStarted };
  /** A guest's place held while the member pays the class's pay-as-you-go price for them. */
  'create-guest-checkout': { request: { bookingId: string; name: string; email: string }; answer: CheckoutStarted };
  /** The caller and their children on a paid class, held together while the caller pays for them in one checkout. */
  'create-family-checkout': { request: { classId: string; includeSelf: boolean; childIds: string[] }; answer: CheckoutStarted };
  /** The caller's own payment; 404 when it is not theirs or does not exist. */
  'checkout-status': { request: { reference: string }; answer: PaymentStatus };
  /** A card-saving checkout for what a past-due membership owes, or, with nothing due, one that only saves the card (decision 0104). */
  'update-card': { request: Record<string, never>; answer: CheckoutStarted };
  /** The caller's own card-saving checkout with nothing due, as My Membership asks after it on the way back. */
  'card-status': { request: { reference: string }; answer: { status: 'saved' | 'pending' | 'failed' } };
  /**
   * An upgrade is charged now with the saved card, less the unused days of the current plan; a
   * downgrade waits for the next renewal. `expectedAmount` is the figure the member was shown
   * (my_upgrade_quote): when the charge would differ, nothing is charged (409 amount_changed).
   */
  'change-membership': {
    request: { action: 'upgrade' | 'downgrade'; planSlug: PlanSlug; expectedAmount?: number };
    answer: { outcome: ChargeOutcome; amount: number } | { outcome: 'scheduled' };
  };
  /** An admin removes a member for good; or a member closes their own account (`own: true`, decision 0047). */
  'delete-member': { request: { memberId: string } | { own: true }; answer: { memberId: string; refundsOwed: number } };
  /**
   * An admin sends each imported member without a sign-in yet an invitation to set their password
   * (decision 0065); each is sent once. `failed` names those the auth service refused.
   */
  'invite-members': { request: Record<string, never>; answer: { invited: number; failed: { email: string; message: string }[] } };
  /** The studio's VAPID public key, which a browser subscribes to pushes with (decision 0023). */
  'push-key': { request: Record<string, never>; answer: { publicKey: string } };
  /** An admin pays a refund owed back through the card provider. */
  'refund-payment': {
    request: { refundId: string };
    answer:
      | { refundId: string; alreadyRefunded: true }
      | { refundId: string; alreadyRefunded: false; refundedAt: string | null; providerRefundId: string | null };
  };
};

export type FunctionName = keyof NetlifyFunctions;
export type FunctionRequest<F extends FunctionName> = NetlifyFunctions[F]['request'];
export type FunctionAnswer<F extends FunctionName> = NetlifyFunctions[F]['answer'];
