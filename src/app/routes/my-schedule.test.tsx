import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createTestQueryClient, renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler, scheduleSummaryHandler } from '@/testing/schedule-mocks';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { documentsHandlers } from '@/features/documents/testing/documents-mocks';
import { toast } from '@/lib/toast';
import { AgreementsRoute } from './agreements';
import { MyScheduleRoute } from './my-schedule';

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));

// Typing into the search box settles before each request: these journeys take a few seconds on a busy machine.

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

function renderPage() {
  const user = userEvent.setup();
  renderApp('/my-schedule', { routes: [{ path: '/my-schedule', element: <MyScheduleRoute /> }] });
  return user;
}

const tile = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('/my-schedule', () => {
  it('sends search and filters to the server, and the tiles count every match it reports', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const breakfast = makeScheduleClass({ name: 'Breakfast Club', trainer: 'Coach Alex', start_time: inHours(30) });
    const power = makeScheduleClass({
      name: 'Power Hour',
      trainer: 'Coach Bea',
      start_time: inHours(24 * 21),
      is_premium: true,
      spots_left: 0,
      refusal: 'class_locked',
      bookable: false,
      unlocks_at: inHours(24 * 18),
    });
    const asked: Record<string, unknown>[] = [];
    server.use(
      memberHandler(member),
      scheduleHandler((args) => {
        asked.push(args);
        if (args.p_search === 'power') return [power];
        if (args.p_premium === true && args.p_search === 'club') return [];
        return [breakfast, power];
      }),
      scheduleSummaryHandler((args) => ({
        total_classes: args.p_search === 'power' ? 1 : 69,
        available_spots: 400,
        instructors: 2,
        all_instructors: ['Coach Alex', 'Coach Bea'],
      })),
    );
    const user = renderPage();
    const list = await screen.findByRole('list', { name: 'Available classes' });
    expect(within(list).getAllByRole('article')).toHaveLength(2);
    await waitFor(() => expect(tile('Total Classes')).toHaveTextContent('69'));
    expect(tile('Showing')).toHaveTextContent('2');
    expect(asked[0]).toMatchObject({ p_search: null, p_day: 'all', p_trainer: null, p_premium: null, p_offset: 0 });
    // What the server decided, in words: a locked premium class three weeks ahead.
    const card = screen.getByRole('article', { name: 'Power Hour' });
    expect(within(card).getByText(/^Opens in/)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Locked' })).toBeDisabled();

    await user.type(screen.getByRole('searchbox', { name: 'Search classes' }), 'power');
    await waitFor(() => expect(tile('Total Classes')).toHaveTextContent('1'));
    expect(within(screen.getByRole('list', { name: 'Available classes' })).getAllByRole('article')).toHaveLength(1);
    expect(asked.at(-1)).toMatchObject({ p_search: 'power' });

    await user.clear(screen.getByRole('searchbox', { name: 'Search classes' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search classes' }), 'club');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Premium');
    expect(await screen.findByText('No Classes Match Your Filters')).toBeInTheDocument();
    const bar = screen.getByRole('region', { name: 'Active filters' });
    expect(within(bar).getByText('Search: "club"')).toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Clear all' }));
    expect(screen.getByRole('searchbox', { name: 'Search classes' })).toHaveValue('');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Instructor' }), 'Coach Bea');
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ p_trainer: 'Coach Bea', p_search: null, p_premium: null }));
    // Typing is slow on a loaded machine; the assertions wait on what the screen says, not on time.
  }, 20_000);

  it('loads the next page of classes on Show more', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const page = (offset: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        makeScheduleClass({
          id: `00000000-0000-4000-8000-${String(offset + i).padStart(12, '0')}`,
          name: `Class ${offset + i}`,
          start_time: inHours(2 + offset + i),
        }),
      );
    server.use(
      memberHandler(member),
      scheduleHandler((args) => (args.p_offset === 0 ? page(0, 24) : page(24, 3))),
      scheduleSummaryHandler(() => ({ total_classes: 27, available_spots: 300, instructors: 1, all_instructors: ['Coach Alex'] })),
    );
    const user = renderPage();
    await screen.findByRole('article', { name: 'Class 23' });
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByRole('article', { name: 'Class 26' })).toBeInTheDocument();
    expect(tile('Showing')).toHaveTextContent('27');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  }, 20_000);

  it('says so when there is nothing in the booking window', async () => {
    const { member } = signInAs();
    server.use(
      memberHandler(member),
      scheduleHandler(() => []),
      scheduleSummaryHandler(() => ({ total_classes: 0, available_spots: 0, instructors: 0, all_instructors: [] })),
    );
    renderPage();
    expect(await screen.findByText('No classes available in your booking window.')).toBeInTheDocument();
  });

  it('books with one request on a double click and shows what the server decided afterwards', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    let booked = false;
    const cls = makeScheduleClass({ name: 'Breakfast Club', start_time: inHours(30), spots_left: 4 });
    const calls: Record<string, unknown>[] = [];
    server.use(
      memberHandler(member),
      scheduleHandler(() => [
        booked
          ? { ...cls, spots_left: 3, refusal: 'already_booked', bookable: false, my_booking_id: 'b-1', my_payment_status: 'completed' }
          : cls,
      ]),
      scheduleSummaryHandler(() => ({ total_classes: 1, available_spots: 4, instructors: 1, all_instructors: ['Coach Alex'] })),
      rpc('book_class', async ({ args }) => {
        calls.push(args);
        await new Promise((r) => setTimeout(r, 50));
        booked = true;
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
          spots_left: 3,
        };
      }),
    );
    const user = renderPage();
    const article = await screen.findByRole('article', { name: 'Breakfast Club' });
    await user.dblClick(within(article).getByRole('button', { name: 'Book Now' }));
    expect(await screen.findByText('Class booked successfully!')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: cls.id, p_booking_type: null }]);
    expect(await within(article).findByRole('button', { name: 'Booked' })).toBeDisabled();
    expect(within(article).getByText('3 spots left')).toBeInTheDocument();
    // One toast for one booking.
    expect(screen.getAllByRole('status').filter((el) => el.textContent?.includes('booked'))).toHaveLength(1);
  });

  it('books one class at a time: while one is booking, the other cards’ Book Now wait, then return', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const first = makeScheduleClass({ name: 'Breakfast Club', start_time: inHours(30), spots_left: 4 });
    const second = makeScheduleClass({ name: 'Power Hour', start_time: inHours(32), spots_left: 4 });
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const calls: unknown[] = [];
    server.use(
      memberHandler(member),
      scheduleHandler(() => [first, second]),
      scheduleSummaryHandler(() => ({ total_classes: 2, available_spots: 8, instructors: 1, all_instructors: ['Coach Alex'] })),
      rpc('book_class', async ({ args }) => {
        calls.push(args);
        await answered;
        return Response.json({ code: 'P0001', message: 'This class is full', hint: 'class_full', details: null }, { status: 400 });
      }),
    );
    const user = renderPage();
    const pressed = await screen.findByRole('article', { name: 'Breakfast Club' });
    const other = screen.getByRole('article', { name: 'Power Hour' });
    await user.click(within(pressed).getByRole('button', { name: 'Book Now' }));
    expect(await within(pressed).findByRole('button', { name: 'Booking...' })).toBeDisabled();
    await waitFor(() => expect(within(other).getByRole('button', { name: 'Book Now' })).toBeDisabled());
    answer();
    await waitFor(() => expect(within(other).getByRole('button', { name: 'Book Now' })).toBeEnabled());
    expect(calls).toHaveLength(1);
  });

  it('shows the refusal the server gave', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const cls = makeScheduleClass({ name: 'Breakfast Club', start_time: inHours(30) });
    server.use(
      memberHandler(member),
      scheduleHandler(() => [cls]),
      scheduleSummaryHandler(() => ({ total_classes: 1, available_spots: 12, instructors: 1, all_instructors: ['Coach Alex'] })),
      rpc('book_class', () =>
        Response.json(
          { code: '23505', message: 'You have already booked this class', hint: 'already_booked', details: null },
          { status: 409 },
        ),
      ),
    );
    const user = renderPage();
    const article = await screen.findByRole('article', { name: 'Breakfast Club' });
    await user.click(within(article).getByRole('button', { name: 'Book Now' }));
    expect(await screen.findByText("You've already booked this class.")).toBeInTheDocument();
  });

  it('takes a member who has not signed the documents to /agreements with a calm word why, not an error toast', async () => {
    const { member } = signInAs({ name: 'Tess Trial', membership_tier: 'trial' });
    const cls = makeScheduleClass({ name: 'Breakfast Club', start_time: inHours(30) });
    const why = 'Before your first class, please read and sign our terms and waiver and answer the health questions';
    server.use(
      memberHandler(member),
      ...documentsHandlers({ signed: false }),
      scheduleHandler(() => [cls]),
      scheduleSummaryHandler(() => ({ total_classes: 1, available_spots: 12, instructors: 1, all_instructors: ['Coach Alex'] })),
      rpc('book_class', () => postgrestError({ code: 'P0001', message: why, hint: 'documents_required' })),
    );
    const errorToast = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    const { router } = renderApp('/my-schedule', {
      routes: [
        { path: '/my-schedule', element: <MyScheduleRoute /> },
        { path: '/agreements', element: <AgreementsRoute /> },
      ],
    });
    const article = await screen.findByRole('article', { name: 'Breakfast Club' });
    await user.click(within(article).getByRole('button', { name: 'Book Now' }));

    expect(await screen.findByRole('heading', { name: 'Before you train', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/agreements?next=%2Fmy-schedule');
    expect(screen.getByRole('status', { name: 'Why you are here' })).toHaveTextContent(
      `${why}. You are not booked yet: once you have signed, you go straight back to book.`,
    );
    expect(errorToast).not.toHaveBeenCalled();
    errorToast.mockRestore();
  });

  it('revisited within the stale time, shows the cached classes and tiles without a request', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const reads = { schedule: 0, summary: 0 };
    server.use(
      memberHandler(member),
      scheduleHandler(() => {
        reads.schedule += 1;
        return [makeScheduleClass({ name: 'Breakfast Club', start_time: inHours(30) })];
      }),
      scheduleSummaryHandler(() => {
        reads.summary += 1;
        return { total_classes: 1, available_spots: 12, instructors: 1, all_instructors: ['Coach Alex'] };
      }),
    );
    const queryClient = createTestQueryClient();
    const routes = [
      { path: '/my-schedule', element: <MyScheduleRoute /> },
      { path: '/elsewhere', element: <p>Elsewhere</p> },
    ];
    const view = renderApp('/my-schedule', { routes, queryClient });
    await screen.findByRole('article', { name: 'Breakfast Club' });
    await waitFor(() => expect(tile('Total Classes')).toHaveTextContent('1'));
    expect(reads).toEqual({ schedule: 1, summary: 1 });
    await act(() => view.router.navigate('/elsewhere'));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    await act(() => view.router.navigate('/my-schedule'));
    expect(await screen.findByRole('article', { name: 'Breakfast Club' })).toBeInTheDocument();
    expect(tile('Total Classes')).toHaveTextContent('1');
    await new Promise((r) => setTimeout(r, 400));
    expect(reads).toEqual({ schedule: 1, summary: 1 });
  });
});

