import { useMemo, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import type { ScheduleClass } from '../api/get-class-schedule';
import { CLASSES_LOAD_FAILED } from '../lib/schedule-messages';
import { groupByDay } from '../lib/class-days';
import { CardFocusContext, useCardFocusState } from './card-focus';

type Props = {
  status: 'loading' | 'error' | 'ready';
  classes: ScheduleClass[];
  /** Shown instead of the days when there are no classes. */
  empty: ReactNode;
  onRetry: () => void;
  /** "Show more" while more classes follow, else null. */
  more: ReactNode;
  renderCard: (cls: ScheduleClass) => ReactNode;
  label: string;
};

/** Card and day-heading heights the skeleton reserves, so the loaded list does not shift the page. */
const CARD_HEIGHT = 'min-h-[19rem]';
const DAY_HEADING = 'mb-3 h-7 text-xl font-bold text-slate-900';
/**
 * A card below the first screen is neither styled nor laid out until it comes near the screen (its
 * place kept at a card's height): laying out two dozen cards at once was a phone's longest task
 * on /schedule. The first screen's cards render at once, so a card whose height differs
 * from the placeholder's never moves one in view. The clip margin keeps the card's shadow, which
 * paint containment would otherwise cut at the edge.
 */
// Its 19rem is CARD_HEIGHT's: Tailwind reads class names whole, so the value is written twice.
const CARD_RENDERED_WHEN_NEAR = '[content-visibility:auto] [contain-intrinsic-size:auto_19rem] [overflow-clip-margin:0.5rem]';
/** Cards that can be on the first screen: two rows of three on a desktop, more than a phone shows. */
const FIRST_SCREEN_CARDS = 6;
/** The most cards a row holds (three on a desktop). */
const LAST_ROW_CARDS = 3;

/** Placeholder days and cards while the classes load (fixed heights: nothing jumps when they arrive). */
export function ClassListSkeleton() {
  return (
    <div role="status" aria-live="polite" aria-label="Loading classes">
      <span className="sr-only">Loading classes</span>
      <div aria-hidden="true">
        <div className={`${DAY_HEADING} w-48 animate-pulse rounded bg-slate-200`} />
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className={`${CARD_HEIGHT} animate-pulse rounded-2xl border border-slate-200 bg-white`} />
          ))}
        </div>
      </div>
    </div>
  );
}

/** The class cards grouped under a heading per day, with loading, error, empty and Show more. */
export function ClassList({ status, classes, empty, onRetry, more, renderCard, label }: Props) {
  // The card whose action was pressed keeps keyboard focus through the change (card-focus.ts).
  const cardFocus = useCardFocusState();
  // Grouped once per answer, not on every render (a press on one card re-renders the list;).
  const days = useMemo(() => groupByDay(classes), [classes]);
  // The first screen's cards, and the last row's: a skipped card is laid out at 19rem even when
  // its content is taller, so a tall last card would reach over "Show more" below it.
  const laidOut = useMemo(
    () => new Set([...classes.slice(0, FIRST_SCREEN_CARDS), ...classes.slice(-LAST_ROW_CARDS)].map((cls) => cls.id)),
    [classes],
  );
  if (status === 'loading') return <ClassListSkeleton />;
  if (status === 'error') {
    return (
      <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-center">
        <p className="font-semibold text-red-800">{CLASSES_LOAD_FAILED}</p>
        <Button variant="outline" className="mt-4" onClick={onRetry}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-8">
      {classes.length === 0 ? (
        empty
      ) : (
        <CardFocusContext.Provider value={cardFocus}>
          <ul aria-label={label} className="space-y-8">
            {days.map((day) => (
              <li key={day.key}>
                <h2 className={DAY_HEADING}>{day.heading}</h2>
                <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                  {day.classes.map((cls) => (
                    <li key={cls.id} className={cn(CARD_HEIGHT, !laidOut.has(cls.id) && CARD_RENDERED_WHEN_NEAR)}>
                      {renderCard(cls)}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </CardFocusContext.Provider>
      )}
      {more && <div className="flex justify-center">{more}</div>}
    </div>
  );
}

/** An empty state panel. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
      <p className="text-lg font-semibold text-slate-900">{title}</p>
      {children && <div className="mt-2 text-slate-600">{children}</div>}
    </div>
  );
}

/** "Show more" while the server has another page of classes. */
export function ShowMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}) {
  if (!query.hasNextPage) return null;
  return (
    <Button variant="outline" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
      {query.isFetchingNextPage ? 'Loading...' : 'Show more'}
    </Button>
  );
}
