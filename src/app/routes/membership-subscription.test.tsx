import '@/testing/match-media-polyfill';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/supabase';
import { server } from '@/testing/mocks/server';
import { membershipHandlers, membershipRow, upgradeQuoteRow } from '@/testing/membership-mocks';
import { renderApp } from '@/testing/render';
import { memberHandler, restGet, rpc, signInAs } from '@/testing/supabase-mocks';

// /membership as a subscription (decision 0009): status, real renewal date or "Ends on", past-due
// banner with Update card, cancel / resume / upgrade / downgrade, billing history and receipts.

configure({ asyncUtilTimeout: 5000 });

// What my_billing_history answers: money that moved, newest first (a checkout that took nothing
// is never in it: supabase/tests/billing-history.test.ts).
const BILLING = [
  {
    id: 'r-1',
    kind: 'refund',
    happened_at: '2030-02-10T09:00:00Z',
    description: 'Drop-In Session (£115)',
    amount: 115,
    currency: 'GBP',
    reference: 'plan-x',
    billed_name: 'Bea Buyer',
    billed_email: 'bea@example.test',
  },
  {
    id: 'p-2',
    kind: 'payment',
    happened_at: '2030-02-04T12:00:05Z',
    description: 'Standard membership, 4 February 2030 to 4 March 2030',
    amount: 100,
    currency: 'GBP',
    reference: 'renew-ms-1-2',
    billed_name: 'Bea Buyer',
    billed_email: 'bea@example.test',
  },
];

function setup(member: Partial<Member>, membership: JsonBodyType, billing: JsonBodyType[] = BILLING, path = '/membership') {
  const signed = signInAs({ created_at: '2025-01-05T10:00:00Z', ...member });
  server.use(
    memberHandler(signed.member),
    ...membershipHandlers(membership, billing),
    // No credits (packages and Premium's sessions are tested in the credits screens).
    http.get('*/rest/v1/credits', () => HttpResponse.json([])),
    rpc('my_plan_usage', () => ({
      month_start: '2030-02-01T00:00:00Z',
      allowance: 12,
      used: 2,
      remaining: 10,
      bookings: 2,
      late_cancellations: 0,
    })),
  );
  renderApp(path);
  return signed;
}

// One card says plan, status and renewal, each once (never twice, in two cards).
// The first test also waits for the lazy member chunks on a busy machine.
const statusRegion = async () => within(await screen.findByRole('region', { name: 'My Membership' }, { timeout: 10_000 }));

