import { PostgrestClient } from '@supabase/postgrest-js';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScheduledJobs } from '../../netlify/lib/jobs/scheduled-jobs';
import { paymentWebhookUrl, selectProvider } from '../../netlify/lib/payments/select-provider';
import { readServerEnv } from '../../netlify/lib/server-env';
import type { Database } from '../../src/lib/database.types';
import { startStack, type Stack } from './stack';

// Direct Debit through the whole local stack (decision 0076): the member's setup goes to the local
// GoCardless's page, the signed webhook sets up the mandate and submits the first month, and the
// controls at /gocardless move it on until the plan starts.
const PASSWORD = 'studio123';
let stack: Stack;

async function signedIn(email: string): Promise<{ client: SupabaseClient<Database>; token: string }> {
  const client = createClient<Database>(stack.url, stack.anonKey, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return { client, token: data.session.access_token };
}

type FakeState = {
  payments: { id: string; status: string }[];
  refunds: { id: string; status: string; links: { payment: string } }[];
  deliveries: { status: number | null }[];
};
const fakeState = async () => (await (await fetch(`${stack.url}/gocardless.json`)).json()) as FakeState;
const act = (kind: string, id: string, action: string) =>
  fetch(`${stack.url}/gocardless/act`, { method: 'POST', body: new URLSearchParams({ kind, id, action }) });

beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', quiet: true });
});

afterAll(async () => {
  await stack?.stop();
});

