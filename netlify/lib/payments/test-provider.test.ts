import { describe, expect, it } from 'vitest';
import { ProviderError } from './provider';
import { settleTestCheckout, TestProvider } from './test-provider';

// The local test provider refunds as SumUp does, so "Refund via SumUp" works offline.

const provider = new TestProvider('http://127.0.0.1:54321/.netlify/functions');

async function paidCheckout(amount: number) {
  const { id } = await provider.createCheckout({
    amount,
    currency: 'GBP',
    reference: `test-${crypto.randomUUID()}`,
    description: 'Yoga - PAYG Booking',
    returnUrl: 'http://127.0.0.1:54321/.netlify/functions/payment-webhook',
    redirectUrl: 'http://127.0.0.1:5173/payment/return',
  });
  return id;
}

async function kindOf(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  return (error as ProviderError).kind;
}

describe('TestProvider.refundPayment', () => {
  it('refunds a paid checkout, in parts, never more than was paid', async () => {
    const id = await paidCheckout(12.3);
    settleTestCheckout(id, 'PAID');
    const first = await provider.refundPayment({ checkoutId: id, amount: 10.1, currency: 'GBP' });
    expect(first.reference).toMatch(/^test-refund-/);
    await provider.refundPayment({ checkoutId: id, amount: 2.2, currency: 'GBP' });
    expect(await kindOf(provider.refundPayment({ checkoutId: id, amount: 0.01, currency: 'GBP' }))).toBe('invalid_request');
  });

  it('refuses unpaid and unknown checkouts', async () => {
    const id = await paidCheckout(10);
    expect(await kindOf(provider.refundPayment({ checkoutId: id, amount: 10, currency: 'GBP' }))).toBe('invalid_request');
    expect(await kindOf(provider.refundPayment({ checkoutId: 'missing', amount: 10, currency: 'GBP' }))).toBe('not_found');
  });
});
