import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLASS_HOLD_MINUTES } from '../lib/payments/payment-rules';
import { SUMUP_API_BASE } from '../lib/payments/sumup-provider';
import { FakeSupabase, rpcError, SERVICE_KEY, SUPABASE_URL } from '../tests/fake-supabase';
import createFamilyCheckout from './create-family-checkout';

const server = setupServer();
let supabase: FakeSupabase;
let sumupBodies: Record<string, unknown>[];

const USER = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'parent-session-token';
const CLASS_ID = '55555555-5555-4555-8555-555555555555';
const ADA = '66666666-6666-4666-8666-666666666666';
const BEN = '77777777-7777-4777-8777-777777777777';
const REFERENCE = 'family-0b8f2c1e-6f3a-4d2b-9c7e-5a4b3c2d1e0f';
const FAMILY = { classId: CLASS_ID, includeSelf: true, childIds: [ADA, BEN] };

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
  supabase.members.set(USER, { id: 'member-1', membership_tier: 'standard', has_used_trial: true });
  supabase.answerRpc('create_family_payment_hold', {
    checkout_reference: REFERENCE,
    booking_id: 'b-1',
    amount: 12,
    currency: 'GBP',
    description: 'Kids Club - 3 places',
  });
  sumupBodies = [];
  server.use(
    ...supabase.handlers(),
    http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, async ({ request }) => {
      sumupBodies.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({ id: 'chk_family_1', hosted_checkout_url: 'https://checkout.sumup.com/pay/chk_family_1' }, { status: 201 });
    }),
  );
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function post(body: unknown, token: string | null = TOKEN) {
  return createFamilyCheckout(
    new Request('https://studio.example/.netlify/functions/create-family-checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

// A parent pays for their family's places on a paid class in one checkout.
describe('create-family-checkout', () => {
  it("the member's balance paid it all: no card page, straight to the return page", async () => {
    supabase.answerRpc('create_family_payment_hold', {
      checkout_reference: REFERENCE,
      booking_id: 'b-1',
      amount: 0,
      currency: 'GBP',
      description: 'paid from your balance',
    });
    const res = await post(FAMILY);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: `https://studio.example/payment/return?ref=${REFERENCE}`, reference: REFERENCE });
    expect(sumupBodies).toEqual([]);
  });

  it('holds the places through the database rules and checks out the total the database set', async () => {
    const res = await post(FAMILY);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: 'https://checkout.sumup.com/pay/chk_family_1', reference: REFERENCE });
    expect(supabase.calls('create_family_payment_hold')).toEqual([
      {
        fn: 'create_family_payment_hold',
        authorization: `Bearer ${SERVICE_KEY}`,
        args: {
          p_member_id: 'member-1',
          p_class_id: CLASS_ID,
          p_include_self: true,
          p_dependant_ids: [ADA, BEN],
          p_hold_minutes: CLASS_HOLD_MINUTES,
        },
      },
    ]);
    expect(sumupBodies).toEqual([
      {
        checkout_reference: REFERENCE,
        amount: 12,
        currency: 'GBP',
        merchant_code: 'MTEST123',
        description: 'Kids Club - 3 places',
        return_url: 'https://studio.example/.netlify/functions/payment-webhook',
        redirect_url: `https://studio.example/payment/return?ref=${REFERENCE}`,
        hosted_checkout: { enabled: true },
      },
    ]);
  });

  it.each([
    ['not_enough_places', 'Only 2 places left on this class: you chose 3', 409],
    ['outside_age_range', 'Ada will be 3 on the day; this class is for ages 4 to 12', 409],
    ['dependant_documents_required', 'Please sign the waiver and answer the health questions for Ada before booking', 409],
    ['payment_not_required', 'No payment is needed for this booking', 409],
    ['dependant_not_found', 'We could not find that child on your account', 404],
  ])('passes on the hold refusing with %s, checking out nothing', async (hint, message, status) => {
    supabase.answerRpc('create_family_payment_hold', rpcError(hint, message), 400);
    const res = await post(FAMILY);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: hint, message });
    expect(sumupBodies).toEqual([]);
  });

  it('releases the held places when SumUp fails', async () => {
    server.use(http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    const res = await post(FAMILY);
    expect(res.status).toBe(502);
    expect(supabase.calls('abandon_payment').map((c) => c.args)).toEqual([{ p_checkout_reference: REFERENCE }]);
  });

  it.each([
    [{ classId: 'not-a-uuid', includeSelf: true, childIds: [] }],
    [{}],
    [{ classId: CLASS_ID, includeSelf: 'yes', childIds: [ADA] }],
    [{ classId: CLASS_ID, includeSelf: false, childIds: ['ada'] }],
    [{ classId: CLASS_ID, includeSelf: false, childIds: Array.from({ length: 13 }, () => ADA) }],
  ])('refuses %j, holding nothing', async (body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(supabase.rpcCalls).toEqual([]);
  });

  it('refuses a request without a session', async () => {
    expect((await post(FAMILY, null)).status).toBe(401);
  });
});
