import { toast } from '@/lib/toast';
import { PlaceDetails } from '@/components/roster/place-details';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/components/ui/cn';
import { useNow } from '@/hooks/use-now';
import { BOOKING_TYPE_LABELS } from '@/config/booking-types';
import type { ClassPlace } from '@/lib/class-place';
import type { ClassRow } from '@/lib/supabase';
import { formatClassTime, studioDayKey } from '@/lib/studio-time';
import { ageOn } from '@/lib/age';
import { useErrorToast } from '@/hooks/use-error-toast';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useClassPlaces, type Attendance } from '../api/get-class-places';
import { useMarkAttendance } from '../api/mark-attendance';
import { ADMIN_MESSAGES } from '../lib/messages';
import { ATTENDANCE_LABELS, attendanceRefusal, canMarkAttendance, canMarkNoShow, rosterCounts } from '../lib/attendance';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { EmptyState } from './empty-state';

const MINUTE = 60_000;
const MARKS: Attendance[] = ['attended', 'no_show'];

/**
 * A class's roster: every place (decision 0035), members and the children and guests they brought,
 * with Attended / No-show marks on bookings through `mark_attendance`.
 */
export function RosterDialog({ cls, onClose }: { cls: ClassRow | null; onClose: () => void }) {
  return (
    <Modal
      open={cls !== null}
      onClose={onClose}
      title={cls ? `Roster: ${cls.name}` : 'Roster'}
      description={
        cls ? `${formatInLondon(cls.start_time, DATE_FORMATS.date)} at ${formatClassTime(cls.start_time)} · ${cls.trainer}` : undefined
      }
      className="max-w-2xl"
    >
      {cls && <Roster cls={cls} />}
    </Modal>
  );
}

function Roster({ cls }: { cls: ClassRow }) {
  const roster = useClassPlaces(cls.id);
  const markAttendance = useMarkAttendance();
  const savingId = markAttendance.isPending ? markAttendance.variables.placeId : null;
  useErrorToast(roster.isError, ADMIN_MESSAGES.rosterLoadFailed);
  const now = useNow(MINUTE);
  const open = canMarkAttendance(cls.start_time, now);
  // A person's age on the class's day.
  const today = studioDayKey(cls.start_time);

  function mark(place: ClassPlace, status: Attendance) {
    if (savingId) return;
    // Pressing the mark a booking already has clears it.
    const next = place.attendance === status ? null : status;
    markAttendance.mutate(
      { classId: cls.id, placeId: place.place_id, status: next },
      {
        onError: (error) => toast.error(attendanceRefusal(error)),
      },
    );
  }

  if (roster.isPending) return <Spinner label="Loading roster" />;
  if (roster.isError) return <EmptyState title={ADMIN_MESSAGES.rosterLoadFailed} body="Close and open the roster to try again." />;
  const places = roster.data;
  if (places.length === 0) return <EmptyState title="No bookings for this class" body="Members who book will appear here." />;
  const counts = rosterCounts(places);

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
        {places.map((place) => (
          <li key={place.place_id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <div className="font-semibold text-slate-900">
                {place.name}
                {place.kind === 'child' && place.date_of_birth && (
                  <span className="ml-2 text-xs font-normal text-slate-600">age {ageOn(place.date_of_birth, today)}</span>
                )}
                {place.health_flag && (
                  <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">
                    Health: ask before class
                  </span>
                )}
              </div>
              <PlaceDetails place={place} />
              {(place.kind !== 'guest' || place.pending) && (
                <div className="truncate text-xs text-slate-500">
                  {place.kind !== 'guest' &&
                    `${place.email} · ${
                      // A group class booked with a credit used a class credit (decision 0102).
                      place.booking_type === 'credit' && cls.type !== 'One-to-One'
                        ? 'Class credit'
                        : place.booking_type
                          ? BOOKING_TYPE_LABELS[place.booking_type]
                          : ''
                    }`}
                  {place.pending && `${place.kind !== 'guest' ? ' · ' : ''}payment pending`}
                </div>
              )}
            </div>
            <div role="group" aria-label={`Attendance of ${place.name}`} className="flex gap-2">
              {MARKS.map((status) => {
                const pressed = place.attendance === status;
                return (
                  <button
                    key={status}
                    type="button"
                    aria-pressed={pressed}
                    aria-label={`${ATTENDANCE_LABELS[status]}: ${place.name}`}
                    disabled={!open || (status === 'no_show' && !canMarkNoShow(cls.start_time, now)) || savingId !== null}
                    onClick={() => mark(place, status)}
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
        ))}
      </ul>
    </div>
  );
}
