import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler, scheduleSummaryHandler } from '@/testing/schedule-mocks';
import { memberHandler, rpc, signInAs } from '@/testing/supabase-mocks';
import { myBookingRow, myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';
import type { ScheduleClass } from '@/features/booking/api/get-class-schedule';
import { MyBookingsRoute } from './my-bookings';
import { MyClassesRoute } from './my-classes';
import { MyScheduleRoute } from './my-schedule';
import { ScheduleRoute } from './schedule';

// After Book Now, Cancel or a waitlist action, keyboard focus stays with the class the
// member acted on (its new button, or the card itself) instead of falling to the page body.

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));

afterEach(() => {
  act(() => toast.remove());
  vi.restoreAllMocks();
});

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

const PAGES = {
  '/my-schedule': <MyScheduleRoute />,
  '/my-classes': <MyClassesRoute />,
  '/schedule': <ScheduleRoute />,
  '/mybookings': <MyBookingsRoute />,
} as const;

function renderPage(path: keyof typeof PAGES) {
  const user = userEvent.setup();
  renderApp(path, { routes: [{ path, element: PAGES[path] }] });
  return user;
}

const BOOKED = {
  status: 'booked',
  booking_type: 'paid',
  payment_status: 'completed',
  needs_payment: false,
  price_payg: 10,
  previous_tier: 'standard',
  tier: 'standard',
  trial_used: true,
};

/** The server's schedule for a standard member: `cls`, booked or not as `state.booked` says. */
function serveSchedule(cls: ScheduleClass, state: { booked: boolean }) {
  const { member } = signInAs({ membership_tier: 'standard' });
  server.use(
    memberHandler(member),
    rpc('my_waitlist', () => []),
    scheduleHandler(() => [
      state.booked
        ? {
            ...cls,
            spots_left: cls.spots_left - 1,
            refusal: 'already_booked',
            bookable: false,
            my_booking_id: 'b-1',
            my_payment_status: 'completed',
          }
        : cls,
    ]),
    scheduleSummaryHandler(() => ({ total_classes: 1, available_spots: 4, instructors: 1, all_instructors: ['Coach Alex'] })),
    rpc('book_class', () => {
      state.booked = true;
      return { ...BOOKED, booking_id: 'b-1', class_id: cls.id, spots_left: cls.spots_left - 1 };
    }),
    rpc('cancel_booking', () => {
      state.booked = false;
      return { booking_id: 'b-1', class_id: cls.id, spots_left: cls.spots_left, late: false };
    }),
  );
}

describe('focus after an action', () => {
  it('/my-classes: Book Now by keyboard leaves focus on the same card’s Cancel Booking, and Cancel on its Book Now', async () => {
    const cls = makeScheduleClass({ name: 'Yoga Flow', start_time: inHours(48), spots_left: 5 });
    serveSchedule(cls, { booked: false });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = renderPage('/my-classes');
    const card = await screen.findByRole('article', { name: 'Yoga Flow' });

    within(card).getByRole('button', { name: 'Book Now' }).focus();
    await user.keyboard('{Enter}');
    const cancel = await within(card).findByRole('button', { name: 'Cancel Booking' });
    await waitFor(() => expect(document.activeElement).toBe(cancel));

    await user.keyboard('{Enter}');
    const book = await within(card).findByRole('button', { name: 'Book Now' });
    await waitFor(() => expect(document.activeElement).toBe(book));
    expect(await screen.findByText('Booking cancelled')).toBeInTheDocument();
  });

  it('/my-schedule: after Book Now the card itself holds focus (nothing in it can be pressed) and is described as Booked', async () => {
    const cls = makeScheduleClass({ name: 'Breakfast Club', start_time: inHours(30), spots_left: 4 });
    serveSchedule(cls, { booked: false });
    const user = renderPage('/my-schedule');
    const card = await screen.findByRole('article', { name: 'Breakfast Club' });

    within(card).getByRole('button', { name: 'Book Now' }).focus();
    await user.keyboard('{Enter}');
    expect(await within(card).findByRole('button', { name: 'Booked' })).toBeDisabled();
    // Nothing in the card can be pressed now: the card itself has focus, described by its action.
    await waitFor(() => expect(document.activeElement).toBe(card));
    expect(card).toHaveAccessibleDescription('Booked');
    expect(document.body).not.toHaveFocus();
  });

  it('/schedule (member): Join Waitlist leaves focus on the card’s Leave Waitlist', async () => {
    const full = makeScheduleClass({ name: 'Spin Full', start_time: inHours(30), capacity: 8, spots_left: 0 });
    const { member } = signInAs({ membership_tier: 'standard' });
    let waiting = false;
    server.use(
      memberHandler(member),
      scheduleHandler(() => [
        waiting
          ? { ...full, can_join_waitlist: false, waitlist_refusal: 'already_waitlisted', my_waitlist_position: 1, waitlist_size: 1 }
          : full,
      ]),
      rpc('join_waitlist', () => {
        waiting = true;
        return { class_id: full.id, position: 1, waitlist_size: 1, closes_at: inHours(28) };
      }),
    );
    const user = renderPage('/schedule');
    const card = await screen.findByRole('article', { name: 'Spin Full' });

    within(card).getByRole('button', { name: 'Join Waitlist' }).focus();
    await user.keyboard('{Enter}');
    const leave = await within(card).findByRole('button', { name: 'Leave Waitlist: Spin Full' });
    await waitFor(() => expect(document.activeElement).toBe(leave));
  });

  it('/mybookings: after Cancel, focus is on the line left where the booking was', async () => {
    const soon = makeScheduleClass({ id: 'c-soon', name: 'Breakfast Club', start_time: inHours(50) });
    const later = makeScheduleClass({ id: 'c-later', name: 'Kids Club', start_time: inHours(100) });
    const { member } = signInAs({ membership_tier: 'standard' });
    let rows = [myBookingRow('b-soon', soon), myBookingRow('b-later', later)];
    server.use(
      memberHandler(member),
      rpc('my_waitlist', () => []),
      myBookingsHandler(() => rows),
      ...myBookingsExtrasHandlers(),
      rpc('cancel_booking', () => {
        rows = rows.filter((r) => r.id !== 'b-soon');
        return { booking_id: 'b-soon', class_id: 'c-soon', spots_left: 5, late: false };
      }),
    );
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = renderPage('/mybookings');

    (await screen.findByRole('button', { name: /^Cancel Breakfast Club on / })).focus();
    await user.keyboard('{Enter}');
    const line = await screen.findByText(/^Breakfast Club on .* is cancelled\. It is listed under Cancelled\.$/);
    await waitFor(() => expect(document.activeElement).toBe(line));
    // In the cancelled booking's place: first in the list, before Kids Club.
    const items = within(screen.getByRole('tabpanel')).getAllByRole('listitem');
    expect(items[0]).toBe(line);
    expect(items[1]).toHaveTextContent('Kids Club');
    expect(screen.getByRole('tab', { name: 'Upcoming (1)' })).toBeInTheDocument();
    // Tab goes on to the next booking's buttons.
    await user.tab();
    expect(document.activeElement).toHaveAccessibleName(/^Add to calendar: Kids Club|^Cancel Kids Club/);
  });
});
