import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Enums } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

export type Attendance = Enums<'attendance_status'>;

/** One booking on a class's roster, with the member it belongs to. */
export type RosterEntry = {
  bookingId: string;
  type: string;
  paymentStatus: string;
  attendance: Attendance | null;
  member: { name: string | null; email: string; phone: string | null };
  /** A child's place (family accounts, issue 27): the child; the member is the parent. */
  child: { name: string; dateOfBirth: string; medicalNotes: string | null; collectedBy: string | null } | null;
  /** Guests this member brought (issue 26): each takes a place; the roster says "guest of <member>" once paid for. */
  guests: { id: string; name: string }[];
};

/** The class's bookings in booking order, with their members and marks (admins read every booking). */
export async function getClassRoster(classId: string): Promise<RosterEntry[]> {
  const { data, error } = await supabase
    .from('bookings')
    .select(
      'id, type, payment_status, attendance, booked_at, members(name, email, phone), dependants(name, date_of_birth, medical_notes, collected_by), guest_places(id, guest_name, created_at, payment_status)',
    )
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
            attendance: r.attendance,
            member: { name: r.members.name, email: r.members.email, phone: r.members.phone ?? null },
            // Older answers (and screen-test fixtures) have no dependants field.
            child: r.dependants
              ? {
                  name: r.dependants.name,
                  dateOfBirth: r.dependants.date_of_birth,
                  medicalNotes: r.dependants.medical_notes,
                  collectedBy: r.dependants.collected_by,
                }
              : null,
            // A guest's place still being paid for (held while the host pays) is not on the roster yet.
            guests: r.guest_places.filter((g) => g.payment_status !== 'pending').map((g) => ({ id: g.id, name: g.guest_name })),
          },
        ]
      : [],
  );
}

export const classRosterQueryOptions = (classId: string) =>
  queryOptions({ queryKey: queryKeys.admin.roster(classId), queryFn: () => getClassRoster(classId) });

export const useClassRoster = (classId: string) => useQuery(classRosterQueryOptions(classId));
