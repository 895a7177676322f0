import { Link } from 'react-router-dom';
import { Button, buttonClasses } from '@/components/ui/button';
import { useNow } from '@/hooks/use-now';
import { useAuth } from '@/lib/auth/auth-context';
import type { ClassRow } from '@/lib/supabase';
import { ClassCard } from '../components/class-card';
import { ClassList, ClassListSkeleton, EmptyState } from '../components/class-list';
import { PageHeading } from '../components/page-heading';
import { useClassList } from '../hooks/use-class-list';
import { useClassLock } from '../hooks/use-class-lock';

/** Re-read every minute so a lock opens, and "Opens in" counts down, while the page is open. */
const MINUTE = 60_000;

/** /schedule: the public timetable. Booking goes through the form at /book. */
export function SchedulePage() {
  const { loading, session, member, memberLoading } = useAuth();
  const { state, reload, showMore } = useClassList('now');
  const now = useNow(MINUTE);
  // The first schedule screen does not lock trial members (spec section 4); guests see the lock.
  const lockOf = useClassLock({ tier: member?.membership_tier ?? null, trialExempt: true }, now);

  function action(cls: ClassRow) {
    const bookUrl = `/book?classId=${encodeURIComponent(cls.id)}`;
    if (!session) {
      return (
        <Link to={`/signin?redirect=${encodeURIComponent(bookUrl)}`} className={buttonClasses({ variant: 'outline', className: 'w-full' })}>
          Sign in to book
        </Link>
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
      return (
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
          renderCard={(cls) => <ClassCard cls={cls} lock={lockOf(cls)} now={now} action={action(cls)} />}
        />
      )}
    </section>
  );
}
