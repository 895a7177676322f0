import { PageHeading } from '@/features/admin/components/page-heading';
import { MeetingPointsPanel } from '@/features/admin/components/meeting-points-panel';

/** /admin/settings: where classes meet (decision 0055). */
export function AdminSettingsRoute() {
  return (
    <>
      <PageHeading title="Settings" subtitle="Where classes meet." />
      <MeetingPointsPanel />
    </>
  );
}
