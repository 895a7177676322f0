import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { formatClassTime } from '@/lib/studio-time';
import { useMemberAttendance, MEMBER_ATTENDANCE_SHOWN } from '../api/get-member-attendance';
import type { AdminMember } from '../api/get-members';
import { ATTENDANCE_LABELS } from '../lib/attendance';
import { ADMIN_MESSAGES } from '../lib/messages';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { EmptyState } from './empty-state';

/** A member's record of classes: attended, no-show (marked by an admin or by the no-show job), not marked. */
export function MemberAttendanceDialog({ member, onClose }: { member: AdminMember; onClose: () => void }) {
  const who = member.name || member.email;
  return (
    <Modal
      open
      onClose={onClose}
      title={`Attendance: ${who}`}
      description="Their latest bookings, newest class first."
      className="max-w-2xl"
    >
      <AttendanceRecord memberId={member.id} />
    </Modal>
  );
}

function AttendanceRecord({ memberId }: { memberId: string }) {
  const record = useMemberAttendance(memberId);
  if (record.isPending) return <Spinner label="Loading attendance" />;
  if (record.isError) return <EmptyState title={ADMIN_MESSAGES.memberAttendanceFailed} body="Close and open the record to try again." />;
  const { attended, noShows, entries } = record.data;
  if (entries.length === 0) return <EmptyState title="No bookings yet" body="Classes this member books appear here." />;
  return (
    <div>
      <p className="mb-4 text-sm text-slate-700">
        {attended} attended · {noShows} no-show{noShows === 1 ? '' : 's'} in all
        {entries.length === MEMBER_ATTENDANCE_SHOWN && ` · the latest ${MEMBER_ATTENDANCE_SHOWN} bookings below`}
      </p>
      <table className="w-full text-left text-sm">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-3">
              Class
            </th>
            <th scope="col" className="py-2 pr-3">
              When
            </th>
            <th scope="col" className="py-2">
              Attendance
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map((e) => (
            <tr key={e.bookingId}>
              <td className="py-2 pr-3 font-medium text-slate-900">{e.className}</td>
              <td className="py-2 pr-3 whitespace-nowrap text-slate-700">
                {formatInLondon(e.startTime, DATE_FORMATS.date)} {formatClassTime(e.startTime)}
              </td>
              <td className={e.attendance === 'no_show' ? 'py-2 font-semibold text-red-700' : 'py-2 text-slate-700'}>
                {e.attendance ? ATTENDANCE_LABELS[e.attendance] : 'Not marked'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
