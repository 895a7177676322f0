import { lazy, Suspense } from 'react';
import { CalendarOff } from 'lucide-react';
import { ClassesList } from '@/features/admin/components/classes-list';
import { CLOSURES_ANCHOR } from '@/features/admin/lib/messages';

// Below the timetable, with its form (and zod): it loads beside the list rather than before it (issue 29).
const ClosuresPanel = lazy(() => import('@/features/admin/components/closures-panel').then((m) => ({ default: m.ClosuresPanel })));

/** /admin (Classes Management): the timetable, then the days the studio is closed (linked from the top). */
export function AdminClassesRoute() {
  return (
    <>
      <ClassesList
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
      <Suspense fallback={null}>
        <ClosuresPanel />
      </Suspense>
    </>
  );
}
