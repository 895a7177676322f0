import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { createTestQueryClient, renderApp } from '@/testing/render';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { ACCOUNT_REMOVED_MESSAGE } from '@/lib/auth/account-messages';
import { AUTH_URL, authError, makeClass, memberHandler, postgrestError, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import type { Member } from '@/lib/supabase';
import { myBookingRow, myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';
// Load the screen (and @date-fns/tz, whose TZDate extends Date) before any test fakes Date.
import './dashboard';
import { documentsHandlers } from '@/features/documents/testing/documents-mocks';
import { membershipRow, NO_MEMBERSHIP } from '@/testing/membership-mocks';

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));

// The lazy route chunk can take a while on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const NOW = new Date('2025-07-10T10:00:00Z');

type Usage = { allowance: number | null; used: number; bookings: number };

/** What the server states: the member's bookings (my_bookings) and their usage as book_class counts it (my_plan_usage). */
function setup(member: Partial<Member>, usage: Usage, bookings: unknown[] = [], membership: JsonBodyType = NO_MEMBERSHIP) {
  const signed = signInAs({ name: 'Sam Member', created_at: '2025-01-05T10:00:00Z', ...member });
  const reads = { my_bookings: 0, my_plan_usage: 0 };
  server.use(
    memberHandler(signed.member),
    myBookingsHandler(() => bookings, reads),
    rpc('my_plan_usage', () => {
      reads.my_plan_usage += 1;
      const remaining = usage.allowance === null ? null : Math.max(usage.allowance - usage.used, 0);
      return { month_start: '2025-06-30T23:00:00Z', late_cancellations: 0, remaining, ...usage };
    }),
    rpc('my_waitlist', () => []),
    ...myBookingsExtrasHandlers(),
    // The credits card: none unless a test gives some.
    restGet('credits', () => []),
    ...documentsHandlers({ signed: true }),
    rpc('my_membership', () => membership),
  );
  return { ...signed, reads };
}

const cls = (id: string, name: string, start: string) => makeClass({ id, name, trainer: 'Coach Alex', start_time: start });

