import { toast } from '@/lib/toast';
import { GuestWaiverFlag } from '@/components/roster/guest-waiver-flag';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/components/ui/cn';
import { useNow } from '@/hooks/use-now';
import { BOOKING_TYPE_LABELS, type BookingType } from '@/config/booking-types';
import type { ClassRow } from '@/lib/supabase';
import { formatClassTime, studioDayKey } from '@/lib/studio-time';
import { ageOn } from '@/lib/age';
import { useErrorToast } from '@/hooks/use-error-toast';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useClassRegister } from '../api/get-class-register';
import { useClassRoster, type Attendance, type RosterEntry } from '../api/get-class-roster';
import { useMarkAttendance } from '../api/mark-attendance';
import { ADMIN_MESSAGES } from '../lib/messages';
import { ATTENDANCE_LABELS, canMarkAttendance, rosterCounts } from '../lib/attendance';
import { formatInLondon } from '@/lib/studio-calendar';
import { ADMIN_DATE_FORMAT } from './classes-table';
import { EmptyState } from './empty-state';

const MINUTE = 60_000;
const MARKS: Attendance[] = ['attended', 'no_show'];

/** A class's roster (issue 9): who booked, and Attended / No-show marks through `mark_attendance`. */
export function RosterDialog({ cls, onClose }: { cls: ClassRow | null; onClose: () => void }) {
  return (
    <Modal
      open={cls !== null}
      onClose={onClose}
      title={cls ? `Roster: ${cls.name}` : 'Roster'}
      description={
        cls ? `${formatInLondon(cls.start_time, ADMIN_DATE_FORMAT)} at ${formatClassTime(cls.start_time)} · ${cls.trainer}` : undefined
      }
      className="max-w-2xl"
    >
      {cls && <Roster cls={cls} />}
    </Modal>
  );
}

function Roster({ cls }: { cls: ClassRow }) {
  const roster = useClassRoster(cls.id);
  // The PAR-Q flags (issue 27): a member who answered yes is flagged so the coach can ask.
  const register = useClassRegister(cls.id);
  const flagged = new Set(register.data?.filter((r) => r.health_flag).map((r) => r.booking_id));
  // Each guest's waiver, signed from their email's link (issue 27): unknown until the register loads.
  const guestSigned = new Map(register.data?.flatMap((r) => (r.guest_place_id ? [[r.guest_place_id, r.documents_current] as const] : [])));
  const markAttendance = useMarkAttendance();
  const savingId = markAttendance.isPending ? markAttendance.variables.bookingId : null;
  useErrorToast(roster.isError, ADMIN_MESSAGES.rosterLoadFailed);
  const now = useNow(MINUTE);
  const open = canMarkAttendance(cls.start_time, now);
  // A child's age on the class's day (family accounts).
  const today = studioDayKey(cls.start_time);

  function mark(entry: RosterEntry, status: Attendance) {
    if (savingId) return;
    // Pressing the mark a booking already has clears it.
    const next = entry.attendance === status ? null : status;
    markAttendance.mutate(
      { classId: cls.id, bookingId: entry.bookingId, status: next },
      {
        onError: (error) =>
          toast.error((error as { hint?: string }).hint === 'attendance_too_early' ? error.message : ADMIN_MESSAGES.attendanceFailed),
      },
    );
  }

  if (roster.isPending) return <Spinner label="Loading roster" />;
  if (roster.isError) return <EmptyState title={ADMIN_MESSAGES.rosterLoadFailed} body="Close and open the roster to try again." />;
  const entries = roster.data;
  if (entries.length === 0) return <EmptyState title="No bookings for this class" body="Members who book will appear here." />;
  const counts = rosterCounts(entries);

  return (
    <div>
      <p className="mb-4 text-sm text-slate-700" aria-live="polite">
        {counts.booked} booked · {counts.attended} attended · {counts.noShow} no-show · {counts.unmarked} not marked
      </p>
      <Link to={paths.admin.register.href(cls.id)} className="mb-4 inline-block text-sm font-medium text-brand-700 underline">
        Printable register with emergency contacts
      </Link>
      {!open && <p className="mb-4 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-800">{ADMIN_MESSAGES.attendanceTooEarly}</p>}
      <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
        {entries.map((entry) => {
          const who = entry.child?.name ?? (entry.member.name || entry.member.email);
          return (
            <li key={entry.bookingId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <div className="font-semibold text-slate-900">
                  {entry.child ? entry.child.name : entry.member.name || '—'}
                  {entry.child && (
                    <span className="ml-2 text-xs font-normal text-slate-600">age {ageOn(entry.child.dateOfBirth, today)}</span>
                  )}
                  {flagged.has(entry.bookingId) && (
                    <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">
                      Health: ask before class
                    </span>
                  )}
                </div>
                {entry.child && (
                  <div className="text-xs text-slate-700">
                    Child of {entry.member.name || entry.member.email}
                    {entry.member.phone && ` · ${entry.member.phone}`} · Collected by: {entry.child.collectedBy ?? 'the parent'}
                    {entry.child.medicalNotes && ` · Medical notes: ${entry.child.medicalNotes}`}
                  </div>
                )}
                <div className="truncate text-xs text-slate-500">
                  {entry.member.email} · {BOOKING_TYPE_LABELS[entry.type as BookingType] ?? entry.type}
                  {entry.paymentStatus === 'pending' && ' · payment pending'}
                </div>
              </div>
              <div role="group" aria-label={`Attendance of ${who}`} className="flex gap-2">
                {MARKS.map((status) => {
                  const pressed = entry.attendance === status;
                  return (
                    <button
                      key={status}
                      type="button"
                      aria-pressed={pressed}
                      aria-label={`${ATTENDANCE_LABELS[status]}: ${who}`}
                      disabled={!open || savingId !== null}
                      onClick={() => mark(entry, status)}
                      className={cn(
                        'inline-flex min-h-10 items-center rounded-lg border px-3 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60',
                        pressed
                          ? status === 'attended'
                            ? 'border-green-700 bg-green-700 text-white'
                            : 'border-red-700 bg-red-700 text-white'
                          : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
                      )}
                    >
                      {pressed && <span aria-hidden="true">✓&nbsp;</span>}
                      {ATTENDANCE_LABELS[status]}
                    </button>
                  );
                })}
              </div>
            </li>
          );
        })}
        {entries.flatMap((entry) =>
          entry.guests.map((guest) => (
            <li key={guest.id} className="px-4 py-3">
              <div className="font-semibold text-slate-900">
                {guest.name}
                {guestSigned.has(guest.id) && (
                  <span className="ml-2">
                    <GuestWaiverFlag signed={guestSigned.get(guest.id) === true} />
                  </span>
                )}
              </div>
              <div className="text-xs text-slate-500">guest of {entry.member.name || entry.member.email}</div>
            </li>
          )),
        )}
      </ul>
    </div>
  );
}
