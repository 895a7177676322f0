import { ActivityList } from '@/features/admin/components/activity-list';

/** /admin/activity: the audit trail (decision 0045). */
export function AdminActivityRoute() {
  return <ActivityList />;
}
