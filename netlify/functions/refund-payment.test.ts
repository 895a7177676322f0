import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUMUP_API_BASE } from '../lib/payments/sumup-provider';
import { FakeSupabase, rpcError, SERVICE_KEY, SUPABASE_URL } from '../tests/fake-supabase';
import { LOCAL_GOCARDLESS } from '../lib/direct-debit/gocardless';
import { LocalGoCardlessService } from '../../supabase/local/gocardless/gocardless-service';
import refundPayment, { DIRECT_DEBIT_REFUND_TEXT, REFUND_TEXT } from './refund-payment';

// The SumUp API and Supabase at the network boundary. The claim's SQL (one refund per record,
// the states) is tested on the real engine in supabase/tests/refunds-provider.test.ts.

vi.mock('../lib/payments/payment-rules', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/payments/payment-rules')>()),
  PROVIDER_TIMEOUT_MS: 150,
}));

const server = setupServer();
let supabase: FakeSupabase;
let refundPosts: { url: string; authorization: string | null; body: unknown }[];

const ADMIN = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'admin-session-token';
const REFUND_ID = '44444444-4444-4444-8444-444444444444';
const CHECKOUT = 'chk_paid_1';
const TRANSACTION = '664200af-2b62-4142-9c73-a2a505310d78';
const CLAIM = { refund_id: REFUND_ID, already_refunded: false, amount: 12.5, currency: 'GBP', provider_checkout_id: CHECKOUT };
const REFUNDED_ROW = { id: REFUND_ID, refunded_at: '2030-07-01T09:00:00+00:00', provider_refund_id: TRANSACTION };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  vi.stubEnv('SUPABASE_URL', SUPABASE_URL);
  vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', SERVICE_KEY);
  vi.stubEnv('SITE_URL', 'https://studio.example');
  vi.stubEnv('SUMUP_API_KEY', 'sup_sk_test_secret');
  vi.stubEnv('SUMUP_MERCHANT_CODE', 'MTEST123');
  supabase = new FakeSupabase();
  supabase.sessions.set(TOKEN, ADMIN);
  supabase.answerRpc('begin_provider_refund', CLAIM);
  supabase.answerRpc('finish_provider_refund', REFUNDED_ROW);
  refundPosts = [];
  server.use(
    ...supabase.handlers(),
    http.get(`${SUMUP_API_BASE}/v0.1/checkouts/${CHECKOUT}`, () =>
      HttpResponse.json({
        id: CHECKOUT,
        status: 'PAID',
        amount: 12.5,
        currency: 'GBP',
        transactions: [
          { id: 'failed-attempt', status: 'FAILED', amount: 12.5 },
          { id: TRANSACTION, status: 'SUCCESSFUL', amount: 12.5 },
        ],
      }),
    ),
  );
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** SumUp's refund endpoint answering with `answer` (204 by default), recording each request. */
function sumupRefund(answer: () => Response | Promise<Response> = () => new HttpResponse(null, { status: 204 })) {
  server.use(
    http.post(`${SUMUP_API_BASE}/v0.1/me/refund/:txn`, async ({ request }) => {
      refundPosts.push({ url: request.url, authorization: request.headers.get('authorization'), body: await request.json() });
      return answer();
    }),
  );
}

