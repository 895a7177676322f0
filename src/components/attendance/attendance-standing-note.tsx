import { standingLines, useMyAttendanceStanding } from '@/lib/attendance-policy';
import { formatClassDateTime } from '@/lib/studio-time';

/**
 * The member's standing under the attendance policy (decision 0080) on My Bookings: strikes within
 * 30 days, a block on booking, fees owed; nothing while there is nothing to say.
 */
export function AttendanceStandingNote({ memberId }: { memberId: string | null }) {
  const standing = useMyAttendanceStanding(memberId);
  const lines = standingLines(standing.data, formatClassDateTime);
  if (lines.length === 0) return null;
  return (
    <section aria-label="Attendance" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </section>
  );
}