describe('Dashboard', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('welcomes by first name and shows the next class, the next bookings, Quick Stats and Quick Actions', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    const bookings = [
      // A hold is listed as Payment pending but is never the Next Class.
      myBookingRow('b0', cls('c0', 'Held Spin', '2025-07-11T08:00:00Z'), {
        type: 'payg',
        payment_status: 'pending',
        hold_expires_at: '2025-07-10T10:30:00Z',
      }),
      myBookingRow('b1', cls('c1', 'Breakfast Club', '2025-07-11T12:30:00Z')),
      myBookingRow('b2', cls('c2', 'Kids Club', '2025-07-14T15:45:00Z')),
      ...['2025-07-15', '2025-07-16', '2025-07-17'].map((d, i) =>
        myBookingRow(`b${i + 3}`, cls(`c${i + 3}`, `Later ${i}`, `${d}T06:00:00Z`)),
      ),
      myBookingRow('b9', cls('c9', 'Old Class', '2025-07-01T06:00:00Z')),
    ];
    setup({ membership_tier: 'standard' }, { allowance: 12, used: 3, bookings: 4 }, bookings);
    renderApp('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Welcome back, Sam!', level: 1 })).toBeInTheDocument();
    const next = (await screen.findByRole('heading', { name: 'Next Class' })).parentElement!;
    expect(within(next).getByText('Breakfast Club')).toBeInTheDocument();
    expect(await screen.findByTestId('next-class-countdown')).toHaveTextContent('1d 2h 30m');
    // Let passive effects run (a real macrotask) so the countdown's interval exists before the clock moves.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByTestId('next-class-countdown')).toHaveTextContent('1d 2h 29m');

    // The next 5 upcoming (spec section 9), soonest first.
    const list = screen.getByRole('list', { name: 'Upcoming bookings' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(within(list).getByText('Payment pending')).toBeInTheDocument();
    // The hold offers its two ways out here too; confirmed bookings offer neither.
    expect(within(list).getAllByRole('button', { name: /^Complete payment for / })).toHaveLength(1);
    expect(within(list).getAllByRole('button', { name: /^Release spot in / })).toHaveLength(1);
    expect(within(list).getByText(/Mon 14 Jul at 4:45 PM/)).toBeInTheDocument(); // London summer time

    const stats = screen.getByRole('heading', { name: 'Quick Stats' }).parentElement!;
    expect(within(stats).getByText('Total Bookings').nextSibling).toHaveTextContent('7');
    expect(within(stats).getByText('This Month').nextSibling).toHaveTextContent('4'); // my_plan_usage.bookings
    expect(within(stats).getByText('Upcoming').nextSibling).toHaveTextContent('6');
    expect(within(stats).getByText('Member Since').nextSibling).toHaveTextContent('January 2025');

    // Usage is what the server counts (late cancellations included), never a count made here.
    expect(screen.getByRole('progressbar', { name: 'Classes used this month' })).toHaveAttribute('aria-valuetext', '3 of 12 classes used');
    expect(screen.getByText('9 classes left this month')).toBeInTheDocument();

    const actions = within(screen.getByRole('heading', { name: 'Quick Actions' }).parentElement!);
    expect(actions.getByRole('link', { name: 'Book a Class' })).toHaveAttribute('href', '/my-schedule');
    expect(actions.getByRole('link', { name: 'View My Schedule' })).toHaveAttribute('href', '/my-classes');
    expect(actions.getByRole('link', { name: 'Upgrade Membership' })).toHaveAttribute('href', '/membership');
  });

  it.each([
    { used: 8, level: 'ok', colour: 'bg-green-500' }, // 67%
    { used: 9, level: 'warning', colour: 'bg-yellow-400' }, // exactly 75%
    { used: 10, level: 'warning', colour: 'bg-yellow-400' }, // 83%
    { used: 11, level: 'danger', colour: 'bg-red-500' }, // 92%
  ])('colours the usage bar $level at $used of 12', async ({ used, level, colour }) => {
    setup({ membership_tier: 'standard' }, { allowance: 12, used, bookings: used });
    renderApp('/dashboard');
    const bar = await screen.findByRole('progressbar', { name: 'Classes used this month' });
    expect(bar).toHaveAttribute('data-level', level);
    expect(bar.firstElementChild).toHaveClass(colour);
    expect(screen.getByText(`of 12 classes used`, { exact: false })).toHaveTextContent(`${used} of 12 classes used`);
  });

  it('says "1 class left", in the singular', async () => {
    setup({ membership_tier: 'standard' }, { allowance: 12, used: 11, bookings: 11 });
    renderApp('/dashboard');
    expect(await screen.findByText('1 class left this month')).toBeInTheDocument();
  });

  it('tells a past-due member their renewal failed, with Update card', async () => {
    setup(
      { membership_tier: 'standard' },
      { allowance: 12, used: 3, bookings: 3 },
      [],
      membershipRow({
        status: 'past_due',
        next_retry_at: '2030-03-05T12:00:00+00:00',
        amount_due: 100,
      }),
    );
    renderApp('/dashboard');
    const banner = within(await screen.findByRole('alert'));
    expect(banner.getByText('Your membership payment failed.')).toBeInTheDocument();
    expect(banner.getByText(/We could not take £100.00. We will try again on 5 March 2030./)).toBeInTheDocument();
    expect(banner.getByRole('button', { name: 'Update card' })).toBeInTheDocument();
  });

  it('says nothing about payments to a member whose plan is paid up', async () => {
    setup({ membership_tier: 'standard' }, { allowance: 12, used: 3, bookings: 3 }, [], membershipRow());
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Quick Actions' });
    expect(screen.queryByText('Your membership payment failed.')).not.toBeInTheDocument();
  });

  it('offers a Premium member no "Upgrade Membership": there is nothing to upgrade to', async () => {
    setup({ membership_tier: 'premium' }, { allowance: 20, used: 18, bookings: 18 });
    renderApp('/dashboard');
    const actions = within((await screen.findByRole('heading', { name: 'Quick Actions' })).parentElement!);
    // Premium has nothing to upgrade to (spec section 6): no "Upgrade Membership", only My Membership.
    expect(actions.queryByRole('link', { name: 'Upgrade Membership' })).not.toBeInTheDocument();
    expect(actions.getByRole('link', { name: 'My Membership' })).toHaveAttribute('href', '/membership');
  });

  it("uses the server's premium allowance of 20 and turns red at exactly 90%", async () => {
    setup({ membership_tier: 'premium' }, { allowance: 20, used: 18, bookings: 18 });
    renderApp('/dashboard');
    const bar = await screen.findByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuetext', '18 of 20 classes used');
    expect(bar).toHaveAttribute('data-level', 'danger');
    expect(screen.getByText('Platinum Premium')).toBeInTheDocument();
  });

  it('shows pay-as-you-go as no monthly limit rather than "of 999"', async () => {
    setup({ membership_tier: 'payg' }, { allowance: null, used: 0, bookings: 4 });
    renderApp('/dashboard');
    expect(await screen.findByText(/classes booked this month · pay per class, no monthly limit/)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText('No upcoming classes booked.')).toBeInTheDocument();
  });

  it('tells a trial member how many days of the free trial are left, and nobody else', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    setup({ membership_tier: 'trial', trial_expires_at: '2025-07-13T09:00:00Z' }, { allowance: null, used: 0, bookings: 0 });
    const { unmount } = renderApp('/dashboard');
    expect(await screen.findByText('Your free trial ends in 3 days')).toBeInTheDocument();
    unmount();
    setup({ membership_tier: 'standard', trial_expires_at: '2025-07-13T09:00:00Z' }, { allowance: 12, used: 0, bookings: 0 });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sam!', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/Your free trial ends/)).not.toBeInTheDocument();
  });

  it('says it failed to load the dashboard data when a call fails', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(member),
      myBookingsHandler(() => postgrestError({ code: 'XX000', message: 'boom' }, 500)),
      rpc('my_plan_usage', () => ({
        month_start: '2025-06-30T23:00:00Z',
        allowance: 12,
        used: 0,
        remaining: 12,
        bookings: 0,
        late_cancellations: 0,
      })),
      restGet('credits', () => []),
      ...documentsHandlers({ signed: true }),
      rpc('my_membership', () => NO_MEMBERSHIP),
    );
    renderApp('/dashboard');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load dashboard data');
    expect(screen.queryByRole('heading', { name: 'Quick Stats' })).not.toBeInTheDocument();
  });

  it('signs out a member whose account was removed, with a message, instead of "Failed to load"', async () => {
    signInAs({ membership_tier: 'standard' });
    let loggedOut = false;
    server.use(
      memberHandler(null),
      http.get(`${AUTH_URL}/user`, () => authError('User from sub claim in JWT does not exist', 403, 'user_not_found')),
      http.post(`${AUTH_URL}/logout`, () => {
        loggedOut = true;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { router } = renderApp('/dashboard');
    expect(await screen.findByText(ACCOUNT_REMOVED_MESSAGE)).toBeInTheDocument();
    await vi.waitFor(() => expect(router.state.location.pathname).not.toBe('/dashboard'));
    expect(loggedOut).toBe(true);
  });

  it('keeps a signed-in user whose account exists (a missing row is another problem) on the page', async () => {
    const { user } = signInAs({ membership_tier: 'standard' });
    const asked: string[] = [];
    server.use(
      memberHandler(null),
      http.get(`${AUTH_URL}/user`, () => {
        asked.push('user');
        return HttpResponse.json(user);
      }),
      http.post(`${AUTH_URL}/logout`, () => {
        asked.push('logout');
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { router } = renderApp('/dashboard');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load dashboard data');
    await vi.waitFor(() => expect(asked).toEqual(['user']));
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('shares one read with My Bookings, and revisiting within the stale time makes no request', async () => {
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const { reads } = setup({ membership_tier: 'standard' }, { allowance: 12, used: 1, bookings: 1 }, [
      myBookingRow('b1', cls('c1', 'Breakfast Club', soon)),
    ]);
    const queryClient = createTestQueryClient();
    const user = userEvent.setup();
    const first = renderApp('/dashboard', { queryClient });
    await screen.findByRole('heading', { name: 'Welcome back, Sam!' });
    await screen.findByRole('progressbar');
    expect(reads).toEqual({ my_bookings: 1, my_plan_usage: 1 });

    await user.click(screen.getByRole('link', { name: 'View all' }));
    expect(await screen.findByRole('heading', { name: 'My Bookings', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Upcoming (1)' })).toBeInTheDocument();
    await act(() => first.router.navigate('/dashboard'));
    await screen.findByRole('heading', { name: 'Welcome back, Sam!' });
    await screen.findByRole('progressbar');
    expect(reads).toEqual({ my_bookings: 1, my_plan_usage: 1 });
  });

  it('asks a member with documents to sign to read and sign them, from one read without their texts', async () => {
    setup({ membership_tier: 'standard' }, { allowance: 12, used: 0, bookings: 0 });
    server.use(...documentsHandlers({ signed: false }));
    const paths: string[] = [];
    server.events.on('request:start', ({ request }) => paths.push(new URL(request.url).pathname));
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Before your first class' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read and sign' })).toHaveAttribute('href', '/agreements?next=%2Fdashboard');
    expect(paths.filter((p) => p.endsWith('/document_versions'))).toEqual([]);
    server.events.removeAllListeners();
  });

  it('links a member who has signed everything to their agreements', async () => {
    setup({ membership_tier: 'standard' }, { allowance: 12, used: 0, bookings: 0 });
    renderApp('/dashboard');
    expect(await screen.findByRole('link', { name: 'Health & agreements' })).toHaveAttribute('href', '/agreements');
    expect(screen.queryByRole('link', { name: 'Read and sign' })).not.toBeInTheDocument();
  });
});
