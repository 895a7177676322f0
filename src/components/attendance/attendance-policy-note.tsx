import { policyAt, policyNote, useAttendancePolicies } from '@/lib/attendance-policy';

/**
 * The attendance policy in force, said before booking (decision 0080); nothing while it is off.
 * `window` is the class's late-cancel window in words ("12 hours"); none on a list of classes.
 */
export function AttendancePolicyNote({ window = null, now }: { window?: string | null; now: Date }) {
  const policies = useAttendancePolicies();
  const note = policies.data ? policyNote(policyAt(policies.data, now), window) : null;
  return note ? <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-800">{note}</p> : null;
}
