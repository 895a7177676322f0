import { screen, within } from '@testing-library/react';
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

/** Issue 13's subscription figures (their own RPC, shown under the studio's figures). */
const MEMBERSHIP_STATS = { active_standard: 3, active_premium: 2, mrr: 630, renewals_this_month: 4, failed_renewals_this_month: 1, past_due: 1 };

function figure(label: string) {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling;
}

describe('Analytics', () => {
  it('shows credits sold and not yet delivered, with their value and what expires within a week (issue 26)', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      rpc('admin_membership_stats', () => MEMBERSHIP_STATS),
      rpc('admin_stats', () => STATS),
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
    server.use(...handlers, rpc('admin_membership_stats', () => MEMBERSHIP_STATS), rpc('admin_stats', () => STATS), rpc('admin_credits_outstanding', () => []));
    const seen = recordRequests(server);
    renderApp('/admin/analytics');
    expect(await screen.findByRole('heading', { name: 'Membership Distribution' })).toBeInTheDocument();
    expect(seen.filter((r) => r.url.pathname.startsWith('/rest/v1/rpc/') || r.url.pathname.match(/\/rest\/v1\/(classes|bookings)/))).toEqual([
      expect.objectContaining({ method: 'POST', url: expect.objectContaining({ pathname: '/rest/v1/rpc/admin_stats' }) }),
      expect.objectContaining({ method: 'POST', url: expect.objectContaining({ pathname: '/rest/v1/rpc/admin_membership_stats' }) }),
      expect.objectContaining({ method: 'POST', url: expect.objectContaining({ pathname: '/rest/v1/rpc/admin_credits_outstanding' }) }),
    ]);
    expect(figure('Active Standard')).toHaveTextContent('3');
    expect(figure('Active Platinum Premium')).toHaveTextContent('2');
    expect(figure('Monthly recurring revenue')).toHaveTextContent('£630.00');
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

    // Issue 9: weekly fill and attendance rates, whole percents, words where there is nothing to rate.
    const weekly = screen.getByRole('table', { name: 'Weekly fill and attendance' });
    expect(within(weekly).getByRole('row', { name: 'Mar 18 No classes 0 / 0 Not marked 0' })).toBeInTheDocument();
    expect(within(weekly).getByRole('row', { name: 'Mar 25 63% 25 / 40 75% 12' })).toBeInTheDocument();
  });

  it('shows 0 for averages of an empty studio', async () => {
    const { handlers } = signInAsAdmin();
    const empty = { ...Object.fromEntries(Object.keys(STATS).map((k) => [k, 0])), weekly: [] };
    server.use(...handlers, rpc('admin_membership_stats', () => MEMBERSHIP_STATS), rpc('admin_stats', () => empty), rpc('admin_credits_outstanding', () => []));
    renderApp('/admin/analytics');
    expect(await screen.findByRole('heading', { name: 'Quick Insights' })).toBeInTheDocument();
    expect(figure('Average per Member')).toHaveTextContent(/^0$/);
    expect(figure('Avg Bookings per Class')).toHaveTextContent(/^0$/);
    expect(figure('Premium Members')).toHaveTextContent(/^0%$/);
    expect(figure('Bookings per Member')).toHaveTextContent(/^0$/);
  });

  it('says "Failed to load analytics" when the RPC refuses', async () => {
    const { handlers } = signInAsAdmin();
    server.use(...handlers, rpc('admin_membership_stats', () => MEMBERSHIP_STATS), rpc('admin_stats', () => postgrestError({ code: '42501', message: 'Access denied', hint: 'not_admin' }, 403)), rpc('admin_credits_outstanding', () => []));
    renderApp('/admin/analytics');
    expect(await screen.findAllByText('Failed to load analytics')).not.toHaveLength(0);
  });

  it('says "Failed to load membership figures" when only the membership figures cannot be read', async () => {
    const { handlers } = signInAsAdmin();
    server.use(...handlers, rpc('admin_membership_stats', () => postgrestError({ code: '57014', message: 'timeout' }, 500)), rpc('admin_stats', () => STATS), rpc('admin_credits_outstanding', () => []));
    renderApp('/admin/analytics');
    expect(await screen.findAllByText('Failed to load membership figures')).not.toHaveLength(0);
    expect(await screen.findByRole('heading', { name: 'Membership Distribution' })).toBeInTheDocument();
    expect(figure('Total Members')).toHaveTextContent('7');
    expect(figure('Monthly recurring revenue')).toHaveTextContent('—');
  });
});
