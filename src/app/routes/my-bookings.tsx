import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { useNow } from '@/hooks/use-now';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useAuth } from '@/lib/auth/auth-context';
import { formatClassDateTime } from '@/lib/studio-time';
import { COUNTDOWN_REFRESH_MS } from '@/lib/rules/countdown';
import { BookingRefused } from '@/features/booking/api/book-class';
import { useMyBookings, type MyBooking } from '@/features/booking/api/get-my-bookings';
import { useMyCancellations } from '@/features/booking/api/get-my-cancellations';
import { useGuestOptions } from '@/features/booking/api/get-guest-options';
import { guestsByBooking, useMyGuests } from '@/features/booking/api/get-my-guests';
import { useMyWaitlist, type MyWaitlistEntry } from '@/features/booking/api/get-my-waitlist';
import { useLeaveWaitlist } from '@/features/booking/api/leave-waitlist';
import { useCancelFlow } from '@/features/booking/api/use-cancel-flow';
import { useLiveUpdates } from '@/features/booking/api/use-live-updates';
import { BookingGuests } from '@/features/booking/components/booking-guests';
import { BookingList, type RemovedBooking } from '@/features/booking/components/booking-list';
import { NextClassCard } from '@/features/booking/components/next-class-card';
import { WaitlistList } from '@/features/booking/components/waitlist-list';
import { BOOKING_TAB_LABELS, BOOKING_TABS, nextClass, splitBookings, type BookingTab } from '@/features/booking/lib/booking-tabs';
import { cancelledBookings } from '@/features/booking/lib/cancellations';
import { MY_BOOKINGS_MESSAGES } from '@/features/booking/lib/my-bookings-messages';
import { RefreshNote } from '@/app/pwa/refresh-note';
import { AttendanceStandingNote } from '@/components/attendance/attendance-standing-note';

const EMPTY_TEXT: Record<BookingTab, string> = {
  upcoming: 'No upcoming bookings.',
  past: 'No past bookings.',
  cancelled: 'No cancelled bookings.',
};

/** What the line left in a cancelled booking's place says (and a screen reader reads on focus). */
const cancelledLine = (b: MyBooking) => `${b.className} on ${formatClassDateTime(b.startsAt)} is cancelled. It is listed under Cancelled.`;
const releasedLine = (b: MyBooking) => `Your spot in ${b.className} on ${formatClassDateTime(b.startsAt)} is released.`;

