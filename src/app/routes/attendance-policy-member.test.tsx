import '@/testing/match-media-polyfill';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { myBookingRow, myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { makeScheduleClass, scheduleHandler } from '@/testing/schedule-mocks';
import { makeClass, memberHandler, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import { BookRoute } from './book';
import './my-bookings';

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));

// Decision 0080: the attendance policy is said before booking and in the cancel question.

const POLICIES = [
  { valid_from: '2025-01-01T00:00:00+00:00', late_cancel_fee: 5, no_show_fee: 7.5, strike_limit: null, block_days: null },
  // A later, dearer policy: a booking made before it keeps the £5.00 fee.
  { valid_from: '2025-11-05T00:00:00+00:00', late_cancel_fee: 9, no_show_fee: 12, strike_limit: 3, block_days: 7 },
];

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('attendance policy for members', () => {
  it('says the policy in force on the booking form, with the class’s late-cancel window', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const cls = makeScheduleClass({ name: 'Breakfast Club', start_time: new Date(Date.now() + 2 * 86_400_000).toISOString() });
    server.use(
      memberHandler(member),
      rpc('my_dependants', () => []),
      rpc('my_plan_usage', () => ({
        month_start: '2026-11-01T00:00:00Z',
        allowance: 12,
        used: 3,
        remaining: 9,
        bookings: 3,
        late_cancellations: 0,
      })),
      scheduleHandler(() => [{ ...cls, booking_type: 'paid' }]),
      restGet('attendance_policies', () => POLICIES),
    );
    const { queryClient } = renderApp(`/book?classId=${cls.id}`, { routes: [{ path: '/book', element: <BookRoute /> }] });
    expect(
      await screen.findByText(
        'Attendance policy: cancelling less than 12 hours before the start costs £9.00; not coming without cancelling costs £12.00. Fees are charged to your saved card, or recorded as owed. 3 late cancellations or no-shows within 30 days stop you booking for 7 days.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm Booking' })).toBeEnabled();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  });

  it('says the late-cancel fee of the policy the booking was made under before cancelling late', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-11-12T09:00:00Z'));
    const { member } = signInAs({ membership_tier: 'standard' });
    const soon = makeClass({ id: 'c-soon', name: 'Breakfast Club', start_time: '2025-11-12T13:15:00Z' });
    server.use(
      memberHandler(member),
      rpc('my_waitlist', () => []),
      myBookingsHandler(() => [myBookingRow('b-soon', soon, { booked_at: '2025-11-01T09:00:00Z' })]),
      ...myBookingsExtrasHandlers(),
      restGet('attendance_policies', () => POLICIES),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderApp('/mybookings');
    const button = await screen.findByRole('button', { name: /Cancel Breakfast Club/ });
    // The policy is read by the time the member presses Cancel.
    await waitFor(() => expect(screen.queryByText(/Loading/)).not.toBeInTheDocument());
    await userEvent.click(button);
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect(confirm.mock.calls[0]![0]).toContain(
      'cancelling now still counts against your plan. A late cancellation fee of £5.00 will be charged to your saved card, or recorded as owed.',
    );
  });

  it('says on My Bookings when booking is blocked and what is owed', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(member),
      rpc('my_waitlist', () => []),
      myBookingsHandler(() => []),
      ...myBookingsExtrasHandlers(),
      rpc('my_attendance_standing', () => ({
        late_cancel_fee: 5,
        no_show_fee: 7.5,
        strike_limit: 3,
        block_days: 7,
        strikes: 3,
        blocked_until: '2030-12-09T18:00:00+00:00',
        owed: 7.5,
      })),
    );
    renderApp('/mybookings');
    const note = await screen.findByRole('region', { name: 'Attendance' });
    expect(note).toHaveTextContent('You cannot book classes until');
    expect(note).toHaveTextContent('You owe £7.50 in attendance fees: the studio will be in touch.');
  });
});
