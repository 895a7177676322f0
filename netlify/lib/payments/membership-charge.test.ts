import { PostgrestClient } from '@supabase/postgrest-js';
import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeSupabase, SERVICE_KEY, SUPABASE_URL } from '../../tests/fake-supabase';
import { chargeMembership, type MembershipCharge } from './membership-charge';
import { SUMUP_API_BASE, SumUpProvider } from './sumup-provider';

// A renewal charged with the saved card through SumUp's API, mocked at the network boundary:
// the exact requests, a decline, 5xx, a timeout, a duplicate reference and a run that crashed
// after the card was charged. The database's part (the RPCs) is recorded by a fake PostgREST.

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const KEY = 'sup_sk_test_key_123';
const NOW = new Date('2027-02-15T10:00:00Z');
const WEBHOOK = 'https://studio.example/.netlify/functions/payment-webhook';
const REFERENCE = 'renew-5f0c7d52-8b1e-4c1a-9d55-3c8a2f6b9e10-2';
const CHARGE: MembershipCharge = {
  checkout_reference: REFERENCE,
  amount: 100,
  currency: 'GBP',
  description: 'Standard membership, 15 February 2027 to 15 March 2027',
  billing_reason: 'renewal',
  member_id: 'm-1',
  customer_id: 'member-m-1',
  card_token: 'tok_saved_card',
  provider_checkout_id: null,
  attempt: 1,
};

let supabase: FakeSupabase;
let sumup: { method: string; path: string; body: unknown }[];
/** What GET /v0.1/checkouts/chk_r answers (the provider's state of the charge). */
let providerStatus: 'PENDING' | 'PAID' | 'FAILED';

const provider = () => new SumUpProvider({ apiKey: KEY, merchantCode: 'MTEST123', timeoutMs: 200 });
const db = () =>
  new PostgrestClient(`${SUPABASE_URL}/rest/v1`, { headers: { apikey: SERVICE_KEY, Authorization: `Bearer ${SERVICE_KEY}` } });
const checkout = () => ({
  id: 'chk_r',
  status: providerStatus,
  amount: 100,
  currency: 'GBP',
  checkout_reference: REFERENCE,
  customer_id: 'member-m-1',
});
const record = async (request: Request) => {
  const url = new URL(request.url);
  sumup.push({
    method: request.method,
    path: `${url.pathname}${url.search}`,
    body: request.method === 'GET' ? undefined : await request.json(),
  });
};

beforeEach(() => {
  supabase = new FakeSupabase();
  supabase.answerRpc('apply_membership_charge', { outcome: 'applied', payment_id: 'p-1', status: 'paid' });
  supabase.answerRpc('fail_membership_charge', { outcome: 'marked_failed', payment_id: 'p-1', status: 'failed' });
  sumup = [];
  providerStatus = 'PENDING';
  server.use(
    ...supabase.handlers(),
    http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(checkout(), { status: 201 });
    }),
    http.put(`${SUMUP_API_BASE}/v0.1/checkouts/chk_r`, async ({ request }) => {
      await record(request);
      providerStatus = 'PAID';
      return HttpResponse.json(checkout());
    }),
    http.get(`${SUMUP_API_BASE}/v0.1/checkouts/chk_r`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(checkout());
    }),
  );
});

