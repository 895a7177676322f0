import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler } from '@/testing/schedule-mocks';
import { restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import { redirectToCheckout } from '@/features/booking/api/redirect-to-checkout';
import { PersonalTrainingRoute } from './personal-training';

vi.mock('@/features/booking/api/redirect-to-checkout', () => ({ redirectToCheckout: vi.fn() }));

let settle: (() => Promise<void>) | undefined;
afterEach(async () => {
  await settle?.();
  settle = undefined;
  act(() => toast.remove());
});

// The personal_training_slots contract: each session with what a booking would use.
const DAY = 86_400_000;
const at = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * DAY);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};
const trainers = [
  { id: 't-alex', name: 'Coach Alex', bio: 'Strength and conditioning.', photo_url: null },
  { id: 't-kim', name: 'Coach Kim', bio: 'Mobility and boxing.', photo_url: null },
];
const slot = (id: string, trainerId: string, start: string, credit: { id: string; expires: string } | null) => ({
  id,
  trainer_id: trainerId,
  trainer: trainerId === 't-alex' ? 'Coach Alex' : 'Coach Kim',
  start_time: start,
  duration: 60,
  price: 115,
  spots_left: 1,
  my_booking_id: null,
  credit_id: credit?.id ?? null,
  credit_expires_at: credit?.expires ?? null,
  credit_refusal: credit ? null : 'no_credit',
  credit_message: credit ? null : 'You have no personal-training session to use for this class: it is £115.00.',
});

function setup(withCredit: boolean) {
  const { member } = signInAs({ membership_tier: 'payg', has_used_trial: true });
  const credit = withCredit ? { id: 'c-1', expires: '2030-01-03T12:00:00Z' } : null;
  const sessions = [
    slot('11111111-1111-4111-8111-111111111111', 't-alex', at(2, 10), credit),
    slot('22222222-2222-4222-8222-222222222222', 't-kim', at(3, 9), credit),
  ];
  const slotCalls: Record<string, unknown>[] = [];
  const booked: string[] = [];
  server.use(
    restGet('members', () => [member]),
    restGet('trainers', () => trainers),
    rpc('personal_training_slots', ({ args }) => {
      slotCalls.push(args);
      return sessions.filter((s) => s.trainer_id === args.p_trainer_id);
    }),
    scheduleHandler((args) => {
      const s = sessions.find((x) => x.id === args.p_class_id)!;
      return [
        makeScheduleClass({
          id: s.id,
          name: 'Personal Training',
          type: 'One-to-One',
          trainer: s.trainer,
          start_time: s.start_time,
          capacity: 1,
          spots_left: 1,
          price_payg: 115,
          needs_payment: true,
          booking_type: 'payg',
        }),
      ];
    }),
    rpc('my_credit_for_class', () =>
      credit
        ? { credit_id: credit.id, expires_at: credit.expires, refusal: null, message: null }
        : { credit_id: null, expires_at: null, refusal: 'no_credit', message: 'x' },
    ),
    rpc('book_with_credit', ({ args }) => {
      booked.push(args.p_class_id as string);
      return {
        status: 'booked',
        booking_id: 'b-1',
        class_id: args.p_class_id,
        booking_type: 'credit',
        payment_status: 'completed',
        needs_payment: false,
        price_payg: 115,
        previous_tier: 'payg',
        tier: 'payg',
        trial_used: true,
        spots_left: 0,
      };
    }),
    rpc('book_class', () => ({
      status: 'payment_required',
      booking_id: null,
      class_id: sessions[0]!.id,
      booking_type: 'payg',
      payment_status: 'pending',
      needs_payment: true,
      price_payg: 115,
      previous_tier: 'payg',
      tier: 'payg',
      trial_used: true,
      spots_left: 1,
    })),
  );
  const user = userEvent.setup();
  const { queryClient } = renderApp('/personal-training', { routes: [{ path: '/personal-training', element: <PersonalTrainingRoute /> }] });
  settle = () => waitFor(() => expect(queryClient.isFetching()).toBe(0));
  return { user, sessions, slotCalls, booked };
}

describe('/personal-training', () => {
  it('picks a trainer and a time that says it uses the session expiring first, then books with it', async () => {
    const { user, sessions, slotCalls, booked } = setup(true);
    expect(await screen.findByRole('heading', { name: 'Personal training' })).toBeInTheDocument();
    const choose = await screen.findByRole('group', { name: 'Choose a trainer' });
    expect(within(choose).getByRole('radio', { name: /Coach Alex/ })).toBeChecked();
    expect(within(choose).getByText('Mobility and boxing.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /Uses 1 personal-training session, expires Thu 3 Jan/ })).toBeInTheDocument();
    expect(slotCalls[0]).toEqual({ p_trainer_id: 't-alex', p_days: 28 });

    await user.click(within(choose).getByRole('radio', { name: /Coach Kim/ }));
    await waitFor(() => expect(slotCalls.at(-1)).toEqual({ p_trainer_id: 't-kim', p_days: 28 }));
    await user.click(within(choose).getByRole('radio', { name: /Coach Alex/ }));
    await user.click(await screen.findByRole('button', { name: /Uses 1 personal-training session/ }));

    const form = await screen.findByRole('form', { name: 'Book this class' });
    expect(within(form).getByRole('radio', { name: 'Personal-training session' })).toBeChecked();
    expect(within(form).getByText('Uses 1 personal-training session, expires Thu 3 Jan.')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Booking confirmed! Redirecting to My Bookings...')).toBeInTheDocument();
    expect(booked).toEqual([sessions[0]!.id]);
  });

  it('without a credit each time says its price, and confirming goes to the checkout', async () => {
    server.use(http.post('/.netlify/functions/create-class-checkout', () => HttpResponse.json({ url: 'https://pay.example/checkout/pt' })));
    const { user } = setup(false);
    await user.click(await screen.findByRole('button', { name: /£115/ }));
    const form = await screen.findByRole('form', { name: 'Book this class' });
    expect(within(form).getByRole('radio', { name: 'Pay-as-you-go' })).toBeChecked();
    expect(within(form).getByRole('radio', { name: 'Personal-training session' })).toBeDisabled();
    expect(within(form).getByText('This session is £115.00, paid by card at checkout.')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Confirm Booking' }));
    await waitFor(() => expect(redirectToCheckout).toHaveBeenCalledWith('https://pay.example/checkout/pt'));
  });
});
