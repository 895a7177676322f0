import { MembersList } from '@/features/admin/components/members-list';

/** /admin/members. */
export function AdminMembersRoute() {
  return <MembersList />;
}
