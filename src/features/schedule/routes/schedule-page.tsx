import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { useNow } from '@/hooks/use-now';
import { useAuth } from '@/lib/auth/auth-context';
import type { ClassRow } from '@/lib/supabase';
import { ClassCard } from '../components/class-card';
import { ClassList, ClassListSkeleton, EmptyState } from '../components/class-list';
import { PageHeading } from '../components/page-heading';
import { useClassList } from '../hooks/use-class-list';
import { useClassLock } from '../hooks/use-class-lock';
import { useMyClassBookings } from '../hooks/use-my-class-bookings';
import { useWaitlist } from '../hooks/use-waitlist';
import { WaitlistAction } from '../components/waitlist-action';

/** Re-read every minute so a lock opens, and "Opens in" counts down, while the page is open. */
const MINUTE = 60_000;

/**
 * /schedule: the public timetable. Booking goes through the form at /book; a signed-in member
 * sees the classes they hold, and joins or leaves a full class's waitlist here (their bookings and
 * places are read once per page, and not at all for guests).
 */
export function SchedulePage() {
  const { loading, session, member, memberLoading } = useAuth();
  const memberId = session ? (member?.id ?? null) : null;
  const { bookings, reload: reloadBookings } = useMyClassBookings(memberId);
  const waitlist = useWaitlist(memberId, { isBooked: async (classId) => Boolean((await reloadBookings())?.[classId]) });
  const { state, reload, showMore } = useClassList('now', waitlist.classChanged);
  const now = useNow(MINUTE);
  // The first schedule screen does not lock trial members (spec section 4); guests see the lock.
  const lockOf = useClassLock({ tier: member?.membership_tier ?? null, trialExempt: true }, now);

  const isBooked = (cls: ClassRow) => bookings.status === 'ready' && Boolean(bookings.byClass[cls.id]);

  function action(cls: ClassRow) {
    const bookUrl = `/book?classId=${encodeURIComponent(cls.id)}`;
    if (!session) {
      return (
        <Link to={`/signin?redirect=${encodeURIComponent(bookUrl)}`} className={buttonClasses({ variant: 'outline', className: 'w-full' })}>
          Sign in to book
        </Link>
      );
    }
    if (isBooked(cls)) {
      return (
        <Button variant="outline" className="w-full" disabled>
          Booked
        </Button>
      );
    }
    if (lockOf(cls).locked) {
      return (
        <Button className="w-full" disabled>
          Locked
        </Button>
      );
    }
    if (cls.spots_left <= 0) {
      const control = bookings.status === 'ready' ? waitlist.controlFor(cls, now) : undefined;
      return control ? (
        <WaitlistAction cls={cls} {...control} />
      ) : (
        <Button className="w-full" disabled>
          Fully Booked
        </Button>
      );
    }
    return (
      <Link to={bookUrl} className={buttonClasses({ className: 'w-full' })}>
        Book Now
      </Link>
    );
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <PageHeading title="Class Schedule">Upcoming classes at the studio. Times are UK time.</PageHeading>
      {loading || memberLoading ? (
        <ClassListSkeleton />
      ) : (
        <ClassList
          label="Upcoming classes"
          state={state}
          onRetry={reload}
          onShowMore={showMore}
          empty={<EmptyState title="No upcoming classes">New classes will appear here soon.</EmptyState>}
          renderCard={(cls) => (
            <ClassCard cls={cls} lock={lockOf(cls)} now={now} status={isBooked(cls) ? <Badge tone="brand">Booked</Badge> : undefined} action={action(cls)} />
          )}
        />
      )}
    </section>
  );
}
