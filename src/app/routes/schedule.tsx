import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { NO_FILTERS, useClassSchedule, type ScheduleClass } from '@/features/booking/api/get-class-schedule';
import { useViewer } from '@/features/booking/api/use-viewer';
import { BlockedButton } from '@/features/booking/components/blocked-button';
import { BookNowLink } from '@/features/booking/components/book-now-link';
import { ClassListSkeleton } from '@/features/booking/components/class-list';
import { PageHeading } from '@/features/booking/components/page-heading';
import { Timetable } from '@/features/booking/components/timetable';
import { blockedLabel } from '@/features/booking/lib/class-facts';

/** A member's cards (the waitlist, live updates): a visitor never downloads them (issue 17). */
const MemberTimetable = lazy(() => import('./schedule-member').then((m) => ({ default: m.MemberTimetable })));

/**
 * /schedule: the public timetable. Booking goes through the form at /book; each card says what the
 * server decided for this visitor or member (locked, full, booked, a pending payment), and a
 * signed-in member joins or leaves a full class's waitlist here.
 */
export function ScheduleRoute() {
  const { viewer, ready, signedIn, memberId } = useViewer();
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <PageHeading title="Class Schedule">Upcoming classes at the studio. Times are UK time.</PageHeading>
      {!ready ? (
        <ClassListSkeleton />
      ) : signedIn ? (
        <Suspense fallback={<ClassListSkeleton />}>
          <MemberTimetable viewer={viewer} memberId={memberId} />
        </Suspense>
      ) : (
        <VisitorTimetable />
      )}
    </section>
  );
}

/** A visitor's page re-reads on focus, without supabase-js's realtime. */
function VisitorTimetable() {
  const schedule = useClassSchedule(NO_FILTERS, 'guest');
  return <Timetable schedule={schedule} action={visitorAction} />;
}

function visitorAction(cls: ScheduleClass) {
  const blocked = blockedLabel(cls);
  // A guest may sign in to book whatever the server would let a member try (not a locked, full or started class).
  if (blocked?.label === 'Sign in to book') {
    return (
      <Link to={paths.signIn.href(paths.book.href(cls.id))} className={buttonClasses({ variant: 'outline', className: 'w-full' })}>
        Sign in to book
      </Link>
    );
  }
  if (blocked) return <BlockedButton blocked={blocked} />;
  return <BookNowLink cls={cls} />;
}
