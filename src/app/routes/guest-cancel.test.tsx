import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { INCOMPLETE_LINK } from '@/features/booking/components/guest-cancel-panel';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { postgrestError, rpc } from '@/testing/supabase-mocks';

// A guest cancels their place from the link in their email, signed in or not.

const TOKEN = 'a'.repeat(48);

describe('/guest/cancel', () => {
  it('cancels only when the guest presses the button, then says what was cancelled', async () => {
    const calls: unknown[] = [];
    server.use(
      rpc('cancel_guest_place', ({ args }) => {
        calls.push(args);
        return {
          guest_name: 'Gus',
          class_name: 'Breakfast Club',
          start_time: '2030-03-04T06:00:00Z',
          host_name: 'Hana Host',
          cancelled: true,
        };
      }),
    );
    renderApp(`/guest/cancel?token=${TOKEN}`);
    const button = await screen.findByRole('button', { name: 'Cancel my guest place' });
    // A mail scanner opening the link cancels nothing.
    expect(calls).toEqual([]);
    await userEvent.click(button);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your guest place on Breakfast Club, Mon, Mar 4 at 6:00 AM, with Hana Host is cancelled.',
    );
    expect(calls).toEqual([{ p_token: TOKEN }]);
    expect(screen.queryByRole('button', { name: 'Cancel my guest place' })).not.toBeInTheDocument();
  });

  it("says the database's reason when the place is already gone", async () => {
    const gone = 'This guest place has already been cancelled, or the link is not complete';
    server.use(rpc('cancel_guest_place', () => postgrestError({ code: 'P0002', message: gone, hint: 'guest_not_found' })));
    renderApp(`/guest/cancel?token=${TOKEN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel my guest place' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(gone);
  });

  it('a link without its token says so and offers nothing to press', async () => {
    renderApp('/guest/cancel');
    expect(await screen.findByRole('alert')).toHaveTextContent(INCOMPLETE_LINK);
    expect(screen.queryByRole('button', { name: 'Cancel my guest place' })).not.toBeInTheDocument();
  });
});
