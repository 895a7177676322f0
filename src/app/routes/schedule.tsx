import { lazy, Suspense, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useNow } from '@/hooks/use-now';
import { studioDayKey } from '@/lib/studio-time';
import type { ScheduleClass } from '@/features/booking/api/get-class-schedule';
import { useViewer } from '@/features/booking/api/use-viewer';
import { BlockedButton } from '@/features/booking/components/blocked-button';
import { BookNowLink } from '@/features/booking/components/book-now-link';
import { ClassListSkeleton, EmptyState } from '@/features/booking/components/class-list';
import { DayPicker, DayPickerPlaceholder } from '@/features/booking/components/day-picker';
import { PageHeading } from '@/features/booking/components/page-heading';
import { comingDays, dayFromParam, type ScheduleDay } from '@/features/booking/components/schedule-days';
import { Timetable } from '@/features/booking/components/timetable';
import { useDaySchedule } from '@/features/booking/components/use-day-schedule';
import { blockedLabel } from '@/features/booking/lib/class-facts';

/** A member's cards (the waitlist, live updates): a visitor never downloads them. */
const MemberTimetable = lazy(() => import('./schedule-member').then((m) => ({ default: m.MemberTimetable })));

const MINUTE = 60_000;
const subscribeToNothing = () => () => undefined;
/** False on the server and while hydrating (the server's answer), true in the browser from then on. */
const useHydrated = () =>
  useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
/** The search parameter of the day shown: /schedule?day=2026-11-28 (a link to a day, back and forward). */
export const DAY_PARAM = 'day';

/**
 * /schedule: the public timetable. Booking goes through the form at /book; each card says what the
 * server decided for this visitor or member (locked, full, booked, a pending payment), and a
 * signed-in member joins or leaves a full class's waitlist here. The day chips narrow
 * it to one day, kept in the URL.
 */
export function ScheduleRoute() {
  const { viewer, ready: viewerReady, signedIn, memberId } = useViewer();
  // Which days are coming is known in the browser only: the prerendered page (built days before,
  // for a visitor, who is "ready" at once) shows the picker's placeholder, and hydrates as that;
  // the chips, the day of the URL and the classes follow.
  const ready = useHydrated() && viewerReady;
  const [params, setParams] = useSearchParams();
  const today = studioDayKey(useNow(MINUTE));
  const days = useMemo(() => (ready ? comingDays(new Date(`${today}T12:00:00Z`)) : []), [ready, today]);
  const asked = params.get(DAY_PARAM);
  const day = dayFromParam(asked, days);

  function selectDay(key: string | null) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (key) next.set(DAY_PARAM, key);
      else next.delete(DAY_PARAM);
      return next;
    });
  }

  // A day the picker does not offer (gone by, too far ahead, malformed) shows every day: so says the URL.
  useEffect(() => {
    if (ready && asked !== null && day === null) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(DAY_PARAM);
          return next;
        },
        { replace: true },
      );
    }
  }, [ready, asked, day, setParams]);

  const empty = day ? <NoClassesOn day={day} onAllDays={() => selectDay(null)} /> : undefined;
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <PageHeading title="Class Schedule">Upcoming classes at the studio. Times are UK time.</PageHeading>
      {ready ? <DayPicker days={days} selected={day?.key ?? null} onSelect={selectDay} /> : <DayPickerPlaceholder />}
      {!ready ? (
        <ClassListSkeleton />
      ) : signedIn ? (
        <Suspense fallback={<ClassListSkeleton />}>
          <MemberTimetable viewer={viewer} memberId={memberId} day={day} empty={empty} />
        </Suspense>
      ) : (
        <VisitorTimetable day={day} empty={empty} />
      )}
    </section>
  );
}

/** A day without classes (a weekend, a closure): say so, and offer every day. */
function NoClassesOn({ day, onAllDays }: { day: ScheduleDay; onAllDays: () => void }) {
  return (
    <EmptyState title={`No classes on ${day.heading}`}>
      <p>Pick another day, or see every upcoming class.</p>
      <Button variant="outline" className="mt-4" onClick={onAllDays}>
        Show all days
      </Button>
    </EmptyState>
  );
}

/** A visitor's page re-reads on focus, without supabase-js's realtime. */
function VisitorTimetable({ day, empty }: { day: ScheduleDay | null; empty?: ReactNode }) {
  const schedule = useDaySchedule(day, 'guest');
  return <Timetable schedule={schedule} action={visitorAction} empty={empty} />;
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
