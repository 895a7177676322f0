import { AttendancePolicyNote } from '@/components/attendance/attendance-policy-note';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useNow } from '@/hooks/use-now';
import { useBookClass } from '@/features/booking/api/book-class';
import { NO_FILTERS, useClassSchedule, type ScheduleClass } from '@/features/booking/api/get-class-schedule';
import { useLiveUpdates } from '@/features/booking/api/use-live-updates';
import { useViewer } from '@/features/booking/api/use-viewer';
import { useCancelFlow } from '@/features/booking/api/use-cancel-flow';
import { useWaitlistActions } from '@/features/booking/api/use-waitlist-actions';
import { BookButton } from '@/features/booking/components/book-button';
import { ClassCard } from '@/features/booking/components/class-card';
import { ClassList, EmptyState, ShowMore } from '@/features/booking/components/class-list';
import { PageHeading } from '@/features/booking/components/page-heading';
import { isBooked, takesChildren } from '@/features/booking/lib/class-facts';
import { useMyDependants } from '@/features/family/api/dependants';

const MINUTE = 60_000;
export const MEMBER_NOT_FOUND = 'Member record not found';

/** /my-classes (labelled My Schedule): every upcoming class, with Book Now and Cancel Booking. */
export function MyClassesRoute() {
  const { viewer, ready, member, memberId } = useViewer();
  const schedule = useClassSchedule(NO_FILTERS, viewer, ready && member !== null);
  const waitlist = useWaitlistActions(viewer);
  useLiveUpdates(memberId, ready);
  const now = useNow(MINUTE);
  const { book, pendingClassId, isBooking } = useBookClass();
  const { cancel, pendingBookingId, isPending: cancelBusy } = useCancelFlow();
  // A parent is asked who is coming on a class that takes children (Book Now opens the form).
  const family = useMyDependants(schedule.classes.some(takesChildren) ? memberId : null);
  // Until the children are known, such a class opens the form too (it books a parent alone as well).
  const hasChildren = family.data?.length !== 0;

  function handleCancel(cls: ScheduleClass) {
    const paidByCard = cls.booking_type === 'payg' && cls.my_payment_status === 'completed';
    void cancel({
      bookingId: cls.my_booking_id!,
      startTime: cls.start_time,
      lateCancelFrom: cls.late_cancel_from,
      paidByCard,
      confirmed: cls.my_payment_status === 'completed',
      type: cls.booking_type ?? 'paid',
    });
  }

  function action(cls: ScheduleClass) {
    if (cls.my_booking_id && cls.refusal !== 'class_started') {
      const pending = pendingBookingId === cls.my_booking_id;
      return (
        <Button variant="danger" className="w-full" loading={pending} disabled={cancelBusy} onClick={() => handleCancel(cls)}>
          {pending ? 'Cancelling...' : 'Cancel Booking'}
        </Button>
      );
    }
    return (
      <BookButton
        cls={cls}
        pending={pendingClassId === cls.id}
        busy={isBooking}
        onBook={() => void book(cls.id)}
        waitlist={waitlist}
        now={now}
        hasChildren={hasChildren}
      />
    );
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
          renderCard={(cls) => (
            <ClassCard cls={cls} now={now} status={isBooked(cls) ? <Badge tone="brand">Booked</Badge> : undefined} action={action(cls)} />
          )}
        />
      )}
      {/* Below the list: appearing once read, it moves nothing the member is looking at. */}
      <div className="mt-6">
        <AttendancePolicyNote now={now} />
      </div>
    </section>
  );
}
