import { useState } from 'react';
import toast from 'react-hot-toast';
import { CalendarDays, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { ClassRow } from '@/lib/supabase';
import { useClasses } from '../api/get-classes';
import { deleteClass } from '../api/delete-class';
import { ClassesTable } from '../components/classes-table';
import { ClassFormDialog } from '../components/class-form-dialog';
import { EmptyState } from '../components/empty-state';
import { TablePanel } from '../components/table-panel';
import { PageHeading } from '../components/page-heading';
import { ADMIN_MESSAGES } from '../messages';

type Dialog = { open: false } | { open: true; editing: ClassRow | null };

export function ClassesManagementPage() {
  const { state, reload, setData } = useClasses();
  const [dialog, setDialog] = useState<Dialog>({ open: false });

  async function remove(row: ClassRow) {
    if (!window.confirm(`Delete ${row.name}? Its bookings are cancelled too.`)) return;
    try {
      await deleteClass(row.id);
      setData((rows) => rows.filter((r) => r.id !== row.id));
      toast.success(ADMIN_MESSAGES.classDeleted);
    } catch {
      toast.error(ADMIN_MESSAGES.classDeleteFailed);
    }
  }

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
      <TablePanel>
        {state.status === 'loading' && <Spinner label="Loading classes" />}
        {state.status === 'ready' && state.data.length === 0 && (
          <EmptyState title="No classes yet" body="Get started by creating your first class" icon={<CalendarDays aria-hidden="true" className="h-10 w-10" />} />
        )}
        {state.status === 'ready' && state.data.length > 0 && (
          <ClassesTable classes={state.data} onEdit={(row) => setDialog({ open: true, editing: row })} onDelete={(row) => void remove(row)} />
        )}
        {state.status === 'error' && <EmptyState title={ADMIN_MESSAGES.classesLoadFailed} body="Refresh the page to try again." />}
      </TablePanel>
      <ClassFormDialog
        open={dialog.open}
        editing={dialog.open ? dialog.editing : null}
        onClose={() => setDialog({ open: false })}
        onSaved={() => {
          setDialog({ open: false });
          reload();
        }}
      />
    </section>
  );
}
