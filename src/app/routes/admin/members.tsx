import { MembersList } from '@/features/admin/components/members-list';
import { PauseRulesPanel } from '@/features/admin/components/pause-rules-panel';

/** /admin/members: the members, and the studio's rules for pausing a membership. */
export function AdminMembersRoute() {
  return (
    <>
      <MembersList />
      <PauseRulesPanel />
    </>
  );
}
