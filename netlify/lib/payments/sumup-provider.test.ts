import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from './provider';
import { SUMUP_API_BASE, SumUpProvider } from './sumup-provider';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const KEY = 'sup_sk_test_key_123';
const provider = () => new SumUpProvider({ apiKey: KEY, merchantCode: 'MTEST123', timeoutMs: 200 });
const input = {
  amount: 115.5,
  currency: 'GBP' as const,
  reference: 'plan-2f1b7a0e-0000-4000-8000-000000000001',
  description: 'Drop-In Session (£115.50)',
  returnUrl: 'https://studio.example/.netlify/functions/payment-webhook',
  redirectUrl: 'https://studio.example/payment/return?ref=plan-2f1b7a0e-0000-4000-8000-000000000001',
};

async function expectProviderError(promise: Promise<unknown>, kind: ProviderError['kind']) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe(kind);
}

describe('SumUpProvider.createCheckout', () => {
  it('posts the hosted checkout request SumUp documents, with the secret key only in the header', async () => {
    let seen: { headers: Headers; body: unknown } | null = null;
    server.use(
      http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, async ({ request }) => {
        seen = { headers: request.headers, body: await request.json() };
        return HttpResponse.json(
          { id: 'chk_1', status: 'PENDING', hosted_checkout_url: 'https://checkout.sumup.com/pay/chk_1' },
          { status: 201 },
        );
      }),
    );

    await expect(provider().createCheckout(input)).resolves.toEqual({ id: 'chk_1', url: 'https://checkout.sumup.com/pay/chk_1' });
    expect(seen!.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(seen!.headers.get('content-type')).toBe('application/json');
    expect(seen!.body).toEqual({
      checkout_reference: input.reference,
      amount: 115.5,
      currency: 'GBP',
      merchant_code: 'MTEST123',
      description: input.description,
      return_url: input.returnUrl,
      redirect_url: input.redirectUrl,
      hosted_checkout: { enabled: true },
    });
  });

  it.each([
    [401, { error_code: 'NOT_AUTHORIZED', message: 'Invalid access token' }, 'unauthorized'],
    [409, { error_code: 'DUPLICATED_CHECKOUT', message: 'Checkout with this checkout reference already exists' }, 'duplicate'],
    [400, { error_code: 'INVALID', message: 'Validation error', param: 'amount' }, 'invalid_request'],
    [500, { message: 'Internal Server Error' }, 'unavailable'],
    [503, { message: 'Service Unavailable' }, 'unavailable'],
  ] as const)('maps HTTP %i to a %s provider error', async (status, body, kind) => {
    server.use(http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, () => HttpResponse.json(body, { status })));
    await expectProviderError(provider().createCheckout(input), kind);
  });

  it('gives up after its timeout', async () => {
    server.use(
      http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, async () => {
        await delay(2_000);
        return HttpResponse.json({ id: 'late', hosted_checkout_url: 'https://checkout.sumup.com/pay/late' });
      }),
    );
    const started = Date.now();
    await expectProviderError(provider().createCheckout(input), 'timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('refuses an answer without a hosted checkout URL (hosted checkout not enabled for the merchant)', async () => {
    server.use(http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, () => HttpResponse.json({ id: 'chk_2', status: 'PENDING' })));
    await expectProviderError(provider().createCheckout(input), 'bad_response');
  });

  it('treats a network failure as unavailable', async () => {
    server.use(http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, () => HttpResponse.error()));
    await expectProviderError(provider().createCheckout(input), 'unavailable');
  });
});

describe('SumUpProvider.getCheckout', () => {
  it('fetches the checkout by id with the key and reads status, amount, currency and reference', async () => {
    let auth: string | null = null;
    server.use(
      http.get(`${SUMUP_API_BASE}/v0.1/checkouts/:id`, ({ request, params }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({
          id: params.id,
          status: 'PAID',
          amount: 10,
          currency: 'GBP',
          checkout_reference: 'class-abc',
          merchant_code: 'MTEST123',
          transactions: [{ id: 't1', status: 'SUCCESSFUL', amount: 10, currency: 'GBP' }],
        });
      }),
    );
    await expect(provider().getCheckout('chk_9')).resolves.toEqual({
      id: 'chk_9',
      status: 'PAID',
      amount: 10,
      currency: 'GBP',
      reference: 'class-abc',
      customerId: null,
      cardToken: null,
    });
    expect(auth).toBe(`Bearer ${KEY}`);
  });

  it('reports an unknown checkout as not_found', async () => {
    server.use(
      http.get(`${SUMUP_API_BASE}/v0.1/checkouts/:id`, () =>
        HttpResponse.json({ type: 'https://developer.sumup.com/problem/checkout-not-found', status: 404 }, { status: 404 }),
      ),
    );
    await expectProviderError(provider().getCheckout('forged'), 'not_found');
  });

  it('refuses a checkout with a status it does not know', async () => {
    server.use(http.get(`${SUMUP_API_BASE}/v0.1/checkouts/:id`, () => HttpResponse.json({ id: 'x', status: 'WEIRD', amount: 1 })));
    await expectProviderError(provider().getCheckout('x'), 'bad_response');
  });
});

it('will not start without both the key and the merchant code', () => {
  expect(() => new SumUpProvider({ apiKey: '', merchantCode: 'M' })).toThrow(/SUMUP_API_KEY/);
  expect(() => new SumUpProvider({ apiKey: 'k', merchantCode: '' })).toThrow(/SUMUP_MERCHANT_CODE/);
});
