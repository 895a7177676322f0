import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { useAuth } from '@/lib/auth/auth-context';
import { cancelBooking } from '@/lib/booking/cancel-booking';
import { BOOKING_MESSAGES, cancelErrorMessage } from '@/lib/booking/booking-messages';
import { useMyBookings, type MyBooking } from '../api/get-my-bookings';
import { BookingList } from '../components/booking-list';
import { NextClassCard } from '../components/next-class-card';
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
    if (!window.confirm(MY_BOOKINGS_MESSAGES.confirmCancel)) return;
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
                />
              ),
            }))}
          />
        </div>
      )}
    </section>
  );
}
