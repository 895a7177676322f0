import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler, scheduleSummaryHandler } from '@/testing/schedule-mocks';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import type { ScheduleClass } from '@/features/booking/api/get-class-schedule';
import { announceClassChange, announceMyBooking } from '@/features/booking/testing/live-changes';
import { MyScheduleRoute } from './my-schedule';
import { MyClassesRoute } from './my-classes';
import { ScheduleRoute } from './schedule';

// Live updates: the subscription module is observed and the server's UPDATEs delivered through it
// (as in schedule-page.test.tsx).
vi.mock(
  '@/features/booking/api/subscribe-live-changes',
  async () => (await import('@/features/booking/testing/live-changes')).liveChangesModule,
);
/** The class's spots change on the server, and realtime says so. */
const notify = (row: { id: string; name: string; spots_left: number }) => {
  spotsNow.set(row.id, row.spots_left);
  act(() => announceClassChange({ id: row.id, name: row.name }));
};

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

const PAGES = {
  '/my-schedule': <MyScheduleRoute />,
  '/my-classes': <MyClassesRoute />,
  '/schedule': <ScheduleRoute />,
} as const;

function renderPage(path: keyof typeof PAGES = '/my-schedule') {
  const user = userEvent.setup();
  renderApp(path, { routes: [{ path, element: PAGES[path] }] });
  return user;
}

const full = makeScheduleClass({ name: 'Spin Full', start_time: inHours(30), capacity: 8, spots_left: 0 });
const spot = (position: number, size: number) => ({ class_id: full.id, position, waitlist_size: size, closes_at: inHours(28) });

/** What the server holds for the member (their place in line, their bookings); handlers answer from it and count the reads. */
let waiting: { position: number; size: number } | null = null;
let booked: { id: string; class_id: string }[] = [];
let timetable: ScheduleClass[] = [];
let spotsNow = new Map<string, number>();
let reads: { my_waitlist: number; schedule: number };

/** The facts the server states for the member: spots now, what they hold, their place in the full class's line. */
function facts(cls: ScheduleClass): ScheduleClass {
  const spots = spotsNow.get(cls.id) ?? cls.spots_left;
  const mine = booked.find((b) => b.class_id === cls.id);
  if (mine)
    return {
      ...cls,
      spots_left: spots,
      refusal: 'already_booked',
      bookable: false,
      my_booking_id: mine.id,
      my_payment_status: 'completed',
      can_join_waitlist: false,
      waitlist_refusal: 'already_booked',
    };
  const place = cls.id === full.id ? waiting : null;
  // A member the server would not let wait (pay-as-you-go) keeps that refusal.
  const waitlist =
    cls.waitlist_refusal === 'waitlist_payment_required'
      ? { can_join_waitlist: false, waitlist_refusal: cls.waitlist_refusal }
      : spots > 0
        ? { can_join_waitlist: false, waitlist_refusal: 'class_not_full' }
        : place
          ? { can_join_waitlist: false, waitlist_refusal: 'already_waitlisted' }
          : { can_join_waitlist: true, waitlist_refusal: null };
  return {
    ...cls,
    spots_left: spots,
    refusal: spots > 0 ? null : 'class_full',
    bookable: spots > 0,
    my_waitlist_position: place?.position ?? null,
    waitlist_size: place?.size ?? cls.waitlist_size,
    ...waitlist,
  };
}

beforeEach(() => {
  waiting = null;
  booked = [];
  timetable = [full];
  spotsNow = new Map();
  reads = { my_waitlist: 0, schedule: 0 };
  const { member } = signInAs({ membership_tier: 'standard' });
  server.use(
    memberHandler(member),
    scheduleHandler((args) => {
      reads.schedule += 1;
      const rows = args.p_class_id ? timetable.filter((c) => c.id === args.p_class_id) : timetable;
      return rows.map(facts);
    }),
    scheduleSummaryHandler(() => ({
      total_classes: timetable.length,
      available_spots: 0,
      instructors: 1,
      all_instructors: ['Coach Alex'],
    })),
    rpc('my_waitlist', () => {
      reads.my_waitlist += 1;
      return [];
    }),
    rpc('join_waitlist', () => {
      waiting = { position: 1, size: 1 };
      return spot(1, 1);
    }),
  );
});
afterEach(() => {
  act(() => toast.remove());
  vi.restoreAllMocks();
});

async function fullCard() {
  return screen.findByRole('article', { name: 'Spin Full' });
}

