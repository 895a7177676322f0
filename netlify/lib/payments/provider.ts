/**
 * The card provider behind a small interface, so the functions never depend on one vendor's API
 * and tests or local development can swap in the test provider.
 */
export type CheckoutStatus = 'PENDING' | 'PAID' | 'FAILED' | 'EXPIRED';

export type CreateCheckoutInput = {
  /** Major units (pounds), from the server's own price table or class row. */
  amount: number;
  currency: 'GBP';
  /** Our payments.checkout_reference: unique, at most 64 characters. */
  reference: string;
  description: string;
  /** Server-to-server notification URL (the payment webhook). */
  returnUrl: string;
  /** Where the member's browser goes after paying (the return page). */
  redirectUrl: string;
  /** The provider customer the checkout belongs to (card saving and saved-card charges). */
  customerId?: string;
  /** SETUP_RECURRING_PAYMENT: the card is saved for later charges (the amount is only authorised). */
  purpose?: 'SETUP_RECURRING_PAYMENT';
};

/** A checkout paid by the server with a saved card: no page, no browser. */
export type CreateChargeInput = Omit<CreateCheckoutInput, 'redirectUrl' | 'purpose'> & { customerId: string };

export type CreatedCheckout = { id: string; url: string };

export type ProviderCheckout = {
  id: string;
  status: CheckoutStatus;
  amount: number;
  currency: string;
  reference: string;
  customerId?: string | null;
  /** The saved card's token, once a card-saving checkout is paid. */
  cardToken?: string | null;
};

export type ProviderCustomer = { customerId: string; email: string; name: string | null };

export type RefundInput = {
  /** payments.provider_checkout_id of the paid checkout. */
  checkoutId: string;
  /** Major units, at most what was paid (a membership's unused part is less). */
  amount: number;
  currency: string;
};

/** The provider's reference for a refund it confirmed (SumUp's: the refunded transaction's id). */
export type ProviderRefund = { reference: string };

export interface PaymentProvider {
  readonly name: string;
  createCheckout(input: CreateCheckoutInput): Promise<CreatedCheckout>;
  /** The provider's own record of a checkout; throws ProviderError 'not_found' for an unknown id. */
  getCheckout(id: string): Promise<ProviderCheckout>;
  /** Creates the customer a saved card belongs to; an existing one is fine (idempotent). */
  ensureCustomer(customer: ProviderCustomer): Promise<void>;
  /** A checkout to be paid with a saved card; returns its id. */
  createChargeCheckout(input: CreateChargeInput): Promise<string>;
  /** The checkout with this reference, or null (after a 409 on create, or a run that crashed). */
  findCheckoutByReference(reference: string): Promise<ProviderCheckout | null>;
  /** Pays a checkout with a saved card. The answer is a hint: callers verify with getCheckout. */
  payWithSavedCard(checkoutId: string, card: { customerId: string; token: string }): Promise<void>;

  /**
   * Refunds (part of) a paid checkout. Resolves only when the provider confirmed the refund.
   * Throws ProviderError 'unconfirmed' when the refund request left but no clear answer came back
   * (timeout, provider error): the money may have moved. Any other kind means nothing was refunded.
   */
  refundPayment(input: RefundInput): Promise<ProviderRefund>;
}

export type ProviderErrorKind =
  'unauthorized' | 'duplicate' | 'not_found' | 'invalid_request' | 'unavailable' | 'timeout' | 'bad_response' | 'unconfirmed';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
