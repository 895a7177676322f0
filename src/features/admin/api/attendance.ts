import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRows } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/*
 * The admin's side of the attendance policy (decision 0080); the database decides everything:
 * `admin_set_attendance_policy` starts a new policy from now (the rows themselves are read by
 * everyone: src/lib/attendance-policy.ts), `attendance_incidents_of` lists late cancellations and
 * no-shows with their fee's state, and `admin_waive_attendance` waives one with a reason.
 */

const fee = z
  .string()
  .trim()
  .refine(
    (v) => v === '' || (/^\d+(\.\d{1,2})?$/.test(v) && Number(v) > 0 && Number(v) <= 100),
    'Enter a fee from £0.01 to £100, or leave it empty',
  );
const count = (label: string, max: number) =>
  z
    .string()
    .trim()
    .refine(
      (v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= max),
      `Enter ${label} from 1 to ${max}, or leave it empty`,
    );

export const attendancePolicySchema = z
  .object({ lateCancelFee: fee, noShowFee: fee, strikeLimit: count('the strikes', 20), blockDays: count('the days', 90) })
  .refine((f) => (f.strikeLimit === '') === (f.blockDays === ''), {
    message: 'Set both the strikes and the days booking is blocked, or neither',
    path: ['blockDays'],
  });
export type AttendancePolicyForm = z.input<typeof attendancePolicySchema>;

const orNull = (v: string) => (v === '' ? null : Number(v));

export async function saveAttendancePolicy(form: AttendancePolicyForm): Promise<void> {
  const f = attendancePolicySchema.parse(form);
  // The generated types say number; null turns a rule off (the SQL takes it).
  const { error } = await supabase.rpc('admin_set_attendance_policy', {
    p_late_cancel_fee: orNull(f.lateCancelFee) as number,
    p_no_show_fee: orNull(f.noShowFee) as number,
    p_strike_limit: orNull(f.strikeLimit) as number,
    p_block_days: orNull(f.blockDays) as number,
  });
  if (error) throw error;
}

export function useSaveAttendancePolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAttendancePolicy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.attendance.all }),
  });
}

export type AttendanceIncident = {
  id: string;
  memberName: string;
  memberEmail: string;
  kind: string;
  className: string;
  classStartTime: string;
  occurredAt: string;
  fee: number | null;
  feeState: string;
  waiveReason: string | null;
};

/** Everyone's (admins, memberId null) or one member's late cancellations and no-shows. */
export async function getAttendanceIncidents(memberId: string | null): Promise<AttendanceIncident[]> {
  const { data, error } = await supabase.rpc('attendance_incidents_of', memberId ? { p_member_id: memberId } : {});
  if (error) throw error;
  return compositeRows<'attendance_incident_row'>(data).map((r) => ({
    id: r.id,
    memberName: r.member_name || r.member_email,
    memberEmail: r.member_email,
    kind: r.kind,
    className: r.class_name,
    classStartTime: r.class_start_time,
    occurredAt: r.occurred_at,
    fee: r.fee === null || r.fee === undefined ? null : Number(r.fee),
    feeState: r.fee_state,
    waiveReason: r.waive_reason ?? null,
  }));
}

export const useAttendanceIncidents = (memberId: string | null) =>
  useQuery({ queryKey: queryKeys.attendance.incidents(memberId ?? 'all'), queryFn: () => getAttendanceIncidents(memberId) });

export const waiveSchema = z.object({
  reason: z.string().trim().min(3, 'Give a reason (at least 3 characters)').max(500, 'Keep the reason under 500 characters'),
});
export type WaiveForm = z.input<typeof waiveSchema>;

export async function waiveAttendance(incidentId: string, form: WaiveForm): Promise<void> {
  const { reason } = waiveSchema.parse(form);
  const { error } = await supabase.rpc('admin_waive_attendance', { p_incident_id: incidentId, p_reason: reason });
  if (error) throw error;
}

export function useWaiveAttendance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ incidentId, form }: { incidentId: string; form: WaiveForm }) => waiveAttendance(incidentId, form),
    // A waiver can owe money back (Refunds owed) and lift a block on booking.
    onSuccess: () =>
      Promise.all(
        [queryKeys.attendance.all, queryKeys.admin.all, queryKeys.classes.all].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/** The database's refusal in its own words (a PostgREST error is a plain object), else `fallback`. */
export function attendanceErrorText(error: unknown, fallback: string): string {
  const message = typeof error === 'object' && error !== null && 'message' in error ? error.message : null;
  return typeof message === 'string' && message ? message : fallback;
}
