import { randomUUID } from 'node:crypto';
import type { CheckoutStatus, CreateCheckoutInput, CreatedCheckout, PaymentProvider, ProviderCheckout, ProviderRefund, RefundInput } from './provider';
import { ProviderError } from './provider';

/**
 * The local test provider: used only when no SumUp key is set and Supabase is a local stack.
 * It behaves like SumUp seen from the functions (create, then get by id; statuses PENDING, PAID,
 * FAILED, EXPIRED) and its "hosted checkout" is the test page served by the test-checkout
 * function through the local gateway. Checkouts live in this process's memory: the gateway runs
 * every function in one process, and a restart simply abandons unpaid test checkouts (their
 * holds expire as real ones would).
 */
export type TestCheckout = CreateCheckoutInput & { id: string; status: CheckoutStatus; createdAt: number; refunds: TestRefund[] };
export type TestRefund = { reference: string; amount: number };

/** Same lifetime as a SumUp hosted checkout session. */
export const TEST_CHECKOUT_LIFETIME_MS = 30 * 60 * 1000;

const STORE_KEY = Symbol.for('studio.payments.test-checkouts');

function store(): Map<string, TestCheckout> {
  const holder = globalThis as typeof globalThis & { [STORE_KEY]?: Map<string, TestCheckout> };
  holder[STORE_KEY] ??= new Map();
  return holder[STORE_KEY];
}

function current(checkout: TestCheckout, now: number): TestCheckout {
  if (checkout.status === 'PENDING' && now - checkout.createdAt > TEST_CHECKOUT_LIFETIME_MS) {
    checkout.status = 'EXPIRED';
  }
  return checkout;
}

export class TestProvider implements PaymentProvider {
  readonly name = 'test';

  /** @param functionsBaseUrl where the gateway serves functions, e.g. http://127.0.0.1:54321/.netlify/functions */
  constructor(private readonly functionsBaseUrl: string) {}

  createCheckout(input: CreateCheckoutInput): Promise<CreatedCheckout> {
    const checkouts = store();
    for (const existing of checkouts.values()) {
      if (existing.reference === input.reference) {
        return Promise.reject(new ProviderError('duplicate', `A test checkout already exists for ${input.reference}`, 409));
      }
    }
    const id = randomUUID();
    checkouts.set(id, { ...input, id, status: 'PENDING', createdAt: Date.now(), refunds: [] });
    return Promise.resolve({ id, url: `${this.functionsBaseUrl}/test-checkout?id=${encodeURIComponent(id)}` });
  }

  getCheckout(id: string): Promise<ProviderCheckout> {
    const checkout = findTestCheckout(id);
    if (!checkout) return Promise.reject(new ProviderError('not_found', `No test checkout ${id}`, 404));
    const { status, amount, currency, reference } = checkout;
    return Promise.resolve({ id, status, amount, currency, reference });
  }

  /** As SumUp: only a paid checkout, never more than was paid in all (in pence, no float drift). */
  refundPayment(input: RefundInput): Promise<ProviderRefund> {
    const checkout = findTestCheckout(input.checkoutId);
    if (!checkout) return Promise.reject(new ProviderError('not_found', `No test checkout ${input.checkoutId}`, 404));
    if (checkout.status !== 'PAID') return Promise.reject(new ProviderError('invalid_request', `Test checkout ${checkout.id} is ${checkout.status}`, 409));
    const pence = (pounds: number) => Math.round(pounds * 100);
    const refunded = checkout.refunds.reduce((sum, r) => sum + pence(r.amount), 0);
    if (pence(input.amount) <= 0 || refunded + pence(input.amount) > pence(checkout.amount)) {
      return Promise.reject(new ProviderError('invalid_request', `Refund of ${input.amount} exceeds what test checkout ${checkout.id} has left`, 400));
    }
    const refund = { reference: `test-refund-${randomUUID()}`, amount: input.amount };
    checkout.refunds.push(refund);
    return Promise.resolve({ reference: refund.reference });
  }
}

export function findTestCheckout(id: string, now = Date.now()): TestCheckout | null {
  const checkout = store().get(id);
  return checkout ? current(checkout, now) : null;
}

/** The test page's Pay / Decline: only a pending checkout changes. Returns the checkout after. */
export function settleTestCheckout(id: string, status: 'PAID' | 'FAILED'): TestCheckout | null {
  const checkout = findTestCheckout(id);
  if (checkout?.status === 'PENDING') checkout.status = status;
  return checkout;
}
