import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useNow } from '@/hooks/use-now';
import { useBookClass } from '../api/use-book-class';
import { useClassSchedule, useLiveSchedule, useScheduleSummary, type ScheduleClass } from '../api/get-class-schedule';
import { BookButton } from '../components/book-button';
import { ClassCard } from '../components/class-card';
import { ClassFiltersPanel } from '../components/class-filters-panel';
import { ClassList, ShowMore, EmptyState } from '../components/class-list';
import { PageHeading } from '../components/page-heading';
import { SummaryTiles } from '../components/summary-tiles';
import { useScheduleViewer } from '../hooks/use-schedule-viewer';
import { useWaitlist } from '../hooks/use-waitlist';
import { isBooked } from '../lib/class-facts';
import { NO_FILTERS, type ClassFilters } from '../lib/class-filters';

const MINUTE = 60_000;
const SEARCH_SETTLE_MS = 250;

export const EMPTY_WINDOW = 'No classes available in your booking window.';
export const EMPTY_FILTERED = 'No Classes Match Your Filters';

const hasFilters = (f: ClassFilters) => f.search.trim() !== '' || f.date !== 'all' || f.instructor !== '' || f.type !== 'all';

/**
 * /my-schedule: Available Classes. Search, filters and the summary tiles run on the server across
 * every upcoming class (issue 12), a page at a time; each card shows what the server decided.
 */
export function AvailableClassesPage() {
  const { viewer, ready, memberId, holds } = useScheduleViewer();
  const [filters, setFilters] = useState<ClassFilters>(NO_FILTERS);
  // Typing in the search box asks the server once the typing settles, not per keystroke.
  const query = useDebouncedValue(filters, SEARCH_SETTLE_MS);
  const schedule = useClassSchedule(query, viewer, ready);
  const summary = useScheduleSummary(query, ready);
  const waitlist = useWaitlist(memberId, { isBooked: holds });
  useLiveSchedule(ready, waitlist.classChanged);
  const now = useNow(MINUTE);
  const { book, pendingClassId, isBooking } = useBookClass();

  const state = !ready || schedule.isPending ? 'loading' : schedule.isError ? 'error' : 'ready';
  // The timetable itself is empty only when an unfiltered answer (not a previous filter's) says so.
  const nothingAtAll = state === 'ready' && !hasFilters(filters) && !hasFilters(query) && !schedule.isPlaceholderData && schedule.classes.length === 0;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <PageHeading title="Available Classes">Find a class and book your spot. Times are UK time.</PageHeading>
      {nothingAtAll ? (
        <EmptyState title={EMPTY_WINDOW} />
      ) : (
        <div className="space-y-6">
          {summary.data && (
            <SummaryTiles
              totalClasses={summary.data.total_classes}
              availableSpots={summary.data.available_spots}
              instructors={summary.data.instructors}
              showing={schedule.classes.length}
            />
          )}
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
              <ClassCard
                cls={cls}
                now={now}
                status={isBooked(cls) ? <Badge tone="brand">Booked</Badge> : undefined}
                action={
                  <BookButton
                    cls={cls}
                    pending={pendingClassId === cls.id}
                    busy={isBooking}
                    onBook={() => void book(cls.id)}
                    waitlist={waitlist.controlFor(cls, now)}
                  />
                }
              />
            )}
          />
        </div>
      )}
    </section>
  );
}
