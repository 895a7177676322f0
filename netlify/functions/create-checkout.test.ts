import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUMUP_API_BASE } from '../lib/payments/sumup-provider';
import { FakeSupabase, SERVICE_KEY, SUPABASE_URL } from '../tests/fake-supabase';
import createCheckout from './create-checkout';

const server = setupServer();
let supabase: FakeSupabase;
let sumupRequests: { authorization: string | null; body: Record<string, unknown> }[];

const USER = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'member-session-token';
const REFERENCE = 'plan-6c1f3e9a-2b7d-4c59-9a43-0f1e2d3c4b5a';
const SETUP = {
  payment_reference: 'plan-0d9c1f3e-2b7d-4c59-9a43-0f1e2d3c4b5a',
  setup_reference: 'setup-5a4b3c2d-2b7d-4c59-9a43-0f1e2d3c4b5a',
  amount: 100,
  currency: 'GBP',
  description: 'Standard (£100/month)',
  customer_id: 'member-member-1',
  member_email: 'bea@example.test',
  member_name: 'Bea Van Buyer',
};
let customerRequests: Record<string, unknown>[];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  vi.stubEnv('SUPABASE_URL', SUPABASE_URL);
  vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', SERVICE_KEY);
  vi.stubEnv('SITE_URL', 'https://studio.example');
  vi.stubEnv('PAYMENT_WEBHOOK_URL', '');
  vi.stubEnv('SUMUP_API_KEY', 'sup_sk_test_secret');
  vi.stubEnv('SUMUP_MERCHANT_CODE', 'MTEST123');
  supabase = new FakeSupabase();
  supabase.sessions.set(TOKEN, USER);
  supabase.members.set(USER, { id: 'member-1', membership_tier: 'payg', has_used_trial: true });
  supabase.answerRpc('create_plan_payment', {
    checkout_reference: REFERENCE,
    description: 'Drop-In Session (£115)',
    amount: 115,
    currency: 'GBP',
  });
  supabase.answerRpc('start_membership_checkout', SETUP);
  sumupRequests = [];
  customerRequests = [];
  server.use(
    ...supabase.handlers(),
    http.post(`${SUMUP_API_BASE}/v0.1/customers`, async ({ request }) => {
      customerRequests.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({ customer_id: 'member-member-1' }, { status: 201 });
    }),
    http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, async ({ request }) => {
      sumupRequests.push({ authorization: request.headers.get('authorization'), body: (await request.json()) as Record<string, unknown> });
      return HttpResponse.json(
        { id: 'chk_plan_1', status: 'PENDING', hosted_checkout_url: 'https://checkout.sumup.com/pay/chk_plan_1' },
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

function post(body: unknown, token: string | null = TOKEN, method = 'POST') {
  return createCheckout(
    new Request('https://studio.example/.netlify/functions/create-checkout', {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

describe('create-checkout', () => {
  it('records a pending one-off payment at the server price, creates the SumUp checkout and answers its URL', async () => {
    const res = await post({ planSlug: 'dropin', userId: USER, amount: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: 'https://checkout.sumup.com/pay/chk_plan_1', reference: REFERENCE });

    expect(supabase.calls('create_plan_payment')).toEqual([
      {
        fn: 'create_plan_payment',
        authorization: `Bearer ${SERVICE_KEY}`,
        // Only the slug: the database charges its catalogue's price (the 'amount: 1' above is ignored).
        args: { p_member_id: 'member-1', p_plan_slug: 'dropin' },
      },
    ]);
    expect(sumupRequests).toEqual([
      {
        authorization: 'Bearer sup_sk_test_secret',
        body: {
          checkout_reference: REFERENCE,
          amount: 115,
          currency: 'GBP',
          merchant_code: 'MTEST123',
          description: 'Drop-In Session (£115)',
          return_url: 'https://studio.example/.netlify/functions/payment-webhook',
          redirect_url: `https://studio.example/payment/return?ref=${REFERENCE}`,
          hosted_checkout: { enabled: true },
        },
      },
    ]);
    expect(supabase.calls('set_payment_checkout').map((c) => c.args)).toEqual([
      {
        p_checkout_reference: REFERENCE,
        p_provider_checkout_id: 'chk_plan_1',
        p_checkout_url: 'https://checkout.sumup.com/pay/chk_plan_1',
      },
    ]);
  });

  it('a monthly plan: creates the SumUp customer and a card-saving checkout for it, and follows the first payment', async () => {
    const res = await post({ planSlug: 'standard', userId: USER, amount: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: 'https://checkout.sumup.com/pay/chk_plan_1', reference: SETUP.payment_reference });
    expect(supabase.calls('start_membership_checkout')[0]!.args).toEqual({
      p_member_id: 'member-1',
      p_plan_slug: 'standard',
      p_now: expect.any(String),
    });
    expect(supabase.calls('create_plan_payment')).toEqual([]);
    expect(customerRequests).toEqual([
      { customer_id: 'member-member-1', personal_details: { email: 'bea@example.test', first_name: 'Bea', last_name: 'Van Buyer' } },
    ]);
    expect(sumupRequests.map((r) => r.body)).toEqual([
      {
        checkout_reference: SETUP.setup_reference,
        amount: 100,
        currency: 'GBP',
        merchant_code: 'MTEST123',
        description: 'Standard (£100/month)',
        return_url: 'https://studio.example/.netlify/functions/payment-webhook',
        redirect_url: `https://studio.example/payment/return?ref=${SETUP.payment_reference}`,
        customer_id: 'member-member-1',
        purpose: 'SETUP_RECURRING_PAYMENT',
        hosted_checkout: { enabled: true },
      },
    ]);
    expect(supabase.calls('set_card_setup_checkout').map((c) => c.args)).toEqual([
      { p_setup_reference: SETUP.setup_reference, p_provider_checkout_id: 'chk_plan_1' },
    ]);
  });

  it('a first month the balance paid in full: saves the card with nothing charged and comes back to My Membership', async () => {
    const cardOnly = {
      ...SETUP,
      payment_reference: null,
      description: 'Card for your Standard membership (nothing charged now)',
    };
    supabase.answerRpc('start_membership_checkout', cardOnly);
    const res = await post({ planSlug: 'standard', userId: USER });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: 'https://checkout.sumup.com/pay/chk_plan_1', reference: SETUP.setup_reference });
    expect(sumupRequests.map((r) => r.body)).toEqual([
      expect.objectContaining({
        checkout_reference: SETUP.setup_reference,
        amount: 100,
        description: 'Card for your Standard membership (nothing charged now)',
        redirect_url: `https://studio.example/membership?card=${SETUP.setup_reference}`,
        purpose: 'SETUP_RECURRING_PAYMENT',
      }),
    ]);
  });

  it('sends Platinum by its slug alone: the database decides its price and tier (supabase/tests/plan-catalogue.test.ts)', async () => {
    await post({ planSlug: 'platinum', userId: USER, amount: 1, grantsTier: 'premium' });
    expect(supabase.calls('start_membership_checkout')[0]!.args).toEqual({
      p_member_id: 'member-1',
      p_plan_slug: 'platinum',
      p_now: expect.any(String),
    });
  });

  it('sends a promo code or an intro offer for the database to price, and shows its refusal as it is', async () => {
    await post({ planSlug: 'dropin', userId: USER, promoCode: ' spring10 ' });
    await post({ planSlug: 'dropin', userId: USER, introOfferId: 'offer-1' });
    await post({ planSlug: 'standard', userId: USER, promoCode: 'JOIN20' });
    expect(supabase.calls('create_plan_payment').map((c) => c.args)).toEqual([
      { p_member_id: 'member-1', p_plan_slug: 'dropin', p_promo_code: 'spring10' },
      { p_member_id: 'member-1', p_plan_slug: 'dropin', p_intro_offer_id: 'offer-1' },
    ]);
    expect(supabase.calls('start_membership_checkout')[0]!.args).toMatchObject({ p_plan_slug: 'standard', p_promo_code: 'JOIN20' });

    supabase.answerRpc(
      'create_plan_payment',
      { code: 'P0001', hint: 'promo_used', message: 'You have already used the promo code SPRING10.' },
      400,
    );
    sumupRequests.length = 0;
    const res = await post({ planSlug: 'dropin', userId: USER, promoCode: 'SPRING10' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: 'promo_used', message: 'You have already used the promo code SPRING10.' });
    expect(sumupRequests).toEqual([]);
    const offerOnPlan = await post({ planSlug: 'standard', userId: USER, introOfferId: 'offer-1' });
    expect(offerOnPlan.status).toBe(400);
  });

  it('an existing SumUp customer (409) is used as it is', async () => {
    server.use(
      http.post(`${SUMUP_API_BASE}/v0.1/customers`, () => HttpResponse.json({ error_code: 'CUSTOMER_ALREADY_EXISTS' }, { status: 409 })),
    );
    const res = await post({ planSlug: 'standard', userId: USER });
    expect(res.status).toBe(200);
    expect(sumupRequests).toHaveLength(1);
  });

  it('a member whose plan runs is told to change it on /membership', async () => {
    supabase.answerRpc(
      'start_membership_checkout',
      { code: 'P0001', hint: 'membership_running', message: 'You already have a membership: upgrade or change it under My Membership.' },
      400,
    );
    const res = await post({ planSlug: 'standard', userId: USER });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: 'membership_running' });
    expect(sumupRequests).toEqual([]);
  });

  it("refuses another member's userId with 403 and records nothing", async () => {
    const res = await post({ planSlug: 'standard', userId: '22222222-2222-4222-8222-222222222222' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'forbidden' });
    expect(supabase.rpcCalls).toEqual([]);
    expect(sumupRequests).toEqual([]);
  });

  it.each([
    ['no session', null, { planSlug: 'standard', userId: USER }, 401, 'not_authenticated'],
    ['a token Supabase does not accept', 'forged-token', { planSlug: 'standard', userId: USER }, 401, 'not_authenticated'],
    ['an unknown slug', TOKEN, { planSlug: 'gold', userId: USER }, 400, 'unknown_plan'],
    ['a plan that needs proof of eligibility', TOKEN, { planSlug: 'student', userId: USER }, 400, 'plan_requires_proof'],
    ['missing fields', TOKEN, { planSlug: 'standard' }, 400, 'invalid_request'],
    ['a body that is not JSON', TOKEN, '{"planSlug":', 400, 'invalid_json'],
    ['a JSON array', TOKEN, ['standard'], 400, 'invalid_json'],
  ] as const)('refuses %s', async (_label, token, body, status, error) => {
    const res = await post(body, token);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error });
    expect(supabase.rpcCalls).toEqual([]);
    expect(sumupRequests).toEqual([]);
  });

  it('answers 405 to anything but POST', async () => {
    const res = await post(undefined, TOKEN, 'GET');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it.each([
    [401, 'a revoked key'],
    [409, 'a duplicate reference'],
    [500, 'a SumUp outage'],
  ])('abandons the payment and shows the spec alert when SumUp answers %i (%s)', async (status) => {
    server.use(http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, () => HttpResponse.json({ message: 'no' }, { status })));
    const res = await post({ planSlug: 'dropin', userId: USER });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: 'checkout_failed', message: 'Could not start checkout, please try again.' });
    expect(supabase.calls('abandon_payment').map((c) => c.args)).toEqual([{ p_checkout_reference: REFERENCE }]);
    expect(supabase.calls('set_payment_checkout')).toEqual([]);
  });

  it.each([
    ['the customer', `${SUMUP_API_BASE}/v0.1/customers`],
    ['the card-saving checkout', `${SUMUP_API_BASE}/v0.1/checkouts`],
  ])('abandons a membership checkout when SumUp cannot create %s (500)', async (_what, url) => {
    server.use(http.post(url, () => HttpResponse.json({ message: 'down' }, { status: 500 })));
    const res = await post({ planSlug: 'standard', userId: USER });
    expect(res.status).toBe(502);
    expect(supabase.calls('abandon_card_setup').map((c) => c.args)).toEqual([{ p_setup_reference: SETUP.setup_reference }]);
    expect(supabase.calls('set_card_setup_checkout')).toEqual([]);
  });

  it('fails closed on a deployed site without a SumUp key: 503, nothing recorded', async () => {
    vi.stubEnv('SUMUP_API_KEY', '');
    const res = await post({ planSlug: 'standard', userId: USER });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'payments_unavailable', message: 'Could not start checkout, please try again.' });
    expect(supabase.rpcCalls).toEqual([]);
  });

  it('uses the local test checkout (served by the gateway) when the key is empty and Supabase is local', async () => {
    const local = 'http://127.0.0.1:54321';
    vi.stubEnv('SUMUP_API_KEY', '');
    vi.stubEnv('SUPABASE_URL', local);
    const localSupabase = new FakeSupabase(local);
    localSupabase.sessions.set(TOKEN, USER);
    localSupabase.members.set(USER, { id: 'member-1', membership_tier: 'payg', has_used_trial: true });
    localSupabase.answerRpc('start_membership_checkout', SETUP);
    server.use(...localSupabase.handlers());
    const res = await post({ planSlug: 'standard', userId: USER });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^${local}/\\.netlify/functions/test-checkout\\?id=`));
    expect(sumupRequests).toEqual([]);
  });
});
