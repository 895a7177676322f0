import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler, scheduleSummaryHandler } from '@/testing/schedule-mocks';
import { memberHandler, rpc, signInAs } from '@/testing/supabase-mocks';
import { MyScheduleRoute } from './my-schedule';

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));

// Book Now on a class that takes children (decision 0094): a parent is asked who is coming on the
// booking form, never booked alone with no question; an adults' class and a member without
// children book as before.

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const ava = {
  id: 'kid-1',
  name: 'Ava',
  date_of_birth: '2019-05-04',
  medical_notes: null,
  collected_by: null,
  missing_documents: [],
  created_at: '2026-11-27T00:00:00Z',
};

function Where() {
  const { pathname, search } = useLocation();
  return (
    <p>
      Now at {pathname}
      {search}
    </p>
  );
}

function setup(children: (typeof ava)[], kidsOverrides: Parameters<typeof makeScheduleClass>[0] = {}) {
  const { member } = signInAs({ name: 'Pat Parent', membership_tier: 'standard' });
  const kids = makeScheduleClass({ name: 'Kids Club', start_time: inDays(2), min_age: 4, max_age: 12, ...kidsOverrides });
  const adults = makeScheduleClass({ name: 'Breakfast Club', start_time: inDays(3) });
  const booked: unknown[] = [];
  server.use(
    memberHandler(member),
    scheduleHandler(() => [kids, adults]),
    scheduleSummaryHandler(() => ({ total_classes: 2, available_spots: 20, instructors: 1, all_instructors: ['Coach'] })),
    rpc('my_dependants', () => children),
    rpc('book_class', ({ args }) => {
      booked.push(args);
      return {
        status: 'booked',
        booking_id: 'b-1',
        class_id: args.p_class_id,
        spots_left: 9,
        booking_type: 'paid',
        payment_status: 'completed',
        needs_payment: false,
        price_payg: 10,
        previous_tier: 'standard',
        tier: 'standard',
        trial_used: true,
      };
    }),
  );
  renderApp('/my-schedule', {
    routes: [
      { path: '/my-schedule', element: <MyScheduleRoute /> },
      { path: '*', element: <Where /> },
    ],
  });
  return { user: userEvent.setup(), kids, adults, booked };
}

describe('Book Now on a class that takes children', { timeout: 30_000 }, () => {
  it("takes a parent to the form that asks who is coming, and books nobody on the card's press", async () => {
    const { user, kids, booked } = setup([ava]);
    const card = await screen.findByRole('article', { name: 'Kids Club' });
    const link = await within(card).findByRole('link', { name: 'Book Now' });
    expect(link).toHaveAttribute('href', `/book?classId=${kids.id}`);
    await user.click(link);
    expect(await screen.findByText(`Now at /book?classId=${kids.id}`)).toBeInTheDocument();
    expect(booked).toEqual([]);
  });

  it("offers a parent already booked to add their children; an adults' class books at once as before", async () => {
    const { user, adults, booked } = setup([ava], {
      my_booking_id: 'own',
      my_payment_status: 'completed',
      bookable: false,
      refusal: 'already_booked',
    });
    const card = await screen.findByRole('article', { name: 'Kids Club' });
    expect(await within(card).findByRole('link', { name: 'Book your children' })).toBeInTheDocument();
    await user.click(within(screen.getByRole('article', { name: 'Breakfast Club' })).getByRole('button', { name: 'Book Now' }));
    await vi.waitFor(() => expect(booked).toEqual([expect.objectContaining({ p_class_id: adults.id })]));
  });

  it('books a member without children at once, as before', async () => {
    const { user, kids, booked } = setup([]);
    const card = await screen.findByRole('article', { name: 'Kids Club' });
    const button = await within(card).findByRole('button', { name: 'Book Now' });
    await user.click(button);
    await vi.waitFor(() => expect(booked).toEqual([expect.objectContaining({ p_class_id: kids.id })]));
  });
});