/** /mybookings and /bookings (spec section 2). */
export function MyBookingsRoute() {
  const { member, memberLoading } = useAuth();
  const memberId = member?.id ?? null;
  const bookings = useMyBookings(memberId);
  const waitlist = useMyWaitlist(memberId);
  // Cancellations the database kept, the member's guests and guest passes.
  const kept = useMyCancellations(memberId);
  const guests = useMyGuests(memberId);
  const guestOptions = useGuestOptions(memberId);
  useLiveUpdates(memberId, memberId !== null);
  const { cancel, pendingBookingId } = useCancelFlow();
  const leave = useLeaveWaitlist();
  // Cancelled on this visit: the server deleted them; the screen keeps them under Cancelled (spec section 4).
  const [cancelled, setCancelled] = useState<MyBooking[]>([]);
  const [tab, setTab] = useState<BookingTab>('upcoming');
  // The upcoming booking just cancelled or released: a line in its place keeps focus.
  const [removed, setRemoved] = useState<RemovedBooking | null>(null);
  const busy = useRef(false);
  // The late-cancel warning appears by itself once a class enters its window.
  const now = useNow(COUNTDOWN_REFRESH_MS);

  // A signed-in user without a member row cannot have bookings to show: same message as a failed load.
  const failed = bookings.isError || (!memberLoading && !memberId);
  const loading = !failed && !bookings.data;

  useErrorToast(failed, MY_BOOKINGS_MESSAGES.loadFailed);

  // Tabs split as of when the list arrived; the Next Class countdown itself ticks every minute.
  const tabs = useMemo(() => {
    const gone = new Set(cancelled.map((b) => b.id));
    const live = (bookings.data ?? []).filter((b) => !gone.has(b.id));
    return splitBookings([...live, ...cancelledBookings(kept.data ?? [], cancelled)], new Date());
  }, [bookings.data, cancelled, kept.data]);
  const guestsOf = useMemo(() => guestsByBooking(guests.data ?? []), [guests.data]);
  // A confirmed upcoming booking lists its guests; a group class (never a One-to-One session)
  // offers Add a guest while the member holds a pass valid that day or the class has a
  // pay-as-you-go price (my_guest_options). A child's place never brings a guest (the
  // database refuses it too, guest_not_for_child). The database decides the rest.
  const bookingGuests = (b: MyBooking, label: string) =>
    b.status === 'confirmed' && b.paymentStatus === 'completed' && b.type !== 'credit' && !b.childName ? (
      <BookingGuests bookingId={b.id} classLabel={label} guests={guestsOf.get(b.id) ?? []} guestOption={guestOptions.data?.get(b.id)} />
    ) : null;

  async function cancelOne(booking: MyBooking) {
    const paidByCard = booking.type === 'payg' && booking.paymentStatus === 'completed';
    if (
      !(await cancel({
        bookingId: booking.id,
        startTime: booking.startsAt.toISOString(),
        lateCancelFrom: booking.lateCancelFrom,
        bookedAt: booking.bookedAt,
        paidByCard,
        confirmed: booking.paymentStatus === 'completed',
        type: booking.type,
      }))
    )
      return;
    setCancelled((list) => [...list, { ...booking, status: 'cancelled' }]);
    markRemoved(booking, cancelledLine(booking));
  }

  function markRemoved(booking: MyBooking, text: string) {
    setRemoved({
      id: booking.id,
      index: Math.max(
        0,
        tabs.upcoming.findIndex((b) => b.id === booking.id),
      ),
      text,
    });
  }

  async function leaveOne(entry: MyWaitlistEntry) {
    if (busy.current || !window.confirm(MY_BOOKINGS_MESSAGES.confirmLeaveWaitlist)) return;
    busy.current = true;
    try {
      await leave.mutateAsync(entry.classId);
      toast.success(MY_BOOKINGS_MESSAGES.leftWaitlist);
    } catch (error) {
      // Already off the list (promoted, or left in another tab): the refreshed list drops the row.
      const refused = error instanceof BookingRefused && error.error.hint === 'not_on_waitlist';
      toast.error(refused ? error.error.message : MY_BOOKINGS_MESSAGES.leaveWaitlistFailed);
    } finally {
      busy.current = false;
    }
  }

  return (
    <section className="mx-auto max-w-4xl px-4 py-8 sm:py-10">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h1 className="text-3xl font-bold tracking-tight">My Bookings</h1>
        <Link to={paths.mySchedule} className={buttonClasses({ size: 'md' })}>
          Book a Class
        </Link>
      </div>
      <RefreshNote className="mt-1" />

      {loading && <Spinner label="Loading your bookings" />}
      {failed && (
        <p role="alert" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {MY_BOOKINGS_MESSAGES.loadFailed}
        </p>
      )}
      {!loading && !failed && (
        <div className="mt-8 space-y-8">
          <NextClassCard booking={nextClass(tabs.upcoming)} />
          <Tabs
            label="Bookings"
            fill
            value={tab}
            onChange={(next) => {
              setRemoved(null);
              setTab(next);
            }}
            tabs={BOOKING_TABS.map((id) => ({
              id,
              label: `${BOOKING_TAB_LABELS[id]} (${tabs[id].length})`,
              panel: (
                <BookingList
                  bookings={tabs[id]}
                  emptyText={EMPTY_TEXT[id]}
                  onCancel={id === 'upcoming' ? (b) => void cancelOne(b) : undefined}
                  cancellingId={pendingBookingId}
                  withCalendar={id === 'upcoming'}
                  now={now}
                  onReleased={id === 'upcoming' ? (b) => markRemoved(b, releasedLine(b)) : undefined}
                  removed={id === 'upcoming' ? removed : null}
                  renderExtra={id === 'upcoming' ? bookingGuests : undefined}
                />
              ),
            }))}
          />
          {waitlist.data && waitlist.data.length > 0 && (
            <WaitlistList entries={waitlist.data} onLeave={(e) => void leaveOne(e)} leavingId={leave.isPending ? leave.variables : null} />
          )}
          {waitlist.isError && (
            <p role="status" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
              {MY_BOOKINGS_MESSAGES.waitlistLoadFailed}
            </p>
          )}
          {/* Last: appearing once read, it moves nothing above it. */}
          <AttendanceStandingNote memberId={memberId} />
        </div>
      )}
    </section>
  );
}
