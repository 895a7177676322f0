import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { postgrestError, rpc } from '@/testing/supabase-mocks';
import { recordRequests, signInAsAdmin } from '@/testing/admin-fixtures';

const STATS = {
  total_members: 7,
  total_classes: 3,
  total_bookings: 10,
  upcoming_classes: 2,
  premium_members: 2,
  standard_members: 1,
  payg_members: 4,
  bookings_this_month: 5,
  weekly: [
    { week_start: '2030-03-18', classes: 0, capacity: 0, bookings: 0, fill_rate: null, attended: 0, no_show: 0, attendance_rate: null },
    { week_start: '2030-03-25', classes: 4, capacity: 40, bookings: 25, fill_rate: 0.625, attended: 9, no_show: 3, attendance_rate: 0.75 },
  ],
};

// The card's MRR is where the report's month in progress ends (decision 0036).
/** The subscription figures (their own RPC, shown under the studio's figures). */
const MEMBERSHIP_STATS = {
  active_standard: 5,
  active_premium: 2,
  mrr: 830,
  renewals_this_month: 4,
  failed_renewals_this_month: 1,
  past_due: 1,
};

/** The reports for one range (admin_reports): per month rows and a total row (month null). */
const line = (month: string | null, name: string, payments: number, gross: number, refunded: number) => ({
  month,
  line: name,
  payments,
  gross,
  refunds: refunded ? 1 : 0,
  refunded,
  net: gross - refunded,
});
const REPORTS = {
  revenue: [
    line('2026-10-01', 'memberships', 4, 435, 0),
    line('2026-10-01', 'classes', 1, 10, 10),
    line('2026-10-01', 'packages', 1, 750, 0),
    line('2026-10-01', 'guest_places', 0, 0, 0),
    line('2026-11-01', 'memberships', 3, 270, 0),
    line('2026-11-01', 'classes', 1, 10, 0),
    line('2026-11-01', 'packages', 0, 0, 750),
    line('2026-11-01', 'guest_places', 0, 0, 0),
    line(null, 'memberships', 7, 705, 0),
    line(null, 'classes', 2, 20, 10),
    line(null, 'packages', 1, 750, 750),
    line(null, 'guest_places', 0, 0, 0),
  ],
  mrr: [
    {
      month: '2026-10-01',
      mrr_start: 930,
      new_mrr: 165,
      upgrades: 0,
      downgrades: 0,
      churned: 100,
      mrr_end: 995,
      subscribers_start: 8,
      subscribers_end: 8,
      new_members: 1,
      churned_members: 1,
      churn_rate: 12.5,
      paused: 0,
      resumed: 0,
    },
    {
      month: '2026-11-01',
      mrr_start: 995,
      new_mrr: 100,
      upgrades: 65,
      downgrades: 65,
      churned: 265,
      mrr_end: 830,
      subscribers_start: 8,
      subscribers_end: 7,
      new_members: 1,
      churned_members: 2,
      churn_rate: 25,
      paused: 0,
      resumed: 0,
    },
    {
      month: null,
      mrr_start: 930,
      new_mrr: 265,
      upgrades: 65,
      downgrades: 65,
      churned: 365,
      mrr_end: 830,
      subscribers_start: 8,
      subscribers_end: 7,
      new_members: 2,
      churned_members: 3,
      churn_rate: 37.5,
      paused: 0,
      resumed: 0,
    },
  ],
  trials: [
    { month: '2026-10-01', trials_ended: 2, converted: 1, conversion_rate: 50 },
    { month: '2026-11-01', trials_ended: 1, converted: 0, conversion_rate: 0 },
    { month: null, trials_ended: 3, converted: 1, conversion_rate: 33.3 },
  ],
  attendance: [
    { month: null, bookings: 7, attended: 3, no_shows: 3, unmarked: 1, late_cancels: 1, no_show_rate: 42.9, late_cancel_rate: 12.5 },
  ],
  fill: [
    { weekday: 1, slot: '07:15', classes: 2, places: 8, taken: 6, fill_rate: 75 },
    { weekday: 3, slot: '18:00', classes: 1, places: 10, taken: 2, fill_rate: 20 },
  ],
};
const reportsHandler = (seen: unknown[] = []) =>
  rpc('admin_reports', ({ args }) => {
    seen.push(args);
    return REPORTS;
  });

function figure(label: string) {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling;
}

