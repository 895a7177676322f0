import { toast } from '@/lib/toast';
import { Spinner } from '@/components/ui/spinner';
import { CheckInButton } from '@/components/roster/check-in-button';
import { useNow } from '@/hooks/use-now';
import { useErrorToast } from '@/hooks/use-error-toast';
import { placeLabel } from '@/lib/class-place';
import { formatClassTime } from '@/lib/studio-time';
import { useCheckInMark, useCheckInSheet, useDoorCode, type CheckInClass, type CheckInEntry } from '../api/check-in-sheet';
import { ADMIN_MESSAGES } from '../lib/messages';
import { attendanceRefusal, canMarkAttendance, rosterCounts } from '../lib/attendance';
import { EmptyState } from './empty-state';

const MINUTE = 60_000;

/** Today's door code, for the studio to put up at the door (members enter it on /check-in). */
export function DoorCode() {
  const code = useDoorCode();
  return (
    <section aria-labelledby="door-code-heading" className="mb-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="door-code-heading" className="text-sm font-semibold text-slate-600">
        Today&apos;s door code
      </h2>
      {code.isPending && <Spinner label="Loading the door code" />}
      {code.isError && <p className="mt-1 text-sm text-red-700">{ADMIN_MESSAGES.doorCodeFailed}</p>}
      {code.data && <p className="mt-1 font-mono text-4xl font-bold tracking-[0.3em] text-slate-900">{code.data}</p>}
      <p className="mt-2 text-sm text-slate-600">
        Members enter it on their phone at Check in, from 30 minutes before their class until 30 minutes after it starts.
      </p>
    </section>
  );
}

/**
 * Today's classes with every place (decision 0035); tapping a name checks that person in (tap again
 * to undo) through `mark_attendance`: a member, a child (with their parent) or a guest (with their host).
 */
export function CheckInSheet() {
  const sheet = useCheckInSheet();
  useErrorToast(sheet.isError, ADMIN_MESSAGES.checkInLoadFailed);
  const now = useNow(MINUTE);
  if (sheet.isPending) return <Spinner label="Loading today's classes" />;
  if (sheet.isError) return <EmptyState title={ADMIN_MESSAGES.checkInLoadFailed} body="Refresh the page to try again." />;
  if (sheet.data.length === 0) return <EmptyState title="No classes today" body="Classes on today's timetable appear here." />;
  return (
    <div className="space-y-6">
      {sheet.data.map((cls) => (
        <ClassCheckIn key={cls.id} cls={cls} open={canMarkAttendance(cls.startTime, now)} />
      ))}
    </div>
  );
}

function ClassCheckIn({ cls, open }: { cls: CheckInClass; open: boolean }) {
  const mark = useCheckInMark();
  const savingId = mark.isPending ? mark.variables.placeId : null;
  const counts = rosterCounts(cls.entries);
  const headingId = `check-in-${cls.id}`;

  function tap(entry: CheckInEntry) {
    if (savingId) return;
    mark.mutate(
      { classId: cls.id, placeId: entry.place_id, status: entry.attendance === 'attended' ? null : 'attended' },
      {
        onError: (error) => toast.error(attendanceRefusal(error)),
      },
    );
  }

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-bold text-slate-900">
          {formatClassTime(cls.startTime)} {cls.name}
        </h2>
        <p className="text-sm text-slate-600" aria-live="polite">
          {cls.trainer} · {counts.booked} booked · {counts.attended} checked in · {counts.noShow} no-show
        </p>
      </div>
      {!open && <p className="mb-3 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-800">{ADMIN_MESSAGES.attendanceTooEarly}</p>}
      {cls.entries.length === 0 ? (
        <p className="text-sm text-slate-600">No bookings for this class.</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {cls.entries.map((entry) => (
            <li key={entry.place_id}>
              <CheckInButton
                name={placeLabel(entry)}
                attendance={entry.attendance ?? null}
                disabled={!open || savingId !== null}
                onClick={() => tap(entry)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