function post(body: unknown, token: string | null = TOKEN) {
  return refundPayment(
    new Request('https://studio.example/.netlify/functions/refund-payment', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

const finishArgs = () => supabase.calls('finish_provider_refund').map((c) => c.args);

describe('refund-payment', () => {
  it("refunds the checkout's successful transaction for the amount owed, then marks the record refunded", async () => {
    sumupRefund();
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      refundId: REFUND_ID,
      alreadyRefunded: false,
      refundedAt: REFUNDED_ROW.refunded_at,
      providerRefundId: TRANSACTION,
    });

    expect(refundPosts).toEqual([
      { url: `${SUMUP_API_BASE}/v0.1/me/refund/${TRANSACTION}`, authorization: 'Bearer sup_sk_test_secret', body: { amount: 12.5 } },
    ]);
    // As the admin (their token), so the database's admin check and refunded_by apply.
    expect(supabase.calls('begin_provider_refund')).toEqual([
      { fn: 'begin_provider_refund', authorization: `Bearer ${TOKEN}`, args: { p_refund_id: REFUND_ID } },
    ]);
    expect(finishArgs()).toEqual([{ p_refund_id: REFUND_ID, p_outcome: 'refunded', p_provider_refund_id: TRANSACTION, p_error: null }]);
  });

  it('releases the claim when SumUp refuses (4xx), saying why, and marks nothing refunded', async () => {
    sumupRefund(() =>
      HttpResponse.json({ error_code: 'INVALID', message: 'Refund amount exceeds the refundable amount' }, { status: 400 }),
    );
    supabase.answerRpc('finish_provider_refund', { ...REFUNDED_ROW, refunded_at: null });
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('refund_refused');
    expect(body.message).toMatch(/^SumUp refused the refund: .*400.*Refund amount exceeds the refundable amount/);
    expect(finishArgs()).toEqual([
      { p_refund_id: REFUND_ID, p_outcome: 'refused', p_provider_refund_id: null, p_error: expect.stringContaining('answered 400') },
    ]);
  });

  it.each([
    ['a 5xx', () => HttpResponse.json({ message: 'Internal error' }, { status: 503 })],
    ['a timeout', async () => (await delay('infinite'), new HttpResponse(null, { status: 204 }))],
  ])('keeps the record claimed as unconfirmed after %s: the money may have moved', async (_name, answer) => {
    sumupRefund(answer);
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ error: 'refund_unconfirmed', message: REFUND_TEXT.unconfirmed });
    expect(refundPosts).toHaveLength(1);
    expect(finishArgs()).toEqual([
      { p_refund_id: REFUND_ID, p_outcome: 'unconfirmed', p_provider_refund_id: null, p_error: expect.any(String) },
    ]);
  });

  it('refunds nothing when the checkout has no successful transaction, and releases the claim', async () => {
    sumupRefund();
    server.use(
      http.get(`${SUMUP_API_BASE}/v0.1/checkouts/${CHECKOUT}`, () =>
        HttpResponse.json({ id: CHECKOUT, status: 'FAILED', amount: 12.5, transactions: [] }),
      ),
    );
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(502);
    expect(refundPosts).toEqual([]);
    expect(finishArgs().map((a) => a.p_outcome)).toEqual(['refused']);
  });

  it('sends one refund for a double click: the second request finds the record claimed', async () => {
    // The database's claim, as begin_provider_refund answers it: the first call claims, the
    // second (while the first waits for SumUp) is refused.
    let claimed = false;
    server.use(
      http.post(`${SUPABASE_URL}/rest/v1/rpc/begin_provider_refund`, () => {
        if (claimed)
          return HttpResponse.json(rpcError('refund_in_progress', 'A refund through SumUp is already under way for this payment'), {
            status: 400,
          });
        claimed = true;
        return HttpResponse.json(CLAIM);
      }),
    );
    sumupRefund(async () => (await delay(50), new HttpResponse(null, { status: 204 })));
    const [first, second] = await Promise.all([post({ refundId: REFUND_ID }), post({ refundId: REFUND_ID })]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect(await (first.status === 409 ? first : second).json()).toEqual({
      error: 'refund_in_progress',
      message: 'A refund through SumUp is already under way for this payment',
    });
    expect(refundPosts).toHaveLength(1);
  });

  it('answers a repeat after success without sending anything', async () => {
    sumupRefund();
    supabase.answerRpc('begin_provider_refund', {
      refund_id: REFUND_ID,
      already_refunded: true,
      amount: null,
      currency: null,
      provider_checkout_id: null,
    });
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ refundId: REFUND_ID, alreadyRefunded: true });
    expect(refundPosts).toEqual([]);
    expect(finishArgs()).toEqual([]);
  });

  it.each([
    ['not_admin', 'Access denied', 403],
    ['refund_not_found', 'This refund is not owed any more', 404],
    ['refund_unconfirmed', 'SumUp did not confirm the last refund attempt. Check the SumUp dashboard, then mark it refunded', 409],
    ['not_refundable_by_provider', 'This payment did not go through SumUp: refund it another way, then mark it refunded', 409],
  ])('passes on the database refusing with %s, sending nothing', async (hint, message, status) => {
    sumupRefund();
    supabase.answerRpc('begin_provider_refund', rpcError(hint, message), 400);
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: hint, message });
    expect(refundPosts).toEqual([]);
  });

  it('says when SumUp refunded but the record could not be written', async () => {
    sumupRefund();
    supabase.answerRpc(
      'finish_provider_refund',
      { code: '57014', message: 'canceling statement due to statement timeout', hint: null, details: null },
      500,
    );
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'refund_not_recorded', message: REFUND_TEXT.notRecorded });
    expect(refundPosts).toHaveLength(1);
  });

  it('refuses bad requests and strangers before anything else', async () => {
    expect((await post({ refundId: 'nope' })).status).toBe(400);
    expect((await post({ refundId: REFUND_ID }, null)).status).toBe(401);
    expect((await post({ refundId: REFUND_ID }, 'stolen-token')).status).toBe(401);
    const get = await refundPayment(new Request('https://studio.example/.netlify/functions/refund-payment'));
    expect(get.status).toBe(405);
    expect(supabase.calls('begin_provider_refund')).toEqual([]);
  });
});

