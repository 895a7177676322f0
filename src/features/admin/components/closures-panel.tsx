import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/lib/toast';
import { format, parseISO } from 'date-fns';
import { CalendarOff, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useErrorToast } from '@/hooks/use-error-toast';
import { closureFormSchema, useAddClosure, type ClosureForm } from '../api/add-closure';
import { useUpcomingClosures, type StudioClosure } from '../api/get-closures';
import { useRemoveClosure } from '../api/remove-closure';
import { ADMIN_MESSAGES } from '../lib/messages';
import { confirmThenMutate } from '../lib/confirm-then-mutate';
import { DATE_FORMATS, londonToday } from '@/lib/studio-calendar';
import { EmptyState } from './empty-state';
import { RowDangerButton } from './row-danger-button';
import { TablePanel } from './table-panel';

/** 'Mon 1 Dec 2025': a closure is a calendar date, not an instant. */
const formatDay = (date: string) => format(parseISO(date), DATE_FORMATS.weekdayDate);

/**
 * Studio closures, under the /admin page's "Studio Closures" heading: days the hall is shut. Adding one cancels that day's classes and
 * emails their booked members (the server does both and says how many); Generate Classes skips them.
 */
export function ClosuresPanel() {
  const closures = useUpcomingClosures();
  const removeClosure = useRemoveClosure();
  useErrorToast(closures.isError, ADMIN_MESSAGES.closuresLoadFailed);

  function remove(closure: StudioClosure) {
    confirmThenMutate(
      `Reopen the studio on ${formatDay(closure.closed_on)}? Cancelled classes are not restored.`,
      removeClosure,
      closure.id,
      {
        success: ADMIN_MESSAGES.closureRemoved,
        failure: (error) => error.message || ADMIN_MESSAGES.closureRemoveFailed,
      },
    );
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-3">
      <AddClosureForm />
      <TablePanel className="lg:col-span-2">
        {closures.isPending && <Spinner label="Loading closures" />}
        {closures.isError && <EmptyState title={ADMIN_MESSAGES.closuresLoadFailed} body="Refresh the page to try again." />}
        {closures.data?.length === 0 && (
          <EmptyState
            title="No closures planned"
            body="Add a date when the hall is shut."
            icon={<CalendarOff aria-hidden="true" className="h-10 w-10" />}
          />
        )}
        {closures.data && closures.data.length > 0 && (
          <ul aria-label="Upcoming closures" className="divide-y divide-slate-100">
            {closures.data.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="font-semibold text-slate-900">{formatDay(c.closed_on)}</p>
                  <p className="text-sm text-slate-600">{c.reason || '—'}</p>
                </div>
                <RowDangerButton
                  label={`Remove closure on ${formatDay(c.closed_on)}`}
                  icon={<Trash2 aria-hidden="true" className="h-4 w-4" />}
                  onClick={() => remove(c)}
                >
                  Remove
                </RowDangerButton>
              </li>
            ))}
          </ul>
        )}
      </TablePanel>
    </div>
  );
}

function AddClosureForm() {
  const addClosure = useAddClosure();
  const { register, handleSubmit, reset, formState } = useForm<ClosureForm>({
    resolver: zodResolver(closureFormSchema),
    defaultValues: { closedOn: '', reason: '' },
  });

  const submit = handleSubmit((values) => {
    if (!window.confirm(ADMIN_MESSAGES.closureConfirm(formatDay(values.closedOn)))) return;
    addClosure.mutate(values, {
      onSuccess: (result) => {
        toast.success(ADMIN_MESSAGES.closureAdded(result.cancelled_classes, result.affected_bookings));
        reset();
      },
      // The server's refusal (not an admin, a past date, already closed) is shown as it says it.
      onError: (error) => toast.error(error.message),
    });
  });

  return (
    <form
      noValidate
      aria-label="Add a closure"
      onSubmit={(e) => void submit(e)}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <TextField
        label="Date"
        type="date"
        min={londonToday()}
        required
        error={formState.errors.closedOn?.message}
        {...register('closedOn')}
      />
      <TextField
        label="Reason"
        required
        placeholder="e.g. Hall booked for an election"
        error={formState.errors.reason?.message}
        {...register('reason')}
      />
      <p className="text-sm text-slate-600">Classes on that day are cancelled and their booked members are emailed.</p>
      <Button type="submit" loading={addClosure.isPending} className="w-full">
        {addClosure.isPending ? 'Adding...' : 'Add Closure'}
      </Button>
    </form>
  );
}
