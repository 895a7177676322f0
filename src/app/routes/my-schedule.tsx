import { memo, useDeferredValue, useState } from 'react';
import { AttendancePolicyNote } from '@/components/attendance/attendance-policy-note';
import { Badge } from '@/components/ui/badge';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useNow } from '@/hooks/use-now';
import { useBookClass } from '@/features/booking/api/book-class';
import {
  NO_FILTERS,
  useClassSchedule,
  useScheduleSummary,
  type ClassFilters,
  type ScheduleClass,
} from '@/features/booking/api/get-class-schedule';
import { useLiveUpdates } from '@/features/booking/api/use-live-updates';
import { useViewer } from '@/features/booking/api/use-viewer';
import { useWaitlistActions, type WaitlistActions } from '@/features/booking/api/use-waitlist-actions';
import { BookButton } from '@/features/booking/components/book-button';
import { ClassCard } from '@/features/booking/components/class-card';
import { ClassFiltersPanel } from '@/features/booking/components/class-filters-panel';
import { ClassList, EmptyState, ShowMore } from '@/features/booking/components/class-list';
import { PageHeading } from '@/features/booking/components/page-heading';
import { SummaryTiles } from '@/features/booking/components/summary-tiles';
import { isBooked, takesChildren } from '@/features/booking/lib/class-facts';
import { useMyDependants } from '@/features/family/api/dependants';
import { RefreshNote } from '@/app/pwa/refresh-note';

const MINUTE = 60_000;
const SEARCH_SETTLE_MS = 250;

export const EMPTY_WINDOW = 'No classes available in your booking window.';
export const EMPTY_FILTERED = 'No Classes Match Your Filters';

const hasFilters = (f: ClassFilters) => f.search.trim() !== '' || f.date !== 'all' || f.instructor !== '' || f.type !== 'all';

/**
 * /my-schedule: Available Classes. Search, filters and the summary tiles run on the server across
 * every upcoming class, a page at a time; each card shows what the server decided.
 */
export function MyScheduleRoute() {
  const { viewer, ready, memberId } = useViewer();
  const [filters, setFilters] = useState<ClassFilters>(NO_FILTERS);
  // Typing in the search box asks the server once the typing settles, not per keystroke.
  const query = useDebouncedValue(filters, SEARCH_SETTLE_MS);
  const schedule = useClassSchedule(query, viewer, ready);
  const summary = useScheduleSummary(query, ready);
  const waitlist = useWaitlistActions(viewer);
  useLiveUpdates(memberId, ready);
  const now = useNow(MINUTE);
  const { book, pendingClassId, isBooking } = useBookClass();
  // The pressed card turns "Booking..." at once; the others' one-at-a-time disabling follows in a
  // render of its own, so the press's next paint (what INP counts) renders one card, not the list
  // . A second press meanwhile sends nothing (useBookClass).
  const busy = useDeferredValue(isBooking);
  // A parent is asked who is coming on a class that takes children (Book Now opens the form):
  // their children are read once such a class is on the page.
  const family = useMyDependants(schedule.classes.some(takesChildren) ? memberId : null);
  // Until the children are known, such a class opens the form too (it books a parent alone as well).
  const hasChildren = family.data?.length !== 0;

  const state = !ready || schedule.isPending ? 'loading' : schedule.isError ? 'error' : 'ready';
  // The timetable itself is empty only when an unfiltered answer (not a previous filter's) says so.
  const nothingAtAll =
    state === 'ready' && !hasFilters(filters) && !hasFilters(query) && !schedule.isPlaceholderData && schedule.classes.length === 0;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <PageHeading title="Available Classes">Find a class and book your spot. Times are UK time.</PageHeading>
      <RefreshNote className="-mt-5 mb-1" />
      {nothingAtAll ? (
        <EmptyState title={EMPTY_WINDOW} />
      ) : (
        <div className="space-y-6">
          {/* Shown before their figures arrive: appearing later, they would push the list down. */}
          <SummaryTiles
            totalClasses={summary.data?.total_classes}
            availableSpots={summary.data?.available_spots}
            instructors={summary.data?.instructors}
            showing={schedule.classes.length}
          />
          <ClassFiltersPanel filters={filters} instructors={summary.data?.all_instructors ?? []} onChange={setFilters} />
          <ClassList
            label="Available classes"
            status={state}
            classes={schedule.classes}
            onRetry={() => void schedule.refetch()}
            more={<ShowMore query={schedule} />}
            empty={
              <EmptyState title={EMPTY_FILTERED}>
                <p>Try a different search or clear the filters.</p>
              </EmptyState>
            }
            renderCard={(cls: ScheduleClass) => (
              <ScheduleCard
                cls={cls}
                now={now}
                pending={pendingClassId === cls.id}
                busy={busy}
                onBook={book}
                waitlist={waitlist}
                hasChildren={hasChildren}
              />
            )}
          />
          {/* Below the list: appearing once read, it moves nothing the member is looking at. */}
          <AttendancePolicyNote now={now} />
        </div>
      )}
    </section>
  );
}

type ScheduleCardProps = {
  cls: ScheduleClass;
  now: Date;
  pending: boolean;
  busy: boolean;
  onBook: (classId: string) => unknown;
  waitlist: WaitlistActions;
  hasChildren: boolean;
};

/** One card of the list; it renders again only when its own props change (memo). */
const ScheduleCard = memo(function ScheduleCard({ cls, now, pending, busy, onBook, waitlist, hasChildren }: ScheduleCardProps) {
  return (
    <ClassCard
      cls={cls}
      now={now}
      status={isBooked(cls) ? <Badge tone="brand">Booked</Badge> : undefined}
      action={
        <BookButton
          cls={cls}
          pending={pending}
          busy={busy}
          onBook={() => void onBook(cls.id)}
          waitlist={waitlist}
          now={now}
          hasChildren={hasChildren}
        />
      }
    />
  );
});
