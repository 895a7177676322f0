import { useRef } from 'react';
import { toast } from '@/lib/toast';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useNow } from '@/hooks/use-now';
import { BookingRefused, useBookClass } from '@/features/booking/api/book-class';
import { useCancelBooking } from '@/features/booking/api/cancel-booking';
import { NO_FILTERS, useClassSchedule, type ScheduleClass } from '@/features/booking/api/get-class-schedule';
import { useLiveUpdates } from '@/features/booking/api/use-live-updates';
import { useViewer } from '@/features/booking/api/use-viewer';
import { useWaitlistActions } from '@/features/booking/api/use-waitlist-actions';
import { BookButton } from '@/features/booking/components/book-button';
import { ClassCard } from '@/features/booking/components/class-card';
import { ClassList, EmptyState, ShowMore } from '@/features/booking/components/class-list';
import { PageHeading } from '@/features/booking/components/page-heading';
import { BOOKING_MESSAGES, cancelErrorMessage } from '@/features/booking/lib/booking-messages';
import { isBooked } from '@/features/booking/lib/class-facts';

const MINUTE = 60_000;
export const CANCEL_CONFIRM = 'Cancel this booking?';
export const MEMBER_NOT_FOUND = 'Member record not found';

/** /my-classes (labelled My Schedule): every upcoming class, with Book Now and Cancel Booking. */
export function MyClassesRoute() {
  const { viewer, ready, member, memberId } = useViewer();
  const schedule = useClassSchedule(NO_FILTERS, viewer, ready && member !== null);
  const waitlist = useWaitlistActions(viewer);
  useLiveUpdates(memberId, ready);
  const now = useNow(MINUTE);
  const { book, pendingClassId, isBooking } = useBookClass();
  const cancel = useCancelBooking();
  const cancelling = useRef(false);
  const cancellingId = cancel.isPending ? (schedule.classes.find((c) => c.my_booking_id === cancel.variables)?.id ?? null) : null;

  async function handleCancel(bookingId: string) {
    if (cancelling.current || !window.confirm(CANCEL_CONFIRM)) return;
    cancelling.current = true;
    try {
      await cancel.mutateAsync(bookingId);
      toast.success(BOOKING_MESSAGES.cancelled);
    } catch (error) {
      toast.error(error instanceof BookingRefused ? cancelErrorMessage(error.error) : BOOKING_MESSAGES.cancelFailed);
    } finally {
      cancelling.current = false;
    }
  }

  function action(cls: ScheduleClass) {
    if (cls.my_booking_id && cls.refusal !== 'class_started') {
      const pending = cancellingId === cls.id;
      return (
        <Button variant="danger" className="w-full" loading={pending} disabled={cancel.isPending} onClick={() => void handleCancel(cls.my_booking_id!)}>
          {pending ? 'Cancelling...' : 'Cancel Booking'}
        </Button>
      );
    }
    return <BookButton cls={cls} pending={pendingClassId === cls.id} busy={isBooking} onBook={() => void book(cls.id)} waitlist={waitlist} now={now} />;
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
