import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useLocation } from 'react-router-dom';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeClass, makeMember, memberHandler, postgrestError, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import type { Member } from '@/lib/supabase';
import { redirectToCheckout } from '../api/redirect-to-checkout';
import { BookClassPage } from './book-class-page';

vi.mock('../api/redirect-to-checkout', () => ({ redirectToCheckout: vi.fn() }));

// react-hot-toast keeps its toasts in module state: start each test with none.
afterEach(() => act(() => toast.remove()));

function Where() {
  return <p>Now at {useLocation().pathname}</p>;
}

const cls = makeClass({ name: 'Breakfast Club', start_time: new Date(Date.now() + 2 * 86_400_000).toISOString(), capacity: 12, spots_left: 7, trainer: 'Coach Alex' });

function bookedResult(overrides: Record<string, unknown> = {}) {
  return {
    status: 'booked', booking_id: 'b-1', class_id: cls.id, booking_type: 'paid', payment_status: 'completed', needs_payment: false,
    price_payg: 10, previous_tier: 'standard', tier: 'standard', trial_used: true, spots_left: 6, ...overrides,
  };
}

function setup(memberOverrides: Partial<Member>, bookResult: Parameters<typeof rpc>[1]) {
  const { member } = signInAs(memberOverrides);
  const calls: Record<string, unknown>[] = [];
  let memberReads = 0;
  server.use(
    restGet('members', () => {
      memberReads++;
      return [member];
    }),
    restGet('classes', ({ url }) => (url.searchParams.get('id') === `eq.${cls.id}` ? [cls] : [])),
    rpc('book_class', (info) => {
      calls.push(info.args);
      return bookResult(info);
    }),
  );
  const user = userEvent.setup();
  renderApp(`/book?classId=${cls.id}`, {
    routes: [
      { path: '/book', element: <BookClassPage /> },
      { path: '*', element: <Where /> },
    ],
  });
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
    expect(screen.getByText('Booking confirmed! Redirecting to My Bookings...')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: cls.id, p_booking_type: 'paid' }]);
    expect(screen.getByText(/6 \/ 12/)).toBeInTheDocument();

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
      bookedResult({ status: 'payment_required', booking_id: null, booking_type: 'payg', payment_status: null, needs_payment: true, previous_tier: 'payg', tier: 'payg' }),
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
    const { user } = setup({ membership_tier: 'payg', has_used_trial: true }, () => bookedResult({ status: 'payment_required', booking_id: null }));
    await screen.findByRole('heading', { name: 'Breakfast Club' });
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Booking failed. Please try again.')).toBeInTheDocument();
  });

  it('shows the server refusal as worded', async () => {
    const { user } = setup({ membership_tier: 'payg', has_used_trial: true }, () =>
      postgrestError({ code: 'P0001', message: 'Your free trial has already been used', hint: 'trial_unavailable' }),
    );
    await screen.findByRole('heading', { name: 'Breakfast Club' });
    await user.click(screen.getByRole('radio', { name: 'Free Trial' }));
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Your free trial has already been used')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm Booking' })).toBeEnabled();
  });

  it('returns to /schedule for an unknown class', async () => {
    const { member } = signInAs(makeMember());
    server.use(memberHandler(member), restGet('classes', () => []));
    renderApp('/book?classId=00000000-0000-4000-8000-000000000000', {
      routes: [
        { path: '/book', element: <BookClassPage /> },
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
      restGet('classes', ({ url }) => {
        classReads.push(url);
        return postgrestError({ code: '22P02', message: 'invalid input syntax for type uuid: "x"' }, 400);
      }),
    );
    renderApp('/book?classId=x', {
      routes: [
        { path: '/book', element: <BookClassPage /> },
        { path: '*', element: <Where /> },
      ],
    });
    expect(await screen.findByText('Now at /schedule')).toBeInTheDocument();
    expect(classReads).toEqual([]);
  });
});