describe('/membership subscription', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('shows the status, the real next renewal, and the money that moved with a printable receipt for each', async () => {
    setup({ membership_tier: 'standard', plan_renews_at: '2030-03-04T12:00:00Z' }, membershipRow());
    const status = await statusRegion();
    expect(await status.findByText('Active')).toBeInTheDocument();
    expect(status.getByText('Next renewal')).toBeInTheDocument();
    expect(status.getByText('4 March 2030')).toBeInTheDocument();
    expect(status.getByText('Standard · £100.00/month')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Membership status' })).not.toBeInTheDocument();
    expect(screen.getAllByText('4 March 2030')).toHaveLength(1);

    const history = within(await screen.findByRole('region', { name: 'Billing history' }));
    const rows = await history.findAllByRole('row');
    expect(rows).toHaveLength(3);
    // A refund is money back: it says so, and its amount never reads as one more payment.
    expect(within(rows[1]!).getByText('10 February 2030')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Refund: Drop-In Session (£115)')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('\u2212£115.00')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Refunded')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Standard membership, 4 February 2030 to 4 March 2030')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('£100.00')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Paid')).toBeInTheDocument();
    expect(history.queryByText(/Expired|Failed|Pending/)).not.toBeInTheDocument();
    // On a phone each payment is a card of labelled lines, not a table scrolled sideways: one
    // markup, still a table to a screen reader, with no sideways scroll box.
    expect(history.getByRole('table')).toBeInTheDocument();
    expect(history.queryByRole('group', { name: /scrolls sideways/ })).not.toBeInTheDocument();

    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    await userEvent.click(history.getByRole('button', { name: 'Receipt for Standard membership, 4 February 2030 to 4 March 2030' }));
    const receipt = within(await screen.findByRole('dialog', { name: 'Receipt' }));
    expect(receipt.getByText('Finer Fitness')).toBeInTheDocument();
    expect(receipt.getByText('1 Example Street')).toBeInTheDocument();
    expect(receipt.getByText('London E8 0XX')).toBeInTheDocument();
    expect(receipt.getByText('Bea Buyer (bea@example.test)')).toBeInTheDocument();
    expect(receipt.getByText('£100.00')).toBeInTheDocument();
    expect(receipt.getByText('4 February 2030')).toBeInTheDocument();
    await userEvent.click(receipt.getByRole('button', { name: 'Print receipt' }));
    expect(print).toHaveBeenCalledOnce();
    await userEvent.click(receipt.getAllByRole('button', { name: 'Close' }).at(-1)!);
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Receipt' })).not.toBeInTheDocument());

    await userEvent.click(history.getByRole('button', { name: 'Receipt for Refund: Drop-In Session (£115)' }));
    const refund = within(await screen.findByRole('dialog', { name: 'Receipt' }));
    expect(refund.getByText('Refund: Drop-In Session (£115)')).toBeInTheDocument();
    expect(refund.getByText('\u2212£115.00')).toBeInTheDocument();
    expect(refund.getByText('plan-x')).toBeInTheDocument();
  });

  it("a family payment's receipt lists each place: who, what covered it and its price", async () => {
    const family = {
      ...BILLING[1]!,
      id: 'p-family',
      description: 'Kids Club - 3 places (2 paid)',
      amount: 20,
      reference: 'family-1',
    };
    setup({ membership_tier: 'standard' }, membershipRow(), [family]);
    server.use(
      restGet('family_payment_lines', ({ url }) =>
        url.searchParams.get('payment_id') === 'eq.p-family'
          ? [
              { position: 1, name: 'Bea Buyer', covered_by: 'plan', amount: 0 },
              { position: 2, name: 'Ava', covered_by: 'paid', amount: 10 },
              { position: 3, name: 'Ben', covered_by: 'paid', amount: 10 },
            ]
          : [],
      ),
    );
    const history = within(await screen.findByRole('region', { name: 'Billing history' }));
    await userEvent.click(await history.findByRole('button', { name: 'Receipt for Kids Club - 3 places (2 paid)' }));
    const receipt = within(await screen.findByRole('dialog', { name: 'Receipt' }));
    const places = within(await receipt.findByRole('table', { name: 'Places' }));
    const rows = places.getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Bea Buyer', 'Covered by your plan', '£0.00'],
      ['Ava', 'Paid', '£10.00'],
      ['Ben', 'Paid', '£10.00'],
    ]);
    expect(receipt.getByText('Total paid')).toBeInTheDocument();
    expect(receipt.getByText('£20.00')).toBeInTheDocument();
  });

  it('cancel renewal says until when access stays, then shows "Ends on" and Resume', async () => {
    let current: JsonBodyType = membershipRow();
    const calls: string[] = [];
    setup({ membership_tier: 'standard' }, membershipRow());
    server.use(
      rpc('my_membership', () => current),
      rpc('cancel_membership', () => {
        calls.push('cancel');
        current = membershipRow({ status: 'cancelled', renews: false });
        return current;
      }),
    );
    const status = await statusRegion();
    await userEvent.click(await status.findByRole('button', { name: 'Cancel renewal' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel renewal?' }));
    expect(dialog.getByText('Your membership stays until 4 March 2030, then you pay per class.')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel renewal' }));
    // The plan still runs to its end: Status says until when, never a bare "Cancelled".
    expect(await status.findByText('Ends on 4 March 2030')).toBeInTheDocument();
    expect(status.getByText('Status').nextSibling).toHaveTextContent('Ends on 4 March 2030');
    expect(status.queryByText('Cancelled')).not.toBeInTheDocument();
    expect(status.queryByText('Next renewal')).not.toBeInTheDocument();
    expect(calls).toEqual(['cancel']);
    expect(status.getByRole('button', { name: 'Resume membership' })).toBeInTheDocument();
  });

  it('resume before the end makes it renew again', async () => {
    const calls: string[] = [];
    let current: JsonBodyType = membershipRow({ status: 'cancelled', renews: false });
    setup({ membership_tier: 'standard' }, current);
    server.use(
      rpc('my_membership', () => current),
      rpc('resume_membership', () => {
        calls.push('resume');
        current = membershipRow();
        return current;
      }),
    );
    const status = await statusRegion();
    await userEvent.click(await status.findByRole('button', { name: 'Resume membership' }));
    expect(await status.findByText('Next renewal')).toBeInTheDocument();
    expect(calls).toEqual(['resume']);
  });

  it('a past-due member sees the banner and Update card starts a card-saving checkout for what is due', async () => {
    const { session } = setup(
      { membership_tier: 'standard' },
      membershipRow({ status: 'past_due', next_retry_at: '2030-03-05T12:00:00+00:00', amount_due: 100 }),
    );
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const auth: (string | null)[] = [];
    server.use(
      http.post('*/.netlify/functions/update-card', ({ request }) => {
        auth.push(request.headers.get('authorization'));
        return HttpResponse.json({ url: 'https://pay.example/setup/1', reference: 'renew-ms-1-2' });
      }),
    );
    const banner = within(await screen.findByRole('alert'));
    expect(banner.getByText('Your membership payment failed.')).toBeInTheDocument();
    expect(banner.getByText(/We could not take £100.00. We will try again on 5 March 2030./)).toBeInTheDocument();
    await userEvent.click(banner.getByRole('button', { name: 'Update card' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/setup/1'));
    expect(auth).toEqual([`Bearer ${session.access_token}`]);
  });

  it('upgrade to Platinum Premium says the amount before confirming, then charges the saved card', async () => {
    setup({ membership_tier: 'standard' }, membershipRow());
    const bodies: unknown[] = [];
    server.use(
      http.post('*/.netlify/functions/change-membership', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ outcome: 'paid', amount: 165 });
      }),
    );
    const mine = within(await screen.findByRole('region', { name: 'My Membership' }));
    await userEvent.click(await mine.findByRole('button', { name: 'Upgrade to Platinum Premium' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Upgrade to Platinum Premium' }));
    // The figure is the database's quote, the unused days of Standard taken off.
    expect(await dialog.findByText('£115.00 will be charged to your saved card now.')).toBeInTheDocument();
    expect(
      dialog.getByText(
        'Platinum Premium is £165.00 a month. Your Standard month ends now, so the 14 unused days of it you paid for and will not use (£50.00) come off.',
      ),
    ).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await userEvent.click(dialog.getByRole('button', { name: 'Pay £115.00 and upgrade' }));
    expect(await screen.findByText('You are now on Platinum Premium.')).toBeInTheDocument();
    expect(bodies).toEqual([{ action: 'upgrade', planSlug: 'platinum', expectedAmount: 115 }]);
  });

  it('an upgrade whose figure changed since it was shown charges nothing and shows the new one', async () => {
    setup({ membership_tier: 'standard' }, membershipRow());
    let quote = upgradeQuoteRow();
    server.use(
      rpc('my_upgrade_quote', () => quote),
      http.post('*/.netlify/functions/change-membership', () => {
        quote = upgradeQuoteRow({ unused_days: 13, credit: 46.43, amount: 118.57 });
        return HttpResponse.json(
          { error: 'amount_changed', message: 'The upgrade now costs £118.57: please look at the new figure and confirm again.' },
          { status: 409 },
        );
      }),
    );
    const mine = within(await screen.findByRole('region', { name: 'My Membership' }));
    await userEvent.click(await mine.findByRole('button', { name: 'Upgrade to Platinum Premium' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Upgrade to Platinum Premium' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Pay £115.00 and upgrade' }));
    expect(await screen.findByText('The upgrade now costs £118.57: please look at the new figure and confirm again.')).toBeInTheDocument();
    expect(await dialog.findByRole('button', { name: 'Pay £118.57 and upgrade' })).toBeInTheDocument();
  });

  it('a declined upgrade says the plan has not changed', async () => {
    setup({ membership_tier: 'standard' }, membershipRow());
    server.use(http.post('*/.netlify/functions/change-membership', () => HttpResponse.json({ outcome: 'declined', amount: 165 })));
    const mine = within(await screen.findByRole('region', { name: 'My Membership' }));
    await userEvent.click(await mine.findByRole('button', { name: 'Upgrade to Platinum Premium' }));
    await userEvent.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Pay £115.00 and upgrade' }));
    expect(await screen.findByText('Your card was declined: your plan has not changed.')).toBeInTheDocument();
  });

  it('a Platinum member switches to Standard at the period end, nothing charged now', async () => {
    setup({ membership_tier: 'premium' }, membershipRow({ plan_slug: 'platinum', tier: 'premium', price: 165 }));
    const bodies: unknown[] = [];
    server.use(
      http.post('*/.netlify/functions/change-membership', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ outcome: 'scheduled' });
      }),
    );
    const status = await statusRegion();
    await userEvent.click(await status.findByRole('button', { name: 'Switch to Standard at renewal' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Switch to Standard' }));
    expect(dialog.getByText('From 4 March 2030 you will pay £100.00 a month.')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Switch at renewal' }));
    expect(await screen.findByText('Your plan changes to Standard at your next renewal.')).toBeInTheDocument();
    expect(bodies).toEqual([{ action: 'downgrade', planSlug: 'standard' }]);
  });

  it('a switch scheduled for renewal can be undone: Keep Platinum Premium', async () => {
    const scheduled = membershipRow({
      plan_slug: 'platinum',
      tier: 'premium',
      price: 165,
      next_plan_slug: 'standard',
      next_tier: 'standard',
      next_price: 100,
    });
    let current: JsonBodyType = scheduled;
    const calls: string[] = [];
    setup({ membership_tier: 'premium' }, scheduled);
    server.use(
      rpc('my_membership', () => current),
      rpc('keep_current_plan', () => {
        calls.push('keep');
        current = membershipRow({ plan_slug: 'platinum', tier: 'premium', price: 165 });
        return current;
      }),
    );
    const status = await statusRegion();
    expect(await status.findByText('Changes to Standard (£100.00/month) on 4 March 2030.')).toBeInTheDocument();
    expect(status.queryByRole('button', { name: 'Switch to Standard at renewal' })).not.toBeInTheDocument();
    await userEvent.click(status.getByRole('button', { name: 'Keep Platinum Premium' }));
    expect(await screen.findByText('You stay on Platinum Premium.')).toBeInTheDocument();
    expect(calls).toEqual(['keep']);
    expect(await status.findByRole('button', { name: 'Switch to Standard at renewal' })).toBeInTheDocument();
    expect(status.queryByText(/^Changes to Standard/)).not.toBeInTheDocument();
  });

  it('a plan the studio set up without a saved card invites the member to add one, not "payment failed"', async () => {
    setup(
      { membership_tier: 'payg' },
      membershipRow({ status: 'past_due', has_card: false, next_retry_at: '2030-03-05T12:00:00+00:00', amount_due: 70, price: 70 }),
      [],
    );
    const invitation = within((await screen.findByText('Add a card to start your membership.')).parentElement!);
    expect(invitation.getByText(/The studio has set up this plan for you at £70.00 a month\./)).toBeInTheDocument();
    expect(invitation.getByRole('button', { name: 'Add a card' })).toBeInTheDocument();
    expect(screen.queryByText('Your membership payment failed.')).not.toBeInTheDocument();
  });

  it('an imported plan, paid up to its renewal elsewhere, adds a card now with nothing charged', async () => {
    setup(
      { membership_tier: 'standard' },
      membershipRow({ status: 'active', has_card: false, period_end: '2030-03-05T00:00:00+00:00', price: 70 }),
      [],
    );
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    server.use(
      http.post('*/.netlify/functions/update-card', () => HttpResponse.json({ url: 'https://pay.example/setup/2', reference: 'setup-2' })),
    );
    const notice = within(
      (await screen.findByText(/No card is saved for this membership yet\. Add one now: nothing is charged today/)).closest(
        '[role="status"]',
      )!,
    );
    expect(notice.getByText(/the next payment of £70.00 is taken with it on 5 March 2030\./)).toBeInTheDocument();
    expect(screen.queryByText('Your membership payment failed.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Replace card' })).not.toBeInTheDocument();
    await userEvent.click(notice.getByRole('button', { name: 'Add a card' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/setup/2'));
  });

  it('a member with a saved card can replace it; a refused start says why', async () => {
    setup({ membership_tier: 'standard' }, membershipRow({ status: 'active', has_card: true }), []);
    server.use(
      http.post('*/.netlify/functions/update-card', () =>
        HttpResponse.json({ error: 'checkout_failed', message: 'Could not start checkout, please try again.' }, { status: 502 }),
      ),
    );
    const status = await statusRegion();
    expect(status.queryByRole('button', { name: 'Add a card' })).not.toBeInTheDocument();
    await userEvent.click(await status.findByRole('button', { name: 'Replace card' }));
    expect(await screen.findByText('Could not start checkout, please try again.')).toBeInTheDocument();
    expect(status.getByRole('button', { name: 'Replace card' })).toBeEnabled();
  });

  it('back from saving a card, says it is saved once the studio knows, and nothing was charged', async () => {
    let asked = 0;
    const references: unknown[] = [];
    server.use(
      http.post('*/.netlify/functions/card-status', async ({ request }) => {
        references.push(await request.json());
        asked += 1;
        return HttpResponse.json({ status: asked === 1 ? 'pending' : 'saved' });
      }),
    );
    setup(
      { membership_tier: 'standard' },
      membershipRow({ status: 'active', has_card: false, period_end: '2030-03-05T00:00:00+00:00', price: 70 }),
      [],
      '/membership?card=setup-3',
    );
    expect(await screen.findByText('Checking your card…')).toBeInTheDocument();
    expect(
      await screen.findByText('Your card is saved. Nothing was charged: it pays your next renewal.', {}, { timeout: 6000 }),
    ).toBeInTheDocument();
    expect(references[0]).toEqual({ reference: 'setup-3' });
  });

  it('back from a declined card, says it was not saved', async () => {
    server.use(http.post('*/.netlify/functions/card-status', () => HttpResponse.json({ status: 'failed' })));
    setup({ membership_tier: 'standard' }, membershipRow({ status: 'active', has_card: false }), [], '/membership?card=setup-4');
    expect(await screen.findByText('Your card was not saved and nothing was charged. You can try again.')).toBeInTheDocument();
  });

  it('a trial member is told how many days the free trial has left', async () => {
    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString();
    setup(
      { membership_tier: 'trial', trial_expires_at: inThreeDays },
      membershipRow({ status: 'trialing', tier: 'trial', plan_slug: null, price: null }),
      [],
    );
    const status = await statusRegion();
    expect(await status.findByText(/^Your free trial ends in [23] days$/)).toBeInTheDocument();
    expect(within(await screen.findByRole('region', { name: 'Billing history' })).getByText('No payments yet.')).toBeInTheDocument();
  });
});
