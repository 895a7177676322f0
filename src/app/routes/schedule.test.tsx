import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDayHeading } from '@/lib/studio-time';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeScheduleClass, scheduleHandler } from '@/testing/schedule-mocks';
import { memberHandler, rpc, signInAs } from '@/testing/supabase-mocks';
import { announceClassChange, liveSubscribers } from '@/features/booking/testing/live-changes';
import { ScheduleRoute } from './schedule';

// Live updates: msw accepts the realtime socket in jsdom, but phoenix never sees it open, so the
// subscription module is observed here and the server's UPDATE is delivered through it.
vi.mock(
  '@/features/booking/api/subscribe-live-changes',
  async () => (await import('@/features/booking/testing/live-changes')).liveChangesModule,
);

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const renderSchedule = () => renderApp('/schedule', { routes: [{ path: '/schedule', element: <ScheduleRoute /> }] });
const card = (name: string) => screen.getByRole('article', { name });

// Waitlist places come with the schedule's facts: my_waitlist is never read for a schedule.
const waitlistReads = { count: 0 };
beforeEach(() => {
  waitlistReads.count = 0;
  server.use(
    rpc('my_waitlist', () => {
      waitlistReads.count += 1;
      return [];
    }),
  );
});

describe('/schedule', () => {
  it("asks guests to sign in to book and shows the server's locks and spots in words", async () => {
    server.use(
      scheduleHandler(() => [
        makeScheduleClass({ name: 'Breakfast Club', start_time: inDays(1), spots_left: 3, refusal: 'not_authenticated', bookable: false }),
        makeScheduleClass({
          name: 'Premium Strength',
          start_time: inDays(6),
          is_premium: true,
          refusal: 'class_locked',
          bookable: false,
          unlocks_at: inDays(3),
        }),
        makeScheduleClass({ name: 'Full Class', start_time: inDays(2), spots_left: 0, refusal: 'class_full', bookable: false }),
      ]),
    );
    renderSchedule();
    expect(screen.getByRole('heading', { name: 'Class Schedule' })).toBeInTheDocument();
    const breakfast = await screen.findByRole('article', { name: 'Breakfast Club' });
    expect(within(breakfast).getByText('3 spots left')).toHaveClass('bg-yellow-50');
    expect(within(breakfast).getByText('Example Community Hall')).toBeInTheDocument();
    expect(within(breakfast).getByText('Free cancellation up to 12 hours before the start.')).toBeInTheDocument();
    const classId = breakfast.getAttribute('aria-labelledby')!.replace('class-', '');
    expect(within(breakfast).getByRole('link', { name: 'Sign in to book' })).toHaveAttribute(
      'href',
      `/signin?redirect=${encodeURIComponent(`/book?classId=${classId}`)}`,
    );
    expect(within(card('Premium Strength')).getByText(/^Opens in 2d 23h|^Opens in 3d 0h/)).toBeInTheDocument();
    expect(within(card('Full Class')).getByRole('button', { name: 'Fully Booked' })).toBeDisabled();
    expect(within(card('Full Class')).queryByRole('button', { name: 'Join Waitlist' })).not.toBeInTheDocument();
    expect(waitlistReads.count).toBe(0);
  });

  it('shows each member what the server decided for them: locked for standard, open for trial', async () => {
    const premiumClass = makeScheduleClass({ name: 'Premium Strength', start_time: inDays(6), is_premium: true });
    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(member),
      scheduleHandler(() => [{ ...premiumClass, refusal: 'class_locked', bookable: false, unlocks_at: inDays(3) }]),
    );
    const first = renderSchedule();
    const locked = await screen.findByRole('article', { name: 'Premium Strength' });
    expect(within(locked).getByRole('button', { name: 'Locked' })).toBeDisabled();
    expect(within(locked).getByText(/^Opens in/)).toBeInTheDocument();
    first.unmount();

    const trial = signInAs({ membership_tier: 'trial' });
    server.use(
      memberHandler(trial.member),
      scheduleHandler(() => [{ ...premiumClass, booking_type: 'trial' }]),
    );
    renderSchedule();
    const open = await screen.findByRole('article', { name: 'Premium Strength' });
    expect(within(open).getByRole('link', { name: 'Book Now' })).toHaveAttribute('href', `/book?classId=${premiumClass.id}`);
    expect(within(open).queryByText(/^Opens in/)).not.toBeInTheDocument();
  });

  it('says Booked and Payment pending for what the member holds', async () => {
    const { member } = signInAs({ membership_tier: 'payg', has_used_trial: true });
    server.use(
      memberHandler(member),
      scheduleHandler(() => [
        makeScheduleClass({
          name: 'Held',
          start_time: inDays(1),
          refusal: 'already_booked',
          bookable: false,
          my_booking_id: 'b-1',
          my_payment_status: 'pending',
        }),
        makeScheduleClass({
          name: 'Mine',
          start_time: inDays(2),
          refusal: 'already_booked',
          bookable: false,
          my_booking_id: 'b-2',
          my_payment_status: 'completed',
        }),
      ]),
    );
    renderSchedule();
    expect(within(await screen.findByRole('article', { name: 'Held' })).getByRole('button', { name: 'Payment pending' })).toBeDisabled();
    expect(within(card('Mine')).getByRole('button', { name: 'Booked' })).toBeDisabled();
    // Waitlist places come with the facts: my_waitlist is not read for a schedule.
    expect(waitlistReads.count).toBe(0);
  });

  it("does not open a realtime connection for a visitor (supabase-js's realtime is not loaded for guests)", async () => {
    server.use(scheduleHandler(() => [makeScheduleClass({ name: 'Breakfast Club', start_time: inDays(1) })]));
    renderSchedule();
    await screen.findByRole('article', { name: 'Breakfast Club' });
    expect(liveSubscribers.size).toBe(0);
  });

  it("reads a member's facts again when a class changes live, and unsubscribes when the page closes", async () => {
    let spots = 5;
    const cls = makeScheduleClass({ name: 'Breakfast Club', start_time: inDays(1) });
    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(member),
      rpc('my_waitlist', () => [] as never),
      scheduleHandler(() => [{ ...cls, spots_left: spots, ...(spots === 0 ? { refusal: 'class_full', bookable: false } : {}) }]),
    );
    const view = renderSchedule();
    const article = await screen.findByRole('article', { name: 'Breakfast Club' });
    expect(within(article).getByText('5 spots left')).toBeInTheDocument();
    expect(liveSubscribers.size).toBe(1);
    spots = 0;
    act(() => announceClassChange({ id: cls.id, name: cls.name }));
    expect(await within(article).findByRole('button', { name: 'Fully Booked' }, { timeout: 3000 })).toBeDisabled();
    view.unmount();
    expect(liveSubscribers.size).toBe(0);
  });

  it('groups a page of classes under day headings, with Show more for the next page', async () => {
    const timetable = Array.from({ length: 30 }, (_, i) =>
      makeScheduleClass({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        name: `Class ${i}`,
        start_time: inDays(1 + i / 4),
      }),
    );
    server.use(scheduleHandler((args) => timetable.slice(args.p_offset as number, (args.p_offset as number) + (args.p_limit as number))));
    const user = userEvent.setup();
    renderSchedule();
    await screen.findByRole('article', { name: 'Class 0' });
    expect(screen.getAllByRole('article')).toHaveLength(24);
    expect(screen.getAllByRole('heading', { level: 2 })[0]).toHaveTextContent(formatDayHeading(inDays(1)));
    expect(within(card('Class 0')).getByRole('heading', { level: 3 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await screen.findByRole('article', { name: 'Class 29' });
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('says when classes failed to load', async () => {
    server.use(scheduleHandler(() => Response.json({ code: 'XX000', message: 'down' }, { status: 500 })));
    renderSchedule();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load classes');
  });
});
