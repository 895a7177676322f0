import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextAreaField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { formatPounds } from '@/config/plans';
import { PanelSection } from './panel-section';
import { formatClassDateTime } from '@/lib/studio-time';
import { toast } from '@/lib/toast';
import {
  attendanceErrorText,
  useAttendanceIncidents,
  useWaiveAttendance,
  waiveSchema,
  type AttendanceIncident,
  type WaiveForm,
} from '../api/attendance';
import { FEE_STATE_TEXT, INCIDENT_KIND_TEXT } from '@/lib/attendance-policy';

/** States an admin may still waive: anything not waived already. */
const WAIVABLE = new Set(['strike', 'due', 'charged', 'owed']);

/**
 * Late cancellations and no-shows under the attendance policy (decision 0080), newest first, each
 * with its fee's state; an admin waives one with a reason (a charged fee is then owed back and
 * appears under Refunds owed).
 */
export function AttendanceIncidentsPanel() {
  const incidents = useAttendanceIncidents(null);
  const [waiving, setWaiving] = useState<AttendanceIncident | null>(null);
  const rows = incidents.data ?? [];
  return (
    <PanelSection
      id="attendance-incidents-heading"
      title="Late cancellations and no-shows"
      intro="Recorded under the attendance policy. Waiving one stops it counting as a strike; a fee not yet charged is never charged, and one already charged is owed back."
    >
      <div className="p-4">
        {incidents.isPending && <Spinner label="Loading late cancellations and no-shows" />}
        {incidents.isError && (
          <p role="alert" className="text-red-700">
            Failed to load late cancellations and no-shows
          </p>
        )}
        {incidents.isSuccess && rows.length === 0 && <p className="text-slate-600">None recorded.</p>}
        {rows.length > 0 && (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Member
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    What
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Class
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-medium">
                    Fee
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    State
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td className="py-2 pr-4 font-medium text-slate-900">{r.memberName}</td>
                    <td className="py-2 pr-4 text-slate-700">{INCIDENT_KIND_TEXT[r.kind] ?? r.kind}</td>
                    <td className="py-2 pr-4 text-slate-700">
                      {r.className}, {formatClassDateTime(r.classStartTime)}
                    </td>
                    <td className="py-2 pr-4 text-right tabular-nums">{r.fee === null ? '—' : formatPounds(r.fee)}</td>
                    <td className="py-2 pr-4 text-slate-700">
                      {FEE_STATE_TEXT[r.feeState] ?? r.feeState}
                      {r.waiveReason && <span className="block text-xs text-slate-500">{r.waiveReason}</span>}
                    </td>
                    <td className="py-2 text-right">
                      {WAIVABLE.has(r.feeState) && (
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Waive: ${r.memberName}, ${r.className}`}
                          onClick={() => setWaiving(r)}
                        >
                          Waive
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      {waiving && <WaiveDialog incident={waiving} onClose={() => setWaiving(null)} />}
    </PanelSection>
  );
}

function WaiveDialog({ incident, onClose }: { incident: AttendanceIncident; onClose: () => void }) {
  const waive = useWaiveAttendance();
  const { register, handleSubmit, formState } = useForm<WaiveForm>({ resolver: zodResolver(waiveSchema), defaultValues: { reason: '' } });
  const what = `${INCIDENT_KIND_TEXT[incident.kind] ?? incident.kind}: ${incident.className}`;
  const submit = handleSubmit(async (form) => {
    try {
      await waive.mutateAsync({ incidentId: incident.id, form });
      toast.success(incident.feeState === 'charged' ? 'Waived: the fee is owed back under Refunds owed' : 'Waived');
      onClose();
    } catch (error) {
      toast.error(attendanceErrorText(error, 'Could not waive it. Please try again.'));
    }
  });
  return (
    <Modal open onClose={onClose} title={`Waive for ${incident.memberName}`} description={what}>
      <form noValidate aria-label="Waive" onSubmit={(ev) => void submit(ev)} className="space-y-4">
        <TextAreaField label="Reason" {...register('reason')} error={formState.errors.reason?.message} />
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="outline" onClick={onClose}>
            Back
          </Button>
          <Button type="submit" loading={waive.isPending}>
            Waive
          </Button>
        </div>
      </form>
    </Modal>
  );
}
