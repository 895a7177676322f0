import { lazy, Suspense, useCallback, useState } from 'react';
import { CalendarOff } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { WhenVisible } from '@/components/ui/when-visible';
import { ClassesList } from '@/features/admin/components/classes-list';
import { CLOSURES_ANCHOR } from '@/features/admin/lib/messages';

// Below the timetable, with its form (and zod, 38 KB gzip): it loads when the admin scrolls or
// jumps to it, not with the first screen.
const ClosuresPanel = lazy(() => import('@/features/admin/components/closures-panel').then((m) => ({ default: m.ClosuresPanel })));

/** /admin (Classes Management): the timetable, then the days the studio is closed (linked from the top). */
export function AdminClassesRoute() {
  // The closures wait for the timetable above them (they would load and shift on screen meanwhile).
  const [listShown, setListShown] = useState(false);
  const showList = useCallback(() => setListShown(true), []);
  return (
    <>
      <ClassesList
        onShown={showList}
        toolbar={
          <a
            href={`#${CLOSURES_ANCHOR}`}
            className="inline-flex min-h-11 items-center gap-2 text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            <CalendarOff aria-hidden="true" className="h-4 w-4" />
            Studio closures
          </a>
        }
      />
      {/* Below the timetable once it is on screen: shown earlier, the list arriving above it would
          push it down (a layout shift). */}
      {listShown && (
        <section aria-labelledby={CLOSURES_ANCHOR} className="mt-10 scroll-mt-6">
          <h2 id={CLOSURES_ANCHOR} className="text-xl font-bold text-slate-900">
            Studio Closures
          </h2>
          <p className="mb-4 mt-1 text-sm text-slate-600">Days the studio is closed. Generate Classes skips them.</p>
          <WhenVisible minHeight="20rem">
            <Suspense fallback={<Spinner label="Loading closures" />}>
              <ClosuresPanel />
            </Suspense>
          </WhenVisible>
        </section>
      )}
    </>
  );
}