describe('waitlist on Book a Class (/my-schedule)', () => {
  it('joins a full class with one request on a double click and shows the place', async () => {
    const calls: Record<string, unknown>[] = [];
    server.use(
      rpc('join_waitlist', async ({ args }) => {
        calls.push(args);
        await new Promise((r) => setTimeout(r, 50));
        waiting = { position: 2, size: 2 };
        return spot(2, 2);
      }),
    );
    const user = renderPage();
    const card = await fullCard();
    const join = await within(card).findByRole('button', { name: 'Join Waitlist' });
    expect(within(card).getByText('Fully Booked')).toBeInTheDocument();
    await user.dblClick(join);
    expect(await within(card).findByText('On waitlist: #2 of 2')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: full.id }]);
    expect(await screen.findByText("You're on the waitlist: #2. We'll email you if a spot opens.")).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Leave Waitlist: Spin Full' })).toBeEnabled();
    // "Fully Booked" stays in words next to the place; the place came with the refreshed facts.
    expect(within(card).getByText('Fully Booked')).toBeInTheDocument();
    expect(reads).toEqual({ my_waitlist: 0, schedule: 2 });
  });

  it.each([
    ['waitlist_payment_required', 'P0001', 'Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.'],
    ['waitlist_closed', 'P0001', 'The waitlist for this class has closed'],
    ['already_waitlisted', '23505', 'You are already on the waitlist for this class'],
  ])("shows the server's refusal (%s) as it is and changes nothing", async (hint, code, message) => {
    const calls: unknown[] = [];
    server.use(
      rpc('join_waitlist', ({ args }) => {
        calls.push(args);
        return postgrestError({ code, message, hint });
      }),
    );
    const user = renderPage();
    const card = await fullCard();
    await user.click(await within(card).findByRole('button', { name: 'Join Waitlist' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Join Waitlist' })).toBeEnabled());
    expect(within(card).queryByText(/On waitlist/)).not.toBeInTheDocument();
    expect(within(card).getByText('Fully Booked')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(reads.my_waitlist).toBe(0);
  });

  it('shows the place the server states and leaves after the confirmation', async () => {
    waiting = { position: 1, size: 3 };
    const left: Record<string, unknown>[] = [];
    server.use(
      rpc('leave_waitlist', ({ args }) => {
        left.push(args);
        waiting = null;
        return { class_id: full.id, left: true };
      }),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const user = renderPage();
    const card = await fullCard();
    expect(await within(card).findByText('On waitlist: #1 of 3')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Leave Waitlist: Spin Full' }));
    expect(left).toEqual([]);
    await user.click(within(card).getByRole('button', { name: 'Leave Waitlist: Spin Full' }));
    expect(await screen.findByText('You left the waitlist')).toBeInTheDocument();
    expect(left).toEqual([{ p_class_id: full.id }]);
    expect(await within(card).findByRole('button', { name: 'Join Waitlist' })).toBeInTheDocument();
    expect(within(card).queryByText(/On waitlist/)).not.toBeInTheDocument();
    expect(confirm).toHaveBeenCalledWith('Leave the waitlist for this class? You will lose your place.');
  });

  it('says why the waitlist is not offered when the server would refuse the join (pay-as-you-go)', async () => {
    timetable = [{ ...full, can_join_waitlist: false, waitlist_refusal: 'waitlist_payment_required' }];
    const calls: unknown[] = [];
    server.use(rpc('join_waitlist', ({ args }) => (calls.push(args), spot(1, 1))));
    renderPage();
    const card = await fullCard();
    expect(
      await within(card).findByText('Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.'),
    ).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Fully Booked' })).toBeDisabled();
    expect(within(card).queryByRole('button', { name: 'Join Waitlist' })).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('says the waitlist has closed inside the cut-off instead of offering it', async () => {
    timetable = [makeScheduleClass({ name: 'Spin Soon', start_time: inHours(1), spots_left: 0, waitlist_closes_at: inHours(-1) })];
    renderPage();
    const card = await screen.findByRole('article', { name: 'Spin Soon' });
    expect(await within(card).findByRole('button', { name: 'Fully Booked · Waitlist closed' })).toBeDisabled();
    expect(within(card).getByText('Free cancellation up to 12 hours before the start.')).toBeInTheDocument();
  });

  it('offers no waitlist on a full class the member already holds', async () => {
    booked = [{ id: 'booking-1', class_id: full.id }];
    renderPage();
    const card = await fullCard();
    expect(await within(card).findByRole('button', { name: 'Booked' })).toBeDisabled();
    expect(within(card).queryByRole('button', { name: 'Join Waitlist' })).not.toBeInTheDocument();
  });

  it('moves the place up and turns it into a booking as realtime reports the changes', async () => {
    waiting = { position: 2, size: 2 };
    renderPage();
    const card = await fullCard();
    expect(await within(card).findByText('On waitlist: #2 of 2')).toBeInTheDocument();

    // The member ahead was promoted: the row moves twice in one transaction, the facts are read once.
    waiting = { position: 1, size: 1 };
    notify({ ...full, spots_left: 1 });
    notify({ ...full, spots_left: 0 });
    expect(await within(card).findByText('On waitlist: #1 of 1')).toBeInTheDocument();

    // Now this member is promoted: their new booking arrives (and the class row moves).
    waiting = null;
    booked = [{ id: 'booking-9', class_id: full.id }];
    act(() => announceMyBooking({ class_id: full.id }));
    notify({ ...full, spots_left: 0 });
    expect(await screen.findByText("A spot opened: you're booked on Spin Full.")).toBeInTheDocument();
    expect(await within(card).findByRole('button', { name: 'Booked' })).toBeDisabled();
    expect(within(card).queryByText(/On waitlist/)).not.toBeInTheDocument();
    // One read of the schedule per live burst, none of my_waitlist.
    expect(reads).toEqual({ my_waitlist: 0, schedule: 3 });
  });

  it('brings Book Now back when realtime shows a spot freed, and reads nothing for classes not waited on', async () => {
    renderPage();
    const card = await fullCard();
    await within(card).findByRole('button', { name: 'Join Waitlist' });
    notify({ ...full, spots_left: 1 });
    expect(await within(card).findByRole('button', { name: 'Book Now' })).toBeEnabled();
    expect(within(card).getByText('1 spot left')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 400));
    expect(reads).toEqual({ my_waitlist: 0, schedule: 2 });
  });

  it('says the member was booked when Leave finds the place already turned into a booking', async () => {
    waiting = { position: 1, size: 1 };
    server.use(
      rpc('leave_waitlist', () => {
        waiting = null;
        booked = [{ id: 'booking-9', class_id: full.id }];
        return postgrestError({ code: 'P0002', message: 'You are not on the waitlist for this class', hint: 'not_on_waitlist' }, 404);
      }),
    );
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = renderPage();
    const card = await fullCard();
    await user.click(await within(card).findByRole('button', { name: 'Leave Waitlist: Spin Full' }));
    expect(await screen.findByText("A spot opened: you're booked on Spin Full.")).toBeInTheDocument();
    expect(await within(card).findByRole('button', { name: 'Booked' })).toBeDisabled();
  });
});

describe('waitlist on the other schedules', () => {
  it('/schedule: a signed-in member joins from the public timetable', async () => {
    const open = makeScheduleClass({ name: 'Spin Open', start_time: inHours(40), spots_left: 3 });
    timetable = [full, open];
    const user = renderPage('/schedule');
    const card = await fullCard();
    await user.click(await within(card).findByRole('button', { name: 'Join Waitlist' }));
    expect(await within(card).findByText('On waitlist: #1 of 1')).toBeInTheDocument();
    expect(within(card).getByText('Fully Booked')).toBeInTheDocument();
    // A class with spots still goes through the booking form.
    expect(within(screen.getByRole('article', { name: 'Spin Open' })).getByRole('link', { name: 'Book Now' })).toHaveAttribute(
      'href',
      `/book?classId=${open.id}`,
    );
    expect(reads.my_waitlist).toBe(0);
  });

  it('/schedule: a class the member holds says Booked', async () => {
    booked = [{ id: 'booking-1', class_id: full.id }];
    renderPage('/schedule');
    const card = await fullCard();
    expect(await within(card).findByRole('button', { name: 'Booked' })).toBeDisabled();
    expect(within(card).queryByRole('button', { name: 'Join Waitlist' })).not.toBeInTheDocument();
  });

  it('/my-classes: joins and shows the place', async () => {
    const user = renderPage('/my-classes');
    const card = await fullCard();
    await user.click(await within(card).findByRole('button', { name: 'Join Waitlist' }));
    expect(await within(card).findByText('On waitlist: #1 of 1')).toBeInTheDocument();
    expect(reads.my_waitlist).toBe(0);
  });
});
