import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeClass, memberHandler, postgrestError, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import { AvailableClassesPage } from './available-classes-page';

vi.mock('../api/subscribe-class-updates', () => ({ subscribeToClassUpdates: () => () => undefined }));

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

function renderPage() {
  const user = userEvent.setup();
  renderApp('/my-schedule', { routes: [{ path: '/my-schedule', element: <AvailableClassesPage /> }] });
  return user;
}

const full = makeClass({ name: 'Spin Full', start_time: inHours(30), capacity: 8, spots_left: 0 });
const spot = (position: number, size: number) => ({ class_id: full.id, position, waitlist_size: size, closes_at: inHours(28), is_closed: false });

beforeEach(() => {
  const { member } = signInAs({ membership_tier: 'standard' });
  server.use(memberHandler(member), restGet('classes', () => [full]));
});

describe('waitlist on Book a Class', () => {
  it('joins a full class with one request on a double click and shows the place', async () => {
    const calls: Record<string, unknown>[] = [];
    server.use(
      rpc('my_waitlist', () => []),
      rpc('join_waitlist', async ({ args }) => {
        calls.push(args);
        await new Promise((r) => setTimeout(r, 50));
        return spot(2, 2);
      }),
    );
    const user = renderPage();
    const card = await screen.findByRole('article', { name: 'Spin Full' });
    const join = await within(card).findByRole('button', { name: 'Join Waitlist' });
    expect(within(card).getByText('Fully Booked')).toBeInTheDocument();
    await user.dblClick(join);
    expect(await within(card).findByText('On waitlist: #2 of 2')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: full.id }]);
    expect(screen.getByText("You're on the waitlist: #2. We'll email you if a spot opens.")).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Leave Waitlist: Spin Full' })).toBeEnabled();
  });

  it("shows the server's refusal and stays off the list", async () => {
    server.use(
      rpc('my_waitlist', () => []),
      rpc('join_waitlist', () =>
        postgrestError({ code: 'P0001', message: 'Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.', hint: 'waitlist_payment_required' }),
      ),
    );
    const user = renderPage();
    const card = await screen.findByRole('article', { name: 'Spin Full' });
    await user.click(await within(card).findByRole('button', { name: 'Join Waitlist' }));
    expect(await screen.findByText('Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.')).toBeInTheDocument();
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Join Waitlist' })).toBeEnabled());
    expect(within(card).queryByText(/On waitlist/)).not.toBeInTheDocument();
  });

  it('shows the place from my_waitlist and leaves after the confirmation', async () => {
    const left: Record<string, unknown>[] = [];
    server.use(
      rpc('my_waitlist', () => [spot(1, 3)]),
      rpc('leave_waitlist', ({ args }) => {
        left.push(args);
        return { class_id: full.id, left: true };
      }),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const user = renderPage();
    const card = await screen.findByRole('article', { name: 'Spin Full' });
    expect(await within(card).findByText('On waitlist: #1 of 3')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Leave Waitlist: Spin Full' }));
    expect(left).toEqual([]);
    await user.click(within(card).getByRole('button', { name: 'Leave Waitlist: Spin Full' }));
    expect(await screen.findByText('You left the waitlist')).toBeInTheDocument();
    expect(left).toEqual([{ p_class_id: full.id }]);
    expect(within(card).getByRole('button', { name: 'Join Waitlist' })).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledWith('Leave the waitlist for this class? You will lose your place.');
    confirm.mockRestore();
  });

  it('says the waitlist has closed inside the cut-off instead of offering it', async () => {
    const soon = makeClass({ name: 'Spin Soon', start_time: inHours(1), spots_left: 0 });
    server.use(restGet('classes', () => [soon]), rpc('my_waitlist', () => []));
    renderPage();
    const card = await screen.findByRole('article', { name: 'Spin Soon' });
    expect(await within(card).findByRole('button', { name: 'Fully Booked · Waitlist closed' })).toBeDisabled();
    expect(within(card).getByText('Free cancellation up to 12 hours before the start.')).toBeInTheDocument();
  });
});
