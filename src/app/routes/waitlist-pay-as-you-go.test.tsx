import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler, scheduleSummaryHandler } from '@/testing/schedule-mocks';
import { memberHandler, rpc, signInAs } from '@/testing/supabase-mocks';
import { MyScheduleRoute } from './my-schedule';

vi.mock(
  '@/features/booking/api/subscribe-live-changes',
  async () => (await import('@/features/booking/testing/live-changes')).liveChangesModule,
);

// Decision 0081: a pay-as-you-go member with a saved card may wait for a full class; joining says
// the price will be charged to the card when a spot is given.

const full = makeScheduleClass({
  name: 'Spin Full',
  start_time: new Date(Date.now() + 30 * 3_600_000).toISOString(),
  capacity: 8,
  spots_left: 0,
  price_payg: 12,
});

afterEach(() => {
  act(() => toast.remove());
  vi.restoreAllMocks();
});

describe('the pay-as-you-go waitlist on /my-schedule', () => {
  it('asks before joining, saying the price and the saved card; declined, nothing is sent', async () => {
    const { member } = signInAs({ membership_tier: 'payg', has_used_trial: true });
    const calls: unknown[] = [];
    let waiting = false;
    server.use(
      memberHandler(member),
      scheduleHandler(() => [
        {
          ...full,
          refusal: 'class_full',
          bookable: false,
          booking_type: 'payg',
          needs_payment: true,
          can_join_waitlist: !waiting,
          waitlist_refusal: waiting ? 'already_waitlisted' : null,
          my_waitlist_position: waiting ? 1 : null,
          waitlist_size: waiting ? 1 : 0,
        },
      ]),
      scheduleSummaryHandler(() => ({ total_classes: 1, available_spots: 0, instructors: 1, all_instructors: ['Coach Alex'] })),
      rpc('my_waitlist', () => []),
      rpc('join_waitlist', ({ args }) => {
        calls.push(args);
        waiting = true;
        return { class_id: full.id, position: 1, waitlist_size: 1, closes_at: full.start_time, price: 12 };
      }),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const user = userEvent.setup();
    renderApp('/my-schedule', { routes: [{ path: '/my-schedule', element: <MyScheduleRoute /> }] });
    const card = await screen.findByRole('article', { name: 'Spin Full' });
    const join = await within(card).findByRole('button', { name: 'Join Waitlist' });
    await user.click(join);
    expect(confirm).toHaveBeenCalledWith(
      'Join the waitlist? If a spot opens for you, £12.00 will be charged to your saved card and the spot is yours. If the charge fails, the spot goes to the next person.',
    );
    expect(calls).toEqual([]);
    await user.click(join);
    expect(
      await screen.findByText(
        "You're on the waitlist: #1. If a spot opens for you, £12.00 will be charged to your saved card; we'll email you.",
      ),
    ).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: full.id }]);
  });

  it('a member with a balance is told it pays first, then the saved card (decision 0108)', async () => {
    const { member } = signInAs({ membership_tier: 'payg', has_used_trial: true });
    server.use(
      memberHandler(member),
      scheduleHandler(() => [
        {
          ...full,
          refusal: 'class_full',
          bookable: false,
          booking_type: 'payg',
          needs_payment: true,
          can_join_waitlist: true,
          waitlist_refusal: null,
          my_waitlist_position: null,
          waitlist_size: 0,
        },
      ]),
      scheduleSummaryHandler(() => ({ total_classes: 1, available_spots: 0, instructors: 1, all_instructors: ['Coach Alex'] })),
      rpc('my_waitlist', () => []),
      rpc('my_balance', () => 5),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false);
    const user = userEvent.setup();
    renderApp('/my-schedule', { routes: [{ path: '/my-schedule', element: <MyScheduleRoute /> }] });
    const card = await screen.findByRole('article', { name: 'Spin Full' });
    await user.click(await within(card).findByRole('button', { name: 'Join Waitlist' }));
    await vi.waitFor(() =>
      expect(confirm).toHaveBeenCalledWith(
        'Join the waitlist? If a spot opens for you, £12.00 will be charged to your balance (£5.00 now) first, then your saved card, and the spot is yours. If the charge fails, the spot goes to the next person.',
      ),
    );
  });
});
