import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { makeClass, memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { redirectToCheckout } from '@/features/booking/api/redirect-to-checkout';
import { myBookingRow as bookingRow, myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';
// Load the screen (and @date-fns/tz, whose TZDate extends Date) before any test fakes Date.
import './my-bookings';

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));
vi.mock('@/features/booking/api/redirect-to-checkout', () => ({ redirectToCheckout: vi.fn() }));

// The lazy route chunk can take a while on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const NOW = new Date('2025-11-10T10:00:00Z');

function setup(rows: unknown[] | Response, waitlist: unknown[] = []) {
  const { member } = signInAs({ membership_tier: 'standard' });
  const reads = { my_bookings: 0 };
  server.use(
    memberHandler(member),
    rpc('my_waitlist', () => waitlist as never),
    myBookingsHandler(() => rows, reads),
    ...myBookingsExtrasHandlers(),
  );
  return { member, reads };
}

const soon = makeClass({ id: 'c-soon', name: 'Breakfast Club', start_time: '2025-11-12T13:15:00Z' });
const later = makeClass({ id: 'c-later', name: 'Kids Club', start_time: '2025-11-17T16:45:00Z' });
const past = makeClass({ id: 'c-past', name: 'Old Class', start_time: '2025-11-03T06:00:00Z' });