describe('/my-schedule payment notes', () => {
  it('says what Book Now will cost before it is pressed: past the allowance, and for pay-as-you-go', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const over = makeScheduleClass({
      name: 'Over Allowance',
      start_time: inHours(30),
      price_payg: 10,
      needs_payment: true,
      booking_type: 'payg',
      paid_refusal: 'allowance_used',
    });
    const free = makeScheduleClass({ name: 'On The Plan', start_time: inHours(32), price_payg: 10 });
    const payg = makeScheduleClass({
      name: 'Pay Per Class',
      start_time: inHours(34),
      price_payg: 8,
      needs_payment: true,
      booking_type: 'payg',
    });
    server.use(
      memberHandler(member),
      scheduleHandler(() => [over, free, payg]),
      scheduleSummaryHandler(() => ({ total_classes: 3, available_spots: 30, instructors: 1, all_instructors: ['Coach'] })),
      rpc('my_plan_usage', () => ({
        month_start: '2025-11-01T00:00:00Z',
        allowance: 12,
        used: 12,
        remaining: 0,
        bookings: 12,
        late_cancellations: 0,
      })),
    );
    renderPage();
    const card = async (name: string) => screen.findByRole('article', { name });
    expect(
      await within(await card('Over Allowance')).findByText("You've used your 12 classes this month: this one is £10.00."),
    ).toBeInTheDocument();
    expect(within(await card('Pay Per Class')).getByText('This class is £8.00, paid by card at checkout.')).toBeInTheDocument();
    expect(within(await card('On The Plan')).queryByText(/£/)).not.toBeInTheDocument();
  });

  it("says a member's balance pays first (decision 0101)", async () => {
    const { member } = signInAs({ membership_tier: 'payg' });
    const payg = makeScheduleClass({
      name: 'Pay Per Class',
      start_time: inHours(34),
      price_payg: 8,
      needs_payment: true,
      booking_type: 'payg',
    });
    server.use(
      memberHandler(member),
      scheduleHandler(() => [payg]),
      scheduleSummaryHandler(() => ({ total_classes: 1, available_spots: 10, instructors: 1, all_instructors: ['Coach'] })),
      rpc('my_plan_usage', () => ({
        month_start: '2025-11-01T00:00:00Z',
        allowance: null,
        used: 0,
        remaining: null,
        bookings: 0,
        late_cancellations: 0,
      })),
      rpc('my_balance', () => 5),
    );
    renderPage();
    const card = await screen.findByRole('article', { name: 'Pay Per Class' });
    expect(
      await within(card).findByText('This class is £8.00, paid by card at checkout. Your balance (£5.00) pays first.'),
    ).toBeInTheDocument();
  });

  it('says a class credit can book a class that would be paid for (decision 0102)', async () => {
    const { member } = signInAs({ membership_tier: 'payg', has_used_trial: true });
    const paid = makeScheduleClass({
      name: 'Paid Spin',
      start_time: inHours(30),
      price_payg: 9,
      needs_payment: true,
      booking_type: 'payg',
    });
    const asked: unknown[] = [];
    server.use(
      memberHandler(member),
      scheduleHandler(() => [paid]),
      scheduleSummaryHandler(() => ({ total_classes: 1, available_spots: 10, instructors: 1, all_instructors: ['Coach'] })),
      rpc('my_plan_usage', () => ({
        month_start: '2025-11-01T00:00:00Z',
        allowance: null,
        used: 0,
        remaining: null,
        bookings: 0,
        late_cancellations: 0,
      })),
      rpc(
        'my_credit_for_class',
        ({ args }) => (asked.push(args), { credit_id: 'c-1', expires_at: '2027-01-03T12:00:00Z', refusal: null, message: null }),
      ),
    );
    renderPage();
    const spin = await screen.findByRole('article', { name: 'Paid Spin' });
    expect(
      await within(spin).findByText('You have a class credit: choose “Use a class credit” after Book Now and this class is free.'),
    ).toBeInTheDocument();
    expect(within(spin).queryByText(/paid by card/)).not.toBeInTheDocument();
    expect(asked).toEqual([{ p_class_id: paid.id }]);
  });
});
