import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUMUP_API_BASE } from '../lib/payments/sumup-provider';
import { FakeSupabase, SERVICE_KEY, SUPABASE_URL } from '../tests/fake-supabase';
import paymentWebhook from './payment-webhook';

const server = setupServer();
let supabase: FakeSupabase;
let checkoutFetches: string[];

const CHECKOUT = { id: 'chk_42', status: 'PAID', amount: 10, currency: 'GBP', checkout_reference: 'class-ref-42' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  vi.stubEnv('SUPABASE_URL', SUPABASE_URL);
  vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', SERVICE_KEY);
  vi.stubEnv('SITE_URL', 'https://studio.example');
  vi.stubEnv('SUMUP_API_KEY', 'sup_sk_test_secret');
  vi.stubEnv('SUMUP_MERCHANT_CODE', 'MTEST123');
  supabase = new FakeSupabase();
  supabase.answerRpc('apply_checkout_result', { outcome: 'applied', payment_id: 'pay-1', status: 'paid' });
  checkoutFetches = [];
  server.use(
    ...supabase.handlers(),
    http.get(`${SUMUP_API_BASE}/v0.1/checkouts/:id`, ({ params, request }) => {
      checkoutFetches.push(`${String(params.id)} ${request.headers.get('authorization')}`);
      return params.id === CHECKOUT.id
        ? HttpResponse.json(CHECKOUT)
        : HttpResponse.json({ type: 'https://developer.sumup.com/problem/checkout-not-found', status: 404 }, { status: 404 });
    }),
  );
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function notify(body: unknown) {
  return paymentWebhook(
    new Request('https://studio.example/.netlify/functions/payment-webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

describe('payment-webhook', () => {
  it('verifies by fetching the checkout, then applies what SumUp says (not what the body says)', async () => {
    const res = await notify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: 'chk_42', status: 'FAILED', amount: 0.01 });
    expect(res.status).toBe(200);
    expect(checkoutFetches).toEqual(['chk_42 Bearer sup_sk_test_secret']);
    expect(supabase.calls('apply_checkout_result')).toEqual([
      {
        fn: 'apply_checkout_result',
        authorization: `Bearer ${SERVICE_KEY}`,
        args: {
          p_checkout_reference: 'class-ref-42',
          p_provider_checkout_id: 'chk_42',
          p_provider_status: 'PAID',
          p_amount: 10,
          p_currency: 'GBP',
        },
      },
    ]);
  });

  it('answers a replay the same way: the database decides it was already applied', async () => {
    await notify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: 'chk_42' });
    supabase.answerRpc('apply_checkout_result', { outcome: 'already_applied', payment_id: 'pay-1', status: 'paid' });
    const res = await notify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: 'chk_42' });
    expect(res.status).toBe(200);
    expect(supabase.calls('apply_checkout_result')).toHaveLength(2);
  });

  it('ignores a forged checkout id the provider does not know: nothing applied, logged, 200', async () => {
    const res = await notify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: 'forged-id' });
    expect(res.status).toBe(200);
    expect(supabase.rpcCalls).toEqual([]);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('forged-id'));
  });

  it('logs a mismatch reported by the database', async () => {
    supabase.answerRpc('apply_checkout_result', { outcome: 'mismatch', payment_id: 'pay-1', status: 'pending' });
    const res = await notify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: 'chk_42' });
    expect(res.status).toBe(200);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('mismatch'));
    // Remembered for the watchdog (decision 0046), which alerts the studio.
    expect(supabase.calls('record_payment_notification')[0]!.args).toMatchObject({
      p_checkout_id: 'chk_42',
      p_applied: false,
      p_reason: 'mismatch',
    });
  });

  it('records an applied notification (resolving earlier failures) and one that failed to apply', async () => {
    await notify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: 'chk_42' });
    expect(supabase.calls('record_payment_notification')[0]!.args).toMatchObject({ p_checkout_id: 'chk_42', p_applied: true });
    supabase.answerRpc('apply_checkout_result', { code: 'XX000', message: 'boom', details: null, hint: null }, 500);
    const res = await notify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: 'chk_42' });
    expect(res.status).toBe(500);
    expect(supabase.calls('record_payment_notification')[1]!.args).toMatchObject({
      p_checkout_id: 'chk_42',
      p_applied: false,
      p_reason: 'apply_failed',
      p_detail: 'apply_checkout_result failed: boom',
    });
  });

  it.each([
    ['a 5xx', () => HttpResponse.json({}, { status: 502 })],
    ['a network failure', () => HttpResponse.error()],
  ])('answers 502 (so SumUp retries) when the checkout cannot be fetched: %s', async (_label, resolver) => {
    server.use(http.get(`${SUMUP_API_BASE}/v0.1/checkouts/:id`, resolver));
    const res = await notify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: 'chk_42' });
    expect(res.status).toBe(502);
    expect(supabase.rpcCalls).toEqual([]);
  });

  it('acknowledges unknown event types without acting on them', async () => {
    const res = await notify({ event_type: 'solo.transaction.updated', id: 'chk_42' });
    expect(res.status).toBe(200);
    expect(checkoutFetches).toEqual([]);
    expect(supabase.rpcCalls).toEqual([]);
  });

  it.each([
    ['not JSON', 'event_type=CHECKOUT_STATUS_CHANGED'],
    ['no id', { event_type: 'CHECKOUT_STATUS_CHANGED' }],
    ['a non-string id', { event_type: 'CHECKOUT_STATUS_CHANGED', id: 42 }],
  ])('answers 400 to a malformed notification (%s)', async (_label, body) => {
    const res = await notify(body);
    expect(res.status).toBe(400);
    expect(checkoutFetches).toEqual([]);
    expect(supabase.rpcCalls).toEqual([]);
  });
});