// A payment collected by Direct Debit (decision 0103): refunded through GoCardless's Refunds API,
// here the local stack's GoCardless (supabase/local/gocardless) answering at the sandbox's address.
describe('refund-payment for a Direct Debit payment', () => {
  const GOCARDLESS = 'https://api-sandbox.gocardless.com';
  let gocardless: LocalGoCardlessService;
  let posts: { key: string | null; body: unknown }[];
  const ddClaim = (totalRefunded: number, idempotencyKey = REFUND_ID) => ({
    refund_id: REFUND_ID,
    already_refunded: false,
    amount: 100,
    currency: 'GBP',
    provider_checkout_id: null,
    collected_by: 'direct_debit',
    direct_debit_payment_id: 'PM0001',
    total_refunded: totalRefunded,
    direct_debit_idempotency_key: idempotencyKey,
  });

  beforeEach(() => {
    vi.stubEnv('GOCARDLESS_ACCESS_TOKEN', LOCAL_GOCARDLESS.accessToken);
    vi.stubEnv('GOCARDLESS_WEBHOOK_SECRET', LOCAL_GOCARDLESS.webhookSecret);
    vi.stubEnv('GOCARDLESS_API_URL', GOCARDLESS);
    gocardless = new LocalGoCardlessService(() => 'https://studio.example');
    gocardless.payments.set('PM0001', {
      id: 'PM0001',
      status: 'paid_out',
      amount: 10000,
      currency: 'GBP',
      charge_date: '2027-01-22',
      description: 'Standard',
      metadata: {},
      created_at: '2027-01-15T10:00:00Z',
      links: { mandate: 'MD0001' },
      amount_refunded: 0,
    });
    posts = [];
    server.use(
      http.post(`${GOCARDLESS}/refunds`, async ({ request }) => {
        const body = await request.json();
        const key = request.headers.get('idempotency-key');
        posts.push({ key, body });
        const headers: Record<string, string> = {};
        request.headers.forEach((value, name) => (headers[name] = value));
        const answer = gocardless.api('POST', '/refunds', headers, body);
        return HttpResponse.json(answer.body as Record<string, unknown>, { status: answer.status });
      }),
    );
  });

  it('refunds the amount owed through GoCardless, keyed by the refund, and marks the record refunded', async () => {
    supabase.answerRpc('begin_provider_refund', ddClaim(100));
    supabase.answerRpc('finish_provider_refund', { ...REFUNDED_ROW, provider_refund_id: 'RF-made' });
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(200);
    expect(posts).toEqual([
      {
        key: REFUND_ID,
        body: {
          refunds: { amount: 10000, total_amount_confirmation: 10000, metadata: { refund: REFUND_ID }, links: { payment: 'PM0001' } },
        },
      },
    ]);
    const [made] = [...gocardless.refunds.values()];
    expect(made).toMatchObject({ amount: 10000, links: { payment: 'PM0001' } });
    expect(finishArgs()).toEqual([{ p_refund_id: REFUND_ID, p_outcome: 'refunded', p_provider_refund_id: made!.id, p_error: null }]);

    // The same refund asked again (an answer lost on the way): GoCardless names the refund it made.
    const again = await post({ refundId: REFUND_ID });
    expect(again.status).toBe(200);
    expect(gocardless.refunds.size).toBe(1);
    expect(finishArgs()[1]).toEqual({ p_refund_id: REFUND_ID, p_outcome: 'refunded', p_provider_refund_id: made!.id, p_error: null });
  });

  it('makes a new refund after GoCardless failed the first: the claim numbers the key again', async () => {
    supabase.answerRpc('begin_provider_refund', ddClaim(100));
    supabase.answerRpc('finish_provider_refund', REFUNDED_ROW);
    expect((await post({ refundId: REFUND_ID })).status).toBe(200);
    const [failed] = [...gocardless.refunds.values()];
    const events = gocardless.act('refund', failed!.id, 'fail');
    expect(typeof events).not.toBe('string');
    // The refund owed is open again (the webhook); the database numbers the next key.
    supabase.answerRpc('begin_provider_refund', ddClaim(100, `${REFUND_ID}:1`));
    expect((await post({ refundId: REFUND_ID })).status).toBe(200);
    expect(posts.map((p) => p.key)).toEqual([REFUND_ID, `${REFUND_ID}:1`]);
    const made = [...gocardless.refunds.values()];
    expect(made).toHaveLength(2);
    expect(finishArgs()[1]).toEqual({ p_refund_id: REFUND_ID, p_outcome: 'refunded', p_provider_refund_id: made[1]!.id, p_error: null });
  });

  it('releases the claim when GoCardless refuses: a total that does not match what it refunded', async () => {
    supabase.answerRpc('begin_provider_refund', ddClaim(150));
    supabase.answerRpc('finish_provider_refund', { ...REFUNDED_ROW, refunded_at: null });
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('refund_refused');
    expect(body.message).toMatch(/^GoCardless refused the refund: .*422.*Total amount confirmation invalid/);
    expect(gocardless.refunds.size).toBe(0);
    expect(finishArgs()).toEqual([
      { p_refund_id: REFUND_ID, p_outcome: 'refused', p_provider_refund_id: null, p_error: expect.stringContaining('answered 422') },
    ]);
  });

  it('keeps the claim unconfirmed when GoCardless does not answer clearly', async () => {
    supabase.answerRpc('begin_provider_refund', ddClaim(100));
    server.use(http.post(`${GOCARDLESS}/refunds`, () => HttpResponse.json({ error: { message: 'Internal error' } }, { status: 500 })));
    const res = await post({ refundId: REFUND_ID });
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ error: 'refund_unconfirmed', message: DIRECT_DEBIT_REFUND_TEXT.unconfirmed });
  });
});
