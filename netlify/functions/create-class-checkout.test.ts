import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLASS_HOLD_MINUTES } from '../lib/payments/payment-rules';
import { SUMUP_API_BASE } from '../lib/payments/sumup-provider';
import { FakeSupabase, rpcError, SERVICE_KEY, SUPABASE_URL } from '../tests/fake-supabase';
import createClassCheckout from './create-class-checkout';

const server = setupServer();
let supabase: FakeSupabase;
let sumupBodies: Record<string, unknown>[];

const USER = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'payg-session-token';
const CLASS_ID = '33333333-3333-4333-8333-333333333333';
const REFERENCE = 'class-0b8f2c1e-6f3a-4d2b-9c7e-5a4b3c2d1e0f';

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
  supabase.answerRpc('create_class_payment_hold', {
    checkout_reference: REFERENCE,
    booking_id: 'booking-1',
    amount: 10.0,
    currency: 'GBP',
    description: 'Breakfast Club - PAYG Booking',
  });
  sumupBodies = [];
  server.use(
    ...supabase.handlers(),
    http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, async ({ request }) => {
      sumupBodies.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({ id: 'chk_class_1', hosted_checkout_url: 'https://checkout.sumup.com/pay/chk_class_1' }, { status: 201 });
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
  return createClassCheckout(
    new Request('https://studio.example/.netlify/functions/create-class-checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

describe('create-class-checkout', () => {
  it('holds the spot through the database rules, and checks out the class price', async () => {
    const res = await post({ classId: CLASS_ID });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: 'https://checkout.sumup.com/pay/chk_class_1', reference: REFERENCE });

    // Never book_class: for a member who needs no payment it would book on the spot.
    expect(supabase.calls('book_class')).toEqual([]);
    expect(supabase.calls('create_class_payment_hold')).toEqual([
      {
        fn: 'create_class_payment_hold',
        authorization: `Bearer ${SERVICE_KEY}`,
        args: { p_member_id: 'member-1', p_class_id: CLASS_ID, p_hold_minutes: CLASS_HOLD_MINUTES, p_booking_type: null },
      },
    ]);
    expect(sumupBodies).toEqual([
      {
        checkout_reference: REFERENCE,
        amount: 10,
        currency: 'GBP',
        merchant_code: 'MTEST123',
        description: 'Breakfast Club - PAYG Booking',
        return_url: 'https://studio.example/.netlify/functions/payment-webhook',
        redirect_url: `https://studio.example/payment/return?ref=${REFERENCE}`,
        hosted_checkout: { enabled: true },
      },
    ]);
  });

  it("passes the booking form's type to the hold (a Standard member choosing pay-as-you-go)", async () => {
    const res = await post({ classId: CLASS_ID, bookingType: 'payg' });
    expect(res.status).toBe(200);
    expect(supabase.calls('create_class_payment_hold').map((c) => c.args)).toEqual([
      { p_member_id: 'member-1', p_class_id: CLASS_ID, p_hold_minutes: CLASS_HOLD_MINUTES, p_booking_type: 'payg' },
    ]);
  });

  it.each([
    ['payment_not_required', 'No payment is needed for this booking', 409],
    ['class_full', 'This class is fully booked', 409],
    ['already_booked', 'You have already booked this class', 409],
    ['class_started', 'This class has already started', 409],
    ['class_locked', 'This premium class opens for booking on 12 Jan 2026, 06:00', 409],
    ['class_not_found', 'Class not found', 404],
  ])('passes on the hold refusing with %s, checking out nothing', async (hint, message, status) => {
    supabase.answerRpc('create_class_payment_hold', rpcError(hint, message), 400);
    const res = await post({ classId: CLASS_ID });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: hint, message });
    expect(sumupBodies).toEqual([]);
  });

  it('passes on the hold refusing when the last spot went in the meantime', async () => {
    supabase.answerRpc('create_class_payment_hold', rpcError('class_full', 'This class is fully booked'), 400);
    const res = await post({ classId: CLASS_ID });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: 'class_full', message: 'This class is fully booked' });
    expect(sumupBodies).toEqual([]);
  });

  it('releases the hold when SumUp fails', async () => {
    server.use(http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    const res = await post({ classId: CLASS_ID });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: 'checkout_failed', message: 'Could not start checkout, please try again.' });
    expect(supabase.calls('abandon_payment').map((c) => c.args)).toEqual([{ p_checkout_reference: REFERENCE }]);
  });

  it.each([
    [{ classId: 'not-a-uuid' }, 400],
    [{}, 400],
    [{ classId: CLASS_ID, bookingType: 'free' }, 400],
  ])('refuses %j', async (body, status) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(supabase.rpcCalls).toEqual([]);
  });

  it('refuses a request without a session', async () => {
    const res = await post({ classId: CLASS_ID }, null);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'not_authenticated', message: 'Please sign in first.' });
  });
});