describe('Analytics', () => {
  it('shows credits sold and not yet delivered, with their value and what expires within a week', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      rpc('admin_membership_stats', () => MEMBERSHIP_STATS),
      rpc('admin_stats', () => STATS),
      reportsHandler(),
      rpc('admin_credits_outstanding', () => [
        { kind: 'guest_pass', source: 'membership_period', credits: 4, value: 0, expiring_soon: 2 },
        { kind: 'personal_training', source: 'package', credits: 9, value: 675, expiring_soon: 0 },
      ]),
    );
    renderApp('/admin/analytics');
    const section = within(await screen.findByRole('region', { name: 'Credits outstanding' }));
    expect(await section.findByText('£675.00', { selector: 'strong' })).toBeInTheDocument();
    const table = section.getByRole('table');
    expect(within(table).getByRole('row', { name: '9 personal-training sessions Packages bought £675.00 0' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: '4 guest passes Platinum Premium periods — 2' })).toBeInTheDocument();
  });

  it('shows every figure from one admin_stats request, with the rounding rules', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      rpc('admin_membership_stats', () => MEMBERSHIP_STATS),
      rpc('admin_stats', () => STATS),
      rpc('admin_credits_outstanding', () => []),
      reportsHandler(),
    );
    const seen = recordRequests(server);
    renderApp('/admin/analytics');
    expect(await screen.findByRole('heading', { name: 'Membership Distribution' })).toBeInTheDocument();
    expect(
      // The portal's watchdog (decision 0046) is not the screen's.
      seen.filter(
        (r) =>
          (r.url.pathname.startsWith('/rest/v1/rpc/') && !r.url.pathname.endsWith('/admin_check_system_health')) ||
          r.url.pathname.match(/\/rest\/v1\/(classes|bookings)/),
      ),
    ).toEqual([
      expect.objectContaining({ method: 'POST', url: expect.objectContaining({ pathname: '/rest/v1/rpc/admin_stats' }) }),
      expect.objectContaining({ method: 'POST', url: expect.objectContaining({ pathname: '/rest/v1/rpc/admin_membership_stats' }) }),
      expect.objectContaining({ method: 'POST', url: expect.objectContaining({ pathname: '/rest/v1/rpc/admin_credits_outstanding' }) }),
      // Money held for members (decision 0101): a figure of its own, not of the range.
      expect.objectContaining({ method: 'POST', url: expect.objectContaining({ pathname: '/rest/v1/rpc/admin_money_held' }) }),
      expect.objectContaining({ method: 'POST', url: expect.objectContaining({ pathname: '/rest/v1/rpc/admin_reports' }) }),
    ]);
    expect(figure('Active Standard')).toHaveTextContent('5');
    expect(figure('Active Platinum Premium')).toHaveTextContent('2');
    expect(figure('Monthly recurring revenue')).toHaveTextContent('£830.00');
    // What the card counts, in words: the MRR the report's months end at (decision 0036).
    const memberships = within(screen.getByRole('region', { name: 'Memberships' }));
    expect(memberships.getByText(/a cancelled one counts until it ends, a past-due one until it lapses/)).toBeInTheDocument();
    expect(figure('Renewals this month')).toHaveTextContent('4');
    expect(figure('Failed renewals this month')).toHaveTextContent('1');
    expect(figure('Total Members')).toHaveTextContent('7');
    expect(figure('Total Classes')).toHaveTextContent('3');
    expect(figure('Total Bookings')).toHaveTextContent('10');
    expect(figure('Upcoming Classes')).toHaveTextContent('2');
    expect(figure('New Bookings')).toHaveTextContent('5');
    expect(figure('Average per Member')).toHaveTextContent('0.7');
    expect(figure('Avg Bookings per Class')).toHaveTextContent('3.3');
    expect(figure('Premium Members')).toHaveTextContent('29%');
    expect(figure('Bookings per Member')).toHaveTextContent('1.4');

    // The chart's text alternative: a table of count and share per tier.
    const table = screen.getByRole('table', { name: 'Membership Distribution' });
    expect(within(table).getByRole('row', { name: 'Premium 2 29%' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: 'Standard 1 14%' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: 'Pay as You Go 4 57%' })).toBeInTheDocument();

    // Weekly fill and attendance rates, whole percents, words where there is nothing to rate.
    const weekly = screen.getByRole('table', { name: 'Weekly fill and attendance' });
    expect(within(weekly).getByRole('row', { name: '18 Mar No classes 0 / 0 Not marked 0' })).toBeInTheDocument();
    expect(within(weekly).getByRole('row', { name: '25 Mar 63% 25 / 40 75% 12' })).toBeInTheDocument();
  });

  it('shows 0 for averages of an empty studio', async () => {
    const { handlers } = signInAsAdmin();
    const empty = { ...Object.fromEntries(Object.keys(STATS).map((k) => [k, 0])), weekly: [] };
    server.use(
      ...handlers,
      rpc('admin_membership_stats', () => MEMBERSHIP_STATS),
      rpc('admin_stats', () => empty),
      rpc('admin_credits_outstanding', () => []),
      reportsHandler(),
    );
    renderApp('/admin/analytics');
    expect(await screen.findByRole('heading', { name: 'Quick Insights' })).toBeInTheDocument();
    expect(figure('Average per Member')).toHaveTextContent(/^0$/);
    expect(figure('Avg Bookings per Class')).toHaveTextContent(/^0$/);
    expect(figure('Premium Members')).toHaveTextContent(/^0%$/);
    expect(figure('Bookings per Member')).toHaveTextContent(/^0$/);
  });

  it('says "Failed to load analytics" when the RPC refuses', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      rpc('admin_membership_stats', () => MEMBERSHIP_STATS),
      rpc('admin_stats', () => postgrestError({ code: '42501', message: 'Access denied', hint: 'not_admin' }, 403)),
      rpc('admin_credits_outstanding', () => []),
      reportsHandler(),
    );
    renderApp('/admin/analytics');
    expect(await screen.findAllByText('Failed to load analytics')).not.toHaveLength(0);
  });

  it('says "Failed to load membership figures" when only the membership figures cannot be read', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      rpc('admin_membership_stats', () => postgrestError({ code: '57014', message: 'timeout' }, 500)),
      rpc('admin_stats', () => STATS),
      rpc('admin_credits_outstanding', () => []),
      reportsHandler(),
    );
    renderApp('/admin/analytics');
    expect(await screen.findAllByText('Failed to load membership figures')).not.toHaveLength(0);
    expect(await screen.findByRole('heading', { name: 'Membership Distribution' })).toBeInTheDocument();
    expect(figure('Total Members')).toHaveTextContent('7');
    expect(figure('Monthly recurring revenue')).toHaveTextContent('—');
  });

  it('reports revenue, MRR, churn, trials, no-shows and fill for this month or a range, each with its table and CSV', async () => {
    const { handlers } = signInAsAdmin();
    const asked: unknown[] = [];
    server.use(
      ...handlers,
      rpc('admin_membership_stats', () => MEMBERSHIP_STATS),
      rpc('admin_stats', () => STATS),
      rpc('admin_credits_outstanding', () => []),
      reportsHandler(asked),
    );
    renderApp('/admin/analytics');
    const reports = within(await screen.findByRole('region', { name: 'Reports' }));
    expect(await reports.findByText('£715.00')).toBeInTheDocument();
    expect(figure('Net revenue')).toHaveTextContent('£715.00');
    expect(figure('MRR at the end')).toHaveTextContent('£830.00');
    expect(figure('Churn rate')).toHaveTextContent('37.5%');
    expect(figure('Trial-to-paid conversion')).toHaveTextContent('33.3%');
    expect(figure('No-show rate')).toHaveTextContent('42.9%');
    expect(figure('Late-cancel rate')).toHaveTextContent('12.5%');
    const revenue = within(reports.getByRole('table', { name: 'Revenue by product line' }));
    expect(revenue.getByRole('row', { name: 'Whole period Packages 1 £750.00 £750.00 £0.00' })).toBeInTheDocument();
    expect(revenue.getByRole('row', { name: 'Nov 2026 Packages 0 £0.00 £750.00 -£750.00' })).toBeInTheDocument();
    const mrr = within(reports.getByRole('table', { name: 'Monthly recurring revenue and its movement' }));
    expect(
      mrr.getByRole('row', { name: /^Whole period £930\.00 £265\.00 £65\.00 £65\.00 £365\.00 £0\.00 £0\.00 £830\.00 8 3 37\.5%$/ }),
    ).toBeInTheDocument();
    // What moves MRR, in words: a renewal is not new, churn is when a membership ends.
    expect(reports.getByText(/A renewal at the same price changes nothing/)).toHaveTextContent(
      /churned \(a membership that lapsed, or was cancelled and reached the end of its paid month\)/,
    );
    // A pause is its own movement, never churn (decision 0050).
    expect(mrr.getByRole('columnheader', { name: 'Paused' })).toBeInTheDocument();
    expect(mrr.getByRole('columnheader', { name: 'Back from a pause' })).toBeInTheDocument();
    expect(reports.getByText(/A renewal at the same price changes nothing/)).toHaveTextContent(/A pause is not churn/);
    const heat = within(reports.getByRole('table', { name: 'Fill rate heat map: days down, start times across' }));
    expect(heat.getByRole('row', { name: 'Monday 75.0% —' })).toBeInTheDocument();
    expect(heat.getByRole('row', { name: 'Wednesday — 20.0%' })).toBeInTheDocument();
    expect(reports.getByRole('button', { name: 'Download CSV: Revenue by product line' })).toBeInTheDocument();

    // A custom range asks the server for exactly those London dates.
    await userEvent.click(reports.getByRole('radio', { name: 'Custom range' }));
    await userEvent.clear(reports.getByLabelText('From'));
    await userEvent.type(reports.getByLabelText('From'), '2026-01-15');
    expect(asked.at(-1)).toEqual({ p_from: '2026-01-15', p_to: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });
});
