import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useNow } from '@/hooks/use-now';
import { useClassSchedule, useLiveSchedule, type ScheduleClass } from '../api/get-class-schedule';
import { ClassCard } from '../components/class-card';
import { ClassList, ShowMore, ClassListSkeleton, EmptyState } from '../components/class-list';
import { PageHeading } from '../components/page-heading';
import { WaitlistAction } from '../components/waitlist-action';
import { useScheduleViewer } from '../hooks/use-schedule-viewer';
import { useWaitlist } from '../hooks/use-waitlist';
import { isBooked, isHeld } from '../lib/class-facts';
import { NO_FILTERS } from '../lib/class-filters';

/** Re-read every minute so "Opens in" counts down and a waitlist closes on time while the page is open. */
const MINUTE = 60_000;

/**
 * /schedule: the public timetable. Booking goes through the form at /book; each card says what the
 * server decided for this visitor or member (locked, full, booked, a pending payment), and a
 * signed-in member joins or leaves a full class's waitlist here.
 */
export function SchedulePage() {
  const { viewer, ready, signedIn, memberId, holds } = useScheduleViewer();
  const schedule = useClassSchedule(NO_FILTERS, viewer, ready);
  const waitlist = useWaitlist(memberId, { isBooked: holds });
  useLiveSchedule(ready, waitlist.classChanged);
  const now = useNow(MINUTE);

  function action(cls: ScheduleClass) {
    const bookUrl = paths.book.href(cls.id);
    const disabled = (label: string, variant: 'outline' | 'primary' = 'primary') => (
      <Button variant={variant} className="w-full" disabled>
        {label}
      </Button>
    );
    if (!signedIn) {
      if (cls.refusal === 'class_locked') return disabled('Locked');
      return (
        <Link to={paths.signIn.href(bookUrl)} className={buttonClasses({ variant: 'outline', className: 'w-full' })}>
          Sign in to book
        </Link>
      );
    }
    if (isBooked(cls)) return disabled('Booked', 'outline');
    if (isHeld(cls)) return disabled('Payment pending', 'outline');
    if (cls.refusal === 'class_locked') return disabled('Locked');
    if (cls.refusal === 'class_full') {
      const control = waitlist.controlFor(cls, now);
      return control ? <WaitlistAction cls={cls} {...control} /> : disabled('Fully Booked');
    }
    if (!cls.bookable) return disabled('Not available');
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
          status={schedule.isPending ? 'loading' : schedule.isError ? 'error' : 'ready'}
          classes={schedule.classes}
          onRetry={() => void schedule.refetch()}
          more={<ShowMore query={schedule} />}
          empty={<EmptyState title="No upcoming classes">New classes will appear here soon.</EmptyState>}
          renderCard={(cls) => <ClassCard cls={cls} now={now} status={isBooked(cls) ? <Badge tone="brand">Booked</Badge> : undefined} action={action(cls)} />}
        />
      )}
    </section>
  );
}
