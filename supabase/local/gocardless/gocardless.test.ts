import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoCardlessClient, GoCardlessError, LOCAL_GOCARDLESS, validWebhookSignature } from '../../../netlify/lib/direct-debit/gocardless';
import { handleGoCardless } from './gocardless-page';
import { LocalGoCardlessService, workingDaysAfter } from './gocardless-service';

// The local GoCardless (decision 0076) spoken to by the production client: a Billing Request and
// its flow, the hosted page that sets up the mandate, payments with GoCardless's idempotency and
// charge-date rules, and the test controls, each sending a signed webhook.

let server: Server;
let origin = '';
const received: { body: string; signature: string | undefined }[] = [];
let webhookStatus = 200;
let service: LocalGoCardlessService;

beforeAll(async () => {
  service = new LocalGoCardlessService(
    () => origin,
    () => `${origin}/hook`,
  );
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/hook') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['webhook-signature'] as string | undefined });
        res.writeHead(webhookStatus, { 'content-type': 'application/json' });
        res.end('{}');
      });
      return;
    }
    void handleGoCardless(req, res, path, service).then((handled) => {
      if (!handled) {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = () =>
  new GoCardlessClient({
    accessToken: LOCAL_GOCARDLESS.accessToken,
    webhookSecret: LOCAL_GOCARDLESS.webhookSecret,
    apiUrl: `${origin}/gocardless`,
  });
const lastEvents = () => {
  const last = received.at(-1)!;
  expect(validWebhookSignature(LOCAL_GOCARDLESS.webhookSecret, last.body, last.signature ?? null)).toBe(true);
  return (JSON.parse(last.body) as { events: { resource_type: string; action: string; links: Record<string, string> }[] }).events;
};

describe('the local GoCardless', () => {
  it('refuses a wrong token', async () => {
    const wrong = new GoCardlessClient({ accessToken: 'sandbox_wrong', webhookSecret: 'x', apiUrl: `${origin}/gocardless` });
    await expect(wrong.getPayment('PM1')).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
  });

  it('sets up a mandate through a Billing Request and its hosted page, then takes payments once', async () => {
    const request = await client().createMandateRequest({ reference: 'dd-setup-1', description: 'Standard membership' });
    expect(request.id).toMatch(/^BRQ/);
    // The same idempotency key answers with the first Billing Request.
    const again = await client()
      .createMandateRequest({ reference: 'dd-setup-1', description: 'Standard membership' })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(GoCardlessError);
    expect(again).toMatchObject({ kind: 'conflict', conflictingResourceId: request.id });

    const flow = await client().createFlow({
      billingRequestId: request.id,
      redirectUri: 'http://127.0.0.1:5173/membership?direct_debit=set_up',
      exitUri: 'http://127.0.0.1:5173/membership',
      customer: { email: 'mia@example.com', name: 'Mia Jones' },
    });
    expect(flow.authorisationUrl).toBe(`${origin}/gocardless/flow/${flow.id}`);
    const pageHtml = await (await fetch(flow.authorisationUrl)).text();
    expect(pageHtml).toContain('TEST DIRECT DEBIT');
    expect(pageHtml).toContain('value="Mia Jones"');

    const bad = await fetch(flow.authorisationUrl, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Mia', sort_code: '12', account_number: '1' }),
      redirect: 'manual',
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Enter a sort code of 6 digits.');

    const done = await fetch(flow.authorisationUrl, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Mia Jones', sort_code: '20-00-00', account_number: '55779911', action: 'confirm' }),
      redirect: 'manual',
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('http://127.0.0.1:5173/membership?direct_debit=set_up');
    const events = lastEvents();
    expect(events.map((e) => `${e.resource_type}.${e.action}`)).toEqual(['billing_requests.fulfilled', 'mandates.created']);
    const mandateId = events[0]!.links.mandate_request_mandate!;
    expect(events[0]!.links.billing_request).toBe(request.id);

    // Too early for a new mandate: GoCardless's validation error.
    const early = await client()
      .createPayment({
        amountPence: 10000,
        chargeDate: workingDaysAfter(new Date(), 1),
        description: 'Standard',
        mandateId,
        idempotencyKey: 'col-0',
      })
      .catch((e: unknown) => e);
    expect(early).toMatchObject({ kind: 'invalid', status: 422 });

    const chargeDate = workingDaysAfter(new Date(), 5);
    const payment = await client().createPayment({
      amountPence: 10000,
      chargeDate,
      description: 'Standard',
      mandateId,
      idempotencyKey: 'col-1',
    });
    expect(payment).toMatchObject({ status: 'pending_submission', amount: 10000, charge_date: chargeDate, links: { mandate: mandateId } });
    const twice = await client()
      .createPayment({ amountPence: 10000, chargeDate, description: 'Standard', mandateId, idempotencyKey: 'col-1' })
      .catch((e: unknown) => e);
    expect(twice).toMatchObject({ kind: 'conflict', conflictingResourceId: payment.id });

    // The controls: submit, confirm, then a charge-back; an impossible step changes nothing.
    const act = (kind: string, id: string, action: string) =>
      fetch(`${origin}/gocardless/act`, { method: 'POST', body: new URLSearchParams({ kind, id, action }) });
    await act('payment', payment.id, 'submit');
    expect(lastEvents().map((e) => e.action)).toEqual(['submitted']);
    const before = received.length;
    expect(await (await act('payment', payment.id, 'pay_out')).text()).toContain('The payment is submitted: it cannot pay out.');
    expect(received).toHaveLength(before);
    await act('payment', payment.id, 'confirm');
    await act('payment', payment.id, 'charge_back');
    expect(lastEvents()).toEqual([
      expect.objectContaining({ resource_type: 'payments', action: 'charged_back', links: { payment: payment.id, mandate: mandateId } }),
    ]);
    expect((await client().getPayment(payment.id)).status).toBe('charged_back');

    // Cancelling the mandate cancels what was not submitted yet; no payment under it afterwards.
    const pending = await client().createPayment({
      amountPence: 10000,
      chargeDate,
      description: 'Standard',
      mandateId,
      idempotencyKey: 'col-2',
    });
    await act('mandate', mandateId, 'cancel');
    expect(lastEvents().map((e) => `${e.resource_type}.${e.action}`)).toEqual(['mandates.cancelled', 'payments.cancelled']);
    expect((await client().getPayment(pending.id)).status).toBe('cancelled');
    await expect(
      client().createPayment({ amountPence: 10000, chargeDate, description: 'Standard', mandateId, idempotencyKey: 'col-3' }),
    ).rejects.toMatchObject({ kind: 'invalid' });

    // A delivery the studio did not accept can be sent again, unchanged.
    webhookStatus = 409;
    await act('payment', pending.id, 'fail');
    webhookStatus = 200;
    const page = await (await act('delivery', '0', 'replay')).text();
    expect(page).toContain('Sent again: the webhook answered 200.');
  });

  it('refunds a collected payment as GoCardless does: the total confirmed, never more than paid, once per key', async () => {
    const base = {
      currency: 'GBP' as const,
      charge_date: '2027-01-22',
      description: 'Standard',
      metadata: {},
      created_at: '2027-01-15T10:00:00Z',
    };
    service.payments.set('PMREFUND1', {
      ...base,
      id: 'PMREFUND1',
      status: 'paid_out',
      amount: 10000,
      links: { mandate: 'MDX' },
      amount_refunded: 0,
    });
    service.payments.set('PMREFUND2', {
      ...base,
      id: 'PMREFUND2',
      status: 'submitted',
      amount: 10000,
      links: { mandate: 'MDX' },
      amount_refunded: 0,
    });
    const refund = (paymentId: string, amountPence: number, totalPence: number, idempotencyKey: string) =>
      client().createRefund({ paymentId, amountPence, totalPence, idempotencyKey });

    await expect(refund('PMREFUND2', 1000, 1000, 'rf-0')).rejects.toMatchObject({ kind: 'invalid', status: 422 });
    await expect(refund('PMREFUND1', 1000, 2000, 'rf-1')).rejects.toThrow(/Total amount confirmation invalid/);
    const first = await refund('PMREFUND1', 6000, 6000, 'rf-1');
    expect(first.amount).toBe(6000);
    // The same key again: GoCardless names the refund it made.
    await expect(refund('PMREFUND1', 6000, 6000, 'rf-1')).rejects.toMatchObject({ kind: 'conflict', conflictingResourceId: first.id });
    await expect(refund('PMREFUND1', 5000, 11000, 'rf-2')).rejects.toThrow(/exceeds the amount available/);
    const second = await refund('PMREFUND1', 4000, 10000, 'rf-3');
    expect(second.amount).toBe(4000);
    expect(service.refunds.size).toBe(2);

    // The controls: a refund fails (its money is refundable again), another is paid and its funds come back.
    const act = (id: string, action: string) =>
      fetch(`${origin}/gocardless/act`, { method: 'POST', body: new URLSearchParams({ kind: 'refund', id, action }) });
    expect(await (await act(first.id, 'fail')).text()).toContain('refunds.failed: the webhook answered 200.');
    expect(lastEvents()).toEqual([
      expect.objectContaining({
        resource_type: 'refunds',
        action: 'failed',
        links: { refund: first.id, payment: 'PMREFUND1', mandate: 'MDX' },
        details: expect.objectContaining({ cause: 'refund_failed' }),
      }),
    ]);
    expect(await (await act(first.id, 'pay')).text()).toContain('The refund is failed: it cannot pay.');
    expect(service.payments.get('PMREFUND1')!.amount_refunded).toBe(4000);
    expect((await refund('PMREFUND1', 6000, 10000, 'rf-4')).amount).toBe(6000);
    await act(second.id, 'pay');
    expect(lastEvents().map((e) => `${e.resource_type}.${e.action} ${e.links.refund}`)).toEqual([`refunds.paid ${second.id}`]);
    await act(second.id, 'return_funds');
    expect(lastEvents().map((e) => `${e.resource_type}.${e.action} ${e.links.refund}`)).toEqual([`refunds.funds_returned ${second.id}`]);
    expect(service.payments.get('PMREFUND1')!.amount_refunded).toBe(6000);
    const listed = (await (await fetch(`${origin}/gocardless.json`)).json()) as { refunds: { id: string; status: string }[] };
    expect(listed.refunds.map((r) => [r.id, r.status])).toEqual([
      [first.id, 'failed'],
      [second.id, 'funds_returned'],
      [expect.any(String), 'created'],
    ]);
  });
});
