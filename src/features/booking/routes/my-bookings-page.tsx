import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { useNow } from '@/hooks/use-now';
import { useAuth } from '@/lib/auth/auth-context';
import { cancelBooking } from '../api/cancel-booking';
import { BOOKING_MESSAGES, cancelErrorMessage } from '../api/booking-messages';
import { COUNTDOWN_REFRESH_MS } from '@/lib/rules/countdown';
import { isLateCancel, lateCancelWarning } from '@/lib/rules/late-cancel';
import { useMyBookings, type MyBooking } from '../api/get-my-bookings';
import { useMyWaitlist, type MyWaitlistEntry } from '../api/get-my-waitlist';
import { leaveWaitlist } from '../api/waitlist';
import { BookingList } from '../components/booking-list';
import { NextClassCard } from '../components/next-class-card';
import { WaitlistList } from '../components/waitlist-list';
import { BOOKING_TAB_LABELS, BOOKING_TABS, splitBookings, type BookingTab } from '../lib/booking-tabs';
import { MY_BOOKINGS_MESSAGES } from '../lib/my-bookings-messages';

const NO_BOOKINGS: MyBooking[] = [];

const EMPTY_TEXT: Record<BookingTab, string> = {
  upcoming: 'No upcoming bookings.',
  past: 'No past bookings.',
  cancelled: 'No cancelled bookings.',
};

/** /mybookings and /bookings (spec section 2). */
export function MyBookingsPage() {
  const { member, memberLoading } = useAuth();
  const memberId = member?.id ?? null;
  const { state, markCancelled } = useMyBookings(memberId);
  const bookings = state.status === 'ready' ? state.data : NO_BOOKINGS;
  const [tab, setTab] = useState<BookingTab>('upcoming');
  const [cancellingId, setCancellingId] = useState<string | null>(null);
  const waitlist = useMyWaitlist(memberId);
  const [leavingId, setLeavingId] = useState<string | null>(null);
  // The late-cancel warning appears by itself once a class enters its window.
  const now = useNow(COUNTDOWN_REFRESH_MS);

  // A signed-in user without a member row cannot have bookings to show: same message as a failed load.
  const failed = state.status === 'error' || (!memberLoading && !memberId);
  const loading = !failed && (memberLoading || state.status === 'loading');

  useEffect(() => {
    if (failed) toast.error(MY_BOOKINGS_MESSAGES.loadFailed, { id: 'my-bookings-load' });
  }, [failed]);

  // Tabs split as of when the list arrived; the Next Class countdown itself ticks every minute.
  const tabs = useMemo(() => splitBookings(bookings, new Date()), [bookings]);
  const next = tabs.upcoming[0];

  async function cancel(booking: MyBooking) {
    // Inside the class's window the member is told first that the class still counts (issue 9).
    const question = isLateCancel(booking, new Date())
      ? `${lateCancelWarning(booking.lateCancelWindow)}\n\n${MY_BOOKINGS_MESSAGES.confirmCancel}`
      : MY_BOOKINGS_MESSAGES.confirmCancel;
    if (!window.confirm(question)) return;
    setCancellingId(booking.id);
    const outcome = await cancelBooking(booking.id);
    setCancellingId(null);
    if (!outcome.ok) {
      toast.error(cancelErrorMessage(outcome.error));
      return;
    }
    markCancelled(booking.id);
    toast.success(BOOKING_MESSAGES.cancelled);
  }

  async function leave(entry: MyWaitlistEntry) {
    if (!window.confirm(MY_BOOKINGS_MESSAGES.confirmLeaveWaitlist)) return;
    setLeavingId(entry.classId);
    const outcome = await leaveWaitlist(entry.classId);
    setLeavingId(null);
    if (!outcome.ok) {
      // Already off the list (promoted, or left in another tab): say so and drop the row.
      if (outcome.error.hint === 'not_on_waitlist') {
        waitlist.remove(entry.classId);
        toast.error(outcome.error.message);
      } else toast.error(MY_BOOKINGS_MESSAGES.leaveWaitlistFailed);
      return;
    }
    waitlist.remove(entry.classId);
    toast.success(MY_BOOKINGS_MESSAGES.leftWaitlist);
  }

  return (
    <section className="mx-auto max-w-4xl px-4 py-8 sm:py-10">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h1 className="text-3xl font-bold tracking-tight">My Bookings</h1>
        <Link to="/my-schedule" className={buttonClasses({ size: 'md' })}>
          Book a Class
        </Link>
      </div>

      {loading && <Spinner label="Loading your bookings" />}
      {failed && (
        <p role="alert" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {MY_BOOKINGS_MESSAGES.loadFailed}
        </p>
      )}
      {!loading && !failed && (
        <div className="mt-8 space-y-8">
          {next && <NextClassCard booking={next} />}
          <Tabs
            label="Bookings"
            value={tab}
            onChange={setTab}
            tabs={BOOKING_TABS.map((id) => ({
              id,
              label: `${BOOKING_TAB_LABELS[id]} (${tabs[id].length})`,
              panel: (
                <BookingList
                  bookings={tabs[id]}
                  emptyText={EMPTY_TEXT[id]}
                  onCancel={id === 'upcoming' ? (b) => void cancel(b) : undefined}
                  cancellingId={cancellingId}
                  withCalendar={id === 'upcoming'}
                  now={now}
                />
              ),
            }))}
          />
          {waitlist.state.status === 'ready' && waitlist.state.data.length > 0 && (
            <WaitlistList entries={waitlist.state.data} onLeave={(e) => void leave(e)} leavingId={leavingId} />
          )}
          {waitlist.state.status === 'error' && (
            <p role="status" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
              {MY_BOOKINGS_MESSAGES.waitlistLoadFailed}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
