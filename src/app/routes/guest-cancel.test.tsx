import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { INCOMPLETE_LINK } from '@/features/booking/components/guest-cancel-panel';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { postgrestError, rpc } from '@/testing/supabase-mocks';

// A guest cancels their place from the link in their email, signed in or not.

const TOKEN = 'a'.repeat(48);
const PLACE = { guest_name: 'Gus', class_name: 'Breakfast Club', start_time: '2030-03-04T06:00:00Z', host_name: 'Hana Host' };
const GONE = 'This guest place has already been cancelled, or the link is not complete';

/** The place the link reads before anything is cancelled (guest_place_by_token). */
const placeRead = (reads: unknown[] = []) => rpc('guest_place_by_token', ({ args }) => (reads.push(args), { ...PLACE, cancelled: false }));

describe('/guest/cancel', () => {
  it('names the class, its time and the host before the guest confirms, and cancels nothing until they do', async () => {
    const reads: unknown[] = [];
    const calls: unknown[] = [];
    server.use(
      placeRead(reads),
      rpc('cancel_guest_place', ({ args }) => (calls.push(args), { ...PLACE, cancelled: true })),
    );
    renderApp(`/guest/cancel?token=${TOKEN}`);
    expect(
      await screen.findByText('Hana Host has booked you a place on Breakfast Club, Mon 4 Mar at 6:00 AM, as their guest.'),
    ).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Cancel my guest place' });
    // A mail scanner opening the link cancels nothing.
    expect(reads).toEqual([{ p_token: TOKEN }]);
    expect(calls).toEqual([]);
    await userEvent.click(button);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your guest place on Breakfast Club, Mon 4 Mar at 6:00 AM, with Hana Host is cancelled.',
    );
    expect(calls).toEqual([{ p_token: TOKEN }]);
    expect(screen.queryByRole('button', { name: 'Cancel my guest place' })).not.toBeInTheDocument();
  });

  it('a link already used says so when it opens, and offers nothing to press', async () => {
    server.use(rpc('guest_place_by_token', () => postgrestError({ code: 'PT404', message: GONE, hint: 'guest_not_found' }, 404)));
    renderApp(`/guest/cancel?token=${TOKEN}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This link no longer works');
    expect(alert).toHaveTextContent(GONE);
    expect(screen.queryByRole('button', { name: 'Cancel my guest place' })).not.toBeInTheDocument();
  });

  it("says the database's reason when the place goes while the page is open", async () => {
    server.use(
      placeRead(),
      rpc('cancel_guest_place', () => postgrestError({ code: 'PT404', message: GONE, hint: 'guest_not_found' }, 404)),
    );
    renderApp(`/guest/cancel?token=${TOKEN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel my guest place' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(GONE);
  });

  it('a link without its token says so and offers nothing to press', async () => {
    renderApp('/guest/cancel');
    expect(await screen.findByRole('alert')).toHaveTextContent(INCOMPLETE_LINK);
    expect(screen.queryByRole('button', { name: 'Cancel my guest place' })).not.toBeInTheDocument();
  });
});
