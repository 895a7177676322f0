import { describe, expect, it } from 'vitest';
import { ProviderError } from './provider';
import { TestProvider, testCardCharge, testCardToken, settleTestCheckout, testProviderStore } from './test-provider';

const HOUR = 3_600_000;

describe('the test cards', () => {
  it('the card that always pays pays every charge', () => {
    expect(testCardCharge(testCardToken('alwaysPays', 0), 10 * 365 * 24 * HOUR)).toBe('PAID');
  });

  it('the card that declines later pays while the member is there and declines every later charge', () => {
    const token = testCardToken('declinesLater', 1_000);
    expect(testCardCharge(token, 1_000 + 5 * 60_000)).toBe('PAID');
    expect(testCardCharge(token, 1_000 + 2 * HOUR)).toBe('FAILED');
  });

  it('a card-saving checkout paid on the test page carries the chosen card; a saved-card charge follows the clock', async () => {
    let clock = Date.now();
    const provider = new TestProvider('http://127.0.0.1:54321/.netlify/functions', { now: () => clock });
    const setup = await provider.createCheckout({
      amount: 100,
      currency: 'GBP',
      reference: `setup-${clock}`,
      description: 'Standard',
      returnUrl: 'http://x/hook',
      redirectUrl: 'http://x/return',
      customerId: 'member-1',
      purpose: 'SETUP_RECURRING_PAYMENT',
    });
    settleTestCheckout(setup.id, 'PAID', testProviderStore(undefined), 'declinesLater');
    const saved = await provider.getCheckout(setup.id);
    expect(saved).toMatchObject({
      status: 'PAID',
      customerId: 'member-1',
      cardToken: expect.stringMatching(/^test_declines_later_/) as unknown,
    });

    const now = await provider.createChargeCheckout({
      amount: 100,
      currency: 'GBP',
      reference: `renew-a-${clock}`,
      description: 'x',
      returnUrl: '',
      customerId: 'member-1',
    });
    await provider.payWithSavedCard(now, { customerId: 'member-1', token: saved.cardToken! });
    expect((await provider.getCheckout(now)).status).toBe('PAID');

    clock += 31 * 24 * HOUR;
    const later = await provider.createChargeCheckout({
      amount: 100,
      currency: 'GBP',
      reference: `renew-b-${clock}`,
      description: 'x',
      returnUrl: '',
      customerId: 'member-1',
    });
    await provider.payWithSavedCard(later, { customerId: 'member-1', token: saved.cardToken! });
    expect((await provider.getCheckout(later)).status).toBe('FAILED');
    await expect(provider.payWithSavedCard(later, { customerId: 'member-2', token: saved.cardToken! })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
  });
});

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
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
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