describe('chargeMembership with SumUp', () => {
  it('creates the checkout for the customer, pays it with the saved card, verifies, then applies', async () => {
    expect(await chargeMembership(db(), provider(), CHARGE, NOW, WEBHOOK)).toEqual({ reference: REFERENCE, outcome: 'paid' });
    expect(sumup).toEqual([
      {
        method: 'POST',
        path: '/v0.1/checkouts',
        body: {
          checkout_reference: REFERENCE,
          amount: 100,
          currency: 'GBP',
          merchant_code: 'MTEST123',
          description: CHARGE.description,
          return_url: WEBHOOK,
          customer_id: 'member-m-1',
        },
      },
      { method: 'GET', path: '/v0.1/checkouts/chk_r', body: undefined },
      { method: 'PUT', path: '/v0.1/checkouts/chk_r', body: { payment_type: 'card', token: 'tok_saved_card', customer_id: 'member-m-1' } },
      { method: 'GET', path: '/v0.1/checkouts/chk_r', body: undefined },
    ]);
    expect(supabase.calls('set_payment_checkout').map((c) => c.args)).toEqual([
      { p_checkout_reference: REFERENCE, p_provider_checkout_id: 'chk_r' },
    ]);
    expect(supabase.calls('apply_membership_charge').map((c) => c.args)).toEqual([
      {
        p_checkout_reference: REFERENCE,
        p_provider_checkout_id: 'chk_r',
        p_provider_status: 'PAID',
        p_amount: 100,
        p_currency: 'GBP',
        p_now: NOW.toISOString(),
      },
    ]);
    expect(supabase.calls('fail_membership_charge')).toEqual([]);
  });

  it('a decline (as a 4xx or as FAILED) is read back from the checkout and recorded as this attempt failing', async () => {
    server.use(
      http.put(`${SUMUP_API_BASE}/v0.1/checkouts/chk_r`, async ({ request }) => {
        await record(request);
        providerStatus = 'FAILED';
        return HttpResponse.json({ error_code: 'CARD_DECLINED', message: 'Card declined' }, { status: 402 });
      }),
    );
    expect(await chargeMembership(db(), provider(), { ...CHARGE, attempt: 2 }, NOW, WEBHOOK)).toEqual({
      reference: REFERENCE,
      outcome: 'declined',
      detail: 'declined',
    });
    expect(supabase.calls('fail_membership_charge').map((c) => c.args)).toEqual([
      { p_checkout_reference: REFERENCE, p_attempt: 2, p_reason: 'declined', p_now: NOW.toISOString() },
    ]);
    expect(supabase.calls('apply_membership_charge')).toEqual([]);
  });

  it('a retry pays the checkout recorded by the first attempt (no second checkout)', async () => {
    providerStatus = 'FAILED';
    expect((await chargeMembership(db(), provider(), { ...CHARGE, provider_checkout_id: 'chk_r', attempt: 2 }, NOW, WEBHOOK)).outcome).toBe(
      'paid',
    );
    expect(sumup.map((r) => r.method)).toEqual(['GET', 'PUT', 'GET']);
  });

  it('a run that crashed after paying: the checkout is already PAID, so the card is not charged again', async () => {
    providerStatus = 'PAID';
    expect((await chargeMembership(db(), provider(), { ...CHARGE, provider_checkout_id: 'chk_r', attempt: 2 }, NOW, WEBHOOK)).outcome).toBe(
      'paid',
    );
    expect(sumup.map((r) => r.method)).toEqual(['GET']);
    expect(supabase.calls('apply_membership_charge')).toHaveLength(1);
  });

  it('a duplicate reference (a crashed run created the checkout) finds it by reference', async () => {
    server.use(
      http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, () => HttpResponse.json({ error_code: 'DUPLICATED_CHECKOUT' }, { status: 409 })),
      http.get(`${SUMUP_API_BASE}/v0.1/checkouts`, async ({ request }) => {
        await record(request);
        return HttpResponse.json([checkout()]);
      }),
    );
    expect((await chargeMembership(db(), provider(), CHARGE, NOW, WEBHOOK)).outcome).toBe('paid');
    expect(sumup[0]).toEqual({ method: 'GET', path: `/v0.1/checkouts?checkout_reference=${REFERENCE}`, body: undefined });
    expect(supabase.calls('set_payment_checkout').map((c) => c.args.p_provider_checkout_id)).toEqual(['chk_r']);
  });

  it('SumUp down (5xx) before anything was sent: the claim is released and nothing counts against the card', async () => {
    server.use(http.post(`${SUMUP_API_BASE}/v0.1/checkouts`, () => HttpResponse.json({ message: 'Service Unavailable' }, { status: 503 })));
    const result = await chargeMembership(db(), provider(), CHARGE, NOW, WEBHOOK);
    expect(result).toMatchObject({ outcome: 'error' });
    expect(supabase.calls('release_membership_charge').map((c) => c.args)).toEqual([{ p_checkout_reference: REFERENCE, p_attempt: 1 }]);
    expect(supabase.calls('fail_membership_charge')).toEqual([]);
  });

  it('a timeout while paying: the outcome is unknown, so nothing is recorded and the claim stays', async () => {
    server.use(
      http.put(`${SUMUP_API_BASE}/v0.1/checkouts/chk_r`, async () => {
        await delay(2_000);
        return HttpResponse.json(checkout());
      }),
    );
    const result = await chargeMembership(db(), provider(), CHARGE, NOW, WEBHOOK);
    expect(result).toMatchObject({ outcome: 'error', detail: expect.stringMatching(/^timeout/) as unknown });
    expect(supabase.calls('release_membership_charge')).toEqual([]);
    expect(supabase.calls('fail_membership_charge')).toEqual([]);
    expect(supabase.calls('apply_membership_charge')).toEqual([]);
  });

  it('no saved card: recorded as failed without asking SumUp', async () => {
    expect((await chargeMembership(db(), provider(), { ...CHARGE, card_token: null }, NOW, WEBHOOK)).outcome).toBe('no_card');
    expect(sumup).toEqual([]);
    expect(supabase.calls('fail_membership_charge').map((c) => c.args.p_reason)).toEqual(['no_card']);
  });

  it('a checkout whose reference is not this payment is never applied', async () => {
    server.use(
      http.get(`${SUMUP_API_BASE}/v0.1/checkouts/chk_r`, () =>
        HttpResponse.json({ ...checkout(), status: 'PAID', checkout_reference: 'renew-other-2' }),
      ),
    );
    expect((await chargeMembership(db(), provider(), { ...CHARGE, provider_checkout_id: 'chk_r' }, NOW, WEBHOOK)).outcome).toBe('error');
    expect(supabase.calls('apply_membership_charge')).toEqual([]);
  });
});
