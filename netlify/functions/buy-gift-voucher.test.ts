import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUMUP_API_BASE } from '../lib/payments/sumup-provider';
import { FakeSupabase, rpcError, SERVICE_KEY, SUPABASE_URL } from '../tests/fake-supabase';
import buyGiftVoucher from './buy-gift-voucher';

const server = setupServer();
let supabase: FakeSupabase;
let sumupBodies: Record<string, unknown>[];

const USER = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'member-session-token';
const REFERENCE = 'voucher-0b8f2c1e-6f3a-4d2b-9c7e-5a4b3c2d1e0f';
const GIFT = { amount: 50, recipientName: 'Robin', recipientEmail: 'robin@example.test', message: 'Enjoy!', deliverOn: '2026-12-24' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  vi.stubEnv('SUPABASE_URL', SUPABASE_URL);
  vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', SERVICE_KEY);
  vi.stubEnv('SITE_URL', 'https://studio.example');
  vi.stubEnv('SUMUP_API_KEY', 'sup_sk_test_secret');
  vi.stubEnv('SUMUP_MERCHANT_CODE', 'MTEST123');
  supabase = new FakeSupabase();
  supabase.sessions.set(TOKEN, USER);
  supabase.members.set(USER, { id: 'member-1', membership_tier: 'payg', has_used_trial: true });
  supabase.answerRpc('create_gift_voucher_payment', {
    payment_id: 'p1',
    checkout_reference: REFERENCE,
    amount: 50,
    currency: 'GBP',
    description: 'Gift voucher for Robin (£50.00)',
  });
  sumupBodies = [];
  server.use(
    ...supabase.handlers(),
    http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, async ({ request }) => {
      sumupBodies.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json(
        { id: 'chk_voucher_1', hosted_checkout_url: 'https://checkout.sumup.com/pay/chk_voucher_1' },
        { status: 201 },
      );
    }),
  );
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function post(body: unknown, token: string | null = null) {
  return buyGiftVoucher(
    new Request('https://studio.example/.netlify/functions/buy-gift-voucher', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

// Decision 0100: anyone buys a gift voucher; the database checks and prices it, then the card checkout starts.
describe('buy-gift-voucher', () => {
  it("lets a visitor buy one with their own name and email, and checks out the database's amount", async () => {
    const res = await post({ ...GIFT, buyerName: 'Sam', buyerEmail: 'sam@example.test' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: 'https://checkout.sumup.com/pay/chk_voucher_1', reference: REFERENCE });
    expect(supabase.calls('create_gift_voucher_payment').map((c) => c.args)).toEqual([
      expect.objectContaining({
        p_buyer_member_id: null,
        p_buyer_name: 'Sam',
        p_buyer_email: 'sam@example.test',
        p_amount: 50,
        p_plan_slug: null,
        p_deliver_on: '2026-12-24',
      }),
    ]);
    expect(sumupBodies).toEqual([
      expect.objectContaining({
        amount: 50,
        checkout_reference: REFERENCE,
        redirect_url: `https://studio.example/gift-vouchers/return?ref=${REFERENCE}`,
      }),
    ]);
  });

  it('a member buys as themselves: the session says who, never the body', async () => {
    const res = await post({ ...GIFT, amount: null, planSlug: 'dropin', buyerEmail: 'someone-else@example.test' }, TOKEN);
    expect(res.status).toBe(200);
    expect(supabase.calls('create_gift_voucher_payment')[0]!.args).toMatchObject({
      p_buyer_member_id: 'member-1',
      p_plan_slug: 'dropin',
      p_amount: null,
    });
  });

  it("passes on the database's refusal in its words, checking out nothing", async () => {
    supabase.answerRpc(
      'create_gift_voucher_payment',
      rpcError('invalid_amount', 'A gift voucher is a whole number of pounds from £10.00 to £500.00.', '22023'),
      400,
    );
    const res = await post({ ...GIFT, amount: 5, buyerName: 'Sam', buyerEmail: 'sam@example.test' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_amount',
      message: 'A gift voucher is a whole number of pounds from £10.00 to £500.00.',
    });
    expect(sumupBodies).toEqual([]);
  });

  it('refuses a request without an amount or a package, or with both', async () => {
    expect((await post({ ...GIFT, amount: null })).status).toBe(400);
    expect((await post({ ...GIFT, planSlug: 'dropin' })).status).toBe(400);
    expect(supabase.calls('create_gift_voucher_payment')).toEqual([]);
  });
});
