import { MembersList } from '@/features/admin/components/members-list';
import { PauseRulesPanel } from '@/features/admin/components/pause-rules-panel';
import { AttendanceIncidentsPanel } from '@/features/admin/components/attendance-incidents-panel';
import { AttendancePolicyPanel } from '@/features/admin/components/attendance-policy-panel';

/**
 * /admin/members: the members, the studio's rules for pausing a membership, and its attendance
 * policy with the late cancellations and no-shows recorded under it.
 */
export function AdminMembersRoute() {
  return (
    <>
      <MembersList />
      <PauseRulesPanel />
      <AttendancePolicyPanel />
      <AttendanceIncidentsPanel />
    </>
  );
}
