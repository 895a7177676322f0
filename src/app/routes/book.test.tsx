import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useLocation } from 'react-router-dom';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler } from '@/testing/schedule-mocks';
import { makeMember, memberHandler, postgrestError, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import type { ScheduleClass } from '@/features/booking/api/get-class-schedule';
import type { Member } from '@/lib/supabase';
import { redirectToCheckout } from '@/features/booking/api/redirect-to-checkout';
import { toast as appToast } from '@/lib/toast';
import { BookRoute } from './book';

vi.mock('@/features/booking/api/redirect-to-checkout', () => ({ redirectToCheckout: vi.fn() }));

// Each test ends once its reads have settled (the plan usage arrives after the class), then with no toasts
// (react-hot-toast keeps them in module state).
let settle: (() => Promise<void>) | undefined;
// No children on these accounts: the family chooser stays hidden (family-booking.test.tsx covers it).
beforeEach(() => server.use(rpc('my_dependants', () => [])));
afterEach(async () => {
  await settle?.();
  settle = undefined;
  act(() => toast.remove());
});

function Where() {
  return <p>Now at {useLocation().pathname}</p>;
}

const cls = makeScheduleClass({
  name: 'Breakfast Club',
  start_time: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  capacity: 12,
  spots_left: 7,
  trainer: 'Coach Alex',
});
const usage = { month_start: '2026-11-01T00:00:00Z', allowance: 12, used: 3, remaining: 9, bookings: 3, late_cancellations: 0 };

function bookedResult(overrides: Record<string, unknown> = {}) {
  return {
    status: 'booked',
    booking_id: 'b-1',
    class_id: cls.id,
    booking_type: 'paid',
    payment_status: 'completed',
    needs_payment: false,
    price_payg: 10,
    previous_tier: 'standard',
    tier: 'standard',
    trial_used: true,
    spots_left: 6,
    ...overrides,
  };
}

/** What the server states about the class for this member, before and after the booking. */
function factsFor(member: Partial<Member>): Partial<ScheduleClass> {
  if (member.membership_tier === 'standard' || member.membership_tier === 'premium') return { booking_type: 'paid' };
  if (member.membership_tier === 'trial' || !member.has_used_trial)
    return { booking_type: 'trial', paid_refusal: 'plan_required', trial_refusal: null };
  return { booking_type: 'payg', needs_payment: true, paid_refusal: 'plan_required', trial_refusal: 'trial_unavailable' };
}

function setup(memberOverrides: Partial<Member>, bookResult: Parameters<typeof rpc>[1], facts: Partial<ScheduleClass> = {}) {
  const { member } = signInAs(memberOverrides);
  const calls: Record<string, unknown>[] = [];
  let memberReads = 0;
  let booked = false;
  server.use(
    restGet('members', () => {
      memberReads++;
      return [member];
    }),
    scheduleHandler((args) =>
      args.p_class_id === cls.id
        ? [
            booked
              ? {
                  ...cls,
                  ...factsFor(memberOverrides),
                  ...facts,
                  spots_left: 6,
                  refusal: 'already_booked',
                  bookable: false,
                  my_booking_id: 'b-1',
                  my_payment_status: 'completed',
                }
              : { ...cls, ...factsFor(memberOverrides), ...facts },
          ]
        : [],
    ),
    // A plan's allowance for plan members; none for the trial and pay-as-you-go.
    rpc('my_plan_usage', () =>
      memberOverrides.membership_tier === 'standard' || memberOverrides.membership_tier === 'premium'
        ? usage
        : { ...usage, allowance: null, remaining: null },
    ),
    rpc('book_class', async (info) => {
      calls.push(info.args);
      const answer = await bookResult(info);
      if (!(answer instanceof Response) && (answer as { status?: string }).status === 'booked') booked = true;
      return answer;
    }),
  );
  const user = userEvent.setup();
  const { queryClient } = renderApp(`/book?classId=${cls.id}`, {
    routes: [
      { path: '/book', element: <BookRoute /> },
      { path: '*', element: <Where /> },
    ],
  });
  settle = () => waitFor(() => expect(queryClient.isFetching()).toBe(0));
  return { user, calls, member, memberReads: () => memberReads };
}

describe('/book', () => {
  it('shows the class and books as a member, then goes to My Bookings', async () => {
    const { user, calls } = setup({ membership_tier: 'standard', email: 'standard@studio.test' }, () => bookedResult());
    expect(await screen.findByRole('heading', { name: 'Breakfast Club' })).toBeInTheDocument();
    expect(screen.getByText('Coach Alex')).toBeInTheDocument();
    expect(screen.getByText(/5 \/ 12/)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('standard@studio.test');
    expect(screen.getByRole('radio', { name: 'Member' })).toBeChecked();
    expect(screen.getByRole('link', { name: 'Back to Schedule' })).toHaveAttribute('href', '/schedule');

    await user.dblClick(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Class booked successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Booking confirmed! Redirecting to My Bookings...')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: cls.id, p_booking_type: 'paid' }]);
    expect(await screen.findByText(/6 \/ 12/)).toBeInTheDocument();
    // One booking, one toast: the form says the outcome in its confirmation.
    expect(screen.getAllByText(/booked successfully|Booking confirmed/).filter((el) => el.closest('[role="status"]'))).toHaveLength(2);

    // The confirmation offers the booking as an .ics file before leaving.
    const blobs: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: (blob: Blob) => (blobs.push(blob), 'blob:test/1') });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Add to calendar' }));
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^breakfast-club-\d{4}-\d{2}-\d{2}\.ics$/);
    expect(blobs[0]?.type).toBe('text/calendar; charset=utf-8');
    click.mockRestore();

    expect(await screen.findByText('Now at /mybookings', {}, { timeout: 6000 })).toBeInTheDocument();
    // The confirmation stays REDIRECT_DELAY_MS (4 s) before leaving.
  }, 10_000);

  describe('a One-to-One session', () => {
    const session = makeScheduleClass({
      name: 'Personal Training',
      type: 'One-to-One',
      capacity: 1,
      spots_left: 1,
      price_payg: 115,
      needs_payment: true,
      booking_type: 'paid',
      start_time: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    function setupSession(choice: Record<string, unknown>) {
      const { member } = signInAs({ membership_tier: 'standard' });
      const calls: { fn: string; args: Record<string, unknown> }[] = [];
      server.use(
        restGet('members', () => [member]),
        scheduleHandler((args) => (args.p_class_id === session.id ? [session] : [])),
        rpc('my_plan_usage', () => usage),
        rpc('my_credit_for_class', () => choice),
        rpc('book_with_credit', (info) => {
          calls.push({ fn: 'book_with_credit', args: info.args });
          return bookedResult({ class_id: session.id, booking_type: 'credit' });
        }),
      );
      const user = userEvent.setup();
      const { queryClient } = renderApp(`/book?classId=${session.id}`, {
        routes: [
          { path: '/book', element: <BookRoute /> },
          { path: '*', element: <Where /> },
        ],
      });
      settle = () => waitFor(() => expect(queryClient.isFetching()).toBe(0));
      return { user, calls };
    }

    it('offers the credit that expires first, says so before confirming, and books with it', async () => {
      const expires = '2027-01-03T12:00:00Z';
      const { user, calls } = setupSession({ credit_id: 'c-1', expires_at: expires, refusal: null, message: null });
      expect(await screen.findByRole('radio', { name: 'Personal-training session' })).toBeChecked();
      expect(screen.queryByRole('radio', { name: 'Member' })).not.toBeInTheDocument();
      expect(screen.queryByRole('radio', { name: 'Free Trial' })).not.toBeInTheDocument();
      expect(screen.getByText('Uses 1 personal-training session, expires Sun 3 Jan.')).toBeInTheDocument();
      await user.click(screen.getByRole('radio', { name: 'Pay-as-you-go' }));
      expect(screen.getByText('This session is £115.00, paid by card at checkout.')).toBeInTheDocument();
      await user.click(screen.getByRole('radio', { name: 'Personal-training session' }));
      await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
      expect(await screen.findByText('Booking confirmed! Redirecting to My Bookings...')).toBeInTheDocument();
      expect(calls).toEqual([{ fn: 'book_with_credit', args: { p_class_id: session.id } }]);
    });

    it("without a credit offers only paying, with the week's sessions named when the package is full that week", async () => {
      const message = 'Your package allows 2 sessions a week, and that week you have booked Mon 7 Dec 10:00, Wed 9 Dec 10:00.';
      setupSession({ credit_id: null, expires_at: null, refusal: 'weekly_cap_reached', message });
      expect(await screen.findByRole('radio', { name: 'Pay-as-you-go' })).toBeChecked();
      expect(screen.getByRole('radio', { name: 'Personal-training session' })).toBeDisabled();
      expect(screen.getByText(message)).toBeInTheDocument();
      expect(screen.getByText('This session is £115.00, paid by card at checkout.')).toBeInTheDocument();
    });
  });

  describe('a paid class and a class credit', () => {
    const expires = '2027-01-03T12:00:00Z';
    function withCredit(credit: string | null) {
      const calls: Record<string, unknown>[] = [];
      server.use(
        rpc('my_credit_for_class', () => ({
          credit_id: credit,
          expires_at: credit ? expires : null,
          refusal: credit ? null : 'no_credit',
          message: null,
        })),
        rpc('book_with_credit', (info) => {
          calls.push(info.args);
          return bookedResult({ booking_type: 'credit', previous_tier: 'payg', tier: 'payg' });
        }),
      );
      return calls;
    }

    it('starts on "Use a class credit" for a member who would pay, says so, and books with it', async () => {
      const { user, calls: bookCalls } = setup({ membership_tier: 'payg', has_used_trial: true }, () => ({}));
      const calls = withCredit('c-1');
      expect(await screen.findByRole('radio', { name: 'Use a class credit' })).toBeChecked();
      expect(screen.getByText('Uses 1 class credit instead of paying £10.00, expires Sun 3 Jan.')).toBeInTheDocument();
      await user.click(screen.getByRole('radio', { name: 'Pay-as-you-go' }));
      expect(screen.getByText('This class is £10.00, paid by card at checkout.')).toBeInTheDocument();
      await user.click(screen.getByRole('radio', { name: 'Use a class credit' }));
      await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
      expect(await screen.findByText('Booking confirmed! Redirecting to My Bookings...')).toBeInTheDocument();
      expect(calls).toEqual([{ p_class_id: cls.id }]);
      expect(bookCalls).toEqual([]);
    });

    it('is not offered without a credit', async () => {
      setup({ membership_tier: 'payg', has_used_trial: true }, () => ({}));
      withCredit(null);
      expect(await screen.findByRole('radio', { name: 'Pay-as-you-go' })).toBeChecked();
      expect(screen.queryByRole('radio', { name: 'Use a class credit' })).not.toBeInTheDocument();
    });

    it('is kept while the plan still covers the class', async () => {
      setup({ membership_tier: 'standard' }, () => ({}), { booking_type: 'paid', needs_payment: false, paid_refusal: null });
      withCredit('c-2');
      expect(await screen.findByRole('radio', { name: 'Member' })).toBeChecked();
      expect(screen.queryByRole('radio', { name: 'Use a class credit' })).not.toBeInTheDocument();
    });
  });

  it('announces the trial transition and reloads the member', async () => {
    const { user, calls, memberReads } = setup({ membership_tier: 'trial', has_used_trial: false }, () =>
      bookedResult({ booking_type: 'trial', previous_tier: 'trial', tier: 'payg' }),
    );
    await screen.findByRole('heading', { name: 'Breakfast Club' });
    expect(screen.getByRole('radio', { name: 'Free Trial' })).toBeChecked();
    const readsBefore = memberReads();
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Free trial class booked! You are now on Pay-As-You-Go.')).toBeInTheDocument();
    expect(calls[0]).toEqual({ p_class_id: cls.id, p_booking_type: 'trial' });
    await waitFor(() => expect(memberReads()).toBe(readsBefore + 1));
  });

  it('sends a payg member who used the trial to the class checkout', async () => {
    let checkoutRequest: { auth: string | null; body: unknown } | undefined;
    server.use(
      http.post('/.netlify/functions/create-class-checkout', async ({ request }) => {
        checkoutRequest = { auth: request.headers.get('authorization'), body: await request.json() };
        return HttpResponse.json({ url: 'https://pay.example/checkout/123' });
      }),
    );
    const { user, calls } = setup({ membership_tier: 'payg', has_used_trial: true }, () =>
      bookedResult({
        status: 'payment_required',
        booking_id: null,
        booking_type: 'payg',
        payment_status: null,
        needs_payment: true,
        previous_tier: 'payg',
        tier: 'payg',
      }),
    );
    await screen.findByRole('heading', { name: 'Breakfast Club' });
    expect(screen.getByRole('radio', { name: 'Pay-as-you-go' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    await waitFor(() => expect(redirectToCheckout).toHaveBeenCalledWith('https://pay.example/checkout/123'));
    expect(calls).toEqual([{ p_class_id: cls.id, p_booking_type: 'payg' }]);
    expect(checkoutRequest?.auth).toMatch(/^Bearer .+/);
    expect(checkoutRequest?.body).toEqual({ classId: cls.id, bookingType: 'payg' });
    expect(screen.queryByText('Booking confirmed! Redirecting to My Bookings...')).not.toBeInTheDocument();
  });

  it('says booking failed when the checkout cannot be started', async () => {
    server.use(http.post('/.netlify/functions/create-class-checkout', () => new HttpResponse('Not Found', { status: 404 })));
    const { user } = setup({ membership_tier: 'payg', has_used_trial: true }, () =>
      bookedResult({ status: 'payment_required', booking_id: null }),
    );
    await screen.findByRole('heading', { name: 'Breakfast Club' });
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Booking failed. Please try again.')).toBeInTheDocument();
  });

  it('offers only the types the member may use, each other one with its reason', async () => {
    setup({ membership_tier: 'payg', has_used_trial: true }, () => ({}));
    await screen.findByRole('heading', { name: 'Breakfast Club' });
    expect(screen.getByRole('radio', { name: 'Member' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Member' })).toHaveAccessibleDescription('For Standard and Platinum Premium members');
    expect(screen.getByRole('radio', { name: 'Free Trial' })).toHaveAccessibleDescription('Your free trial has already been used');
    expect(screen.getByRole('radio', { name: 'Pay-as-you-go' })).toBeChecked();
    expect(screen.getByText('This class is £10.00, paid by card at checkout.')).toBeInTheDocument();
  });

  it('tells a Standard member past their allowance what this class costs before confirming', async () => {
    setup({ membership_tier: 'standard' }, () => ({}), { booking_type: 'payg', needs_payment: true, paid_refusal: 'allowance_used' });
    // The allowance comes from my_plan_usage, the count book_class enforces.
    expect(await screen.findByText("You've used your 12 classes this month: this one is £10.00.")).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Member' })).toHaveAccessibleDescription("You've used your 12 classes this month");
    expect(screen.getByRole('radio', { name: 'Pay-as-you-go' })).toBeChecked();
    // A plan member is never offered the Free Trial: it is for newcomers only.
    expect(screen.queryByRole('radio', { name: 'Free Trial' })).not.toBeInTheDocument();
  });

  it.each([
    [{ refusal: 'already_booked', my_booking_id: 'b-9', my_payment_status: 'completed' as const }, 'Booked'],
    [{ refusal: 'already_booked', my_booking_id: 'b-9', my_payment_status: 'pending' as const }, 'Payment pending'],
    [{ refusal: 'class_started' }, 'Class has started'],
    [{ refusal: 'class_full', spots_left: 0 }, 'Fully Booked'],
  ])('never offers Confirm Booking when the server says %j', async (facts, label) => {
    setup({ membership_tier: 'standard' }, () => ({}), { ...facts, bookable: false });
    await screen.findByRole('heading', { name: 'Breakfast Club' });
    expect(screen.getByRole('button', { name: label })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Confirm Booking' })).not.toBeInTheDocument();
  });

  it('shows the server refusal as worded', async () => {
    const { user } = setup({ membership_tier: 'standard' }, () =>
      postgrestError({ code: 'P0001', message: "You've used your 12 classes this month", hint: 'allowance_used' }),
    );
    await screen.findByRole('heading', { name: 'Breakfast Club' });
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText("You've used your 12 classes this month")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm Booking' })).toBeEnabled();
  });

  it('sends a member who has not signed the current documents to sign them, then back here', async () => {
    const message = 'Before your first class, please read and sign our terms and waiver and answer the health questions';
    const { user } = setup({ membership_tier: 'trial', has_used_trial: false }, () =>
      postgrestError({ code: 'P0001', message, hint: 'documents_required' }),
    );
    const errorToast = vi.spyOn(appToast, 'error');
    await screen.findByRole('heading', { name: 'Breakfast Club' });
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Now at /agreements')).toBeInTheDocument();
    // Not an error: the sign page says why (agreements.test.tsx, my-schedule.test.tsx).
    expect(errorToast).not.toHaveBeenCalled();
    errorToast.mockRestore();
  });

  it('returns to /schedule for an unknown class', async () => {
    const { member } = signInAs(makeMember());
    server.use(
      memberHandler(member),
      scheduleHandler(() => []),
    );
    renderApp('/book?classId=00000000-0000-4000-8000-000000000000', {
      routes: [
        { path: '/book', element: <BookRoute /> },
        { path: '*', element: <Where /> },
      ],
    });
    expect(await screen.findByText('Now at /schedule')).toBeInTheDocument();
  });

  it('returns to /schedule for a malformed class id without asking the database', async () => {
    const { member } = signInAs(makeMember());
    const classReads: URL[] = [];
    server.use(
      memberHandler(member),
      rpc('class_schedule', ({ request }) => {
        classReads.push(new URL(request.url));
        return postgrestError({ code: '22P02', message: 'invalid input syntax for type uuid: "x"' }, 400);
      }),
    );
    renderApp('/book?classId=x', {
      routes: [
        { path: '/book', element: <BookRoute /> },
        { path: '*', element: <Where /> },
      ],
    });
    expect(await screen.findByText('Now at /schedule')).toBeInTheDocument();
    expect(classReads).toEqual([]);
  });
});
