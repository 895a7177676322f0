import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { toast } from '@/lib/toast';
import { CalendarDays, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { ClassRow } from '@/lib/supabase';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useClassesPage } from '../api/get-classes';
import { useDeleteClass } from '../api/delete-class';
import { usePaidBookingsCheck } from '../api/get-paid-bookings-affected';
import { ClassesTable } from './classes-table';
import { EmptyState } from './empty-state';
import { TablePanel } from './table-panel';
import { PageHeading } from './page-heading';
import { ListFooter } from './list-footer';
import { ADMIN_MESSAGES } from '../lib/messages';
import { confirmThenMutate } from '../lib/confirm-then-mutate';
import { paidBookingsWarning, REFUND_MESSAGES } from '../lib/refund-words';

// The dialogs (and the form's zod) load when one opens, not with the list.
const ClassFormDialog = lazy(() => import('./class-form-dialog').then((m) => ({ default: m.ClassFormDialog })));
const RosterDialog = lazy(() => import('./roster-dialog').then((m) => ({ default: m.RosterDialog })));

type Dialog = { open: false } | { open: true; editing: ClassRow | null };

/**
 * Classes Management's timetable (spec section 2): upcoming classes by default (the ones an admin
 * acts on), past ones on request, newest first; Add / Edit, Delete and the roster. `toolbar` sits
 * beside "Show past classes". `onShown` is called once the first page is on screen (or failed).
 */
export function ClassesList({ toolbar, onShown }: { toolbar?: ReactNode; onShown?: () => void }) {
  const [showPast, setShowPast] = useState(false);
  const [page, setPage] = useState(0);
  const list = useClassesPage(page, showPast);
  useEffect(() => {
    if (!list.isPending) onShown?.();
  }, [list.isPending, onShown]);
  const deleteClass = useDeleteClass();
  const paidBookings = usePaidBookingsCheck();
  const [dialog, setDialog] = useState<Dialog>({ open: false });
  const [roster, setRoster] = useState<ClassRow | null>(null);
  useErrorToast(list.isError, ADMIN_MESSAGES.classesLoadFailed);

  async function remove(row: ClassRow) {
    // Decision 0010: the admin learns how many paid bookings become refunds owed before confirming.
    const paid = await paidBookings(row.id).catch(() => null);
    if (paid === null) return void toast.error(REFUND_MESSAGES.checkFailed);
    const warning = paidBookingsWarning('Deleting this class', paid);
    confirmThenMutate(`Delete ${row.name}? Its bookings are cancelled too.${warning ? `\n\n${warning}` : ''}`, deleteClass, row.id, {
      success: ADMIN_MESSAGES.classDeleted,
      failure: ADMIN_MESSAGES.classDeleteFailed,
    });
  }

  const state = list.isPending
    ? { status: 'loading' as const }
    : list.isError
      ? { status: 'error' as const }
      : { status: 'ready' as const, ...list.data };

  return (
    <section>
      <PageHeading
        title="Classes Management"
        action={
          <Button onClick={() => setDialog({ open: true, editing: null })}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            Add Class
          </Button>
        }
      />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-x-6 gap-y-2">
        <label className="inline-flex min-h-11 items-center gap-2 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300 text-brand-600 focus-visible:ring-2 focus-visible:ring-brand-600"
            checked={showPast}
            onChange={(e) => {
              setShowPast(e.target.checked);
              setPage(0);
            }}
          />
          Show past classes
        </label>
        {toolbar}
      </div>
      <TablePanel>
        {state.status === 'loading' && <Spinner label="Loading classes" />}
        {state.status === 'ready' && state.total === 0 && (
          <EmptyState
            title="No classes yet"
            body="Get started by creating your first class"
            icon={<CalendarDays aria-hidden="true" className="h-10 w-10" />}
          />
        )}
        {state.status === 'ready' && state.rows.length > 0 && (
          <ClassesTable
            classes={state.rows}
            onEdit={(row) => setDialog({ open: true, editing: row })}
            onDelete={(row) => void remove(row)}
            onRoster={setRoster}
          />
        )}
        {state.status === 'ready' && state.total > 0 && (
          <ListFooter shown={state.rows.length} total={state.total} noun="classes" page={page} onPage={setPage} />
        )}
        {state.status === 'error' && <EmptyState title={ADMIN_MESSAGES.classesLoadFailed} body="Refresh the page to try again." />}
      </TablePanel>
      <Suspense fallback={null}>
        {roster && <RosterDialog cls={roster} onClose={() => setRoster(null)} />}
        {dialog.open && (
          <ClassFormDialog
            open
            editing={dialog.editing}
            onClose={() => setDialog({ open: false })}
            onSaved={() => setDialog({ open: false })}
          />
        )}
      </Suspense>
    </section>
  );
}
