import '@/testing/match-media-polyfill';
import ICAL from 'ical.js';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { makeClass, memberHandler, postgrestError, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import { myBookingRow, myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';
// Load the screen (and @date-fns/tz, whose TZDate extends Date) before any test fakes Date.
import './my-bookings';

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));

configure({ asyncUtilTimeout: 5000 });

const START = new Date('2025-11-12T18:00:00Z');
const HOUR = 3_600_000;
const cls = makeClass({
  id: 'c-eve',
  name: 'Evening Strength',
  trainer: 'Coach Alex',
  start_time: START.toISOString(),
  duration: 45,
  late_cancel_window: '12:00:00',
  min_age: null,
  max_age: null,
});
const full = makeClass({ id: 'c-full', name: 'Kids Club', trainer: 'Coach Sam', start_time: '2025-11-17T16:45:00Z', spots_left: 0 });

/** The server states when cancelling starts to count: 12 hours before this class. */
const bookingRow = (extra: Record<string, unknown> = {}) => myBookingRow('b-eve', cls, extra);

function setup({ rows = [bookingRow()], waitlist = [] as unknown[] } = {}) {
  const { member } = signInAs({ membership_tier: 'standard' });
  server.use(
    memberHandler(member),
    myBookingsHandler(() => rows),
    ...myBookingsExtrasHandlers(),
    rpc('my_waitlist', () => waitlist as never),
    restGet('classes', ({ url }) => {
      const ids = url.searchParams.get('id') ?? '';
      return [cls, full].filter((c) => ids.includes(c.id));
    }),
  );
  return { member };
}

/** jsdom's Blob has no text(): read it as a browser's FileReader would. */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(new Error('could not read the blob'));
    reader.readAsText(blob);
  });
}

/** Fakes only Date, at `at`. */
function at(time: Date) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(time);
}

const WARNING = 'This class starts within 12 hours: cancelling now still counts against your plan.';

describe('My Bookings: late cancels, waitlists and calendar files', () => {
  afterEach(() => {
    act(() => toast.remove());
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('warns on the row and in the confirmation at exactly 12 hours before the class', async () => {
    at(new Date(START.getTime() - 12 * HOUR));
    setup();
    server.use(rpc('cancel_booking', () => ({ booking_id: 'b-eve', class_id: cls.id, spots_left: 5, late: true })));
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderApp('/mybookings');

    const row = (await screen.findByRole('button', { name: /Cancel Evening Strength/ })).closest('li')!;
    expect(within(row).getByText(WARNING)).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: /Cancel Evening Strength/ }));
    expect(confirm).toHaveBeenCalledWith(`${WARNING}\n\nAre you sure you want to cancel this booking?`);
  });

  it('says nothing of a late cancel a minute before the window opens', async () => {
    at(new Date(START.getTime() - 12 * HOUR - 60_000));
    setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderApp('/mybookings');

    const button = await screen.findByRole('button', { name: /Cancel Evening Strength/ });
    expect(screen.queryByText(WARNING)).not.toBeInTheDocument();
    await userEvent.click(button);
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to cancel this booking?');
  });

  it('tells a pay-as-you-go member cancelling in time that the card payment comes back', async () => {
    at(new Date(START.getTime() - 12 * HOUR - 60_000));
    setup({ rows: [bookingRow({ type: 'payg', payment_status: 'completed' })] });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderApp('/mybookings');
    await userEvent.click(await screen.findByRole('button', { name: /Cancel Evening Strength/ }));
    expect(confirm).toHaveBeenCalledWith(
      'Cancelling now is free: if you paid by card for this class, the payment is refunded to your card.\n\nAre you sure you want to cancel this booking?',
    );
  });

  it('lists the waitlists with their position and leaves one through leave_waitlist', async () => {
    at(new Date('2025-11-10T10:00:00Z'));
    const waitlist = [
      {
        class_id: full.id,
        position: 2,
        waitlist_size: 3,
        joined_at: '2025-11-09T10:00:00Z',
        closes_at: '2025-11-17T14:45:00Z',
        is_closed: false,
      },
    ];
    setup({ waitlist });
    const calls: unknown[] = [];
    server.use(
      rpc('leave_waitlist', ({ args }) => {
        calls.push(args);
        waitlist.length = 0; // the server's list, read again after the change
        return { class_id: full.id, left: true };
      }),
    );
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/mybookings');

    const section = (await screen.findByRole('heading', { name: 'Your Waitlists' })).closest('section')!;
    const item = within(section).getByRole('listitem');
    expect(item).toHaveTextContent('Kids Club');
    expect(item).toHaveTextContent('Position 2 of 3');
    expect(item).toHaveTextContent('Mon 17 Nov at 4:45 PM');

    await userEvent.click(within(item).getByRole('button', { name: /Leave waitlist: Kids Club/ }));
    expect(await screen.findByText('You left the waitlist')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: full.id }]);
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Your Waitlists' })).not.toBeInTheDocument());
  });

  it('keeps the waitlist row when leaving fails for another reason', async () => {
    at(new Date('2025-11-10T10:00:00Z'));
    setup({
      waitlist: [
        {
          class_id: full.id,
          position: 1,
          waitlist_size: 1,
          joined_at: '2025-11-09T10:00:00Z',
          closes_at: '2025-11-17T14:45:00Z',
          is_closed: false,
        },
      ],
    });
    server.use(rpc('leave_waitlist', () => postgrestError({ code: 'XX000', message: 'boom' }, 500)));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/mybookings');

    await userEvent.click(await screen.findByRole('button', { name: /Leave waitlist: Kids Club/ }));
    expect(await screen.findByText('Could not leave the waitlist. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your Waitlists' })).toBeInTheDocument();
  });

  it('downloads an .ics for a booking that a calendar parser reads back', async () => {
    at(new Date('2025-11-10T10:00:00Z'));
    setup();
    const blobs: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: (blob: Blob) => (blobs.push(blob), 'blob:test/1') });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    renderApp('/mybookings');

    await userEvent.click(await screen.findByRole('button', { name: /Add to calendar: Evening Strength/ }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(clicks[0]!.download).toBe('evening-strength-2025-11-12.ics');
    expect(clicks[0]!.href).toBe('blob:test/1');
    expect(blobs[0]!.type).toBe('text/calendar; charset=utf-8');

    const calendar = new ICAL.Component(ICAL.parse(await readBlob(blobs[0]!)));
    ICAL.TimezoneService.reset();
    ICAL.TimezoneService.register(calendar.getFirstSubcomponent('vtimezone')!);
    const [event] = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(event!.uid).toBe('booking-b-eve@finerfitness.example');
    expect(event!.summary).toBe('Evening Strength (Finer Fitness)');
    expect(event!.location).toBe('Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom');
    expect(event!.startDate.toJSDate().toISOString()).toBe(START.toISOString());
    expect(event!.endDate.toJSDate().toISOString()).toBe(new Date(START.getTime() + 45 * 60_000).toISOString());
    expect(event!.description).toContain(`${window.location.origin}/mybookings`);
  });
});
