import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redirectToCheckout } from '@/features/booking/api/redirect-to-checkout';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { makeClass, memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { myBookingRow, myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';
import './my-bookings';

// My Bookings keeps what was cancelled and brings guests.

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));
vi.mock('@/features/booking/api/redirect-to-checkout', () => ({ redirectToCheckout: vi.fn() }));
configure({ asyncUtilTimeout: 5000 });

const IN_A_WEEK = new Date(Date.now() + 7 * 86_400_000).toISOString();
const cls = makeClass({ id: 'c-spin', name: 'Evening Spin', trainer: 'Coach Alex', start_time: IN_A_WEEK });
const PASS_EXPIRES = new Date(Date.now() + 20 * 86_400_000).toISOString();
/** my_guest_options for the booking: a guest pass valid that day, and/or the class's price. */
const option = (pass: boolean, price: number | null, hasRoom = true) => ({
  booking_id: 'b-spin',
  pass_expires_at: pass ? PASS_EXPIRES : null,
  price,
  has_room: hasRoom,
});

function setup(extras: Parameters<typeof myBookingsExtrasHandlers>[0] = {}, rows: unknown[] = [myBookingRow('b-spin', cls)]) {
  const { member } = signInAs({ membership_tier: 'premium' });
  server.use(
    memberHandler(member),
    rpc('my_waitlist', () => []),
    myBookingsHandler(() => rows),
    ...myBookingsExtrasHandlers(extras),
  );
}

describe('My Bookings: guests and kept cancellations', () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it("never offers Add a guest on a child's place, only on the parent's own", async () => {
    setup({ guestOptions: [option(true, null), { ...option(true, null), booking_id: 'b-kid' }] }, [
      myBookingRow('b-spin', cls),
      myBookingRow('b-kid', cls, { type: 'payg', dependant_id: 'd-1', dependant_name: 'Ava' }),
    ]);
    renderApp('/mybookings');
    expect(await screen.findByRole('button', { name: /^Add a guest to Evening Spin on / })).toBeInTheDocument();
    expect(await screen.findByText('For Ava')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Add a guest/ })).toHaveLength(1);
  });

  it('adds a named guest with a guest pass, showing the database refusal on the field', async () => {
    setup({ guestOptions: [option(true, null)] });
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
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a guest' }));
    // Only a pass: no choice to make, and the form says what it uses.
    expect(dialog.queryByRole('radio')).not.toBeInTheDocument();
    expect(dialog.getByText(/^Uses 1 guest pass, expires /)).toBeInTheDocument();
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

  it('offers a guest pass or paying the class price, says which before confirming, and pays on the checkout', async () => {
    setup({ guestOptions: [option(true, 12.5)] });
    const requests: unknown[] = [];
    server.use(
      http.post('/.netlify/functions/create-guest-checkout', async ({ request }) => {
        const body = (await request.json()) as { email: string };
        if (body.email === 'often@example.test')
          return HttpResponse.json(
            { error: 'guest_visits_used', message: 'Olly has been a guest 3 times this year: they are welcome to join the studio' },
            { status: 409 },
          );
        requests.push(body);
        return HttpResponse.json({ url: 'https://pay.example/checkout/guest', reference: 'guest-1' });
      }),
    );
    renderApp('/mybookings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Add a guest to Evening Spin on / }, { timeout: 15_000 }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a guest' }));
    expect(dialog.getByRole('radio', { name: /^Use a guest pass/ })).toBeChecked();
    expect(dialog.getByRole('button', { name: 'Add guest (uses 1 guest pass)' })).toBeInTheDocument();

    await user.click(dialog.getByRole('radio', { name: /^Pay £12\.50/ }));
    expect(dialog.getByText('You pay £12.50 by card on the next page; their place is held while you pay.')).toBeInTheDocument();
    await user.type(dialog.getByLabelText("Guest's name"), 'Olly');
    await user.type(dialog.getByLabelText("Guest's email"), 'often@example.test');
    await user.click(dialog.getByRole('button', { name: 'Pay £12.50 and add guest' }));
    expect(await dialog.findByText('Olly has been a guest 3 times this year: they are welcome to join the studio')).toBeInTheDocument();
    expect(redirectToCheckout).not.toHaveBeenCalled();

    await user.clear(dialog.getByLabelText("Guest's email"));
    await user.type(dialog.getByLabelText("Guest's email"), 'olly@example.test');
    await user.click(dialog.getByRole('button', { name: 'Pay £12.50 and add guest' }));
    await vi.waitFor(() => expect(redirectToCheckout).toHaveBeenCalledWith('https://pay.example/checkout/guest'));
    expect(requests).toEqual([{ bookingId: 'b-spin', name: 'Olly', email: 'olly@example.test' }]);
  }, 40_000);

  it("says what the member's balance pays of the guest's place before paying (decision 0108)", async () => {
    setup({ guestOptions: [option(true, 12.5)] });
    const covered: unknown[] = [];
    server.use(
      rpc('my_balance', () => 10),
      rpc('my_balance_cover', ({ args }) => {
        covered.push(args);
        return { price: 12.5, balance_used: 10, to_charge: 2.5 };
      }),
    );
    renderApp('/mybookings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Add a guest to Evening Spin on / }, { timeout: 15_000 }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a guest' }));
    expect(dialog.queryByText(/Your balance pays/)).not.toBeInTheDocument();
    await user.click(dialog.getByRole('radio', { name: /^Pay £12\.50/ }));
    expect(
      await dialog.findByText('Your balance pays £10.00 of it: £2.50 by card. Their place is held while you pay.'),
    ).toBeInTheDocument();
    expect(covered).toEqual([{ p_price: 12.5 }]);
  }, 40_000);

  it("lists a booking's guests with Remove (a place being paid for says so), and offers no Add a guest without a pass or a price", async () => {
    setup({
      guests: [
        {
          id: 'g-1',
          class_id: 'c-spin',
          host_booking_id: 'b-spin',
          guest_name: 'Gus Guest',
          guest_email: 'gus@example.test',
          payment_status: 'completed',
        },
        {
          id: 'g-2',
          class_id: 'c-spin',
          host_booking_id: 'b-spin',
          guest_name: 'Pia Pending',
          guest_email: 'pia@example.test',
          payment_status: 'pending',
        },
      ],
    });
    const removed: unknown[] = [];
    server.use(rpc('remove_guest', ({ args }) => (removed.push(args), { id: 'g-1' })));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/mybookings');
    const guests = within(await screen.findByRole('list', { name: /^Guests on Evening Spin on / }));
    expect(guests.getByText('Gus Guest')).toBeInTheDocument();
    expect(guests.getByText(/payment pending/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Add a guest/ })).not.toBeInTheDocument();
    await userEvent.click(guests.getByRole('button', { name: 'Remove guest Gus Guest' }));
    expect(await screen.findByText('Gus Guest is no longer booked as your guest')).toBeInTheDocument();
    expect(removed).toEqual([{ p_guest_place_id: 'g-1' }]);
  });

  it('says a full class has no place left for a guest where Add a guest would be, and opens no form', async () => {
    setup({ guestOptions: [option(true, 12.5, false)] });
    const added: unknown[] = [];
    server.use(rpc('add_guest', ({ args }) => (added.push(args), { id: 'g-1' })));
    renderApp('/mybookings');
    expect(await screen.findByText('This class is fully booked: there is no place left for a guest.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Add a guest/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(added).toEqual([]);
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
