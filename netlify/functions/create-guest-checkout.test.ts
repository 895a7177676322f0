import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLASS_HOLD_MINUTES } from '../lib/payments/payment-rules';
import { SUMUP_API_BASE } from '../lib/payments/sumup-provider';
import { FakeSupabase, rpcError, SERVICE_KEY, SUPABASE_URL } from '../tests/fake-supabase';
import createGuestCheckout from './create-guest-checkout';

const server = setupServer();
let supabase: FakeSupabase;
let sumupBodies: Record<string, unknown>[];

const USER = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'host-session-token';
const BOOKING_ID = '44444444-4444-4444-8444-444444444444';
const REFERENCE = 'guest-0b8f2c1e-6f3a-4d2b-9c7e-5a4b3c2d1e0f';
const GUEST = { bookingId: BOOKING_ID, name: 'Gus Guest', email: 'gus@example.test' };

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
  supabase.answerRpc('create_guest_payment_hold', {
    checkout_reference: REFERENCE,
    booking_id: BOOKING_ID,
    amount: 12.5,
    currency: 'GBP',
    description: 'Breakfast Club - Guest place (Gus Guest)',
  });
  sumupBodies = [];
  server.use(
    ...supabase.handlers(),
    http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, async ({ request }) => {
      sumupBodies.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({ id: 'chk_guest_1', hosted_checkout_url: 'https://checkout.sumup.com/pay/chk_guest_1' }, { status: 201 });
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
  return createGuestCheckout(
    new Request('https://studio.example/.netlify/functions/create-guest-checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

// A member without a guest pass pays the class's pay-as-you-go price for their guest.
describe('create-guest-checkout', () => {
  it("the member's balance paid it all: no card page, straight to the return page", async () => {
    supabase.answerRpc('create_guest_payment_hold', {
      checkout_reference: REFERENCE,
      booking_id: 'b-1',
      amount: 0,
      currency: 'GBP',
      description: 'paid from your balance',
    });
    const res = await post(GUEST);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: `https://studio.example/payment/return?ref=${REFERENCE}`, reference: REFERENCE });
    expect(sumupBodies).toEqual([]);
  });

  it("holds the guest's place through the database rules, and checks out the price the database set", async () => {
    const res = await post(GUEST);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: 'https://checkout.sumup.com/pay/chk_guest_1', reference: REFERENCE });

    // Never add_guest: that would spend a guest pass.
    expect(supabase.calls('add_guest')).toEqual([]);
    expect(supabase.calls('create_guest_payment_hold')).toEqual([
      {
        fn: 'create_guest_payment_hold',
        authorization: `Bearer ${SERVICE_KEY}`,
        args: {
          p_member_id: 'member-1',
          p_booking_id: BOOKING_ID,
          p_name: 'Gus Guest',
          p_email: 'gus@example.test',
          p_hold_minutes: CLASS_HOLD_MINUTES,
        },
      },
    ]);
    expect(sumupBodies).toEqual([
      {
        checkout_reference: REFERENCE,
        amount: 12.5,
        currency: 'GBP',
        merchant_code: 'MTEST123',
        description: 'Breakfast Club - Guest place (Gus Guest)',
        return_url: 'https://studio.example/.netlify/functions/payment-webhook',
        redirect_url: `https://studio.example/payment/return?ref=${REFERENCE}`,
        hosted_checkout: { enabled: true },
      },
    ]);
  });

  it.each([
    ['no_guest_price', 'This class has no pay-as-you-go price: bring your guest with a guest pass', 409],
    ['class_full', 'This class is fully booked', 409],
    ['guest_is_you', 'Your guest needs their own email address, not yours', 400],
    ['guest_visits_used', 'Gus Guest has been a guest 3 times this year: they are welcome to join the studio', 409],
    ['not_your_booking', 'You can add a guest only to your own confirmed booking', 403],
  ])('passes on the hold refusing with %s, checking out nothing', async (hint, message, status) => {
    supabase.answerRpc('create_guest_payment_hold', rpcError(hint, message), 400);
    const res = await post(GUEST);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: hint, message });
    expect(sumupBodies).toEqual([]);
  });

  it('releases the held place when SumUp fails', async () => {
    server.use(http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    const res = await post(GUEST);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: 'checkout_failed', message: 'Could not start checkout, please try again.' });
    expect(supabase.calls('abandon_payment').map((c) => c.args)).toEqual([{ p_checkout_reference: REFERENCE }]);
  });

  it.each([
    [{ bookingId: 'not-a-uuid', name: 'A', email: 'a@example.test' }],
    [{}],
    [{ bookingId: BOOKING_ID, name: 3, email: 'a@example.test' }],
  ])('refuses %j', async (body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(supabase.rpcCalls).toEqual([]);
  });

  it('refuses a request without a session', async () => {
    const res = await post(GUEST, null);
    expect(res.status).toBe(401);
  });
});