describe('Direct Debit on the local stack', () => {
  it('sets up a mandate on the fake page, submits the first month, and starts the plan when it is confirmed', async () => {
    const { client, token } = await signedIn('payg@studio.test');
    const started = await fetch(`${stack.url}/.netlify/functions/direct-debit-setup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ planSlug: 'standard' }),
    });
    expect(started.status).toBe(200);
    const { url, reference } = (await started.json()) as { url: string; reference: string };
    expect(url.startsWith(`${stack.url}/gocardless/flow/`)).toBe(true);
    expect(reference).toMatch(/^plan-/);

    const done = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Pat Payg', sort_code: '200000', account_number: '55779911', action: 'confirm' }),
      redirect: 'manual',
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toMatch(/\/membership\?direct_debit=set_up$/);

    const state = await fakeState();
    expect(state.deliveries.map((d) => d.status)).toEqual([200]);
    expect(state.payments.map((p) => p.status)).toEqual(['pending_submission']);
    const billing = await client.rpc('my_billing');
    expect(billing.data).toMatchObject({ method: 'direct_debit', mandate_status: 'pending', collection_status: 'pending_submission' });

    const payment = state.payments[0]!.id;
    await act('payment', payment, 'submit');
    await act('payment', payment, 'confirm');
    expect((await fakeState()).deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    const membership = await client.rpc('my_membership');
    expect(membership.data).toMatchObject({ status: 'active', plan_slug: 'standard' });

    // The bank takes it back: past due, and the member owes it to the studio.
    await act('payment', payment, 'charge_back');
    expect((await client.rpc('my_membership')).data).toMatchObject({ status: 'past_due' });
    expect((await client.rpc('my_billing')).data).toMatchObject({ collection_status: 'charged_back', owed: 100 });
    // The mandate cancelled at the bank: the member is asked for a new one (the pipeline's email).
    const mandate = ((await (await fetch(`${stack.url}/gocardless.json`)).json()) as { mandates: { id: string }[] }).mandates[0]!.id;
    await act('mandate', mandate, 'cancel');
    expect((await client.rpc('my_billing')).data).toMatchObject({ method: 'direct_debit', mandate_status: null });
    const service = createClient<Database>(stack.url, stack.functionsEnv.SUPABASE_SERVICE_ROLE_KEY!, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const { data: events } = await service.from('notification_events').select('type');
    expect((events ?? []).map((e) => e.type)).toEqual(
      expect.arrayContaining(['direct_debit_notice', 'direct_debit_charged_back', 'direct_debit_mandate_cancelled']),
    );
  });

  it('a renewal by Direct Debit that fails is submitted again on our retry day by the jobs, then paid', async () => {
    const { client, token } = await signedIn('newpayg@studio.test');
    const started = await fetch(`${stack.url}/.netlify/functions/direct-debit-setup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ planSlug: 'standard' }),
    });
    const { url } = (await started.json()) as { url: string };
    await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ name: 'New Payg', sort_code: '200000', account_number: '55779911', action: 'confirm' }),
      redirect: 'manual',
    });
    const first = (await fakeState()).payments.at(-1)!.id;
    await act('payment', first, 'submit');
    await act('payment', first, 'confirm');
    const periodEnd = new Date((await client.rpc('my_membership')).data!.period_end!);

    const env = readServerEnv(stack.functionsEnv);
    const db = new PostgrestClient<Database>(`${stack.url}/rest/v1`, {
      headers: { apikey: env.serviceRoleKey, Authorization: `Bearer ${env.serviceRoleKey}` },
    });
    const jobs = (at: Date) => runScheduledJobs(db, selectProvider(env), at, paymentWebhookUrl(env));
    const count = async () => (await fakeState()).payments.length;
    const before = await count();
    await jobs(new Date(periodEnd.getTime() + 3_600_000));
    expect(await count()).toBe(before + 1);
    // A second run the next day submits nothing more: the collection is on its way.
    await jobs(new Date(periodEnd.getTime() + 25 * 3_600_000));
    expect(await count()).toBe(before + 1);
    const renewal = (await fakeState()).payments.at(-1)!.id;
    await act('payment', renewal, 'fail');
    expect((await client.rpc('my_membership')).data).toMatchObject({ status: 'past_due' });

    // Our retry day is 7 days after the due date: not before.
    await jobs(new Date(periodEnd.getTime() + 6 * 86_400_000));
    expect(await count()).toBe(before + 1);
    await jobs(new Date(periodEnd.getTime() + 7 * 86_400_000 + 3_600_000));
    expect(await count()).toBe(before + 2);
    const retry = (await fakeState()).payments.at(-1)!.id;
    await act('payment', retry, 'submit');
    await act('payment', retry, 'confirm');
    const renewed = (await client.rpc('my_membership')).data!;
    expect(renewed.status).toBe('active');
    // The next period: a calendar month after the one the failed renewal was for.
    expect(new Date(renewed.period_end!).getTime()).toBeGreaterThan(periodEnd.getTime() + 27 * 86_400_000);
  });

  it('a refund through GoCardless that fails is owed again, the watchdog says so, and the member has one receipt', async () => {
    const service = createClient<Database>(stack.url, stack.functionsEnv.SUPABASE_SERVICE_ROLE_KEY!, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const email = 'dd-refund@example.com';
    const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    expect(created.error).toBeNull();
    const { token } = await signedIn(email);
    const started = await fetch(`${stack.url}/.netlify/functions/direct-debit-setup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ planSlug: 'standard' }),
    });
    const { url } = (await started.json()) as { url: string };
    await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Rita Refund', sort_code: '200000', account_number: '55779911', action: 'confirm' }),
      redirect: 'manual',
    });
    const collected = (await fakeState()).payments.at(-1)!.id;
    await act('payment', collected, 'submit');
    await act('payment', collected, 'confirm');

    // The studio owes the first month back (as a duplicate payment would).
    const { data: member } = await service.from('members').select('id').eq('email', email).single();
    const { data: payment } = await service
      .from('payments')
      .select('id, description')
      .eq('member_id', member!.id)
      .eq('status', 'paid')
      .single();
    const { data: owed, error } = await service
      .from('refunds_owed')
      .insert({
        payment_id: payment!.id,
        member_id: member!.id,
        member_email: email,
        description: payment!.description,
        amount: 100,
        reason: 'duplicate_payment',
      })
      .select('id')
      .single();
    expect(error).toBeNull();
    const admin = await signedIn('admin@studio.test');
    const refund = () =>
      fetch(`${stack.url}/.netlify/functions/refund-payment`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ refundId: owed!.id }),
      });
    expect((await refund()).status).toBe(200);
    const first = (await fakeState()).refunds.find((r) => r.links.payment === collected)!;

    // GoCardless could not pay it: the webhook opens the refund owed again with what GoCardless said.
    expect(await (await act('refund', first.id, 'fail')).text()).toContain('refunds.failed: the webhook answered 200.');
    const { data: open } = await service.from('refunds_owed').select('refunded_at, provider_refund_error').eq('id', owed!.id).single();
    expect(open).toMatchObject({
      refunded_at: null,
      provider_refund_error: expect.stringContaining('GoCardless could not pay this refund'),
    });
    expect((await admin.client.rpc('admin_check_system_health')).error).toBeNull();
    const { data: alerts } = await admin.client.from('system_alerts').select('cause').is('cleared_at', null);
    expect((alerts ?? []).map((a) => a.cause)).toContain('refunds_failed');

    // Refunded again, and paid this time: one receipt for the member all along.
    expect((await refund()).status).toBe(200);
    const again = (await fakeState()).refunds.find((r) => r.links.payment === collected && r.id !== first.id)!;
    expect(await (await act('refund', again.id, 'pay')).text()).toContain('refunds.paid: the webhook answered 200.');
    const { data: receipts } = await service
      .from('notification_events')
      .select('type')
      .eq('member_id', member!.id)
      .eq('type', 'refund_receipt');
    expect(receipts).toHaveLength(1);
  });
});
