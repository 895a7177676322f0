import { afterEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { act, configure, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler } from '@/testing/schedule-mocks';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { redirectToCheckout } from '@/features/booking/api/redirect-to-checkout';
import { BookRoute } from './book';

vi.mock('@/features/booking/api/redirect-to-checkout', () => ({ redirectToCheckout: vi.fn() }));

// The family chooser on /book: who is coming, the total before booking, one book_family call.

configure({ asyncUtilTimeout: 5000 });

let settle: (() => Promise<void>) | undefined;
afterEach(async () => {
  vi.mocked(redirectToCheckout).mockClear();
  await settle?.();
  settle = undefined;
  act(() => toast.remove());
});

function Where() {
  return <p>Now at {useLocation().pathname}</p>;
}

const children = [
  {
    id: 'kid-1',
    name: 'Ava',
    date_of_birth: '2019-05-04',
    medical_notes: null,
    collected_by: null,
    missing_documents: [],
    created_at: '2026-11-27T00:00:00Z',
  },
  {
    id: 'kid-2',
    name: 'Ben',
    date_of_birth: '2017-02-03',
    medical_notes: null,
    collected_by: null,
    missing_documents: [],
    created_at: '2026-11-27T00:00:00Z',
  },
  {
    id: 'kid-3',
    name: 'Cal',
    date_of_birth: '2020-01-01',
    medical_notes: null,
    collected_by: null,
    missing_documents: ['waiver', 'child_parq'],
    created_at: '2026-11-27T00:00:00Z',
  },
];
/** Kids Club's age range, as the demo seed sets it. */
const KIDS = { min_age: 4, max_age: 12 };
const usage = { month_start: '2026-11-01T00:00:00Z', allowance: 12, used: 3, remaining: 9, bookings: 3, late_cancellations: 0 };

function setup(price: number, bookFamily: Parameters<typeof rpc>[1], ages: { min_age: number | null; max_age: number | null } = KIDS) {
  const cls = makeScheduleClass({
    name: 'Kids Club',
    start_time: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    price_payg: price,
    booking_type: 'paid',
    needs_payment: false,
    ...ages,
  });
  const me = signInAs({ name: 'Pat Parent', membership_tier: 'standard' });
  const calls: Record<string, unknown>[] = [];
  const reads: string[] = [];
  server.use(
    memberHandler(me.member),
    scheduleHandler((args) => (args.p_class_id === cls.id ? [cls] : [])),
    rpc('my_plan_usage', () => usage),
    rpc('my_dependants', () => {
      reads.push('my_dependants');
      return children;
    }),
    rpc('book_family', (info) => {
      calls.push(info.args);
      return bookFamily(info);
    }),
  );
  const { queryClient } = renderApp(`/book?classId=${cls.id}`, {
    routes: [
      { path: '/book', element: <BookRoute /> },
      { path: '*', element: <Where /> },
    ],
  });
  settle = () => waitFor(() => expect(queryClient.isFetching()).toBe(0));
  return { user: userEvent.setup(), calls, cls, reads };
}

describe('/book: bring your family', { timeout: 30_000 }, () => {
  it('books the parent and two children in one step, with the total said first', async () => {
    const { user, calls, cls } = setup(0, () => ({ class_id: 'x', booking_ids: ['b1', 'b2', 'b3'], places: 3, spots_left: 9 }));
    const form = await screen.findByRole('form', { name: 'Book for your family' });
    expect(form).toBeInTheDocument();
    // The one way to book a class that takes children: who is coming is asked, never skipped.
    expect(screen.queryByRole('form', { name: 'Book this class' })).not.toBeInTheDocument();
    expect(screen.getByText('Ages 4 to 12')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Who is coming?' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Cal' })).toBeDisabled();
    expect(screen.getByText(/Sign the waiver and health questions for Cal first/)).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Ava' }));
    await user.click(screen.getByRole('checkbox', { name: 'Ben' }));
    expect(screen.getByText('3 places · Total to pay: £0.00 (this class is free)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Book 3 places' }));
    expect(await screen.findByText('Now at /mybookings')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: cls.id, p_include_self: true, p_dependant_ids: ['kid-1', 'kid-2'] }]);
    expect(await screen.findByText('Booked on Kids Club: you, Ava and Ben')).toBeInTheDocument();
  });

  it('books only the children when the parent does not come', async () => {
    const { user, calls, cls } = setup(0, () => ({ class_id: 'x', booking_ids: ['b2'], places: 1, spots_left: 11 }));
    await screen.findByRole('form', { name: 'Book for your family' });
    await user.click(screen.getByRole('checkbox', { name: 'Me' }));
    await user.click(screen.getByRole('checkbox', { name: 'Ben' }));
    expect(screen.getByText('1 place · Total to pay: £0.00 (this class is free)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Book 1 place' }));
    expect(await screen.findByText('Now at /mybookings')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: cls.id, p_include_self: false, p_dependant_ids: ['kid-2'] }]);
  });

  it('offers no children on a class for adults: the usual form, and the children are not even read', async () => {
    const { calls, reads } = setup(0, () => ({}), { min_age: null, max_age: null });
    expect(await screen.findByRole('form', { name: 'Book this class' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Book for your family' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Bringing a child/)).not.toBeInTheDocument();
    expect(calls).toEqual([]);
    expect(reads).toEqual([]);
  });

  it("pays for children's places on a paid class in one checkout (the plan covers the parent's), with the total said first", async () => {
    const { user, calls, cls } = setup(10, () => ({}));
    const checkouts: unknown[] = [];
    server.use(
      http.post('/.netlify/functions/create-family-checkout', async ({ request }) => {
        checkouts.push(await request.json());
        return HttpResponse.json({ url: 'https://checkout.example/family-1', reference: 'family-1' });
      }),
    );
    await screen.findByRole('form', { name: 'Book for your family' });
    await user.click(screen.getByRole('checkbox', { name: 'Ava' }));
    await user.click(screen.getByRole('checkbox', { name: 'Ben' }));
    expect(screen.getByText('3 places · Total to pay: £20.00 (your plan covers your place)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay £20.00 for 3 places' }));
    await waitFor(() => expect(redirectToCheckout).toHaveBeenCalledWith('https://checkout.example/family-1'));
    expect(checkouts).toEqual([{ classId: cls.id, includeSelf: true, childIds: ['kid-1', 'kid-2'] }]);
    expect(calls).toEqual([]);
  });

  it("says what the member's balance pays of the total before paying (decision 0108)", async () => {
    setup(10, () => ({}));
    server.use(
      rpc('my_balance', () => 15),
      rpc('my_balance_cover', ({ args }) => ({ price: args.p_price, balance_used: 15, to_charge: Number(args.p_price) - 15 })),
    );
    await screen.findByRole('form', { name: 'Book for your family' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Ava' }));
    await user.click(screen.getByRole('checkbox', { name: 'Ben' }));
    expect(await screen.findByText('Your balance pays £15.00 of it: £5.00 by card.')).toBeInTheDocument();
  });

  it('says why the checkout refused (places left), and stays on the page', async () => {
    const { user } = setup(10, () => ({}));
    server.use(
      http.post('/.netlify/functions/create-family-checkout', () =>
        HttpResponse.json({ error: 'not_enough_places', message: 'Only 1 place left on this class: you chose 2' }, { status: 409 }),
      ),
    );
    await screen.findByRole('form', { name: 'Book for your family' });
    await user.click(screen.getByRole('checkbox', { name: 'Ava' }));
    await user.click(screen.getByRole('button', { name: 'Pay £10.00 for 2 places' }));
    expect(await screen.findByText('Only 1 place left on this class: you chose 2')).toBeInTheDocument();
    expect(redirectToCheckout).not.toHaveBeenCalled();
  });

  it("shows the server's refusal (a child outside the age range) and stays on the page", async () => {
    const { user } = setup(0, () =>
      postgrestError({ code: 'P0001', message: 'Ben will be 9 on the day; this class is for ages 4 to 8', hint: 'outside_age_range' }),
    );
    await screen.findByRole('form', { name: 'Book for your family' });
    await user.click(screen.getByRole('checkbox', { name: 'Ben' }));
    await user.click(screen.getByRole('button', { name: 'Book 2 places' }));
    expect(await screen.findByText('Ben will be 9 on the day; this class is for ages 4 to 8')).toBeInTheDocument();
    expect(screen.queryByText(/Now at/)).not.toBeInTheDocument();
  });
});
