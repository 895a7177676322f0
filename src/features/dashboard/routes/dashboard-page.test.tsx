import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { memberHandler, postgrestError, REST_URL, signInAs } from '@/testing/supabase-mocks';
import type { Member } from '@/lib/supabase';
// Load the screen (and @date-fns/tz, whose TZDate extends Date) before any test fakes Date.
import './dashboard-page';

// The lazy route chunk can take a while on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const NOW = new Date('2025-07-10T10:00:00Z');

type Counts = { thisMonth: number; total: number };

/**
 * The three bookings calls: the upcoming list (GET with an inner join), and two head-only
 * counts, told apart by their booked_at filter.
 */
function dashboardHandlers(upcoming: unknown[], counts: Counts, seen: URL[] = []) {
  return [
    http.get(`${REST_URL}/bookings`, ({ request }) => {
      const url = new URL(request.url);
      seen.push(url);
      return HttpResponse.json(upcoming, { headers: { 'content-range': `0-${upcoming.length - 1}/${upcoming.length + 2}` } });
    }),
    http.head(`${REST_URL}/bookings`, ({ request }) => {
      const url = new URL(request.url);
      seen.push(url);
      const n = url.searchParams.has('booked_at') ? counts.thisMonth : counts.total;
      return new HttpResponse(null, { headers: { 'content-range': `*/${n}` } });
    }),
  ];
}

function setup(member: Partial<Member>, counts: Counts, upcoming: unknown[] = []) {
  const signed = signInAs({ name: 'Sam Member', created_at: '2025-01-05T10:00:00Z', ...member });
  const seen: URL[] = [];
  server.use(memberHandler(signed.member), ...dashboardHandlers(upcoming, counts, seen));
  return { ...signed, seen };
}

const cls = (name: string, start: string) => ({ name, trainer: 'Coach Alex', start_time: start });

describe('Dashboard', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('welcomes by first name and shows the next class, the next bookings, Quick Stats and Quick Actions', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    const upcoming = [
      { id: 'b1', payment_status: 'completed', classes: cls('Breakfast Club', '2025-07-11T12:30:00Z') },
      { id: 'b2', payment_status: 'pending', classes: cls('Kids Club', '2025-07-14T15:45:00Z') },
    ];
    const { member, seen } = setup({ membership_tier: 'standard' }, { thisMonth: 3, total: 7 }, upcoming);
    renderApp('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Welcome back, Sam!', level: 1 })).toBeInTheDocument();
    expect(await screen.findByTestId('next-class-countdown')).toHaveTextContent('1d 2h 30m');
    // Let passive effects run (a real macrotask) so the countdown's interval exists before the clock moves.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByTestId('next-class-countdown')).toHaveTextContent('1d 2h 29m');

    const list = screen.getByRole('list', { name: 'Upcoming bookings' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('Payment pending')).toBeInTheDocument();
    expect(within(list).getByText(/Mon, Jul 14 at 4:45 PM/)).toBeInTheDocument(); // London summer time

    const stats = screen.getByRole('heading', { name: 'Quick Stats' }).parentElement!;
    expect(within(stats).getByText('Total Bookings').nextSibling).toHaveTextContent('7');
    expect(within(stats).getByText('This Month').nextSibling).toHaveTextContent('3');
    expect(within(stats).getByText('Upcoming').nextSibling).toHaveTextContent('4'); // exact count from content-range
    expect(within(stats).getByText('Member Since').nextSibling).toHaveTextContent('January 2025');

    const actions = within(screen.getByRole('heading', { name: 'Quick Actions' }).parentElement!);
    expect(actions.getByRole('link', { name: 'Book a Class' })).toHaveAttribute('href', '/my-schedule');
    expect(actions.getByRole('link', { name: 'View My Schedule' })).toHaveAttribute('href', '/my-classes');
    expect(actions.getByRole('link', { name: 'Upgrade Membership' })).toHaveAttribute('href', '/membership');

    // The calls: upcoming by member, inner-joined, starting now or later, soonest first, 5 at most;
    // this month's count since 1 July 00:00 London (30 June 23:00 UTC).
    const list5 = seen.find((u) => u.searchParams.get('limit'))!;
    expect(list5.searchParams.get('member_id')).toBe(`eq.${member.id}`);
    expect(list5.searchParams.get('select')).toContain('classes!inner(');
    expect(list5.searchParams.get('classes.start_time')).toBe(`gte.${NOW.toISOString()}`);
    expect(list5.searchParams.get('order')).toBe('classes(start_time).asc');
    expect(list5.searchParams.get('limit')).toBe('5');
    const month = seen.find((u) => u.searchParams.has('booked_at'))!;
    expect(month.searchParams.get('booked_at')).toBe('gte.2025-06-30T23:00:00.000Z');
    expect(month.searchParams.get('member_id')).toBe(`eq.${member.id}`);
  });

  it.each([
    { used: 8, level: 'ok', colour: 'bg-green-500' }, // 67%
    { used: 9, level: 'warning', colour: 'bg-yellow-400' }, // exactly 75%
    { used: 10, level: 'warning', colour: 'bg-yellow-400' }, // 83%
    { used: 11, level: 'danger', colour: 'bg-red-500' }, // 92%
  ])('colours the usage bar $level at $used of 12', async ({ used, level, colour }) => {
    setup({ membership_tier: 'standard' }, { thisMonth: used, total: used });
    renderApp('/dashboard');
    const bar = await screen.findByRole('progressbar', { name: 'Classes used this month' });
    expect(bar).toHaveAttribute('data-level', level);
    expect(bar.firstElementChild).toHaveClass(colour);
    expect(screen.getByText(`of 12 classes used`, { exact: false })).toHaveTextContent(`${used} of 12 classes used`);
  });

  it('uses the premium quota of 20 and turns red at exactly 90%', async () => {
    setup({ membership_tier: 'premium' }, { thisMonth: 18, total: 18 });
    renderApp('/dashboard');
    const bar = await screen.findByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuetext', '18 of 20 classes used');
    expect(bar).toHaveAttribute('data-level', 'danger');
    expect(screen.getByText('Platinum Premium')).toBeInTheDocument();
  });

  it('shows pay-as-you-go as no monthly limit rather than "of 999"', async () => {
    setup({ membership_tier: 'payg' }, { thisMonth: 4, total: 4 });
    renderApp('/dashboard');
    expect(await screen.findByText(/classes booked this month · no monthly limit/)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText('No upcoming classes booked.')).toBeInTheDocument();
  });

  it('says it failed to load the dashboard data when a call fails', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(member),
      http.get(`${REST_URL}/bookings`, () => postgrestError({ code: 'XX000', message: 'boom' }, 500)),
      http.head(`${REST_URL}/bookings`, () => new HttpResponse(null, { headers: { 'content-range': '*/0' } })),
    );
    renderApp('/dashboard');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load dashboard data');
    expect(screen.queryByRole('heading', { name: 'Quick Stats' })).not.toBeInTheDocument();
  });
});

