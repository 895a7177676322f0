import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useNow } from '@/hooks/use-now';
import { BOOKING_MESSAGES, cancelErrorMessage } from '../api/booking-messages';
import { cancelBooking } from '../api/cancel-booking';
import { invalidateAfterBooking, useBookClass } from '../api/use-book-class';
import { useClassSchedule, useLiveSchedule, type ScheduleClass } from '../api/get-class-schedule';
import { BookButton } from '../components/book-button';
import { ClassCard } from '../components/class-card';
import { ClassList, EmptyState, ShowMore } from '../components/class-list';
import { PageHeading } from '../components/page-heading';
import { useScheduleViewer } from '../hooks/use-schedule-viewer';
import { useWaitlist } from '../hooks/use-waitlist';
import { isBooked } from '../lib/class-facts';
import { NO_FILTERS } from '../lib/class-filters';

const MINUTE = 60_000;
export const CANCEL_CONFIRM = 'Cancel this booking?';
export const MEMBER_NOT_FOUND = 'Member record not found';

/** /my-classes (labelled My Schedule): every upcoming class, with Book Now and Cancel Booking. */
export function MyClassesPage() {
  const { viewer, ready, member, memberId, holds } = useScheduleViewer();
  const schedule = useClassSchedule(NO_FILTERS, viewer, ready && member !== null);
  const waitlist = useWaitlist(memberId, { isBooked: holds });
  useLiveSchedule(ready, waitlist.classChanged);
  const now = useNow(MINUTE);
  const queryClient = useQueryClient();
  const { book, pendingClassId, isBooking } = useBookClass();
  const cancelling = useRef(false);
  const [cancellingId, setCancellingId] = useState<string | null>(null);

  async function handleCancel(cls: ScheduleClass, bookingId: string) {
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
      await invalidateAfterBooking(queryClient);
    } catch {
      toast.error(BOOKING_MESSAGES.cancelFailed);
    } finally {
      cancelling.current = false;
      setCancellingId(null);
    }
  }

  function action(cls: ScheduleClass) {
    if (cls.my_booking_id && cls.refusal !== 'class_started') {
      const pending = cancellingId === cls.id;
      return (
        <Button variant="danger" className="w-full" loading={pending} disabled={cancellingId !== null} onClick={() => void handleCancel(cls, cls.my_booking_id!)}>
          {pending ? 'Cancelling...' : 'Cancel Booking'}
        </Button>
      );
    }
    return <BookButton cls={cls} pending={pendingClassId === cls.id} busy={isBooking} onBook={() => void book(cls.id)} waitlist={waitlist.controlFor(cls, now)} />;
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <PageHeading title="My Schedule">Every class on the timetable: book a spot or cancel one you hold. Times are UK time.</PageHeading>
      {ready && !member ? (
        <EmptyState title={MEMBER_NOT_FOUND}>Please sign out and sign in again.</EmptyState>
      ) : (
        <ClassList
          label="All classes"
          status={!ready || schedule.isPending ? 'loading' : schedule.isError ? 'error' : 'ready'}
          classes={schedule.classes}
          onRetry={() => void schedule.refetch()}
          more={<ShowMore query={schedule} />}
          empty={<EmptyState title="No classes yet">New classes will appear here soon.</EmptyState>}
          renderCard={(cls) => <ClassCard cls={cls} now={now} status={isBooked(cls) ? <Badge tone="brand">Booked</Badge> : undefined} action={action(cls)} />}
        />
      )}
    </section>
  );
}
