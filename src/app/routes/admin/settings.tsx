import { PageHeading } from '@/features/admin/components/page-heading';
import { DataRetentionPanel } from '@/features/admin/components/data-retention-panel';
import { MeetingPointsPanel } from '@/features/admin/components/meeting-points-panel';

/** /admin/settings: where classes meet (decision 0055), and how long personal data is kept (decision 0097). */
export function AdminSettingsRoute() {
  return (
    <>
      <PageHeading title="Settings" subtitle="Where classes meet, and how long personal data is kept." />
      <MeetingPointsPanel />
      <DataRetentionPanel />
    </>
  );
}
