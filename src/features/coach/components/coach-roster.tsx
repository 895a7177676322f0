import { Link } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { CheckInButton } from '@/components/roster/check-in-button';
import { HealthFlag } from '@/components/roster/health-flag';
import { PlaceDetails } from '@/components/roster/place-details';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useNow } from '@/hooks/use-now';
import { ageOn } from '@/lib/age';
import type { ClassPlace } from '@/lib/class-place';
import { canMarkAttendance } from '@/lib/rules/attendance-window';
import { londonToday } from '@/lib/studio-calendar';
import { formatClassDateTime } from '@/lib/studio-time';
import { useCoachClasses, useCoachMark, useCoachRoster } from '../api/coach';
import { COACH_MESSAGES } from '../lib/coach-words';

const MINUTE = 60_000;

function refusal(error: unknown): string {
  const hint = (error as { hint?: string } | null)?.hint;
  if (hint === 'not_your_class' || hint === 'coach_only') return COACH_MESSAGES.notYourClass;
  if (hint === 'coach_roster_closed') return COACH_MESSAGES.rosterClosed;
  return COACH_MESSAGES.rosterLoadFailed;
}

/**
 * One class's roster for its coach: every place (decision 0035). Tap a name to check that person in
 * (tap again to undo); each person shows their own emergency contact and PAR-Q flag, a child their
 * parent, collector and medical notes, a guest their host and waiver. Print gives the paper register.
 */
export function CoachRoster({ classId }: { classId: string }) {
  const roster = useCoachRoster(classId);
  const classes = useCoachClasses(true);
  const now = useNow(MINUTE);
  const cls = classes.data?.find((c) => c.id === classId);
  // A class the list no longer shows (yesterday's): the database still decides.
  const open = cls ? canMarkAttendance(cls.start_time, now) : true;
  const members = roster.data ?? [];
  const checkedIn = members.filter((r) => r.attendance === 'attended').length;

  return (
    <section aria-labelledby="coach-class-heading">
      <Link to={paths.coach.home} className="text-sm font-semibold text-brand-700 underline print:hidden">
        Back to your classes
      </Link>
      <div className="mt-3 mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="coach-class-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
            {cls ? cls.name : 'Class roster'}
          </h1>
          {cls && <p className="text-slate-600">{formatClassDateTime(cls.start_time)}</p>}
          {roster.data && (
            <p className="text-sm text-slate-600" aria-live="polite">
              {members.length} booked · {checkedIn} checked in
            </p>
          )}
        </div>
        <Button variant="outline" onClick={() => window.print()} className="print:hidden">
          Print register
        </Button>
      </div>
      {roster.isPending ? (
        <Spinner label="Loading the roster" />
      ) : roster.isError ? (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {refusal(roster.error)}
        </p>
      ) : roster.data.length === 0 ? (
        <p className="text-slate-600">{COACH_MESSAGES.noBookings}</p>
      ) : (
        <>
          {!open && (
            <p className="mb-3 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-800 print:hidden">{COACH_MESSAGES.attendanceTooEarly}</p>
          )}
          <p className="mb-3 text-xs text-slate-600">{COACH_MESSAGES.healthNote}</p>
          <ul className="space-y-3">
            {roster.data.map((entry) => (
              <RosterPerson key={entry.place_id} classId={classId} entry={entry} open={open} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function RosterPerson({ classId, entry, open }: { classId: string; entry: ClassPlace; open: boolean }) {
  const mark = useCoachMark();
  const checkedIn = entry.attendance === 'attended';

  function tap() {
    if (mark.isPending) return;
    mark.mutate(
      { classId, placeId: entry.place_id, status: checkedIn ? null : 'attended' },
      {
        onError: (error) =>
          toast.error(
            (error as { hint?: string }).hint === 'attendance_too_early'
              ? COACH_MESSAGES.attendanceTooEarly
              : COACH_MESSAGES.attendanceFailed,
          ),
      },
    );
  }

  const contact =
    entry.emergency_contact_name || entry.emergency_contact_phone
      ? `${entry.emergency_contact_name ?? ''} ${entry.emergency_contact_phone ?? ''}`.trim()
      : null;

  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm break-inside-avoid">
      <CheckInButton
        name={entry.name}
        attendance={entry.attendance ?? null}
        note={entry.pending ? ' (payment pending)' : undefined}
        disabled={!open || mark.isPending}
        onClick={tap}
      />
      <PlaceDetails place={entry} />
      {entry.kind !== 'guest' && (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-600">{entry.kind === 'child' ? "Parent's emergency contact" : 'Emergency contact'}</dt>
          <dd>{contact ?? 'None given'}</dd>
          <dt className="text-slate-600">{entry.kind === 'child' ? "Parent's phone" : 'Phone'}</dt>
          <dd>{entry.phone ?? '—'}</dd>
          {entry.date_of_birth && (
            <>
              <dt className="text-slate-600">Age</dt>
              <dd>{ageOn(entry.date_of_birth, londonToday())}</dd>
            </>
          )}
          <dt className="text-slate-600">Health</dt>
          <dd>
            <HealthFlag flag={entry.health_flag} yes={entry.health_yes} details={entry.health_details} />
          </dd>
        </dl>
      )}
    </li>
  );
}
