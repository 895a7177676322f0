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
};

export type CreatedCheckout = { id: string; url: string };

export type ProviderCheckout = {
  id: string;
  status: CheckoutStatus;
  amount: number;
  currency: string;
  reference: string;
};

export interface PaymentProvider {
  readonly name: string;
  createCheckout(input: CreateCheckoutInput): Promise<CreatedCheckout>;
  /** The provider's own record of a checkout; throws ProviderError 'not_found' for an unknown id. */
  getCheckout(id: string): Promise<ProviderCheckout>;
}

export type ProviderErrorKind = 'unauthorized' | 'duplicate' | 'not_found' | 'invalid_request' | 'unavailable' | 'timeout' | 'bad_response';

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
