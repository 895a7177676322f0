import { ClassesList } from '@/features/admin/components/classes-list';
import { ClosuresPanel } from '@/features/admin/components/closures-panel';

/** /admin (Classes Management): the timetable, then the days the studio is closed. */
export function AdminClassesRoute() {
  return (
    <>
      <ClassesList />
      <ClosuresPanel />
    </>
  );
}
