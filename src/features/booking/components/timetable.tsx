import { useDeferredValue, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { useNow } from '@/hooks/use-now';
import type { ScheduleClass } from '../api/get-class-schedule';
import { isBooked } from '../lib/class-facts';
import { ClassCard } from './class-card';
import { ClassList, EmptyState, ShowMore } from './class-list';

/** Re-read every minute so "Opens in" counts down and a waitlist closes on time while the page is open. */
const MINUTE = 60_000;

/** The classes to show and where their reading stands (useClassSchedule, or a day of it: useDaySchedule). */
export type TimetableSource = {
  classes: ScheduleClass[];
  isPending: boolean;
  isError: boolean;
  refetch: () => Promise<unknown>;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
};

type Props = {
  schedule: TimetableSource;
  /** What a card offers: booking, signing in, the waitlist, or why not. */
  action: (cls: ScheduleClass, now: Date) => ReactNode;
  /** Shown when there are no classes (by default: none upcoming at all). */
  empty?: ReactNode;
};

/** /schedule's cards, whoever is looking: each says what the server decided for this viewer. */
export function Timetable({ schedule, action, empty }: Props) {
  const now = useNow(MINUTE);
  // The cards render in the background, in slices the browser can interrupt: two dozen of them at
  // once held a phone's main thread for a quarter of a second (Lighthouse TBT).
  const classes = useDeferredValue(schedule.classes);
  const firstCardsPending = classes.length === 0 && schedule.classes.length > 0;
  return (
    <ClassList
      label="Upcoming classes"
      status={schedule.isPending || firstCardsPending ? 'loading' : schedule.isError ? 'error' : 'ready'}
      classes={classes}
      onRetry={() => void schedule.refetch()}
      more={<ShowMore query={schedule} />}
      empty={empty ?? <EmptyState title="No upcoming classes">New classes will appear here soon.</EmptyState>}
      renderCard={(cls) => (
        <ClassCard cls={cls} now={now} status={isBooked(cls) ? <Badge tone="brand">Booked</Badge> : undefined} action={action(cls, now)} />
      )}
    />
  );
}
