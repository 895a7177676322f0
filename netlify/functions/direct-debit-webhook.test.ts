import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { setUpFakeSupabase } from '../tests/fake-supabase';
import { webhookSignature } from '../lib/direct-debit/gocardless';
import { LocalGoCardlessService } from '../../supabase/local/gocardless/gocardless-service';
import directDebitWebhook from './direct-debit-webhook';

// GoCardless's webhooks (decision 0076): only a body signed with the endpoint's secret reaches the
// database, each event as its own apply_direct_debit_event; an event naming something not recorded
// yet answers 409 so GoCardless sends it again; a mandate set up for a first month collects it.
const { fake, stubEnv, server } = setUpFakeSupabase();
const SECRET = 'webhook-test-secret';
const URL_CALLED = 'https://studio.example/.netlify/functions/direct-debit-webhook';

const events = [
  {
    id: 'EV001',
    created_at: '2027-01-20T10:00:00Z',
    resource_type: 'payments',
    action: 'confirmed',
    links: { payment: 'PM001' },
    details: { cause: 'payment_confirmed' },
  },
  { id: 'EV002', created_at: '2027-01-20T10:00:01Z', resource_type: 'mandates', action: 'active', links: { mandate: 'MD001' } },
];

function request(body: string, signature: string | null) {
  return new Request(URL_CALLED, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'webhook-signature': signature } : {}) },
    body,
  });
}

function env() {
  stubEnv();
  vi.stubEnv('GOCARDLESS_ACCESS_TOKEN', 'sandbox_test-token');
  vi.stubEnv('GOCARDLESS_WEBHOOK_SECRET', SECRET);
  vi.stubEnv('GOCARDLESS_API_URL', 'https://api-sandbox.gocardless.test');
  // The card provider the functions also hold (never asked here: the member pays by Direct Debit).
  vi.stubEnv('SUMUP_API_KEY', 'sup_sk_unused');
  vi.stubEnv('SUMUP_MERCHANT_CODE', 'MUNUSED');
}

