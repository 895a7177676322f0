import { useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useNow } from '@/hooks/use-now';
import { useAuth } from '@/lib/auth/auth-context';
import { BOOKING_MESSAGES, cancelErrorMessage } from '@/lib/booking/booking-messages';
import { cancelBooking } from '@/lib/booking/cancel-booking';
import { useBookClass } from '@/lib/booking/use-book-class';
import { adjustSpots } from '@/lib/rules/spots';
import type { ClassRow } from '@/lib/supabase';
import { BookButton } from '../components/book-button';
import { ClassCard } from '../components/class-card';
import { ClassList, EmptyState } from '../components/class-list';
import { PageHeading } from '../components/page-heading';
import { useClassList, type ClassListState } from '../hooks/use-class-list';
import { useClassLock } from '../hooks/use-class-lock';
import { useWaitlist } from '../hooks/use-waitlist';
import { useMyClassBookings } from '../hooks/use-my-class-bookings';

const MINUTE = 60_000;
export const CANCEL_CONFIRM = 'Cancel this booking?';
export const MEMBER_NOT_FOUND = 'Member record not found';

/** /my-classes (labelled My Schedule): every class from today on, with Book Now and Cancel Booking. */
export function MyClassesPage() {
  const { loading, member, memberLoading } = useAuth();
  // From the start of today (today's started classes say so), a week at a time.
  const memberId = member?.id ?? null;
  const { bookings, setBooking, reload: reloadBookings } = useMyClassBookings(memberId);
  const waitlist = useWaitlist(memberId, { isBooked: async (classId) => Boolean((await reloadBookings())?.[classId]) });
  const { state, reload, updateClass, showMore } = useClassList('today', waitlist.classChanged);
  const now = useNow(MINUTE);
  const lockOf = useClassLock({ tier: member?.membership_tier ?? null }, now);
  const { book, pendingClassId, isBooking } = useBookClass();
  const cancelling = useRef(false);
  const [cancellingId, setCancellingId] = useState<string | null>(null);

  async function handleBook(cls: ClassRow) {
    const outcome = await book(cls.id);
    if (!outcome?.ok || outcome.result.status !== 'booked') return;
    const { booking_id: bookingId, spots_left: spotsLeft } = outcome.result;
    if (bookingId) setBooking(cls.id, bookingId);
    updateClass(cls.id, (c) => ({ ...c, spots_left: spotsLeft ?? adjustSpots(c.spots_left, -1, c.capacity) }));
  }

  async function handleCancel(cls: ClassRow, bookingId: string) {
    if (cancelling.current || !window.confirm(CANCEL_CONFIRM)) return;
    cancelling.current = true;
    setCancellingId(cls.id);
    try {
      const outcome = await cancelBooking(bookingId);
      if (!outcome.ok) {
        toast.error(cancelErrorMessage(outcome.error));
        return;
      }
      toast.success(BOOKING_MESSAGES.cancelled);
      setBooking(cls.id, null);
      // Spec section 4: cancelling here adds 1 back to the local count (realtime then confirms it).
      updateClass(cls.id, (c) => ({ ...c, spots_left: adjustSpots(c.spots_left, 1, c.capacity) }));
    } catch {
      toast.error(BOOKING_MESSAGES.cancelFailed);
    } finally {
      cancelling.current = false;
      setCancellingId(null);
    }
  }

  function action(cls: ClassRow) {
    if (new Date(cls.start_time).getTime() <= now.getTime()) {
      return (
        <Button variant="outline" className="w-full" disabled>
          Class has started
        </Button>
      );
    }
    const bookingId = bookings.status === 'ready' ? bookings.byClass[cls.id] : undefined;
    if (bookingId) {
      const pending = cancellingId === cls.id;
      return (
        <Button variant="danger" className="w-full" loading={pending} disabled={cancellingId !== null} onClick={() => void handleCancel(cls, bookingId)}>
          {pending ? 'Cancelling...' : 'Cancel Booking'}
        </Button>
      );
    }
    return (
      <BookButton
        cls={cls}
        lock={lockOf(cls)}
        booked={false}
        pending={pendingClassId === cls.id}
        busy={isBooking}
        onBook={() => void handleBook(cls)}
        waitlist={waitlist.controlFor(cls, now)}
      />
    );
  }

  const authReady = !loading && !memberLoading;
  let listState: ClassListState = state;
  if (!authReady || (member && bookings.status === 'loading')) listState = { status: 'loading' };
  else if (bookings.status === 'error') listState = { status: 'error' };

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <PageHeading title="My Schedule">Every class on the timetable: book a spot or cancel one you hold. Times are UK time.</PageHeading>
      {authReady && !member ? (
        <EmptyState title={MEMBER_NOT_FOUND}>Please sign out and sign in again.</EmptyState>
      ) : (
        <ClassList
          label="All classes"
          state={listState}
          onRetry={reload}
          onShowMore={showMore}
          empty={<EmptyState title="No classes yet">New classes will appear here soon.</EmptyState>}
          renderCard={(cls) => {
            const booked = bookings.status === 'ready' && Boolean(bookings.byClass[cls.id]);
            return (
              <ClassCard cls={cls} lock={lockOf(cls)} now={now} status={booked ? <Badge tone="brand">Booked</Badge> : undefined} action={action(cls)} />
            );
          }}
        />
      )}
    </section>
  );
}
