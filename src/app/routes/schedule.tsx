import { useDeferredValue } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useNow } from '@/hooks/use-now';
import { NO_FILTERS, useClassSchedule, type ScheduleClass } from '@/features/booking/api/get-class-schedule';
import { useLiveUpdates } from '@/features/booking/api/use-live-updates';
import { useViewer } from '@/features/booking/api/use-viewer';
import { useWaitlistActions } from '@/features/booking/api/use-waitlist-actions';
import { BlockedButton } from '@/features/booking/components/book-button';
import { ClassCard } from '@/features/booking/components/class-card';
import { ClassList, ClassListSkeleton, EmptyState, ShowMore } from '@/features/booking/components/class-list';
import { PageHeading } from '@/features/booking/components/page-heading';
import { WaitlistAction } from '@/features/booking/components/waitlist-action';
import { blockedLabel, isBooked } from '@/features/booking/lib/class-facts';

/** Re-read every minute so "Opens in" counts down and a waitlist closes on time while the page is open. */
const MINUTE = 60_000;

/**
 * /schedule: the public timetable. Booking goes through the form at /book; each card says what the
 * server decided for this visitor or member (locked, full, booked, a pending payment), and a
 * signed-in member joins or leaves a full class's waitlist here.
 */
export function ScheduleRoute() {
  const { viewer, ready, signedIn, memberId } = useViewer();
  const schedule = useClassSchedule(NO_FILTERS, viewer, ready);
  const waitlist = useWaitlistActions(viewer);
  // Members' cards follow bookings live; a visitor's page re-reads on focus, without supabase-js's realtime.
  useLiveUpdates(memberId, ready && signedIn);
  const now = useNow(MINUTE);
  // The cards render in the background, in slices the browser can interrupt: two dozen of them at
  // once held a phone's main thread for a quarter of a second (Lighthouse TBT).
  const classes = useDeferredValue(schedule.classes);
  const firstCardsPending = classes.length === 0 && schedule.classes.length > 0;

  function action(cls: ScheduleClass) {
    const bookUrl = paths.book.href(cls.id);
    if (signedIn && cls.refusal === 'class_full') return <WaitlistAction cls={cls} actions={waitlist} now={now} />;
    const blocked = blockedLabel(cls);
    // A guest may sign in to book whatever the server would let a member try (not a locked, full or started class).
    if (!signedIn && blocked?.label === 'Sign in to book') {
      return (
        <Link to={paths.signIn.href(bookUrl)} className={buttonClasses({ variant: 'outline', className: 'w-full' })}>
          Sign in to book
        </Link>
      );
    }
    if (blocked) return <BlockedButton blocked={blocked} />;
    return (
      <Link to={bookUrl} className={buttonClasses({ className: 'w-full' })}>
        Book Now
      </Link>
    );
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <PageHeading title="Class Schedule">Upcoming classes at the studio. Times are UK time.</PageHeading>
      {!ready ? (
        <ClassListSkeleton />
      ) : (
        <ClassList
          label="Upcoming classes"
          status={schedule.isPending || firstCardsPending ? 'loading' : schedule.isError ? 'error' : 'ready'}
          classes={classes}
          onRetry={() => void schedule.refetch()}
          more={<ShowMore query={schedule} />}
          empty={<EmptyState title="No upcoming classes">New classes will appear here soon.</EmptyState>}
          renderCard={(cls) => <ClassCard cls={cls} now={now} status={isBooked(cls) ? <Badge tone="brand">Booked</Badge> : undefined} action={action(cls)} />}
        />
      )}
    </section>
  );
}
