import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler } from '@/testing/schedule-mocks';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { MyClassesRoute } from './my-classes';

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));

afterEach(() => {
  act(() => toast.remove());
  vi.restoreAllMocks();
});

const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();

function setup(cancelAnswer: Parameters<typeof rpc>[1]) {
  const { member } = signInAs({ membership_tier: 'standard' });
  let held = true;
  const yoga = makeScheduleClass({ name: 'Yoga Flow', start_time: soon, spots_left: 4 });
  const today = makeScheduleClass({
    name: 'Started Class',
    start_time: new Date(Date.now() - 600_000).toISOString(),
    refusal: 'class_started',
    bookable: false,
  });
  const cancelled: unknown[] = [];
  server.use(
    memberHandler(member),
    // The server states what the member holds; after a cancel it says the spot is free again.
    scheduleHandler(() => [
      today,
      held
        ? { ...yoga, refusal: 'already_booked', bookable: false, my_booking_id: 'booking-1', my_payment_status: 'completed' }
        : { ...yoga, spots_left: 5 },
    ]),
    rpc('cancel_booking', (info) => {
      cancelled.push(info.args);
      const answer = cancelAnswer(info);
      if (!(answer instanceof Response)) held = false;
      return answer;
    }),
  );
  const user = userEvent.setup();
  renderApp('/my-classes', { routes: [{ path: '/my-classes', element: <MyClassesRoute /> }] });
  return { user, yoga, cancelled };
}

describe('/my-classes', () => {
  it('lists every class and cancels a booking after confirmation, showing the spot back', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user, cancelled } = setup(() => ({ booking_id: 'booking-1', class_id: 'x', spots_left: 5, late: false }));
    const article = await screen.findByRole('article', { name: 'Yoga Flow' });
    expect(
      within(screen.getByRole('article', { name: 'Started Class' })).getByRole('button', { name: 'Class has started' }),
    ).toBeDisabled();
    expect(within(article).getByText('4 spots left')).toBeInTheDocument();
    await user.click(within(article).getByRole('button', { name: 'Cancel Booking' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to cancel this booking?');
    expect(await screen.findByText('Booking cancelled')).toBeInTheDocument();
    expect(cancelled).toEqual([{ p_booking_id: 'booking-1' }]);
    expect(await within(article).findByText('5 spots left')).toBeInTheDocument();
    expect(within(article).getByRole('button', { name: 'Book Now' })).toBeEnabled();
  });

  it('does nothing when the confirmation is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user, cancelled } = setup(() => ({}));
    const article = await screen.findByRole('article', { name: 'Yoga Flow' });
    await user.click(within(article).getByRole('button', { name: 'Cancel Booking' }));
    expect(cancelled).toEqual([]);
  });

  it('shows the permission message when the server refuses', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = setup(() =>
      postgrestError({ code: '42501', message: 'Could not cancel this booking (permission).', hint: 'not_permitted' }, 403),
    );
    const article = await screen.findByRole('article', { name: 'Yoga Flow' });
    await user.click(within(article).getByRole('button', { name: 'Cancel Booking' }));
    expect(await screen.findByText('Could not cancel this booking (permission).')).toBeInTheDocument();
    expect(within(article).getByText('4 spots left')).toBeInTheDocument();
  });
});