describe('My Bookings', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('loads the member’s bookings with their classes in one request and counts each tab', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const dt = makeClass({ id: 'c-dt', name: 'Datetime Class', start_time: '2025-11-20T08:30:00Z' });
    const { reads } = setup([bookingRow('b-later', later), bookingRow('b-soon', soon), bookingRow('b-past', past), bookingRow('b-dt', dt)]);
    renderApp('/mybookings');

    expect(await screen.findByRole('tab', { name: 'Upcoming (3)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Past (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Cancelled (0)' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'My Bookings', level: 1 })).toBeInTheDocument();
    expect(reads.my_bookings).toBe(1);

    const panel = screen.getByRole('tabpanel');
    const names = within(panel)
      .getAllByRole('listitem')
      .map((li) => li.textContent ?? '');
    expect(names[0]).toContain('Breakfast Club');
    expect(names[0]).toContain('Wed 12 Nov at 1:15 PM');
    expect(names[2]).toContain('Datetime Class');

    await userEvent.click(screen.getByRole('tab', { name: 'Past (1)' }));
    expect(within(screen.getByRole('tabpanel')).getByText('Old Class')).toBeInTheDocument();
    expect(within(screen.getByRole('tabpanel')).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument();
  });

  it('shows the next class with a countdown that refreshes every minute and says when it has started', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date('2025-11-12T13:13:30Z'));
    setup([bookingRow('b-soon', soon), bookingRow('b-later', later)]);
    renderApp('/mybookings');

    const card = (await screen.findByRole('heading', { name: 'Next Class' })).parentElement!;
    expect(within(card).getByText('Breakfast Club')).toBeInTheDocument();
    expect(screen.getByTestId('next-class-countdown')).toHaveTextContent('1m');
    // The card is on screen, but its interval starts in a passive effect that a busy machine may
    // not have run yet: let a real macrotask pass first, or the advance below finds no interval to fire.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));

    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByTestId('next-class-countdown')).toHaveTextContent('0m');
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByTestId('next-class-countdown')).toHaveTextContent('Class has started');
  });

  it('marks pay-as-you-go bookings awaiting payment as Payment pending', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    setup([
      bookingRow('b-soon', soon, { type: 'payg', payment_status: 'pending', hold_expires_at: '2025-11-10T10:30:00Z' }),
      bookingRow('b-later', later),
    ]);
    renderApp('/mybookings');
    expect(await screen.findByText('Payment pending')).toBeInTheDocument();
    // The hold's expiry, in UK time; releasing it is not called cancelling; it is never the Next Class.
    expect(screen.getByText('Your spot is held until 10:30 AM while the payment completes.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Release spot in Breakfast Club/ })).toBeInTheDocument();
    const next = (await screen.findByRole('heading', { name: 'Next Class' })).parentElement!;
    expect(within(next).getByText('Kids Club')).toBeInTheDocument();
  });

  it('takes a held spot back to the same checkout with Complete payment', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    setup([bookingRow('b-soon', soon, { type: 'payg', payment_status: 'pending', hold_expires_at: '2025-11-10T10:30:00Z' })]);
    const asked: unknown[] = [];
    server.use(
      rpc('my_hold_checkout', ({ args }) => {
        asked.push(args);
        return 'https://checkout.example/pay/chk_1' as never;
      }),
    );
    renderApp('/mybookings');
    await userEvent.click(await screen.findByRole('button', { name: /Complete payment for Breakfast Club/ }));
    await vi.waitFor(() => expect(redirectToCheckout).toHaveBeenCalledWith('https://checkout.example/pay/chk_1'));
    expect(asked).toEqual([{ p_booking_id: 'b-soon' }]);
  });

  it('says when a hold has ended instead of opening a checkout, and reads the bookings again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const { reads } = setup([
      bookingRow('b-soon', soon, { type: 'payg', payment_status: 'pending', hold_expires_at: '2025-11-10T10:30:00Z' }),
    ]);
    vi.mocked(redirectToCheckout).mockClear();
    const message = 'This payment has ended. Book the class again to pay for it.';
    server.use(rpc('my_hold_checkout', () => postgrestError({ code: 'P0002', message, hint: 'hold_ended' }, 404)));
    renderApp('/mybookings');
    await userEvent.click(await screen.findByRole('button', { name: /Complete payment for Breakfast Club/ }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(redirectToCheckout).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(reads.my_bookings).toBe(2));
  });

  it('releases a held spot after one confirmation, with no late-cancel warning', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    setup([bookingRow('b-soon', soon, { type: 'payg', payment_status: 'pending', hold_expires_at: '2025-11-10T10:30:00Z' })]);
    const calls: unknown[] = [];
    server.use(
      rpc('cancel_booking', ({ args }) => {
        calls.push(args);
        return { booking_id: 'b-soon', class_id: 'c-soon', spots_left: 5, late: false };
      }),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/mybookings');
    await userEvent.click(await screen.findByRole('button', { name: /Release spot in Breakfast Club/ }));
    expect(await screen.findByText('Spot released')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledWith('Release your spot in this class? Nothing has been paid and nothing counts against your plan.');
    expect(calls).toEqual([{ p_booking_id: 'b-soon' }]);
  });

  it('cancels after the confirmation through cancel_booking, toasts and moves the row to Cancelled', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    setup([bookingRow('b-soon', soon), bookingRow('b-later', later)]);
    const calls: unknown[] = [];
    server.use(
      rpc('cancel_booking', ({ args }) => {
        calls.push(args);
        return { booking_id: 'b-soon', class_id: 'c-soon', spots_left: 5, late: false };
      }),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderApp('/mybookings');

    const cancelButton = await screen.findByRole('button', { name: /Cancel Breakfast Club/ });
    await userEvent.click(cancelButton);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([]); // declined: nothing sent

    await userEvent.click(cancelButton);
    expect(await screen.findByText('Booking cancelled')).toBeInTheDocument();
    expect(calls).toEqual([{ p_booking_id: 'b-soon' }]);
    expect(screen.getByRole('tab', { name: 'Upcoming (1)' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Cancelled (1)' }));
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('Breakfast Club')).toBeInTheDocument();
    expect(within(panel).getByText('Cancelled')).toBeInTheDocument();
    // The next class is now the remaining upcoming one.
    expect(screen.getAllByText('Kids Club').length).toBeGreaterThan(0);
  });

  it('shows the permission message when the server refuses, and keeps the booking', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    setup([bookingRow('b-soon', soon)]);
    server.use(
      rpc('cancel_booking', () =>
        postgrestError({ code: '42501', message: 'Could not cancel this booking (permission).', hint: 'not_permitted' }, 403),
      ),
    );
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/mybookings');

    await userEvent.click(await screen.findByRole('button', { name: /Cancel Breakfast Club/ }));
    expect(await screen.findByText('Could not cancel this booking (permission).')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Upcoming (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Cancelled (0)' })).toBeInTheDocument();
  });

  it('shows the generic failure for any other cancel error', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    setup([bookingRow('b-soon', soon)]);
    server.use(rpc('cancel_booking', () => postgrestError({ code: 'XX000', message: 'boom' }, 500)));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/mybookings');

    await userEvent.click(await screen.findByRole('button', { name: /Cancel Breakfast Club/ }));
    expect(await screen.findByText('Failed to cancel booking')).toBeInTheDocument();
  });

  it('says it is unable to load the bookings when the request fails', async () => {
    setup(postgrestError({ code: 'XX000', message: 'boom' }, 500));
    renderApp('/bookings');
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to load your bookings');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });
});
