import { useMemo, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { useNow } from '@/hooks/use-now';
import { useAuth } from '@/lib/auth/auth-context';
import { useBookClass } from '@/lib/booking/use-book-class';
import { adjustSpots } from '@/lib/rules/spots';
import type { ClassRow } from '@/lib/supabase';
import { BookButton } from '../components/book-button';
import { ClassCard } from '../components/class-card';
import { ClassFiltersPanel } from '../components/class-filters-panel';
import { ClassList, EmptyState } from '../components/class-list';
import { PageHeading } from '../components/page-heading';
import { SummaryTiles } from '../components/summary-tiles';
import { useClassList } from '../hooks/use-class-list';
import { useClassLock } from '../hooks/use-class-lock';
import { useMyClassBookings } from '../hooks/use-my-class-bookings';
import { useWaitlist } from '../hooks/use-waitlist';
import { filterClasses, instructorsOf, NO_FILTERS, summarize, type ClassFilters } from '../lib/class-filters';

const MINUTE = 60_000;

export const EMPTY_WINDOW = 'No classes available in your booking window.';
export const EMPTY_FILTERED = 'No Classes Match Your Filters';

/** /my-schedule: Available Classes, with filters, summary tiles and one-tap booking. */
export function AvailableClassesPage() {
  const { loading, member, memberLoading } = useAuth();
  const memberId = member?.id ?? null;
  // What the member already holds: a booked class says Booked, and a full one it offers no waitlist.
  const { bookings, setBooking, reload: reloadBookings } = useMyClassBookings(memberId);
  const waitlist = useWaitlist(memberId, { isBooked: async (classId) => Boolean((await reloadBookings())?.[classId]) });
  const { state, reload, updateClass, showMore } = useClassList('now', waitlist.classChanged);
  const now = useNow(MINUTE);
  const lockOf = useClassLock({ tier: member?.membership_tier ?? null }, now);
  const [filters, setFilters] = useState<ClassFilters>(NO_FILTERS);
  const { book, pendingClassId, isBooking } = useBookClass();

  // Filters, the instructor list and the summary tiles work on the weeks loaded so far (the
  // first covers today, tomorrow and the rest of this week); Show more adds the next week.
  const classes = useMemo(() => (state.status === 'ready' ? state.classes : []), [state]);
  const shown = useMemo(() => filterClasses(classes, filters, now), [classes, filters, now]);
  const tiles = summarize(classes, shown);

  async function handleBook(cls: ClassRow) {
    const outcome = await book(cls.id);
    if (!outcome?.ok || outcome.result.status !== 'booked') return;
    const { booking_id: bookingId, spots_left: spotsLeft } = outcome.result;
    if (bookingId) setBooking(cls.id, bookingId);
    updateClass(cls.id, (c) => ({ ...c, spots_left: spotsLeft ?? adjustSpots(c.spots_left, -1, c.capacity) }));
  }

  const ready = !loading && !memberLoading;
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <PageHeading title="Available Classes">Find a class and book your spot. Times are UK time.</PageHeading>
      {!ready || state.status !== 'ready' ? (
        <ClassList label="Available classes" state={ready ? state : { status: 'loading' }} onRetry={reload} onShowMore={showMore} empty={null} renderCard={() => null} />
      ) : classes.length === 0 ? (
        <EmptyState title={EMPTY_WINDOW} />
      ) : (
        <div className="space-y-6">
          <SummaryTiles {...tiles} />
          <ClassFiltersPanel filters={filters} instructors={instructorsOf(classes)} onChange={setFilters} />
          <ClassList
            label="Available classes"
            state={state}
            classes={shown}
            onRetry={reload}
            onShowMore={showMore}
            empty={
              <EmptyState title={EMPTY_FILTERED}>
                <p>Try a different search or clear the filters.</p>
              </EmptyState>
            }
            renderCard={(cls) => {
              const lock = lockOf(cls);
              const booked = bookings.status === 'ready' && Boolean(bookings.byClass[cls.id]);
              return (
                <ClassCard
                  cls={cls}
                  lock={lock}
                  now={now}
                  status={booked ? <Badge tone="brand">Booked</Badge> : undefined}
                  action={
                    <BookButton
                      cls={cls}
                      lock={lock}
                      booked={booked}
                      pending={pendingClassId === cls.id}
                      busy={isBooking}
                      onBook={() => void handleBook(cls)}
                      // Only once the member's bookings are known: a class they hold offers no waitlist.
                      waitlist={bookings.status === 'ready' ? waitlist.controlFor(cls, now) : undefined}
                    />
                  }
                />
              );
            }}
          />
        </div>
      )}
    </section>
  );
}