describe('direct-debit-webhook', () => {
  it('answers 498 to an unsigned, wrongly signed or altered body and changes nothing', async () => {
    env();
    const body = JSON.stringify({ events });
    expect((await directDebitWebhook(request(body, null))).status).toBe(498);
    expect((await directDebitWebhook(request(body, webhookSignature('another-secret', body)))).status).toBe(498);
    const altered = body.replace('confirmed', 'charged_back');
    expect((await directDebitWebhook(request(altered, webhookSignature(SECRET, body)))).status).toBe(498);
    expect(fake.rpcCalls).toEqual([]);
  });

  it('applies each signed event once through the database, in the order sent', async () => {
    env();
    fake.answerRpc('apply_direct_debit_event', { outcome: 'applied', charge_reference: null });
    const body = JSON.stringify({ events });
    const res = await directDebitWebhook(request(body, webhookSignature(SECRET, body)));
    expect(res.status).toBe(200);
    expect(
      fake.calls('apply_direct_debit_event').map((c) => [c.args.p_event_id, c.args.p_resource_type, c.args.p_action, c.args.p_links]),
    ).toEqual([
      ['EV001', 'payments', 'confirmed', { payment: 'PM001' }],
      ['EV002', 'mandates', 'active', { mandate: 'MD001' }],
    ]);
    expect(fake.calls('apply_direct_debit_event')[0]!.args.p_details).toEqual({ cause: 'payment_confirmed' });
  });

  it('answers 409 when an event names something not recorded yet, so GoCardless sends it again', async () => {
    env();
    fake.answerRpc('apply_direct_debit_event', { outcome: 'unknown_reference', charge_reference: null });
    const body = JSON.stringify({ events: events.slice(0, 1) });
    expect((await directDebitWebhook(request(body, webhookSignature(SECRET, body)))).status).toBe(409);
  });

  it('refuses a signed body that is not { events: [...] }', async () => {
    env();
    const body = JSON.stringify({ event: events[0] });
    expect((await directDebitWebhook(request(body, webhookSignature(SECRET, body)))).status).toBe(400);
    expect(fake.rpcCalls).toEqual([]);
  });

  it('collects the first month once a mandate is set up for it, with the collection id as idempotency key', async () => {
    env();
    const goCardless: { path: string; key: string | null; body: unknown }[] = [];
    server.use(
      http.post('https://api-sandbox.gocardless.test/payments', async ({ request: req }) => {
        goCardless.push({ path: '/payments', key: req.headers.get('idempotency-key'), body: await req.json() });
        return HttpResponse.json(
          {
            payments: {
              id: 'PM777',
              status: 'pending_submission',
              amount: 10000,
              currency: 'GBP',
              charge_date: '2027-01-22',
              links: { mandate: 'MD001' },
            },
          },
          { status: 201 },
        );
      }),
    );
    {
      fake.answerRpc('apply_direct_debit_event', { outcome: 'applied', charge_reference: 'plan-abc' });
      fake.answerRpc('claim_membership_charge', {
        checkout_reference: 'plan-abc',
        amount: 100,
        currency: 'GBP',
        description: 'Standard (£100/month)',
        billing_reason: 'start',
        member_id: 'm-1',
        customer_id: 'member-m-1',
        card_token: null,
        provider_checkout_id: null,
        attempt: 1,
      });
      fake.answerRpc('direct_debit_collection_for', {
        method: 'direct_debit',
        collection_id: '7d0c2f4e-3a55-4f43-9f8c-0d6a3f1b2c11',
        provider_mandate_id: 'MD001',
        charge_date: '2027-01-22',
        amount: 100,
        description: 'Standard (£100/month)',
        provider_payment_id: null,
      });
      fake.answerRpc('record_direct_debit_submission', 'applied');
      const fulfilled = [
        {
          id: 'EV010',
          resource_type: 'billing_requests',
          action: 'fulfilled',
          links: { billing_request: 'BRQ1', mandate_request_mandate: 'MD001' },
        },
      ];
      const body = JSON.stringify({ events: fulfilled });
      expect((await directDebitWebhook(request(body, webhookSignature(SECRET, body)))).status).toBe(200);
      expect(goCardless).toEqual([
        {
          path: '/payments',
          key: '7d0c2f4e-3a55-4f43-9f8c-0d6a3f1b2c11',
          body: {
            payments: {
              amount: 10000,
              currency: 'GBP',
              charge_date: '2027-01-22',
              description: 'Standard (£100/month)',
              metadata: { collection: '7d0c2f4e-3a55-4f43-9f8c-0d6a3f1b2c11' },
              links: { mandate: 'MD001' },
            },
          },
        },
      ]);
      expect(fake.calls('record_direct_debit_submission').map((c) => c.args)).toEqual([
        {
          p_collection_id: '7d0c2f4e-3a55-4f43-9f8c-0d6a3f1b2c11',
          p_provider_payment_id: 'PM777',
          p_charge_date: '2027-01-22',
          p_now: expect.any(String),
        },
      ]);
      expect(fake.calls('fail_membership_charge')).toEqual([]);
    }
  });

  it("applies the local GoCardless's signed refund events: a refund failed, and one the studio does not know", async () => {
    env();
    // The local stack's GoCardless sends its webhooks to this function (signed with the endpoint's secret).
    const gocardless = new LocalGoCardlessService(
      () => 'https://gocardless.test',
      () => URL_CALLED,
      SECRET,
    );
    server.use(http.post(URL_CALLED, ({ request: req }) => directDebitWebhook(req)));
    gocardless.payments.set('PM900', {
      id: 'PM900',
      status: 'paid_out',
      amount: 10000,
      currency: 'GBP',
      charge_date: '2027-01-22',
      description: 'Standard',
      metadata: {},
      created_at: '2027-01-15T10:00:00Z',
      links: { mandate: 'MD900' },
      amount_refunded: 10000,
    });
    gocardless.refunds.set('RF900', {
      id: 'RF900',
      amount: 10000,
      currency: 'GBP',
      reference: null,
      metadata: {},
      created_at: '2027-01-24T10:00:00Z',
      status: 'created',
      links: { payment: 'PM900', mandate: 'MD900' },
    });
    fake.answerRpc('apply_direct_debit_event', { outcome: 'applied', charge_reference: null });
    const failed = gocardless.act('refund', 'RF900', 'fail');
    if (typeof failed === 'string') throw new Error(failed);
    expect((await gocardless.deliver(failed)).status).toBe(200);
    expect(
      fake.calls('apply_direct_debit_event').map((c) => [c.args.p_resource_type, c.args.p_action, c.args.p_links, c.args.p_details]),
    ).toEqual([
      [
        'refunds',
        'failed',
        { refund: 'RF900', payment: 'PM900', mandate: 'MD900' },
        { origin: 'gocardless', cause: 'refund_failed', description: "The refund could not be paid to the customer's bank account." },
      ],
    ]);
    expect(gocardless.payments.get('PM900')!.amount_refunded).toBe(0);

    // A refund the studio did not make is kept by the database (recorded for the watchdog), not sent again.
    fake.answerRpc('apply_direct_debit_event', { outcome: 'unknown_refund', charge_reference: null });
    const delivery = await gocardless.redeliver(0);
    expect(delivery).toMatchObject({ status: 200 });
    expect(fake.calls('apply_direct_debit_event')).toHaveLength(2);
  });
});
