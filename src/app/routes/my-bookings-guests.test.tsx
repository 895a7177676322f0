import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { makeClass, memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { myBookingRow, myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';
import './my-bookings';

// My Bookings keeps what was cancelled (issue 31) and brings guests (issue 26).

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));
configure({ asyncUtilTimeout: 5000 });

const IN_A_WEEK = new Date(Date.now() + 7 * 86_400_000).toISOString();
const cls = makeClass({ id: 'c-spin', name: 'Evening Spin', trainer: 'Coach Alex', start_time: IN_A_WEEK });
const PASS = { kind: 'guest_pass', valid_from: '2025-01-01T00:00:00Z', expires_at: new Date(Date.now() + 20 * 86_400_000).toISOString() };

function setup(extras: Parameters<typeof myBookingsExtrasHandlers>[0] = {}) {
  const { member } = signInAs({ membership_tier: 'premium' });
  server.use(
    memberHandler(member),
    rpc('my_waitlist', () => []),
    myBookingsHandler(() => [myBookingRow('b-spin', cls)]),
    ...myBookingsExtrasHandlers(extras),
  );
}

describe('My Bookings: guests and kept cancellations', () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it('adds a named guest with a guest pass, showing the database refusal on the field', async () => {
    setup({ credits: [PASS] });
    const added: unknown[] = [];
    server.use(
      rpc('add_guest', ({ args }) => {
        if (args.p_email === 'me@example.test')
          return postgrestError({ code: '22023', message: 'Your guest needs their own email address, not yours', hint: 'guest_is_you' });
        added.push(args);
        return { id: 'g-1' };
      }),
    );
    renderApp('/mybookings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Add a guest to Evening Spin on / }));
    const dialog = within(screen.getByRole('dialog', { name: 'Add a guest' }));
    await user.type(dialog.getByLabelText("Guest's name"), 'Gus Guest');
    await user.type(dialog.getByLabelText("Guest's email"), 'me@example.test');
    await user.click(dialog.getByRole('button', { name: 'Add guest (uses 1 guest pass)' }));
    expect(await dialog.findByText('Your guest needs their own email address, not yours')).toBeInTheDocument();
    expect(added).toEqual([]);
    await user.clear(dialog.getByLabelText("Guest's email"));
    await user.type(dialog.getByLabelText("Guest's email"), 'gus@example.test');
    await user.click(dialog.getByRole('button', { name: 'Add guest (uses 1 guest pass)' }));
    expect(await screen.findByText('Gus Guest is booked as your guest: we have emailed them the details.')).toBeInTheDocument();
    expect(added).toEqual([{ p_booking_id: 'b-spin', p_name: 'Gus Guest', p_email: 'gus@example.test' }]);
  });

  it("lists a booking's guests with Remove, and offers no Add a guest without a pass", async () => {
    setup({
      guests: [{ id: 'g-1', class_id: 'c-spin', host_booking_id: 'b-spin', guest_name: 'Gus Guest', guest_email: 'gus@example.test' }],
    });
    const removed: unknown[] = [];
    server.use(rpc('remove_guest', ({ args }) => (removed.push(args), { id: 'g-1' })));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/mybookings');
    const guests = within(await screen.findByRole('list', { name: /^Guests on Evening Spin on / }));
    expect(guests.getByText('Gus Guest')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Add a guest/ })).not.toBeInTheDocument();
    await userEvent.click(guests.getByRole('button', { name: 'Remove guest Gus Guest' }));
    expect(await screen.findByText('Gus Guest is no longer booked as your guest')).toBeInTheDocument();
    expect(removed).toEqual([{ p_guest_place_id: 'g-1' }]);
  });

  it('shows the cancellations the database kept, with who cancelled and why', async () => {
    setup({
      cancellations: [
        {
          booking_id: 'b-old',
          class_id: null,
          class_name: 'Hall Yoga',
          trainer: 'Coach Sam',
          class_start_time: '2025-11-01T09:00:00Z',
          duration: 45,
          booking_type: 'paid',
          booked_at: '2025-10-20T09:00:00Z',
          cancelled_by: 'studio',
          late: false,
          reason: 'the studio is closed (Hall repairs)',
        },
        {
          booking_id: 'b-late',
          class_id: 'c-x',
          class_name: 'Late Pilates',
          trainer: 'Coach Sam',
          class_start_time: '2025-11-02T09:00:00Z',
          duration: 45,
          booking_type: 'paid',
          booked_at: '2025-10-20T09:00:00Z',
          cancelled_by: 'member',
          late: true,
          reason: null,
        },
      ],
    });
    renderApp('/mybookings');
    await userEvent.click(await screen.findByRole('tab', { name: 'Cancelled (2)' }));
    const panel = within(screen.getByRole('tabpanel'));
    expect(panel.getByText('Cancelled by the studio: the studio is closed (Hall repairs).')).toBeInTheDocument();
    expect(panel.getByText('You cancelled late: it counts against your plan.')).toBeInTheDocument();
  });
});
