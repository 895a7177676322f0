import '@/testing/match-media-polyfill';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/supabase';
import { server } from '@/testing/mocks/server';
import { billingRow, membershipHandlers, membershipRow } from '@/testing/membership-mocks';
import { renderApp } from '@/testing/render';
import { memberHandler, rpc, signInAs } from '@/testing/supabase-mocks';

// Direct Debit beside cards on /membership (decision 0076): buying a plan by Direct Debit goes to
// GoCardless's page; the Payment method card says how the member pays, the newest collection and
// any money owed, and switches between card and Direct Debit.

configure({ asyncUtilTimeout: 5000 });

function setup(member: Partial<Member>, membership: JsonBodyType, billing: JsonBodyType) {
  const signed = signInAs({ created_at: '2025-01-05T10:00:00Z', ...member });
  server.use(
    memberHandler(signed.member),
    // Before membershipHandlers: the first handler that matches answers.
    rpc('my_billing', () => billing),
    ...membershipHandlers(membership, []),
    rpc('my_plan_usage', () => ({
      month_start: '2030-02-01T00:00:00Z',
      allowance: 12,
      used: 2,
      remaining: 10,
      bookings: 2,
      late_cancellations: 0,
    })),
  );
  renderApp('/membership');
  return signed;
}

const paymentMethod = async () => within(await screen.findByRole('region', { name: 'Payment method' }, { timeout: 10_000 }));

describe('/membership with Direct Debit', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('a member without a plan buys a monthly plan by Direct Debit instead of by card', async () => {
    setup({ membership_tier: 'payg' }, null, billingRow());
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const bodies: unknown[] = [];
    server.use(
      http.post('*/.netlify/functions/direct-debit-setup', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ url: 'https://pay.example/flow/BRF2', reference: 'plan-1', firstChargeDate: '2030-03-10' });
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Buy Standard by Direct Debit' }, { timeout: 10_000 }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/flow/BRF2'));
    expect(bodies).toEqual([{ planSlug: 'standard' }]);
    // Packages are paid by card only.
    expect(screen.queryByRole('button', { name: 'Buy Drop-In Session by Direct Debit' })).not.toBeInTheDocument();
  });

  it('a card member sets up Direct Debit for their running plan on GoCardless’s page', async () => {
    const { session } = setup({ membership_tier: 'standard' }, membershipRow(), billingRow());
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const requests: { auth: string | null; body: unknown }[] = [];
    server.use(
      http.post('*/.netlify/functions/direct-debit-setup', async ({ request }) => {
        requests.push({ auth: request.headers.get('authorization'), body: await request.json() });
        return HttpResponse.json({ url: 'https://pay.example/flow/BRF1', reference: null, firstChargeDate: '2030-03-10' });
      }),
    );
    const card = await paymentMethod();
    expect(card.getByText('You pay by card.')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Pay by card instead' })).not.toBeInTheDocument();
    await userEvent.click(card.getByRole('button', { name: 'Set up Direct Debit' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/flow/BRF1'));
    expect(requests).toEqual([{ auth: `Bearer ${session.access_token}`, body: {} }]);
  });

  it('a Direct Debit member sees the collection on its way and the money owed, and can pay by card instead', async () => {
    setup(
      { membership_tier: 'standard' },
      membershipRow({ status: 'past_due', next_retry_at: '2030-03-04T12:00:00+00:00', amount_due: 0 }),
      billingRow({
        method: 'direct_debit',
        mandate_status: 'active',
        collection_status: 'submitted',
        collection_charge_date: '2030-02-08',
        collection_amount: 100,
        owed: 100,
      }),
    );
    const methods: unknown[] = [];
    server.use(
      rpc('set_billing_method', async ({ request }) => {
        methods.push(((await request.json()) as { p_method: string }).p_method);
        return 'card';
      }),
    );
    const card = await paymentMethod();
    expect(card.getByText('You pay by Direct Debit.')).toBeInTheDocument();
    expect(card.getByText('Latest Direct Debit: £100.00 for 8 February 2030, on its way.')).toBeInTheDocument();
    expect(card.getByText('You owe the studio £100.00 for a payment your bank returned.')).toBeInTheDocument();
    await userEvent.click(card.getByRole('button', { name: 'Pay by card instead' }));
    expect(await screen.findByText('Your membership is paid with your saved card from the next renewal.')).toBeInTheDocument();
    expect(methods).toEqual(['card']);
  });

  it('a member whose Direct Debit was cancelled is asked to set up a new one; a failed start says why', async () => {
    setup({ membership_tier: 'standard' }, membershipRow(), billingRow({ method: 'direct_debit', mandate_status: null }));
    server.use(
      http.post('*/.netlify/functions/direct-debit-setup', () =>
        HttpResponse.json(
          { error: 'direct_debit_unavailable', message: 'Direct Debit is not available at the moment: please pay by card.' },
          { status: 503 },
        ),
      ),
    );
    const card = await paymentMethod();
    expect(card.getByText('You chose Direct Debit, but it is no longer set up: set up a new one or pay by card.')).toBeInTheDocument();
    await userEvent.click(card.getByRole('button', { name: 'Set up Direct Debit' }));
    expect(await screen.findByText('Direct Debit is not available at the moment: please pay by card.')).toBeInTheDocument();
  });
});
