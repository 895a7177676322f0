import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';

export type Attendance = 'attended' | 'no_show';

/** One booking on a class's roster, with the member it belongs to. */
export type RosterEntry = {
  bookingId: string;
  type: string;
  paymentStatus: string;
  attendance: Attendance | null;
  member: { name: string | null; email: string };
};

/** The class's bookings in booking order, with their members and marks (admins read every booking). */
export async function getClassRoster(classId: string): Promise<RosterEntry[]> {
  const { data, error } = await supabase
    .from('bookings')
    .select('id, type, payment_status, attendance, booked_at, members(name, email)')
    .eq('class_id', classId)
    .order('booked_at');
  if (error) throw error;
  return data.flatMap((r) =>
    r.members
      ? [
          {
            bookingId: r.id,
            type: r.type,
            paymentStatus: r.payment_status,
            attendance: r.attendance === 'attended' || r.attendance === 'no_show' ? r.attendance : null,
            member: { name: r.members.name, email: r.members.email },
          },
        ]
      : [],
  );
}

export type MarkOutcome = { ok: true; attendance: Attendance | null } | { ok: false; error: PostgrestError };

/** Marks a booking attended or no-show (null clears) through the admin-only `mark_attendance`. */
export async function markAttendance(bookingId: string, status: Attendance | null): Promise<MarkOutcome> {
  // The generated types cannot say an argument may be null; the function takes null to clear.
  const { data, error } = await supabase.rpc('mark_attendance', { p_booking_id: bookingId, p_status: status as string });
  if (error) return { ok: false, error };
  const attendance = (data as { attendance?: string | null } | null)?.attendance ?? null;
  return { ok: true, attendance: attendance === 'attended' || attendance === 'no_show' ? attendance : null };
}
